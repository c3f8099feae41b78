//! Records: the JSON objects the store keeps, their ids, and merging, defaults and time stamps.

use svc_json::{Json, Obj};

/// A JSON value the sandbox owns: numbers keep the text they were given in.
pub type Value = Json<'static>;
pub type Record = Obj<'static>;

/// JSON text read into an owned value, every number kept as its text; or why not
/// (`expected value at line 1 column 5`).
pub fn parse(bytes: &[u8]) -> Result<Value, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = 1 + bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        format!("invalid UTF-8 at line {line}")
    })?;
    svc_json::parse(text)
        .map(Json::into_owned)
        .map_err(|e| e.message())
}

/// The digits of an id, whether it is a JSON string or number.
pub fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::Str(s) => Some(s.to_string()),
        Value::Num(text) if v.as_num().is_some_and(|n| n.is_integer()) => Some(text.to_string()),
        _ => None,
    }
}

/// A value as text: a string as it is, anything else as JSON.
pub fn text_of(v: &Value) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        other => other.to_string(),
    }
}

pub fn same_id(v: Option<&Value>, id: &str) -> bool {
    v.and_then(id_text).is_some_and(|s| s == id)
}

/// Present fields replace stored ones; nulls and the `keep` fields are left alone.
pub fn merge(rec: &mut Record, patch: &Record, keep: &[&str]) {
    for (k, v) in patch.iter() {
        if !v.is_null() && !keep.contains(&k) {
            rec.insert(k.to_owned().into(), v.clone());
        }
    }
}

/// Sets the fields of `values` that the record does not have yet.
pub fn defaults(rec: &mut Record, values: Value) {
    if let Value::Obj(values) = values {
        for (k, v) in values {
            rec.or_insert_with(k, || v);
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
        Value::Obj(m) => m,
        _ => Record::new(),
    }
}
