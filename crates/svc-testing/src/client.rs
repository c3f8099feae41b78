//! What a client does with a call's JS values before it sends anything, done the client's way for
//! `seed` and the options: the binding's `toWire`, path-value checks and rules (svc-validate).

use sandbox::record::Value;
use wasm_bindgen::prelude::*;

/// A seed's arguments as JSON (path values, then params or a list of them), as a client's call
/// checks them: the client's SvcError (a config or validation kind, its message and issues) where it
/// would refuse them, before anything reaches the sandbox.
pub fn seed_args(id: &JsValue, args: &js_sys::Array, max: usize) -> Result<Vec<Value>, JsValue> {
    use svc_core::error::Error;
    use svc_core::validate::{self, Source};
    use svc_validate::{js, params, to_js_error};
    let op = svc_validate::operation_by_id(id)?;
    let names: Vec<&str> = op.path_params().collect();
    let usage = || {
        let mut parts: Vec<String> = names.iter().map(|p| format!("{p}: string")).collect();
        parts.push("params?".into());
        format!("sandbox.seed({:?}, {})", op.id, parts.join(", "))
    };
    let mut path = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        let value = params::path_value(op, name, &args.get(i as u32), max, &usage)?;
        path.push(Value::from(value));
    }
    let n = names.len() as u32;
    if (n + 1..args.length()).any(|i| !args.get(i).is_undefined()) {
        let e = Error::config(format!("too many arguments: call {}", usage()));
        return Err(to_js_error(&e.with_operation(op.id)));
    }
    let given = args.get(n);
    let many = js::is_array(&given);
    let list = if many {
        js::members(&given)?.iter().collect()
    } else {
        vec![given]
    };
    let mut each = Vec::with_capacity(list.len());
    for one in &list {
        // Read once: the value checked is the value seeded.
        let invalid = |issues| to_js_error(&Error::validation(issues).with_operation(op.id));
        let text = params::text_of(op, one, max).map_err(|issue| invalid(vec![issue]))?;
        let value = match text.as_deref().map(|t| params::read(t, Source::Js)) {
            Some(read) => Some(read.map_err(|issue| invalid(vec![issue]))?),
            None => None,
        };
        let now = svc_core::clock::now_ms();
        let issues = validate::check(
            op,
            value.as_ref().unwrap_or(&svc_json::Json::Null),
            now,
            Source::Js,
        );
        if !issues.is_empty() {
            return Err(invalid(issues));
        }
        each.push(value.map_or_else(|| Value::Obj(Default::default()), |v| v.into_owned()));
    }
    path.push(if many {
        Value::Arr(each)
    } else {
        each.pop().unwrap_or_default()
    });
    Ok(path)
}

/// The options object as JSON text written by the client's `toWire`: what JSON cannot hold (NaN,
/// a function) is the core's marker saying what it was, a BigInt its exact digits.
pub fn options_text(options: &JsValue, call: &str) -> Result<String, String> {
    svc_validate::js::to_wire(options)
        .map(String::from)
        .map_err(|e| format!("{call}: {}", svc_validate::message_of(&e)))
}
