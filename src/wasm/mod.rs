//! The `#[wasm_bindgen]` surface: the JS `Client`, the free functions, and the runtime snippet.

pub mod client;
mod js;
mod options;
mod params;
mod platform;
mod proxy;
mod settle;
mod store;

use crate::catalog;
use crate::error::Error;
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

/// The page a list's iteration asks for after one with this `page_context` and this many items
/// (`response::next_page`), or undefined after the last; `page` is read as JS's `+page` reads it.
#[wasm_bindgen(js_name = __nextPage, skip_typescript)]
pub fn next_page(context: JsValue, items: u32) -> JsValue {
    let more = js::get(&context, "has_more_page").as_bool() == Some(true);
    let page = js::get(&context, "page");
    let page = if page.is_undefined() || page.is_null() {
        1.0
    } else {
        page.unchecked_into_f64()
    };
    crate::response::next_page(more, page, items as usize).map_or(JsValue::UNDEFINED, JsValue::from)
}

/// One step on a fleet's shared state (`fleet::apply`) for a store that runs steps itself
/// (`SvcLimiter`): `state` as the store kept it (null: none yet), `now` its clock in ms since the
/// epoch, `request` the holder's text; gives `fleet::Applied` as an object.
#[wasm_bindgen(js_name = __fleetApply, skip_typescript)]
pub fn fleet_apply(state: Option<String>, now: f64, request: &str) -> Result<JsValue, JsValue> {
    let applied =
        crate::fleet::apply(state.as_deref(), now as i64, request).map_err(|e| to_js_error(&e))?;
    Ok(json_to_js(
        &serde_json::to_string(&applied).unwrap_or_default(),
    ))
}

/// The text of the step that changes nothing but the leases and claims whose time is up
/// (`fleet::Request::State`): what `SvcLimiter`'s alarm runs, so that JS holds no copy of the format.
#[wasm_bindgen(js_name = __fleetSweep, skip_typescript)]
pub fn fleet_sweep() -> String {
    crate::fleet::Request::State.to_json()
}

/// The kinds and members an `SvcError` takes (`Error::shape`), for runtime.js.
#[wasm_bindgen(js_name = __errorShape, skip_typescript)]
pub fn error_shape() -> JsValue {
    json_to_js(&crate::error::Error::shape())
}

/// The regions and their API domains, for the package's `regions` export.
#[wasm_bindgen(js_name = __regions, skip_typescript)]
pub fn regions() -> JsValue {
    let map: serde_json::Map<String, serde_json::Value> = crate::family::REGIONS
        .iter()
        .map(|(r, d)| (r.to_string(), (*d).into()))
        .collect();
    json_to_js(&serde_json::Value::Object(map).to_string())
}

