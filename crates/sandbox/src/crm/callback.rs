//! The callbacks a change of records causes: which channels, their bodies, and their delivery.

use super::channel::resource_uri;
use crate::http;
use crate::record::Value;
use crate::record::{id_text, Record};
use crate::store::Store;
use crate::time;
use std::time::Duration;
use svc_core::model::crm::WatchOperation;
use svc_json::json;

/// The operations a trigger can report: the core's `WatchOperation`s but `all`, which only subscribes.
pub const OPERATIONS: [&str; 3] = [
    WatchOperation::Create.as_str(),
    WatchOperation::Edit.as_str(),
    WatchOperation::Delete.as_str(),
];
pub const DELIVERY_TIMEOUT: Duration = Duration::from_secs(5);

/// The field names a channel's conditions name for a module; `None` when no condition is about it.
fn condition_fields(ch: &Record, module: &str) -> Option<Vec<String>> {
    fn collect(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Arr(items) => items.iter().for_each(|i| collect(i, out)),
            Value::Obj(o) => {
                if let Some(name) = o
                    .get("field")
                    .and_then(|f| f.get("api_name"))
                    .and_then(Value::as_str)
                {
                    out.push(name.to_string());
                }
                if let Some(group) = o.get("group") {
                    collect(group, out);
                }
            }
            _ => {}
        }
    }
    let mut fields = Vec::new();
    let mut about = false;
    for c in ch
        .get("notification_condition")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let m = c
            .get("module")
            .and_then(|m| m.get("api_name"))
            .and_then(Value::as_str);
        if m.is_some_and(|m| m.eq_ignore_ascii_case(module)) {
            about = true;
            if let Some(sel) = c.get("field_selection") {
                collect(sel, &mut fields);
            }
        }
    }
    about.then_some(fields)
}

fn subscribed(ch: &Record, module: &str, operation: &str) -> bool {
    let all = WatchOperation::All.as_str();
    let wanted = [format!("{module}.{operation}"), format!("{module}.{all}")];
    ch.get("events")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .any(|e| wanted.iter().any(|w| w.eq_ignore_ascii_case(e)))
}

/// One record of a trigger: its id and changed values.
#[derive(Clone, Debug)]
pub struct Change {
    pub id: Value,
    pub values: Record,
}

/// Reads `{ records: [{ id, values }] }`.
pub fn parse_changes(body: &Value) -> Result<Vec<Change>, String> {
    let records = body
        .get("records")
        .and_then(Value::as_array)
        .ok_or("the body needs records: [{ id, values }]")?;
    if records.is_empty() {
        return Err("records may not be empty".into());
    }
    records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let id = r
                .get("id")
                .filter(|v| id_text(v).is_some())
                .ok_or(format!("records[{i}].id is required"))?;
            let values = match r.get("values") {
                None | Some(Value::Null) => Record::new(),
                Some(Value::Obj(v)) => v.clone(),
                Some(_) => return Err(format!("records[{i}].values must be an object")),
            };
            Ok(Change {
                id: id.clone(),
                values,
            })
        })
        .collect()
}

/// A callback to post: where, and what.
#[derive(Debug)]
pub struct Delivery {
    pub channel_id: Value,
    pub notify_url: String,
    pub body: Value,
}

fn query_object(query: &str) -> Record {
    let mut out = Record::new();
    for (k, v) in http::parse_query(query).unwrap_or_default() {
        match out.get_mut(&k) {
            Some(Value::Arr(items)) => items.push(v.into()),
            Some(first) => *first = Value::Arr(vec![first.take(), v.into()]),
            None => {
                out.insert(k.into(), v.into());
            }
        }
    }
    out
}

