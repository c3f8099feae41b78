//! svc-validate: the thin `#[wasm_bindgen]` binding of the pure core's validation (svc-sdk/validate),
//! which the client's wasm links too: validate, operations, requiredScopes, the members of a new SvcError.
#![forbid(unsafe_code)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod forms;
pub mod js;
pub mod params;

use svc_core::catalog::{self, Operation};
use svc_core::error::Error;
use svc_json::write::{self, Members};
use svc_json::ToJson;
use wasm_bindgen::prelude::*;

pub use js::{answer_to_js, to_js_error};

#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|_| wasm_bindgen::handler::schedule_reinit()));
}

pub fn json_to_js(text: &str) -> JsValue {
    js_sys::JSON::parse(text).unwrap_or(JsValue::NULL)
}

/// Every operation of the table: `{ id, family, method, path, scope, pathParams }`.
#[wasm_bindgen(js_name = operations, skip_typescript)]
pub fn operations() -> JsValue {
    json_to_js(&catalog::operation_infos().to_json_text())
}

/// The sorted, unique scopes the given operations need.
#[wasm_bindgen(js_name = requiredScopes, skip_typescript)]
pub fn required_scopes(ids: JsValue) -> Result<Vec<String>, JsValue> {
    let bad = || {
        to_js_error(&Error::config(
            "requiredScopes takes an array of operation ids",
        ))
    };
    if !js::is_array(&ids) {
        return Err(bad());
    }
    let array = js::members(&ids).map_err(|_| bad())?;
    let names: Vec<String> = array
        .iter()
        .map(|v| v.as_string().ok_or_else(bad))
        .collect::<Result<_, _>>()?;
    catalog::required_scopes(names.iter().map(String::as_str))
        .map(|scopes| scopes.into_iter().map(String::from).collect())
        .map_err(|m| to_js_error(&Error::config(m)))
}

/// The members of `new SvcError(kind, message, extra)` beside its message, for error.js: its kind
/// (`Error::kind_named`), the members of `extra` an error has (`error::FIELDS`), and the lists its
/// kind always has, empty when not given.
#[wasm_bindgen(js_name = __errorMembers, skip_typescript)]
pub fn error_members(kind: JsValue, extra: JsValue) -> Result<js_sys::Object, JsValue> {
    // Nothing here takes the core's memory: an error is made even when a trap is near.
    let kind = Error::kind_named(|name| kind == JsValue::from_str(name));
    let out = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| js_sys::Reflect::set(&out, &k.into(), v).map(drop);
    set("kind", &kind.name().into())?;
    for key in svc_core::error::FIELDS {
        let v = match extra.is_object() {
            true => js_sys::Reflect::get(&extra, &key.into())?,
            false => JsValue::UNDEFINED,
        };
        if Error::lists(kind).any(|l| l == key) && (v.is_undefined() || v.is_null()) {
            set(key, &js_sys::Array::new())?;
        } else if !v.is_undefined() {
            set(key, &v)?;
        }
    }
    Ok(out)
}

/// Run by the new core after a trap restarted it (`core.js`): clears the old core's timers, and gives
/// the message of the calls it held, which end with an `aborted` SvcError (`trap`: what the trap said).
#[wasm_bindgen(js_name = __restarted, skip_typescript)]
pub fn restarted(trap: String) -> String {
    js::clear_timers();
    format!("the SDK's core was restarted ({trap}) while this call was pending: it was stopped, and may have reached the service; every client keeps working")
}

/// The key of the marker `params.js` puts where a value cannot be JSON (`validate::UNREPRESENTABLE`).
#[wasm_bindgen(js_name = __unrepresentable, skip_typescript)]
pub fn unrepresentable() -> String {
    svc_core::validate::UNREPRESENTABLE.into()
}

/// The key of the marker an exact number crosses in, both ways (`exact::EXACT`).
#[wasm_bindgen(js_name = __exactKey, skip_typescript)]
pub fn exact_key() -> String {
    svc_core::exact::EXACT.into()
}

