//! CRM notification channels: the watch update, and the callbacks the sandbox posts on request.

use crate::call::{Handler, Reply, Req};
use crate::error::{issue, required, ApiError};
use crate::http;
use crate::record::Value;
use crate::record::{id_text, merge, same_id, Record};
use crate::store::Store;
use crate::time::{self, HOUR_MS, WEEK_MS};
use std::time::Duration;
use svc_core::issue::{PathSeg, Problem};
use svc_core::json;

pub const HANDLERS: &[(&str, Handler)] = &[("updateNotificationChannels", update_channels)];

pub const OPERATIONS: [&str; 3] = ["create", "edit", "delete"];
pub const DELIVERY_TIMEOUT: Duration = Duration::from_secs(5);

/// A stable id per module, as `resource_id` in the answer.
fn module_id(module: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in module.to_ascii_lowercase().bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    (100_000_000_000_000_000 + h % 900_000_000_000_000_000).to_string()
}

fn resource_uri(req_base: &str, version: &str, module: &str) -> String {
    format!("{req_base}/crm/{version}/{module}")
}

/// When a channel expires: the given time if it is in the next week, else one hour from now.
fn expiry(given: Option<&Value>, now_ms: i64) -> i64 {
    given
        .and_then(Value::as_str)
        .and_then(time::parse_ms)
        .filter(|t| *t > now_ms && *t - now_ms <= WEEK_MS)
        .unwrap_or(now_ms + HOUR_MS)
}

fn modules(ch: &Record) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in ch
        .get("events")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        let module = e.split_once('.').map_or(e, |(m, _)| m).to_string();
        if !out.contains(&module) {
            out.push(module);
        }
    }
    out
}