/// The callbacks that a change of records in a module causes, and the channels skipped with why.
pub fn plan(
    store: &Store,
    module: &str,
    operation: &str,
    changes: &[Change],
    now_ms: i64,
    base: &str,
) -> (Vec<Delivery>, Vec<Value>) {
    let mut deliveries = Vec::new();
    let mut skipped = Vec::new();
    for ch in store
        .channels
        .iter()
        .filter(|c| subscribed(c, module, operation))
    {
        let channel_id = ch.get("channel_id").cloned().unwrap_or_default();
        let mut skip =
            |reason: &str| skipped.push(json!({ "channel_id": channel_id, "reason": reason }));
        let expires = ch
            .get("channel_expiry")
            .and_then(Value::as_str)
            .and_then(time::parse_ms)
            .unwrap_or(0);
        if expires <= now_ms {
            skip("the channel has expired");
            continue;
        }
        let fields = condition_fields(ch, module);
        let matching: Vec<&Change> = changes
            .iter()
            .filter(|c| {
                fields
                    .as_ref()
                    .is_none_or(|f| c.values.keys().any(|k| f.iter().any(|x| x == k)))
            })
            .collect();
        if matching.is_empty() {
            skip("no changed field is among the notification condition's fields");
            continue;
        }
        let notify_url = ch
            .get("notify_url")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let body = callback_body(ch, module, operation, &matching, now_ms, base);
        deliveries.push(Delivery {
            channel_id,
            notify_url,
            body,
        });
    }
    (deliveries, skipped)
}

/// The body the service posts to a channel's notify_url when `changes` happened to records of
/// `module`: `channel` is the channel as stored (its `channel_id`, `notify_url` and `token`).
pub fn callback_body(
    channel: &Record,
    module: &str,
    operation: &str,
    changes: &[&Change],
    now_ms: i64,
    base: &str,
) -> Value {
    let notify_url = channel
        .get("notify_url")
        .and_then(Value::as_str)
        .unwrap_or("");
    let query = notify_url
        .split_once('?')
        .map_or("", |(_, q)| q.split('#').next().unwrap_or(""));
    let mut body = json!({
        "server_time": now_ms,
        "affected_values": changes.iter().map(|c| json!({"record_id": c.id, "values": c.values})).collect::<Vec<_>>(),
        "query_params": query_object(query),
        "module": module,
        "resource_uri": resource_uri(base, "v8", module),
        "ids": changes.iter().map(|c| c.id.clone()).collect::<Vec<_>>(),
        "affected_fields": changes
            .iter()
            .map(|c| json!({ (id_text(&c.id).unwrap_or_default()): c.values.keys().collect::<Vec<_>>() }))
            .collect::<Vec<_>>(),
        "operation": operation,
        "channel_id": channel.get("channel_id").cloned().unwrap_or_default(),
    });
    if let (Some(token), Value::Obj(m)) = (channel.get("token").filter(|t| !t.is_null()), &mut body)
    {
        m.insert("token".into(), token.clone());
    }
    body
}

/// The headers of a callback's POST; its body is the delivery's `body` as JSON text.
pub const DELIVERY_HEADERS: [(&str, &str); 2] = [
    ("Content-Type", "application/json"),
    ("User-Agent", "svc-sandbox"),
];

/// A delivery's report in the answer of the trigger endpoint: the status it got, or why none.
pub fn report(d: &Delivery, outcome: &Result<u16, String>) -> Value {
    match outcome {
        Ok(status) => json!({
            "channel_id": d.channel_id,
            "notify_url": d.notify_url,
            "status": status,
            "delivered": (200..300).contains(status),
        }),
        Err(error) => json!({
            "channel_id": d.channel_id,
            "notify_url": d.notify_url,
            "status": null,
            "delivered": false,
            "error": error,
        }),
    }
}

