//! Records: the JSON objects the store keeps, their ids, and merging, defaults and time stamps.

use serde_json::{Map, Value};

pub type Record = Map<String, Value>;

/// The digits of an id, whether it is a JSON string or number.
pub fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) if n.is_u64() || n.is_i64() => Some(n.to_string()),
        _ => None,
    }
}

/// A value as text: a string as it is, anything else as JSON.
pub fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

pub fn same_id(v: Option<&Value>, id: &str) -> bool {
    v.and_then(id_text).is_some_and(|s| s == id)
}

/// Present fields replace stored ones; nulls and the `keep` fields are left alone.
pub fn merge(rec: &mut Record, patch: &Record, keep: &[&str]) {
    for (k, v) in patch {
        if !v.is_null() && !keep.contains(&k.as_str()) {
            rec.insert(k.clone(), v.clone());
        }
    }
}

/// Sets the fields of `values` that the record does not have yet.
pub fn defaults(rec: &mut Record, values: Value) {
    if let Value::Object(values) = values {
        for (k, v) in values {
            rec.entry(k).or_insert(v);
        }
    }
}

/// Sets `last_modified_time` (and `created_time` for a new record).
pub fn stamp(rec: &mut Record, now_ms: i64, created: bool) {
    let t = Value::from(crate::time::timestamp(now_ms));
    if created {
        rec.insert("created_time".into(), t.clone());
    }
    rec.insert("last_modified_time".into(), t);
}

/// The params with `last_modified_time` set, ready to merge into a stored record.
pub fn patch(params: &Record, now_ms: i64) -> Record {
    let mut p = params.clone();
    stamp(&mut p, now_ms, false);
    p
}

/// The object of a JSON value (an empty record for anything else).
pub fn json_obj(v: Value) -> Record {
    match v {
        Value::Object(m) => m,
        _ => Record::new(),
    }
}
