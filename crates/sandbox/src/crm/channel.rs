//! The watch update: channels merged by id, their events, expiry and conditions.

use crate::call::{Reply, Req};
use crate::error::{issue, required, ApiError};
use crate::record::Value;
use crate::record::{id_text, merge, same_id, Record};
use crate::store::Store;
use crate::time::{self, HOUR_MS, WEEK_MS};
use svc_core::issue::{Issue, PathSeg, Problem};
use svc_json::json;

/// A stable id per module, as `resource_id` in the answer.
fn module_id(module: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in module.to_ascii_lowercase().bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    (100_000_000_000_000_000 + h % 900_000_000_000_000_000).to_string()
}

pub(super) fn resource_uri(req_base: &str, version: &str, module: &str) -> String {
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

pub(super) fn update_channels(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let Some(items) = req.params.get("watch").and_then(Value::as_array) else {
        return Err(ApiError::invalid(vec![required("watch")]));
    };
    let mut staged: Vec<Record> = Vec::new();
    let mut issues = Vec::new();
    for (i, item) in items.iter().enumerate() {
        stage(
            &store.channels,
            &mut staged,
            (i, item),
            req.now_ms,
            &mut issues,
        );
    }
    if !issues.is_empty() {
        return Err(ApiError::invalid(issues));
    }
    let version = req.path("version");
    let mut answers = Vec::new();
    for ch in staged {
        answers.push(watch_answer(&ch, req.base, version));
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

/// Merges watch item `i` into the channel it names (staged before, or stored, or new), or notes
/// its issues.
fn stage(
    stored: &[Record],
    staged: &mut Vec<Record>,
    (i, item): (usize, &Value),
    now_ms: i64,
    issues: &mut Vec<Issue>,
) {
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
        return;
    };
    let Some(id) = item.get("channel_id").and_then(id_text) else {
        issues.push(issue(
            &at("channel_id"),
            "channel_id is required",
            Problem::Required {},
        ));
        return;
    };
    let known = staged
        .iter()
        .rev()
        .chain(stored)
        .find(|c| same_id(c.get("channel_id"), &id))
        .cloned();
    let is_new = known.is_none();
    let mut ch = known.unwrap_or_default();
    merge(&mut ch, item, &["channel_expiry"]);
    let until = match item.get("channel_expiry") {
        Some(given) => expiry(Some(given), now_ms),
        None if is_new => expiry(None, now_ms),
        None => ch
            .get("channel_expiry")
            .and_then(Value::as_str)
            .and_then(time::parse_ms)
            .unwrap_or(now_ms + HOUR_MS),
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

/// The answer to one channel of a watch update: its modules as events.
fn watch_answer(ch: &Record, base: &str, version: &str) -> Value {
    let events: Vec<Value> = modules(ch)
        .iter()
        .map(|m| {
            json!({
                "channel_expiry": ch["channel_expiry"],
                "resource_uri": resource_uri(base, version, m),
                "resource_id": module_id(m),
                "resource_name": m,
                "channel_id": ch["channel_id"],
            })
        })
        .collect();
    json!({
        "code": "SUCCESS",
        "status": "success",
        "message": "Successfully subscribed for actions-watch of the given module",
        "details": { "events": events },
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::record::json_obj;
    use svc_core::catalog::find;

    /// The watch update with `params`, its answer's record.
    pub(in crate::crm) fn call(
        store: &mut Store,
        params: Value,
        now_ms: i64,
    ) -> Result<Value, ApiError> {
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
            reach: &crate::accounts::Reach::Every,
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
    fn module_ids_are_stable_digits() {
        assert_eq!(module_id("Leads"), module_id("leads"));
        assert_ne!(module_id("Leads"), module_id("Deals"));
        assert!(
            module_id("Leads").len() == 18
                && module_id("Leads").bytes().all(|b| b.is_ascii_digit())
        );
    }
}
