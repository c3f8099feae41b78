//! The headers every answer gets: the caller's request id, CORS and its preflight, the day's rate.

use super::state::{lock, Answer, App};
use crate::error::ApiError;
use crate::http::{Request, Response};
use crate::limits;

/// The headers a cross-origin caller may read.
const EXPOSED: &str = "X-Rate-Limit-Limit, X-Rate-Limit-Remaining, X-Rate-Limit-Reset, Retry-After, Content-Disposition, X-Request-Id";

/// The answer with the caller's request id and the CORS headers its origin gets.
pub(super) fn answered(
    sh: &App,
    req: &Request,
    resp: Option<Response>,
    what: &'static str,
) -> Answer {
    let origin = req.header("origin").and_then(|o| sh.config.cors_origin(o));
    // As services do, the answer carries the caller's X-Request-Id back.
    let request_id = req.header("x-request-id").filter(|v| v.len() <= 200);
    let resp = resp.map(|r| match request_id {
        Some(id) => r.with("X-Request-Id", id),
        None => r,
    });
    let resp = resp.map(|r| match &origin {
        Some(o) => r
            .with("Access-Control-Allow-Origin", o.as_str())
            .with("Access-Control-Expose-Headers", EXPOSED)
            .with("Vary", "Origin"),
        None => r,
    });
    Answer {
        response: resp,
        what,
    }
}

pub(super) fn preflight(origin: Option<&str>, req: &Request) -> Response {
    let resp = Response::new(204);
    let Some(origin) = origin else { return resp };
    let headers = req
        .header("access-control-request-headers")
        .unwrap_or("Authorization, Content-Type");
    resp.with("Access-Control-Allow-Origin", origin)
        .with(
            "Access-Control-Allow-Methods",
            "GET, POST, PUT, PATCH, DELETE, OPTIONS",
        )
        .with("Access-Control-Allow-Headers", headers)
        .with("Access-Control-Max-Age", "600")
        .with("Vary", "Origin")
}

pub(super) fn error_response(e: &ApiError) -> Response {
    Response::json(e.status, &e.body())
}

/// The organization's day in the `X-Rate-Limit-*` headers; none without a daily quota.
pub(super) fn with_rate(resp: Response, s: Option<limits::Status>) -> Response {
    let Some(s) = s else { return resp };
    resp.with("X-Rate-Limit-Limit", s.limit.to_string())
        .with("X-Rate-Limit-Remaining", s.remaining.to_string())
        .with("X-Rate-Limit-Reset", s.reset_s.to_string())
}

/// Adds the day's rate headers of a key without counting a request.
pub(super) fn rated(sh: &App, resp: Response, key: &str, now: i64) -> Response {
    if !sh.config.rate_limit {
        return resp;
    }
    let status = lock(&sh.limiter).status(key, now);
    with_rate(resp, status)
}