/// Checks params of an operation without sending anything: `{ ok: true }` or `{ ok: false, issues }`.
#[wasm_bindgen(js_name = validate, skip_typescript)]
pub fn validate(operation_id: JsValue, params: JsValue) -> Result<JsValue, JsValue> {
    let op = client::operation(&operation_id)?;
    let (issues, _) = params::issues(op, &params, usize::MAX);
    if issues.is_empty() {
        return Ok(json_to_js(r#"{"ok":true}"#));
    }
    let text = serde_json::to_string(&issues).unwrap_or_default();
    Ok(json_to_js(&format!(r#"{{"ok":false,"issues":{text}}}"#)))
}

/// `{ id, pathParams, list }` of an operation, for the pages of a list; a config SvcError for an unknown id.
#[wasm_bindgen(js_name = __operation, skip_typescript)]
pub fn operation(operation_id: JsValue) -> Result<JsValue, JsValue> {
    let op = client::operation(&operation_id)?;
    let names: Vec<&str> = op.path_params().collect();
    let list = matches!(op.response, catalog::Shape::List(_));
    let info = serde_json::json!({ "id": op.id, "pathParams": names, "list": list });
    Ok(json_to_js(&info.to_string()))
}

/// The message of anything thrown, or a word for it when it has none.
pub(crate) fn message_of(e: &JsValue) -> String {
    js::get(e, "message")
        .as_string()
        .unwrap_or_else(|| "reading them threw".into())
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

/// The default of `maxBodyBytes` for the receivers: a notification or an event is a few KB.
const RECEIVED_BODY_MAX: f64 = 1_048_576.0;
/// The options of a receiver, each read once: unknown names are refused.
fn receiver_options(
    options: &JsValue,
    function: &str,
    names: &[&str],
) -> Result<(JsValue, usize), JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok((JsValue::UNDEFINED, RECEIVED_BODY_MAX as usize));
    }
    options::check_keys(options, names, &format!("the options of {function}"))?;
    let max = options::byte_limit(
        options,
        "maxBodyBytes",
        RECEIVED_BODY_MAX,
        options::BYTES_LIMIT,
    )?;
    Ok((options.clone(), max))
}

fn config_error(message: String) -> JsValue {
    to_js_error(&Error::config(message))
}

/// A notification-channel callback body, checked against the channel's token (`{ token }`), or
/// read without it only when asked in so many words (`{ skipVerification: true }`).
#[wasm_bindgen(js_name = parseWatchNotification, skip_typescript)]
pub fn parse_watch_notification(body: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    const USAGE: &str = "parseWatchNotification(body, { token }) needs the channel's token, a non-empty string; \
         an unset variable must not turn verification off, so reading without it is { skipVerification: true }";
    let (options, max) = receiver_options(
        &options,
        "parseWatchNotification",
        &["token", "skipVerification", "maxBodyBytes"],
    )?;
    let skip = js::get(&options, "skipVerification");
    let token = js::get(&options, "token");
    let token = match (skip.as_bool(), token.as_string()) {
        (Some(true), _) if !token.is_undefined() => {
            return Err(config_error(
                "parseWatchNotification takes either token or skipVerification: true, not both"
                    .into(),
            ))
        }
        (Some(true), _) => None,
        (None, Some(t)) if !t.is_empty() && skip.is_undefined() => Some(t),
        (None, _) if skip.is_undefined() => {
            let got = if token.is_undefined() {
                "no token".to_string()
            } else if token.is_null() {
                "token null".to_string()
            } else if token.as_string().is_some() {
                "an empty token".to_string()
            } else {
                format!(
                    "a token of type {}",
                    token.js_typeof().as_string().unwrap_or_default()
                )
            };
            return Err(config_error(format!("{USAGE} (got {got})")));
        }
        _ => {
            return Err(config_error(
                "skipVerification must be true when it is given".into(),
            ))
        }
    };
    let body = body_text(&body, max)?;
    crate::webhook::watch_notification_text(&body, token.as_deref())
        .map(|text| json_to_js(&text))
        .map_err(|e| to_js_error(&e))
}

/// A billing event (webhook body or `{ event }` answer) with its event_type checked.
#[wasm_bindgen(js_name = parseEvent, skip_typescript)]
pub fn parse_event(body: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let (_, max) = receiver_options(&options, "parseEvent", &["maxBodyBytes"])?;
    let body = body_text(&body, max)?;
    crate::webhook::event_text(&body)
        .map(|text| json_to_js(&text))
        .map_err(|e| to_js_error(&e))
}

/// The refusal of a body above its limit, before it is read into the core.
pub(crate) fn too_large(size: impl std::fmt::Display, max: usize) -> JsValue {
    to_js_error(
        &Error::decode(format!(
            "the body has {size} bytes, more than maxBodyBytes ({max}): refused unread"
        ))
        .with_status(413),
    )
}

/// A body as text, refused when it is above `max` bytes before more than `3 * max` bytes are copied.
pub(crate) fn body_text(body: &JsValue, max: usize) -> Result<String, JsValue> {
    if let Some(s) = body.dyn_ref::<js_sys::JsString>() {
        // A UTF-16 unit is at least one UTF-8 byte, so a longer string is too large for sure.
        let units = s.length() as usize;
        if units > max {
            return Err(too_large(format!("at least {units}"), max));
        }
        let text = body.as_string().unwrap_or_default();
        if text.len() > max {
            return Err(too_large(text.len(), max));
        }
        return Ok(text);
    }
    if let Some(bytes) = body.dyn_ref::<js_sys::Uint8Array>() {
        let len = bytes.length() as usize;
        if len > max {
            return Err(too_large(len, max));
        }
        return String::from_utf8(bytes.to_vec())
            .map_err(|_| to_js_error(&Error::decode("the body is not UTF-8 text")));
    }
    Err(to_js_error(&Error::config(
        "the body must be the request's text (await request.text())",
    )))
}