fn update_channels(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let Some(items) = req.params.get("watch").and_then(Value::as_array) else {
        return Err(ApiError::invalid(vec![required("watch")]));
    };
    let mut staged: Vec<Record> = Vec::new();
    let mut issues = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = |field: &str| {
            [
                PathSeg::Key("watch".into()),
                PathSeg::Index(i),
                PathSeg::Key(field.to_string().into()),
            ]
        };
        let Some(item) = item.as_object() else {
            issues.push(issue(
                &at("")[..2],
                "each watch item must be an object",
                Problem::InvalidType {
                    expected: "object".into(),
                },
            ));
            continue;
        };
        let Some(id) = item.get("channel_id").and_then(id_text) else {
            issues.push(issue(
                &at("channel_id"),
                "channel_id is required",
                Problem::Required {},
            ));
            continue;
        };
        let known = staged
            .iter()
            .rev()
            .chain(store.channels.iter())
            .find(|c| same_id(c.get("channel_id"), &id))
            .cloned();
        let is_new = known.is_none();
        let mut ch = known.unwrap_or_default();
        merge(&mut ch, item, &["channel_expiry"]);
        let until = match item.get("channel_expiry") {
            Some(given) => expiry(Some(given), req.now_ms),
            None if is_new => expiry(None, req.now_ms),
            None => ch
                .get("channel_expiry")
                .and_then(Value::as_str)
                .and_then(time::parse_ms)
                .unwrap_or(req.now_ms + HOUR_MS),
        };
        ch.insert("channel_expiry".into(), time::iso(until).into());
        ch.or_insert_with("notify_on_related_action", || Value::Bool(true));
        for field in ["events", "notify_url"] {
            if ch.get(field).is_none_or(|v| v.is_null()) {
                issues.push(issue(
                    &at(field),
                    format!("{field} is required for a new channel"),
                    Problem::Required {},
                ));
            }
        }
        staged.retain(|c| !same_id(c.get("channel_id"), &id));
        staged.push(ch);
    }
    if !issues.is_empty() {
        return Err(ApiError::invalid(issues));
    }
    let version = req.path("version");
    let mut answers = Vec::new();
    for ch in staged {
        let events: Vec<Value> = modules(&ch)
            .iter()
            .map(|m| {
                json!({
                    "channel_expiry": ch["channel_expiry"],
                    "resource_uri": resource_uri(req.base, version, m),
                    "resource_id": module_id(m),
                    "resource_name": m,
                    "channel_id": ch["channel_id"],
                })
            })
            .collect();
        answers.push(json!({
            "code": "SUCCESS",
            "status": "success",
            "message": "Successfully subscribed for actions-watch of the given module",
            "details": { "events": events },
        }));
        let id = ch.get("channel_id").and_then(id_text).unwrap_or_default();
        match store
            .channels
            .iter_mut()
            .find(|c| same_id(c.get("channel_id"), &id))
        {
            Some(slot) => *slot = ch,
            None => store.channels.push(ch),
        }
    }
    Ok(Reply::ok("success", Value::Arr(answers)))
}

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
    let wanted = [format!("{module}.{operation}"), format!("{module}.all")];
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
    use crate::record::json_obj;
    use svc_core::catalog::find;

    fn call(store: &mut Store, params: Value, now_ms: i64) -> Result<Value, ApiError> {
        let params = json_obj(params);
        let path = [("version".to_string(), "v8".to_string())];
        let req = Req {
            op: find("updateNotificationChannels").unwrap(),
            org: "",
            path: &path,
            params: &params,
            files: &[],
            now_ms,
            base: "http://127.0.0.1:1",
        };
        match update_channels(store, &req)?.body {
            crate::call::Body::Record(v) => Ok(v),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn watch_updates_merge_and_bound_the_expiry() {
        let mut store = Store::default();
        let now = 1_700_000_000_000;
        let answer = call(
            &mut store,
            json!({"watch": [{"channel_id": 1000000068001u64, "events": ["Leads.create", "Leads.edit", "Deals.all"], "notify_url": "http://127.0.0.1:9/cb", "token": "t1"}]}),
            now,
        )
        .unwrap();
        let events = &answer[0]["details"]["events"];
        assert_eq!(answer[0]["code"], json!("SUCCESS"));
        assert_eq!(events.as_array().unwrap().len(), 2);
        assert_eq!(events[0]["resource_name"], json!("Leads"));
        assert_eq!(
            events[0]["resource_uri"],
            json!("http://127.0.0.1:1/crm/v8/Leads")
        );
        assert_eq!(events[0]["channel_id"], json!(1000000068001u64));
        assert_eq!(events[0]["channel_expiry"], json!(time::iso(now + HOUR_MS)));

        let in_two_days = time::iso(now + 2 * time::DAY_MS);
        call(
            &mut store,
            json!({"watch": [{"channel_id": "1000000068001", "channel_expiry": in_two_days}]}),
            now,
        )
        .unwrap();
        assert_eq!(store.channels.len(), 1);
        let ch = &store.channels[0];
        assert_eq!(ch["token"], json!("t1"), "details not supplied are kept");
        assert_eq!(ch["channel_expiry"], json!(in_two_days));
        let far = time::iso(now + 8 * time::DAY_MS);
        call(&mut store, json!({"watch": [{"channel_id": 1000000068001u64, "channel_expiry": far, "token": "t2"}]}), now).unwrap();
        assert_eq!(
            store.channels[0]["channel_expiry"],
            json!(time::iso(now + HOUR_MS))
        );
        assert_eq!(store.channels[0]["token"], json!("t2"));
    }

    #[test]
    fn new_channels_need_events_and_a_url_and_nothing_is_stored_on_error() {
        let mut store = Store::default();
        let err = call(&mut store, json!({"watch": [{"channel_id": 1, "events": ["Leads.all"], "notify_url": "http://127.0.0.1/x"}, {"channel_id": 2}]}), 0).unwrap_err();
        let paths: Vec<String> = err.issues.iter().map(|i| i.path_string()).collect();
        assert_eq!(paths, ["watch[1].events", "watch[1].notify_url"]);
        assert!(store.channels.is_empty());
    }

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
    fn module_ids_are_stable_digits() {
        assert_eq!(module_id("Leads"), module_id("leads"));
        assert_ne!(module_id("Leads"), module_id("Deals"));
        assert!(
            module_id("Leads").len() == 18
                && module_id("Leads").bytes().all(|b| b.is_ascii_digit())
        );
    }
}
