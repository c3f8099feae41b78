//! Pure response decoding: the envelope, each response shape, errors, lossless ids.

use crate::catalog::{Operation, Shape};
use crate::error::{Error, ErrorKind};
use crate::lossless::{self, Member};

/// What a successful response decodes to.
#[derive(Clone, Debug, PartialEq)]
pub enum Decoded {
    /// JSON text of the result, every id a string.
    Json(String),
    /// The body is the result (a file); the transport hands it over as it came.
    Binary,
}

fn find<'a>(members: &'a [Member<'a>], key: &str) -> Option<&'a Member<'a>> {
    members.iter().find(|m| m.key == key)
}

/// The envelope's `code`: 0, "SUCCESS" or absent mean success.
fn envelope_code(members: &[Member<'_>]) -> Option<serde_json::Value> {
    find(members, "code").and_then(|m| serde_json::from_str(m.value).ok())
}

fn code_is_success(code: &Option<serde_json::Value>) -> bool {
    match code {
        None => true,
        Some(serde_json::Value::Number(n)) => n.as_i64() == Some(0),
        Some(serde_json::Value::String(s)) => s.eq_ignore_ascii_case("success"),
        Some(_) => false,
    }
}

fn status_text(status: u16) -> &'static str {
    match status {
        400 => "bad request",
        401 => "unauthorized (invalid token)",
        403 => "forbidden",
        404 => "URL not found",
        405 => "method not allowed for that URL",
        429 => "rate limit exceeded",
        500 => "internal error",
        502 => "bad gateway",
        503 => "service unavailable",
        504 => "gateway timeout",
        _ => "request failed",
    }
}

fn kind_for(status: u16) -> ErrorKind {
    match status {
        401 => ErrorKind::Unauthorized,
        429 => ErrorKind::RateLimited,
        _ => ErrorKind::Api,
    }
}

fn is_json(content_type: Option<&str>) -> bool {
    content_type.is_some_and(|ct| ct.to_ascii_lowercase().contains("json"))
}

/// Turns an error response (or a 2xx with a non-zero code) into an `Error`.
pub fn error_from(status: u16, body: &[u8]) -> Error {
    let text = std::str::from_utf8(body).unwrap_or("");
    let members = lossless::members(text).ok();
    let code = members.as_deref().and_then(envelope_code);
    let message = members
        .as_deref()
        .and_then(|m| find(m, "message"))
        .and_then(|m| serde_json::from_str::<String>(m.value).ok())
        .filter(|m| !m.is_empty());
    let kind = if (200..300).contains(&status) { ErrorKind::Api } else { kind_for(status) };
    let message = match (message, &code) {
        (Some(m), _) => m,
        (None, Some(serde_json::Value::String(c))) => c.clone(),
        (None, _) => format!("HTTP {status}: {}", status_text(status)),
    };
    let mut err = Error::new(kind, message).with_status(status);
    err.code = code.and_then(|c| c.as_i64());
    err
}

/// Decodes the response of an operation from its status, content type and body.
pub fn decode(op: &Operation, status: u16, content_type: Option<&str>, body: &[u8]) -> Result<Decoded, Error> {
    decode_shape(op.response, status, content_type, body).map_err(|e| e.with_operation(op.id))
}

pub fn decode_shape(shape: Shape, status: u16, content_type: Option<&str>, body: &[u8]) -> Result<Decoded, Error> {
    if !(200..300).contains(&status) {
        return Err(error_from(status, body));
    }
    if shape == Shape::Binary {
        if is_json(content_type) {
            if let Some(err) = json_error(status, body) {
                return Err(err);
            }
        }
        return Ok(Decoded::Binary);
    }
    let text = std::str::from_utf8(body)
        .map_err(|_| Error::decode("the response is not UTF-8 text").with_status(status))?;
    if text.trim().is_empty() {
        return Ok(Decoded::Json(String::from(r#"{"code":0,"message":""}"#)));
    }
    let members = lossless::members(text)
        .map_err(|e| Error::decode(format!("the response is not a JSON object: {e}")).with_status(status))?;
    if !code_is_success(&envelope_code(&members)) {
        return Err(error_from(status, body));
    }
    let missing = |key: &str| Error::decode(format!("the response has no `{key}`")).with_status(status);
    let bad = |e: String| Error::decode(format!("the response could not be read: {e}")).with_status(status);
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    match shape {
        Shape::Key(keys) => {
            let m = keys.iter().find_map(|k| find(&members, k)).ok_or_else(|| missing(keys[0]))?;
            lossless::rewrite_into(m.value, lossless::is_id_key(m.key), &mut out).map_err(bad)?;
        }
        Shape::KeyOrOneElementArray(key) => {
            let m = find(&members, key).ok_or_else(|| missing(key))?;
            let value = one_element(m.value).unwrap_or(m.value);
            lossless::rewrite_into(value, false, &mut out).map_err(bad)?;
        }
        Shape::TopLevel => {
            out.push('{');
            let mut first = true;
            for m in members.iter().filter(|m| m.key != "code" && m.key != "message") {
                if !first {
                    out.push(',');
                }
                first = false;
                out.push('"');
                out.push_str(m.key);
                out.push_str("\":");
                lossless::rewrite_into(m.value, lossless::is_id_key(m.key), &mut out).map_err(bad)?;
            }
            out.push('}');
        }
        Shape::List(key) => {
            let items = find(&members, key).ok_or_else(|| missing(key))?;
            if !items.value.starts_with('[') {
                return Err(Error::decode(format!("`{key}` in the response is not an array")).with_status(status));
            }
            out.push_str("{\"items\":");
            lossless::rewrite_into(items.value, false, &mut out).map_err(bad)?;
            if let Some(pc) = find(&members, "page_context") {
                out.push_str(",\"page_context\":");
                lossless::rewrite_into(pc.value, false, &mut out).map_err(bad)?;
            }
            out.push('}');
        }
        Shape::Empty => lossless::rewrite_into(text.trim(), false, &mut out).map_err(bad)?,
        Shape::Binary => unreachable!("handled above"),
    }
    Ok(Decoded::Json(out))
}

/// The only element of a one-element JSON array, if that is what `value` is.
fn one_element(value: &str) -> Option<&str> {
    match lossless::array_items(value).ok()?.as_slice() {
        [only] => Some(only),
        _ => None,
    }
}

/// A JSON error envelope in an otherwise binary answer.
fn json_error(status: u16, body: &[u8]) -> Option<Error> {
    let text = std::str::from_utf8(body).ok()?;
    let members = lossless::members(text).ok()?;
    (!code_is_success(&envelope_code(&members))).then(|| error_from(status, body))
}
