//! A catalog call's way through: admitted, held by a slow fault, completed by its handler, counted.

use super::access::{authorize, created_organization, organization, reachable, refusal};
use super::answer::{error_response, rated, with_rate};
use super::fault::draw_fault;
use super::params::read_params;
use super::state::{lock, Admitted, App, Held, Platform, Trace, NO_ORG};
use crate::call::{Req, Shaped};
use crate::error::{code, ApiError};
use crate::http::{self, Request, Response};
use crate::{generic, invoice};
use svc_core::catalog::Operation;
use svc_core::echo::shorten;
use svc_core::issue::Issue;
use svc_core::route::Found;
use svc_core::validate::{self, Source};
use svc_json::Json;

/// A call of the catalog: its answer (`None`: dropped) and its id, or the call a slow fault holds.
pub(super) fn api(
    sh: &App,
    req: &Request,
    p: &dyn Platform,
) -> Result<(Option<Response>, &'static str), Box<Held>> {
    let now = p.now_ms();
    let (op, path) = match sh.router.find(&req.method, &req.path) {
        Found::Op(op, path) if !unknown_module(op, &path) => (op, path),
        Found::Op(..) | Found::NotFound => {
            let e = ApiError::new(
                404,
                code::NO_ROUTE,
                format!(
                    "There is no operation at {} {}.",
                    req.method,
                    shorten(&req.path)
                ),
            );
            return Ok((Some(rated(sh, error_response(&e), NO_ORG, now)), "-"));
        }
        Found::MethodNotAllowed(methods) => {
            let allow = methods.join(", ");
            let e = ApiError::new(
                405,
                code::METHOD,
                format!(
                    "{} is not allowed at {}; it takes {allow}.",
                    req.method,
                    shorten(&req.path)
                ),
            );
            return Ok((
                Some(rated(sh, error_response(&e), NO_ORG, now).with("Allow", allow)),
                "-",
            ));
        }
    };
    lock(&sh.counters).received(op.id, op.method.as_str());
    let mut t = Trace {
        now,
        ..Trace::default()
    };
    let result = match admit(sh, req, op, path, &mut t) {
        Ok((call, true)) => return Err(Box::new(Held { call, t })),
        Ok((call, false)) => complete(sh, req, call, &mut t),
        Err(e) => Err(e),
    };
    Ok(api_answer(sh, op, result, t))
}

/// A call's answer with its Retry-After and rate headers, counted as finished.
pub(super) fn api_answer(
    sh: &App,
    op: &'static Operation,
    result: Result<Response, ApiError>,
    t: Trace,
) -> (Option<Response>, &'static str) {
    let resp = match result {
        Ok(resp) => resp,
        Err(e) => match t.retry_after {
            Some(secs) => error_response(&e).with("Retry-After", secs.to_string()),
            None => error_response(&e),
        },
    };
    let resp = match t.rate {
        Some(s) => with_rate(resp, Some(s)),
        None => rated(sh, resp, t.key.as_deref().unwrap_or(NO_ORG), t.now),
    };
    let status = (!t.drop).then_some(resp.status);
    lock(&sh.counters).finished(op.id, op.method.as_str(), status, t.applied);
    ((!t.drop).then_some(resp), op.id)
}

/// Ends an admitted call's time in flight.
struct InFlight<'a> {
    sh: &'a App,
    key: String,
}

impl InFlight<'_> {
    /// The key of a call that stays in flight past this guard.
    fn keep(self) -> String {
        let mut kept = std::mem::ManuallyDrop::new(self);
        std::mem::take(&mut kept.key)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        lock(&self.sh.limiter).finish(&self.key);
    }
}

