//! The options of validate and schemaFor read from JS (blankAsMissing, labels, message), and a form's
//! blank values (a blank string, NaN) left out of its params, so that they count as not given.

use crate::js;
use svc_core::error::Error;
use svc_core::labels::Labels;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// What validate and schemaFor were asked: whether blanks are missing, and the fields' labels.
pub struct Options {
    pub blank_as_missing: bool,
    pub labels: Labels,
    /// `schemaFor`'s function that words each issue again, when given.
    pub message: Option<js_sys::Function>,
}

fn config(message: String) -> JsValue {
    js::to_js_error(&Error::config(message))
}

/// The options of `validate` (`standard` false) or `schemaFor`; blankAsMissing defaults to `standard`.
pub fn read(options: &JsValue, standard: bool) -> Result<Options, JsValue> {
    let mut out = Options {
        blank_as_missing: standard,
        labels: Labels::default(),
        message: None,
    };
    if options.is_undefined() || options.is_null() {
        return Ok(out);
    }
    let (what, names): (_, &[&str]) = match standard {
        true => (
            "the options of schemaFor",
            &["blankAsMissing", "labels", "message"],
        ),
        false => ("the options of validate", &["blankAsMissing", "labels"]),
    };
    let unreadable = |e: JsValue| {
        config(format!(
            "{what} could not be read: {}",
            crate::message_of(&e)
        ))
    };
    if !is_record(options) {
        return Err(config(format!(
            "{what} must be an object {{ {} }}",
            names.join(", ")
        )));
    }
    for key in js::keys(options).map_err(unreadable)? {
        if !names.contains(&key.as_str()) {
            return Err(config(format!(
                "unknown option {} of {what}; the options are {}",
                svc_core::echo::quoted(&key),
                names.join(", ")
            )));
        }
    }
    match js::try_get(options, "blankAsMissing").map_err(unreadable)? {
        v if v.is_undefined() => {}
        v => {
            out.blank_as_missing = v
                .as_bool()
                .ok_or_else(|| config("blankAsMissing must be true or false".into()))?
        }
    }
    let message = js::try_get(options, "message").map_err(unreadable)?;
    if standard && !message.is_undefined() && !message.is_function() {
        return Err(config(
            "message must be a function that takes an issue and returns the words to show".into(),
        ));
    }
    out.message = message.dyn_into().ok().filter(|_| standard);
    let labels = js::try_get(options, "labels").map_err(unreadable)?;
    if labels.is_undefined() {
        return Ok(out);
    }
    let usage =
        "labels must be an object of field names (as the params name them) and their labels";
    if !is_record(&labels) {
        return Err(config(usage.into()));
    }
    let mut pairs = Vec::new();
    for key in js::keys(&labels).map_err(unreadable)? {
        let label = js_sys::Reflect::get(&labels, &JsValue::from_str(&key)).map_err(unreadable)?;
        let label = label.as_string().ok_or_else(|| {
            config(format!(
                "{usage}; the label of {} is not a string",
                svc_core::echo::quoted(&key)
            ))
        })?;
        pairs.push((key, label));
    }
    out.labels = Labels::new(pairs);
    Ok(out)
}

fn is_record(v: &JsValue) -> bool {
    v.is_object() && !js::is_array(v) && !v.is_function()
}

/// Whether a form's value counts as not given: a string of nothing but spaces, or NaN (an empty
/// number input's `valueAsNumber`).
fn is_blank(v: &JsValue) -> bool {
    match v.dyn_ref::<js_sys::JsString>() {
        Some(s) => s.trim().length() == 0,
        None => v.as_f64().is_some_and(f64::is_nan),
    }
}

/// `params` without the blank members of its plain objects, however nested (an array keeps its
/// members, whose indexes the issues name): a copy of its plain objects and arrays, each member read
/// once, so that the rules read and `value` gives what was read (a getter asked again could give
/// another value); `params` itself where reading it throws (then reading it for the rules says why).
pub fn without_blanks(params: &JsValue) -> JsValue {
    match stripped(params, 0) {
        Ok(Some(copy)) => copy,
        _ => params.clone(),
    }
}

/// A copy of `v` with its blanks left out, or `None` when it is no plain object or array.
fn stripped(v: &JsValue, depth: usize) -> Result<Option<JsValue>, JsValue> {
    if depth > svc_json::MAX_NESTING || !v.is_object() {
        return Ok(None);
    }
    if js::is_array(v) {
        let copy = js_sys::Array::new();
        for item in js::members(v)?.iter() {
            copy.push(&stripped(&item, depth + 1)?.unwrap_or(item));
        }
        return Ok(Some(copy.into()));
    }
    if !js::is_plain_object(v)? {
        return Ok(None);
    }
    let copy = js_sys::Object::new();
    for name in js::keys(v)? {
        let key = JsValue::from_str(&name);
        let item = js_sys::Reflect::get(v, &key)?;
        if is_blank(&item) {
            continue;
        }
        let kept = stripped(&item, depth + 1)?.unwrap_or(item);
        if name == "__proto__" {
            // A member of that name (JSON.parse makes one) stays a member, not the copy's prototype.
            let own = js_sys::Object::new();
            js_sys::Reflect::set(&own, &"value".into(), &kept)?;
            for flag in ["writable", "enumerable", "configurable"] {
                js_sys::Reflect::set(&own, &flag.into(), &JsValue::TRUE)?;
            }
            js_sys::Reflect::define_property(&copy, &key, &own)?;
        } else {
            js_sys::Reflect::set(&copy, &key, &kept)?;
        }
    }
    Ok(Some(copy.into()))
}
