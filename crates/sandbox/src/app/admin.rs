//! The sandbox-only endpoints below /__sandbox: counters, tokens, CRM triggers, accounts.

use super::answer::error_response;
use super::state::{lock, App, Platform};
use crate::accounts;
use crate::crm;
use crate::error::{code, ApiError};
use crate::http::{self, Request, Response};
use crate::record::Value;
use svc_core::echo::shorten;
use svc_json::json;

pub(super) fn sandbox_endpoint(sh: &App, req: &Request, p: &dyn Platform) -> Response {
    let segs: Vec<&str> = req.path.trim_end_matches('/').split('/').skip(2).collect();
    if let ["accounts", rest @ ..] = segs.as_slice() {
        let mut a = lock(&sh.accounts);
        return accounts::route::admin(&mut a, &req.method, rest, &req.path, p.now_ms())
            .unwrap_or_else(|e| error_response(&e));
    }
    let result = match (req.method.as_str(), segs.as_slice()) {
        ("GET", []) => Ok(json!({
            "code": 0,
            "message": "sandbox endpoints",
            "endpoints": [
                "GET /__sandbox/counters",
                "POST /__sandbox/reset-counters",
                format!("POST /__sandbox/crm/{{module}}/{{{}}}", crm::OPERATIONS.join("|")),
                "POST /__sandbox/tokens",
                "POST /__sandbox/tokens/{token}/revoke",
            ],
            "accounts": accounts::route::ADMIN,
        })),
        ("GET", ["counters"]) => {
            let (peaks, in_flight) = {
                let l = lock(&sh.limiter);
                (l.peaks(), l.in_flight())
            };
            Ok(lock(&sh.counters).to_json(peaks, in_flight))
        }
        ("POST", ["reset-counters"]) => {
            lock(&sh.counters).reset();
            lock(&sh.limiter).reset_peaks();
            lock(&sh.accounts).reset_counters(p.now_ms());
            Ok(json!({ "code": 0, "message": "The counters have been reset." }))
        }
        ("POST", ["crm", module, operation]) => crm_trigger(sh, module, operation, &req.body, p),
        ("POST", ["tokens"]) => {
            let mut tokens = lock(&sh.tokens);
            let token = format!("sandbox-token-{}", tokens.minted.len() + 1);
            tokens.minted.push(token.clone());
            Ok(json!({ "code": 0, "token": token, "minted": tokens.minted.len() }))
        }
        ("POST", ["tokens", token, "revoke"]) => {
            let token = svc_core::request::percent_decode(token, false).unwrap_or_default();
            lock(&sh.tokens).revoked.push(token);
            Ok(json!({ "code": 0, "message": "The token is no longer accepted." }))
        }
        (
            _,
            []
            | ["counters"]
            | ["reset-counters"]
            | ["crm", _, _]
            | ["tokens"]
            | ["tokens", _, "revoke"],
        ) => Err(ApiError::new(
            405,
            code::METHOD,
            format!("{} is not allowed at {}.", req.method, shorten(&req.path)),
        )),
        _ => Err(ApiError::new(
            404,
            code::NO_ROUTE,
            format!("There is no sandbox endpoint at {}.", shorten(&req.path)),
        )),
    };
    match result {
        Ok(v) => Response::json(200, &v),
        Err(e) => error_response(&e),
    }
}

/// Posts the callbacks of a change of CRM records to the matching channels and reports each.
fn crm_trigger(
    sh: &App,
    module: &str,
    operation: &str,
    body: &[u8],
    p: &dyn Platform,
) -> Result<Value, ApiError> {
    let module = http::percent_decode(module, false)
        .filter(|m| !m.is_empty())
        .ok_or_else(|| ApiError::bad(code::BAD_REQUEST, "The module name is malformed."))?;
    if !crm::OPERATIONS.contains(&operation) {
        let [rest @ .., last] = crm::OPERATIONS;
        return Err(ApiError::bad(
            code::BAD_REQUEST,
            format!("The operation must be {} or {last}.", rest.join(", ")),
        ));
    }
    let body = crate::record::parse(body).map_err(|e| {
        ApiError::bad(
            code::BAD_REQUEST,
            format!("The body is not valid JSON: {e}."),
        )
    })?;
    let changes = crm::parse_changes(&body).map_err(|e| ApiError::bad(code::INVALID, e))?;
    let now = p.now_ms();
    let (deliveries, skipped) = crm::plan(
        &lock(&sh.store),
        &module,
        operation,
        &changes,
        now,
        &sh.base,
    );
    let results: Vec<Value> = deliveries
        .iter()
        .map(|d| {
            let outcome = p.deliver(d);
            if !sh.config.quiet {
                let url = d.notify_url.split('?').next().unwrap_or("");
                eprintln!("sandbox: callback {module}.{operation} -> {url}: {outcome:?}");
            }
            crm::report(d, &outcome)
        })
        .collect();
    Ok(json!({
        "code": 0,
        "message": format!("{} callback(s) posted", results.len()),
        "deliveries": results,
        "skipped": skipped,
    }))
}
