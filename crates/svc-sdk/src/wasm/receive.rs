//! The receivers of what the service posts: notification-channel callbacks and billing events, each
//! body measured before it is read into the core.

use super::js;
use super::{answer_to_js, options, to_js_error};
use svc_core::error::Error;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The default of `maxBodyBytes` for the receivers.
const RECEIVED_BODY_MAX: f64 = crate::surface::RECEIVED_BODY_BYTES as f64;
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
    let max = options::body_limit(options, &options::RECEIVE)?;
    Ok((options.clone(), max))
}

fn config_error(message: String) -> JsValue {
    to_js_error(&Error::config(message))
}

/// The token a receiver verifies with, from `{ token }` (a non-empty string), or `None` when asked
/// in so many words (`{ skipVerification: true }`, with none of `with_token`); anything else is a
/// config error, `usage` first when the token is missing.
fn verification(
    options: &JsValue,
    function: &str,
    with_token: &[&str],
    usage: &str,
) -> Result<Option<String>, JsValue> {
    let skip = js::get(options, "skipVerification");
    let token = js::get(options, "token");
    match (skip.as_bool(), token.as_string()) {
        (Some(true), _)
            if with_token
                .iter()
                .any(|k| !js::get(options, k).is_undefined()) =>
        {
            Err(config_error(format!(
                "{function} takes either {} or skipVerification: true, not both",
                with_token.join(" and ")
            )))
        }
        (Some(true), _) => Ok(None),
        (None, Some(t)) if !t.is_empty() && skip.is_undefined() => Ok(Some(t)),
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
            Err(config_error(format!("{usage} (got {got})")))
        }
        _ => Err(config_error(
            "skipVerification must be true when it is given".into(),
        )),
    }
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
    let token = verification(&options, "parseWatchNotification", &["token"], USAGE)?;
    let body = body_text(&body, max)?;
    crate::webhook::watch_notification_text(&body, token.as_deref())
        .map(|text| answer_to_js(&text))
        .map_err(|e| to_js_error(&e))
}

/// A billing event (webhook body or `{ event }` answer) with its event_type checked, posted to the
/// webhook URL registered with a token in its query (`{ token, url, param? }`: `url` is the URL the
/// request came to), or read without it only when asked in so many words (`{ skipVerification: true }`).
#[wasm_bindgen(js_name = parseEvent, skip_typescript)]
pub fn parse_event(body: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    const USAGE: &str = "parseEvent(body, { token, url }) needs the webhook's token, a non-empty string, and the URL \
         the event was posted to (request.url), whose `token` query parameter must hold it (register the webhook URL \
         with it); an unset variable must not turn verification off, so reading without it is { skipVerification: true }";
    let (options, max) = receiver_options(
        &options,
        "parseEvent",
        &["token", "url", "param", "skipVerification", "maxBodyBytes"],
    )?;
    if options.is_undefined() {
        return Err(config_error(format!("{USAGE} (got no options)")));
    }
    if let Some(token) = verification(&options, "parseEvent", &["token", "url", "param"], USAGE)? {
        let url = js::get(&options, "url");
        let url = url
            .as_string()
            .or_else(|| url.is_object().then(|| js::get(&url, "href").as_string()).flatten())
            .ok_or_else(|| {
                config_error(
                    "parseEvent's url must be the URL the event was posted to (request.url), a string or a URL".into(),
                )
            })?;
        let param = js::get(&options, "param");
        let param = match param.as_string() {
            None if param.is_undefined() => crate::webhook::EVENT_TOKEN_PARAM.to_string(),
            Some(p) if !p.is_empty() => p,
            _ => {
                return Err(config_error(
                    "parseEvent's param must name the URL's query parameter that holds the token, a non-empty string".into(),
                ))
            }
        };
        crate::webhook::verify_event_url(&url, &param, &token).map_err(|e| to_js_error(&e))?;
    }
    let body = body_text(&body, max)?;
    crate::webhook::event_text(&body)
        .map(|text| answer_to_js(&text))
        .map_err(|e| to_js_error(&e))
}

/// The refusal of a body above its limit, before it is read into the core.
fn too_large(size: impl std::fmt::Display, max: usize) -> JsValue {
    to_js_error(
        &Error::decode(format!(
            "the body has {size} bytes, more than maxBodyBytes ({max}): refused unread"
        ))
        .with_status(413),
    )
}

/// A body as text, refused when it is above `max` bytes before more than `3 * max` bytes are copied.
fn body_text(body: &JsValue, max: usize) -> Result<String, JsValue> {
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
    let view = js_sys::ArrayBuffer::is_view(body);
    if let Some(bytes) = body.dyn_ref::<js_sys::Uint8Array>().filter(|_| view) {
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