/// A call's first half, in order: token, organization, limits, scope, fault draw; the admitted call
/// (still in flight), and whether a slow fault holds it.
fn admit(
    sh: &App,
    req: &Request,
    op: &'static Operation,
    path: Vec<(String, String)>,
    t: &mut Trace,
) -> Result<(Admitted, bool), ApiError> {
    let (scopes, reach) = authorize(sh, req, t.now)?;
    let query = http::parse_query(&req.query)
        .ok_or_else(|| ApiError::bad(code::BAD_REQUEST, "The query string is malformed."))?;
    let org = organization(sh, req, op, &query, &reach)?;
    if let Some((_, id)) = path.iter().find(|(k, _)| k == "organization_id") {
        reachable(&reach, id)?;
    }
    let key = if org.is_empty() {
        NO_ORG.to_string()
    } else {
        org.clone()
    };
    t.key = Some(key.clone());
    let (admitted, status) = lock(&sh.limiter).admit(&key, t.now);
    if sh.config.rate_limit {
        t.rate = status;
    }
    if let Err(refused) = admitted {
        t.retry_after = Some(refused.retry_after_s);
        return Err(refusal(refused.why));
    }
    let in_flight = InFlight { sh, key };
    if !scopes.allows(op) {
        return Err(ApiError::new(
            401,
            code::SCOPE,
            format!(
                "The access token lacks the scope {} that {} needs.",
                op.scope, op.id
            ),
        ));
    }
    let (slow, fault) = draw_fault(sh, t);
    let key = in_flight.keep();
    let call = Admitted {
        op,
        path,
        query,
        org,
        key,
        fault,
        reach,
    };
    Ok((call, slow))
}

/// A call's second half, after its fault's wait: the fault's answer, or params, rules, handler, shape.
pub(super) fn complete(
    sh: &App,
    req: &Request,
    call: Admitted,
    t: &mut Trace,
) -> Result<Response, ApiError> {
    let _in_flight = InFlight { sh, key: call.key };
    call.fault?;
    let (params, files, file_issues) = read_params(req, call.op, &call.query)?;
    let req_http = req;
    let req = Req {
        op: call.op,
        org: &call.org,
        path: &call.path,
        params: &params,
        files: &files,
        now_ms: t.now,
        base: &sh.base,
        reach: &call.reach,
    };
    let resp = apply(sh, &req, file_issues)?;
    if call.op.id == "createOrganization" {
        created_organization(sh, req_http, &call.reach, &resp);
    }
    t.applied = true;
    Ok(resp)
}

/// The rules and the handler of a call whose token, organization, limits and faults have passed.
pub(super) fn apply(sh: &App, call: &Req, file_issues: Vec<Issue>) -> Result<Response, ApiError> {
    let op = call.op;
    if let Some(e) = invoice::precheck(op.id, call.params) {
        return Err(e);
    }
    let params = Json::Obj(call.params.clone());
    let mut issues = validate::check(op, &params, svc_core::clock::now_ms(), Source::Json);
    issues.extend(file_issues);
    if !issues.is_empty() {
        return Err(ApiError::invalid(issues));
    }
    let handler = sh.handlers.get(op.id).copied().unwrap_or(generic::serve);
    let reply = handler(&mut lock(&sh.store), call)?;
    match reply
        .shape(op.response)
        .map_err(|e| ApiError::new(500, code::INTERNAL, e))?
    {
        Shaped::Json(status, v) => Ok(Response::json(status, &v)),
        Shaped::File {
            content_type,
            name,
            bytes,
        } => {
            let name = name.replace(['"', '\\'], "_");
            Ok(Response {
                status: 200,
                headers: Vec::new(),
                body: bytes,
            }
            .with("Content-Type", content_type)
            .with(
                "Content-Disposition",
                format!("inline; filename=\"{name}\""),
            ))
        }
    }
}

/// Whether a path that only a custom module's route matches names no custom module: their names
/// start with `cm_`, so `/books/v3/nothing-here` is no route, not a module's records.
fn unknown_module(op: &svc_core::catalog::Operation, path: &[(String, String)]) -> bool {
    op.path.starts_with("/{module_name}")
        && path
            .iter()
            .any(|(name, value)| name == "module_name" && !value.starts_with("cm_"))
}