/// The text of a new `ExactNumber`: JSON number text as it is, a bigint's digits, a finite number's
/// shortest text (`-0` kept); a config SvcError for anything else.
#[wasm_bindgen(js_name = __exactText, skip_typescript)]
pub fn exact_text(value: JsValue) -> Result<String, JsValue> {
    if let Some(text) = value.as_string() {
        if svc_core::exact::is_number_text(&text) {
            return Ok(text);
        }
    } else if value.is_bigint() {
        if let Some(text) = js_sys::BigInt::unchecked_from_js_ref(&value)
            .to_string(10)
            .ok()
            .and_then(|s| s.as_string())
        {
            return Ok(text);
        }
    } else if let Some(n) = value.as_f64().filter(|n| n.is_finite()) {
        if n == 0.0 && n.is_sign_negative() {
            return Ok("-0".into());
        }
        if let Some(text) = js_sys::JSON::stringify(&value)
            .ok()
            .and_then(|s| s.as_string())
        {
            return Ok(text);
        }
    }
    let got = match value.as_string() {
        Some(text) => svc_core::echo::quoted(&text),
        None if value.is_null() => "null".into(),
        // Only NaN and the infinities get here: a finite number is taken above.
        None => match value.as_f64() {
            Some(n) if n.is_nan() => "NaN".into(),
            Some(n) if n > 0.0 => "Infinity".into(),
            Some(_) => "-Infinity".into(),
            None => format!("a {}", value.js_typeof().as_string().unwrap_or_default()),
        },
    };
    Err(to_js_error(&Error::config(format!(
        "an ExactNumber takes the text of a JSON number (such as \"12345678901234567891\"), a bigint or a finite number; got {got}"
    ))))
}

/// The row of an operation id; a config SvcError for anything else.
pub fn operation_by_id(id: &JsValue) -> Result<&'static Operation, JsValue> {
    let name = id
        .as_string()
        .ok_or_else(|| to_js_error(&Error::config("the operation id must be a string")))?;
    catalog::find(&name)
        .ok_or_else(|| to_js_error(&Error::config(catalog::unknown_operation(&name))))
}

/// Checks params of the operation at `index` without sending anything: `{ ok: true }` or
/// `{ ok: false, issues }`, or with `standard` a Standard Schema result (`{ value }`, the params
/// without their blanks when they are missing, or `{ issues }`, each worded again by the options'
/// `message` function when given), as `options` ask (`forms::read`).
#[wasm_bindgen(js_name = __validate, skip_typescript)]
pub fn validate(
    index: u32,
    params: JsValue,
    options: JsValue,
    standard: bool,
) -> Result<JsValue, JsValue> {
    let op = catalog::operations()
        .get(index as usize)
        .ok_or_else(|| to_js_error(&Error::config("no operation has this index")))?;
    let options = forms::read(&options, standard)?;
    let params = match options.blank_as_missing {
        true => forms::without_blanks(&params),
        false => params,
    };
    let mut issues = params::issues(op, &params, usize::MAX);
    issues
        .iter_mut()
        .for_each(|issue| options.labels.apply(issue));
    let out = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| js_sys::Reflect::set(&out, &JsValue::from_str(k), v);
    if issues.is_empty() {
        match standard {
            true => set("value", &params)?,
            false => set("ok", &JsValue::TRUE)?,
        };
    } else {
        if !standard {
            set("ok", &JsValue::FALSE)?;
        }
        let found = json_to_js(&issues.to_json_text());
        if let Some(say) = options.message {
            for issue in js_sys::Array::from(&found).iter() {
                let words = say.call1(&JsValue::UNDEFINED, &issue)?;
                js_sys::Reflect::set(&issue, &JsValue::from_str("message"), &words)?;
            }
        }
        set("issues", &found)?;
    }
    Ok(out.into())
}

/// The index of the row `schemaFor(id, options)` checks (`__validate` takes it), its options checked
/// when it is called (a mistake is a config SvcError then, not at the first check).
#[wasm_bindgen(js_name = __schemaIndex, skip_typescript)]
pub fn schema_index(id: JsValue, options: JsValue) -> Result<u32, JsValue> {
    let op = operation_by_id(&id)?;
    forms::read(&options, true)?;
    let index = catalog::operations().index_of(op);
    Ok(index.unwrap_or_default() as u32)
}

/// `{ id, pathParams, list }` of an operation, for the pages of a list; a config SvcError for an unknown id.
#[wasm_bindgen(js_name = __operation, skip_typescript)]
pub fn operation(operation_id: JsValue) -> Result<JsValue, JsValue> {
    let op = operation_by_id(&operation_id)?;
    let names: Vec<&str> = op.path_params().collect();
    let list = matches!(op.response, catalog::Shape::List(_));
    let mut text = String::new();
    let mut m = Members::new(&mut text);
    m.str("id", op.id);
    m.value("pathParams", &names);
    m.value("list", &list);
    let index = catalog::operations().index_of(op);
    write::integer(m.key("index"), index.unwrap_or_default() as i64);
    m.end();
    Ok(json_to_js(&text))
}

/// The message of anything thrown, or a word for it when it has none.
pub fn message_of(e: &JsValue) -> String {
    js::get(e, "message")
        .as_string()
        .unwrap_or_else(|| "reading them threw".into())
}
