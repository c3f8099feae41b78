//! An error answer as an `Error`: its kind and status words, and what to do where the fix is known.

use super::envelope::{code_is_success, envelope_code, find};
use crate::error::{Error, ErrorKind};
use crate::lossless;
use crate::request::host_of;
use svc_json::Json;

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

/// Turns an error response (or a 2xx with a non-zero code) into an `Error`.
pub fn error_from(status: u16, body: &[u8]) -> Error {
    let text = std::str::from_utf8(body).unwrap_or("");
    let members = lossless::members(text).ok();
    let code = members.as_deref().and_then(envelope_code);
    let message = members
        .as_deref()
        .and_then(|m| find(m, "message"))
        .and_then(|m| svc_json::parse(m.value).ok())
        .and_then(|v| v.as_str().map(str::to_string))
        .filter(|m| !m.is_empty());
    let kind = if (200..300).contains(&status) {
        ErrorKind::Api
    } else {
        kind_for(status)
    };
    let message = match (message, &code) {
        (Some(m), _) => m,
        (None, Some(Json::Str(c))) => c.to_string(),
        (None, _) => format!("HTTP {status}: {}", status_text(status)),
    };
    Error::new(kind, message)
        .with_status(status)
        .with_code(code.as_ref().and_then(Json::as_i64))
}

/// Adds to an answer's error what to do where the fix is known: for a 401, the place that refused
/// the token (its region, or its host) and why it may have (the scope `operation` needs among the
/// reasons); for a 403, that scope.
pub fn advise(mut e: Error, url: &str, operation: Option<&str>) -> Error {
    match e.status() {
        Some(401) => {
            let place = crate::family::REGIONS
                .iter()
                .find(|(_, domain)| url.strip_prefix(domain).is_some_and(|r| r.starts_with('/')))
                .map_or_else(|| host_of(url).to_string(), |(name, _)| name.to_string());
            let scope = operation
                .and_then(crate::catalog::find)
                .map(|op| format!(", without the scope {} that {} needs", op.scope, op.id))
                .unwrap_or_default();
            e.message = format!(
                "the service at {place} answered 401 ({}): is the token expired or revoked{scope}, or the organization in another region? Set region (or apiDomain to the api_domain of the token's answer)",
                e.message
            );
        }
        Some(403) => {
            if let Some(op) = operation.and_then(crate::catalog::find) {
                e.message = format!(
                    "{} (403): {} needs a token with the scope {}",
                    e.message, op.id, op.scope
                );
            }
        }
        _ => {}
    }
    e
}

/// A JSON error envelope in an otherwise binary answer.
pub(super) fn json_error(status: u16, body: &[u8]) -> Option<Error> {
    let text = std::str::from_utf8(body).ok()?;
    let members = lossless::members(text).ok()?;
    (!code_is_success(&envelope_code(&members))).then(|| error_from(status, body))
}
