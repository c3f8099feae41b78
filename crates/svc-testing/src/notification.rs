//! `notification(options)`: the callback body a channel's notify_url receives, written by the sandbox's own code.

use sandbox::crm::{self, Change};
use sandbox::record::{Record as Map, Value};
use svc_core::family::REGIONS;

/// The options `notification` takes.
const KNOWN: [&str; 9] = [
    "module",
    "operation",
    "ids",
    "values",
    "channelId",
    "token",
    "notifyUrl",
    "serverTime",
    "apiDomain",
];

/// An id as the service writes it: a whole number (a JS number, a BigInt or a string of digits
/// that a u64 holds) as a JSON number, any other text as it is.
fn id(key: &str, v: &Value) -> Result<Value, String> {
    let bad = || format!("{key}: expected an id (a string, a whole number or a BigInt)");
    let text = match v {
        Value::Num(_) if v.as_u64().is_some() => return Ok(v.clone()),
        Value::Str(s) if !s.is_empty() => s.to_string(),
        Value::Obj(m) if m.len() == 1 => match m.get(svc_core::exact::EXACT) {
            Some(Value::Str(s)) => s.to_string(),
            _ => return Err(bad()),
        },
        _ => return Err(bad()),
    };
    Ok(text.parse::<u64>().map_or(Value::from(text), Value::from))
}

fn text<'a>(options: &'a Map, key: &str) -> Result<Option<&'a str>, String> {
    match options.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s)),
        Some(_) => Err(format!("{key}: expected a string")),
    }
}

/// The JSON text of the callback the sandbox would post for `options` at `now_ms`: the body that
/// `parseWatchNotification(body, { token })` accepts, or what is wrong with the options.
pub fn body(options: &Map, now_ms: i64) -> Result<String, String> {
    if let Some(key) = options.keys().find(|k| !KNOWN.contains(k)) {
        return Err(format!(
            "unknown option {key:?} (known: {})",
            KNOWN.join(", ")
        ));
    }
    let module = text(options, "module")?
        .filter(|m| !m.is_empty())
        .ok_or("module: the module's API name is required (\"Leads\")")?;
    let operation = text(options, "operation")?
        .filter(|o| crm::OPERATIONS.contains(o))
        .ok_or_else(|| {
            format!(
                "operation: one of {} is required",
                crm::OPERATIONS.join(", ")
            )
        })?;
    let ids = match options.get("ids") {
        Some(Value::Arr(ids)) if !ids.is_empty() => ids,
        _ => return Err("ids: a non-empty array of the records' ids is required".into()),
    };
    let values = match options.get("values") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Obj(v)) => v.clone(),
        Some(_) => return Err("values: expected an object of field → new value".into()),
    };
    let changes = ids
        .iter()
        .map(|v| {
            Ok(Change {
                id: id("ids", v)?,
                values: values.clone(),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mut channel = Map::new();
    let channel_id = options
        .get("channelId")
        .ok_or("channelId: the channel's id is required")?;
    channel.insert("channel_id".into(), id("channelId", channel_id)?);
    for (key, field) in [("token", "token"), ("notifyUrl", "notify_url")] {
        if let Some(t) = text(options, key)? {
            channel.insert(field.into(), t.into());
        }
    }
    let now_ms = match options.get("serverTime") {
        None | Some(Value::Null) => now_ms,
        Some(v) => v
            .as_i64()
            .filter(|t| *t >= 0)
            .ok_or("serverTime: expected ms since the epoch, a whole number")?,
    };
    let base = text(options, "apiDomain")?.unwrap_or(REGIONS[0].1);
    let changed: Vec<&Change> = changes.iter().collect();
    Ok(crm::callback_body(&channel, module, operation, &changed, now_ms, base).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use svc_json::json;

    fn of(v: Value) -> Result<Value, String> {
        let Value::Obj(options) = v else { panic!() };
        body(&options, 1_700_000_000_000).map(|t| sandbox::record::parse(t.as_bytes()).unwrap())
    }

    #[test]
    fn the_body_is_the_one_the_sandbox_posts() {
        let b = of(json!({"module": "Leads", "operation": "edit", "ids": ["4150868000001", {"$svc_exact": "4150868000002"}],
            "values": {"Email": "a@b.test"}, "channelId": "1000000068001", "token": "t1", "notifyUrl": "https://x.test/cb?k=v"}))
        .unwrap();
        assert_eq!(b["ids"], json!([4150868000001u64, 4150868000002u64]));
        assert_eq!(b["channel_id"], json!(1000000068001u64));
        assert_eq!(b["token"], json!("t1"));
        assert_eq!(b["query_params"], json!({"k": "v"}));
        assert_eq!(
            b["affected_fields"],
            json!([{"4150868000001": ["Email"]}, {"4150868000002": ["Email"]}])
        );
        assert_eq!(
            b["resource_uri"],
            json!("https://www.svcapis.com/crm/v8/Leads")
        );
        assert_eq!(b["server_time"], json!(1_700_000_000_000i64));
        assert!(body(&Map::new(), 0).is_err());
    }

    #[test]
    fn what_is_missing_or_wrong_is_named() {
        let base = json!({"module": "Leads", "operation": "edit", "ids": [1], "channelId": 1});
        assert!(of(base.clone()).unwrap().get("token").is_none());
        for (key, value, says) in [
            (
                "operation",
                json!("update"),
                "operation: one of create, edit, delete",
            ),
            ("ids", json!([]), "ids: a non-empty array"),
            ("ids", json!([1.5]), "ids: expected an id"),
            ("channelId", Value::Null, "channelId: expected an id"),
            (
                "module",
                json!(""),
                "module: the module's API name is required",
            ),
            ("tokn", json!("t"), "unknown option \"tokn\""),
        ] {
            let mut o = base.clone();
            if let Value::Obj(m) = &mut o {
                m.insert(key.into(), value);
            }
            let e = of(o).unwrap_err();
            assert!(e.starts_with(says), "{key}: {e}");
        }
    }
}
