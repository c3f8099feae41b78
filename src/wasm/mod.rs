//! The `#[wasm_bindgen]` surface: the JS `Client`, the free functions, and the runtime snippet.

pub mod client;
mod js;
mod options;
mod proxy;

use crate::catalog;
use crate::error::Error;
use crate::validate;
use wasm_bindgen::prelude::*;

pub(crate) use js::to_js_error;

#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|_| wasm_bindgen::handler::schedule_reinit()));
}

pub(crate) fn json_to_js(text: &str) -> JsValue {
    js_sys::JSON::parse(text).unwrap_or(JsValue::NULL)
}

/// Every operation of the table: `{ id, family, method, path, scope, pathParams }`.
#[wasm_bindgen(js_name = operations, skip_typescript)]
pub fn operations() -> JsValue {
    json_to_js(&serde_json::to_string(&catalog::operation_infos()).unwrap_or_default())
}

/// The sorted, unique scopes the given operations need.
#[wasm_bindgen(js_name = requiredScopes, skip_typescript)]
pub fn required_scopes(ids: JsValue) -> Result<Vec<String>, JsValue> {
    let bad = || {
        to_js_error(&Error::config(
            "requiredScopes takes an array of operation ids",
        ))
    };
    let array: js_sys::Array = ids.dyn_into().map_err(|_| bad())?;
    let names: Vec<String> = array
        .iter()
        .map(|v| v.as_string().ok_or_else(bad))
        .collect::<Result<_, _>>()?;
    catalog::required_scopes(names.iter().map(String::as_str))
        .map(|scopes| scopes.into_iter().map(String::from).collect())
        .map_err(|m| to_js_error(&Error::config(m)))
}

/// The regions and their API domains, for the package's `regions` export.
#[wasm_bindgen(js_name = __regions, skip_typescript)]
pub fn regions() -> JsValue {
    let map: serde_json::Map<String, serde_json::Value> = crate::REGIONS
        .iter()
        .map(|(r, d)| (r.to_string(), (*d).into()))
        .collect();
    json_to_js(&serde_json::Value::Object(map).to_string())
}

/// The rules of an operation as JSON text, for the JS engine (`rules.js`) that runs them.
#[wasm_bindgen(js_name = __rules, skip_typescript)]
pub fn rules(operation_id: JsValue) -> Result<String, JsValue> {
    let op = client::operation(&operation_id)?;
    Ok(validate::export::operation_rules(op).to_string())
}

/// Per operation, what the declarations generator needs: whether it is a list, and its TS types.
#[wasm_bindgen(js_name = __types, skip_typescript)]
pub fn types() -> JsValue {
    let map: serde_json::Map<String, serde_json::Value> = catalog::OPERATIONS
        .iter()
        .map(|op| {
            let list = matches!(op.response, catalog::Shape::List(_));
            let required = op.params.fields.iter().any(|f| f.required) || matches!(op.body, catalog::BodyKind::Multipart { .. });
            let result = if op.response == catalog::Shape::Binary { "Blob" } else { op.ts.1 };
            let info = serde_json::json!({ "list": list, "params": op.ts.0, "result": result, "paramsRequired": required });
            (op.id.to_string(), info)
        })
        .collect();
    json_to_js(&serde_json::Value::Object(map).to_string())
}

/// A notification-channel callback body, checked against the channel's token when one is given.
#[wasm_bindgen(js_name = parseWatchNotification, skip_typescript)]
pub fn parse_watch_notification(body: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let body = body_text(&body)?;
    let token = match js::get(&options, "token") {
        t if t.is_undefined() || t.is_null() => None,
        t => Some(
            t.as_string()
                .ok_or_else(|| to_js_error(&Error::config("token must be a string")))?,
        ),
    };
    crate::webhook::watch_notification_text(&body, token.as_deref())
        .map(|text| json_to_js(&text))
        .map_err(|e| to_js_error(&e))
}

/// A billing event (webhook body or `{ event }` answer) with its event_type checked.
#[wasm_bindgen(js_name = parseEvent, skip_typescript)]
pub fn parse_event(body: JsValue) -> Result<JsValue, JsValue> {
    let body = body_text(&body)?;
    crate::webhook::event_text(&body)
        .map(|text| json_to_js(&text))
        .map_err(|e| to_js_error(&e))
}

fn body_text(body: &JsValue) -> Result<String, JsValue> {
    if let Some(s) = body.as_string() {
        return Ok(s);
    }
    if let Some(bytes) = body.dyn_ref::<js_sys::Uint8Array>() {
        return String::from_utf8(bytes.to_vec())
            .map_err(|_| to_js_error(&Error::decode("the body is not UTF-8 text")));
    }
    Err(to_js_error(&Error::config(
        "the body must be the request's text (await request.text())",
    )))
}