/// Posts a callback over HTTP/1.1 to a loopback URL; the status it got, or why not.
#[cfg(not(target_arch = "wasm32"))]
pub fn deliver(d: &Delivery) -> Result<u16, String> {
    let url = http::loopback_url(&d.notify_url)?;
    let body = d.body.to_string();
    http::send(
        url.addr,
        &url.host,
        "POST",
        &url.target,
        &DELIVERY_HEADERS,
        body.as_bytes(),
        DELIVERY_TIMEOUT,
    )
    .map(|r| r.status)
    .map_err(|e| format!("delivery failed: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crm::channel::tests::call;
    use crate::time::HOUR_MS;

    #[test]
    fn deliveries_follow_events_conditions_and_expiry() {
        let mut store = Store::default();
        let now = 1_700_000_000_000;
        let condition = json!([{
            "type": "field_selection",
            "module": {"api_name": "Leads", "id": "1"},
            "field_selection": {"group_operator": "or", "group": [
                {"field": {"api_name": "Email", "id": "2"}},
                {"group_operator": "and", "group": [{"field": {"api_name": "Phone", "id": "3"}}]}
            ]}
        }]);
        call(
            &mut store,
            json!({"watch": [
                {"channel_id": 1, "events": ["Leads.edit"], "notify_url": "http://127.0.0.1:9/a?k=v&k=w&t=x", "token": "tok"},
                {"channel_id": 2, "events": ["Leads.all"], "notify_url": "http://127.0.0.1:9/b", "notification_condition": condition},
                {"channel_id": 3, "events": ["Deals.edit"], "notify_url": "http://127.0.0.1:9/c"}
            ]}),
            now,
        )
        .unwrap();
        let changes = parse_changes(&json!({"records": [{"id": "11", "values": {"Last_Name": "Doe"}}, {"id": 12, "values": {"Phone": "1"}}]})).unwrap();
        let (deliveries, skipped) = plan(
            &store,
            "leads",
            "edit",
            &changes,
            now + 1,
            "http://127.0.0.1:1",
        );
        assert_eq!(deliveries.len(), 2);
        assert!(skipped.is_empty());
        let a = &deliveries[0].body;
        assert_eq!(a["query_params"], json!({"k": ["v", "w"], "t": "x"}));
        assert_eq!(a["ids"], json!(["11", 12]));
        assert_eq!(
            a["affected_fields"],
            json!([{"11": ["Last_Name"]}, {"12": ["Phone"]}])
        );
        assert_eq!(a["token"], json!("tok"));
        assert_eq!(
            (a["operation"].as_str(), a["channel_id"].as_u64()),
            (Some("edit"), Some(1))
        );
        let b = &deliveries[1].body;
        assert_eq!(b["ids"], json!([12]), "only records with a condition field");
        assert!(b.get("token").is_none());

        let only_name =
            parse_changes(&json!({"records": [{"id": "11", "values": {"Last_Name": "Doe"}}]}))
                .unwrap();
        let (deliveries, skipped) = plan(&store, "Leads", "create", &only_name, now + 1, "");
        assert!(deliveries.is_empty());
        assert_eq!(skipped[0]["channel_id"], json!(2));
        let (deliveries, skipped) =
            plan(&store, "Leads", "edit", &only_name, now + 2 * HOUR_MS, "");
        assert!(deliveries.is_empty());
        assert_eq!(skipped.len(), 2, "expired channels are skipped");
    }

    #[test]
    fn change_bodies_are_checked() {
        assert!(parse_changes(&json!({})).is_err());
        assert!(parse_changes(&json!({"records": []})).is_err());
        assert!(parse_changes(&json!({"records": [{"values": {}}]})).is_err());
        assert!(parse_changes(&json!({"records": [{"id": 1, "values": 3}]})).is_err());
        assert_eq!(
            parse_changes(&json!({"records": [{"id": 1}]}))
                .unwrap()
                .len(),
            1
        );
    }

    #[test]
    fn triggers_report_every_operation_of_the_core_but_all() {
        for op in WatchOperation::VALUES {
            let reported = OPERATIONS.contains(op);
            assert!(reported != (*op == WatchOperation::All.as_str()), "{op}");
        }
    }
}
