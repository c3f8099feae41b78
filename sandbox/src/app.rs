//! The request-to-answer function of the sandbox, shared by its HTTP server and its wasm build.

use crate::accounts::{self, Accounts, Check};
use crate::call::{Handler, Req, Shaped};
use crate::config::{Config, Scopes};
use crate::counters::Counters;
use crate::crm::Delivery;
use crate::error::{code, issue, ApiError};
use crate::faults::{Fault, Faults};
use crate::http::{self, Request, Response};
use crate::limits::{self, Limiter, Refusal};
use crate::multipart::{self, Part};
use crate::record::Record;
use crate::record::Value;
use crate::store::Store;
use crate::{billing, books, crm, generic, inventory, invoice, seed};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use svc_core::catalog::{BodyKind, Operation, OPERATIONS};
use svc_core::echo::shorten;
use svc_core::family::OrgPlacement;
use svc_core::issue::{Issue, PathSeg, Problem};
use svc_core::json;
use svc_core::json::{Json, Obj};
use svc_core::request::AUTHORIZATION_SCHEME;
use svc_core::route::{add_text_param, Found, Router};
use svc_core::validate::{self, Source};

/// What the handling needs from its host: the clock and callbacks' delivery.
pub trait Platform {
    fn now_ms(&self) -> i64;
    /// Posts a CRM callback; the status it got, or why not.
    fn deliver(&self, delivery: &Delivery) -> Result<u16, String>;
}

/// The answer to a request (`None`: close without one) and what it was, for the log.
pub struct Answer {
    pub response: Option<Response>,
    pub what: &'static str,
}

/// How far `App::begin` took a request: its answer, or a slow fault's wait, which the host spends
/// (the server sleeps its connection's thread; wasm waits on the runtime's timers) before `App::resume`.
pub enum Step {
    Done(Answer),
    Wait(u64, Box<Held>),
}

/// A call that a slow fault holds: admitted and counted in flight, its fault drawn, nothing applied.
pub struct Held {
    call: Admitted,
    t: Trace,
}

/// A call past its token, organization, limits, scope and fault draw: what the rest of it needs.
struct Admitted {
    op: &'static Operation,
    path: Vec<(String, String)>,
    query: Vec<(String, String)>,
    org: String,
    /// The limiter's key, whose time in flight ends with the call.
    key: String,
    /// The drawn fault's answer, given after the wait.
    fault: Result<(), ApiError>,
}

/// The limiter's key for calls that name no organization (CRM).
const NO_ORG: &str = "-";
const EXPOSED: &str = "X-Rate-Limit-Limit, X-Rate-Limit-Remaining, X-Rate-Limit-Reset, Retry-After, Content-Disposition, X-Request-Id";

/// Every routed operation: the catalog's rows.
pub fn operations() -> impl Iterator<Item = &'static Operation> {
    OPERATIONS.iter()
}

/// The hand-written handlers by operation id; every other row is served by `generic::serve`.
pub fn handlers() -> HashMap<&'static str, Handler> {
    written().into_iter().collect()
}

fn written() -> Vec<(&'static str, Handler)> {
    [
        books::HANDLERS,
        inventory::HANDLERS,
        invoice::HANDLERS,
        billing::HANDLERS,
        crm::HANDLERS,
    ]
    .concat()
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Tokens the sandbox mints (every scope) and tokens it no longer accepts, for tests of refreshes.
#[derive(Default)]
struct Tokens {
    minted: Vec<String>,
    revoked: Vec<String>,
}

/// A sandbox's whole state: configuration, tokens, records, limits, counters and faults.
pub struct App {
    pub config: Config,
    tokens: Mutex<Tokens>,
    accounts: Mutex<Accounts>,
    router: Router,
    handlers: HashMap<&'static str, Handler>,
    store: Mutex<Store>,
    limiter: Mutex<Limiter>,
    counters: Mutex<Counters>,
    faults: Mutex<Faults>,
    base: String,
}

impl App {
    /// Seeds the organization of `config` at `now`; `base` is the origin URLs in answers name, and
    /// `extra` rows the catalog does not have (yet) are served by the generic store.
    pub fn new(
        config: Config,
        base: String,
        extra: &'static [Operation],
        now: i64,
        seed: u64,
    ) -> Result<App, String> {
        let router = Router::new(operations().chain(extra))?;
        let mut store = Store::default();
        seed::organization(&mut store, &config.org_id, config.plan.name(), &base, now)
            .map_err(|e| e.message)?;
        Ok(App {
            limiter: Mutex::new(Limiter::new(config.policy())),
            faults: Mutex::new(Faults::new(config.faults, config.seed.unwrap_or(seed))),
            counters: Mutex::default(),
            tokens: Mutex::default(),
            accounts: Mutex::new(Accounts::new(
                config.accounts.clone(),
                config.seed.unwrap_or(seed),
            )),
            store: Mutex::new(store),
            handlers: handlers(),
            router,
            base,
            config,
        })
    }

    /// `http://127.0.0.1:PORT`, or the wasm build's origin.
    pub fn url(&self) -> &str {
        &self.base
    }

    /// The answer to a request, or the wait of a slow fault before `resume`.
    pub fn begin(&self, req: &Request, p: &dyn Platform) -> Step {
        let origin = req
            .header("origin")
            .and_then(|o| self.config.cors_origin(o));
        if req.method == "OPTIONS" && req.header("access-control-request-method").is_some() {
            let resp = rated(self, preflight(origin.as_deref(), req), NO_ORG, p.now_ms());
            return Step::Done(Answer {
                response: Some(resp),
                what: "preflight",
            });
        }
        let (resp, what) = if req.path == accounts::TOKEN_PATH {
            let mut accounts = lock(&self.accounts);
            let resp = accounts::route::token(&mut accounts, req, &self.base, p.now_ms());
            (
                Some(resp.unwrap_or_else(|e| error_response(&e))),
                "accounts",
            )
        } else if req.path == "/__sandbox" || req.path.starts_with("/__sandbox/") {
            let resp = rated(self, sandbox_endpoint(self, req, p), NO_ORG, p.now_ms());
            (Some(resp), "sandbox")
        } else {
            match api(self, req, p) {
                Ok(done) => done,
                Err(held) => return Step::Wait(self.config.slow_ms, held),
            }
        };
        Step::Done(answered(self, req, resp, what))
    }

    /// The answer to a request that `begin` held, once its wait is spent.
    pub fn resume(&self, req: &Request, held: Held) -> Answer {
        let Held { call, mut t } = held;
        let op = call.op;
        let result = complete(self, req, call, &mut t);
        let (resp, what) = api_answer(self, op, result, t);
        answered(self, req, resp, what)
    }

    /// The answer to a request that could not be read: `status` and why.
    pub fn unreadable(&self, status: u16, why: String, now: i64) -> Response {
        let c = if status == 413 {
            code::TOO_LARGE
        } else {
            code::BAD_REQUEST
        };
        rated(
            self,
            Response::json(status, &json!({ "code": c, "message": why })),
            NO_ORG,
            now,
        )
    }

    /// A copy of the records, for a restore.
    pub fn store(&self) -> Store {
        lock(&self.store).clone()
    }

    pub fn restore(&self, store: Store) {
        *lock(&self.store) = store;
    }

    /// Seeds records: `args` are a call's arguments as a client takes them (path values, then params,
    /// or a list of params for one call each). Each call meets the rules and the handler a request
    /// meets, in the sandbox's organization, without token, limits or faults; the answer is the
    /// resource as a client returns it (a list of them for a list), or the error a request would get.
    pub fn seed(&self, op_id: &str, args: &[Value], now: i64) -> Result<Value, ApiError> {
        let op = operations().find(|op| op.id == op_id).ok_or_else(|| {
            ApiError::bad(
                code::NO_ROUTE,
                format!("There is no operation {:?}.", shorten(op_id)),
            )
        })?;
        let names: Vec<&str> = op.path_params().collect();
        if args.len() < names.len() || args.len() > names.len() + 1 {
            return Err(ApiError::bad(
                code::BAD_REQUEST,
                format!(
                    "{} takes {} path value(s), then its params; got {} argument(s).",
                    op.id,
                    names.len(),
                    args.len()
                ),
            ));
        }
        let mut path = Vec::new();
        for (name, v) in names.iter().zip(args) {
            let Value::Str(value) = v else {
                return Err(ApiError::bad(
                    code::BAD_REQUEST,
                    format!("{name} must be a string (ids are strings so that no digit is lost)."),
                ));
            };
            path.push((name.to_string(), value.to_string()));
        }
        match args.get(names.len()).cloned().unwrap_or(json!({})) {
            Value::Arr(list) => list
                .into_iter()
                .map(|params| self.seed_one(op, &path, params, now))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Arr),
            params => self.seed_one(op, &path, params, now),
        }
    }

    fn seed_one(
        &self,
        op: &'static Operation,
        path: &[(String, String)],
        params: Value,
        now: i64,
    ) -> Result<Value, ApiError> {
        let Value::Obj(params) = params else {
            return Err(ApiError::bad(
                code::BAD_REQUEST,
                format!("The params of {} must be an object.", op.id),
            ));
        };
        let org = match op.family.org_placement() {
            OrgPlacement::None => String::new(),
            _ if !op.org => String::new(),
            _ => self.config.org_id.clone(),
        };
        let call = Req {
            op,
            org: &org,
            path,
            params: &params,
            files: &[],
            now_ms: now,
            base: &self.base,
        };
        let resp = apply(self, &call, Vec::new())?;
        let decoded =
            svc_core::response::decode(op, resp.status, resp.header("content-type"), &resp.body)
                .map_err(|e| ApiError::new(500, code::INTERNAL, e.message))?;
        match decoded {
            svc_core::response::Decoded::Json(text) => crate::record::parse(text.as_bytes())
                .map_err(|e| ApiError::new(500, code::INTERNAL, e)),
            svc_core::response::Decoded::Binary => Err(ApiError::bad(
                code::BAD_REQUEST,
                format!("{} answers a file, not a record.", op.id),
            )),
        }
    }
}

/// The answer with the caller's request id and the CORS headers its origin gets.
fn answered(sh: &App, req: &Request, resp: Option<Response>, what: &'static str) -> Answer {
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

fn preflight(origin: Option<&str>, req: &Request) -> Response {
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

fn error_response(e: &ApiError) -> Response {
    Response::json(e.status, &e.body())
}

fn with_rate(resp: Response, s: limits::Status) -> Response {
    resp.with("X-Rate-Limit-Limit", s.limit.to_string())
        .with("X-Rate-Limit-Remaining", s.remaining.to_string())
        .with("X-Rate-Limit-Reset", s.reset_s.to_string())
}

/// Adds the rate headers of a key without counting a request.
fn rated(sh: &App, resp: Response, key: &str, now: i64) -> Response {
    if !sh.config.rate_limit {
        return resp;
    }
    let status = lock(&sh.limiter).status(key, now);
    with_rate(resp, status)
}

/// What happened to a call on its way through the pipeline, from its arrival at `now`.
#[derive(Default)]
struct Trace {
    now: i64,
    key: Option<String>,
    rate: Option<limits::Status>,
    retry_after: Option<u64>,
    applied: bool,
    drop: bool,
}

/// A call of the catalog: its answer (`None`: dropped) and its id, or the call a slow fault holds.
fn api(
    sh: &App,
    req: &Request,
    p: &dyn Platform,
) -> Result<(Option<Response>, &'static str), Box<Held>> {
    let now = p.now_ms();
    let (op, path) = match sh.router.find(&req.method, &req.path) {
        Found::Op(op, path) => (op, path),
        Found::NotFound => {
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
fn api_answer(
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
        Some(s) => with_rate(resp, s),
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
    let scopes = authorize(sh, req, t.now)?;
    let query = http::parse_query(&req.query)
        .ok_or_else(|| ApiError::bad(code::BAD_REQUEST, "The query string is malformed."))?;
    let org = organization(sh, req, op, &query)?;
    let key = if org.is_empty() {
        NO_ORG.to_string()
    } else {
        org.clone()
    };
    t.key = Some(key.clone());
    let (admitted, status) = lock(&sh.limiter).admit(&key, t.now);
    if sh.config.rate_limit {
        t.rate = Some(status);
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
    };
    Ok((call, slow))
}

/// A call's second half, after its fault's wait: the fault's answer, or params, rules, handler, shape.
fn complete(sh: &App, req: &Request, call: Admitted, t: &mut Trace) -> Result<Response, ApiError> {
    let _in_flight = InFlight { sh, key: call.key };
    call.fault?;
    let (params, files, file_issues) = read_params(req, call.op, &call.query)?;
    let req = Req {
        op: call.op,
        org: &call.org,
        path: &call.path,
        params: &params,
        files: &files,
        now_ms: t.now,
        base: &sh.base,
    };
    let resp = apply(sh, &req, file_issues)?;
    t.applied = true;
    Ok(resp)
}

/// The rules and the handler of a call whose token, organization, limits and faults have passed.
fn apply(sh: &App, call: &Req, file_issues: Vec<Issue>) -> Result<Response, ApiError> {
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

fn authorize<'a>(sh: &'a App, req: &Request, now: i64) -> Result<Cow<'a, Scopes>, ApiError> {
    let token = req
        .header("authorization")
        .and_then(|h| h.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case(AUTHORIZATION_SCHEME))
        .map(|(_, token)| token.trim())
        .filter(|token| !token.is_empty());
    let Some(token) = token else {
        return Err(ApiError::new(
            401,
            code::UNAUTHORIZED,
            format!("Send the access token as the header Authorization: {AUTHORIZATION_SCHEME} <token>."),
        ));
    };
    let echo = sh.config.accounts.echo_secrets;
    let invalid = || {
        let message = accounts::answer::invalid_token_message(token, echo);
        ApiError::new(401, code::UNAUTHORIZED, message)
    };
    match lock(&sh.accounts).check(token, now) {
        Check::Live => return Ok(Cow::Owned(Scopes::Every)),
        Check::Expired | Check::Revoked => return Err(invalid()),
        Check::Unknown => {}
    }
    let tokens = lock(&sh.tokens);
    if tokens.revoked.iter().any(|t| t == token) {
        return Err(invalid());
    }
    if tokens.minted.iter().any(|t| t == token) {
        return Ok(Cow::Owned(Scopes::Every));
    }
    sh.config
        .scopes(token)
        .map(Cow::Borrowed)
        .ok_or_else(invalid)
}

/// The organization a call names where its family puts it; empty for calls without one.
fn organization(
    sh: &App,
    req: &Request,
    op: &Operation,
    query: &[(String, String)],
) -> Result<String, ApiError> {
    if !op.org {
        return Ok(String::new());
    }
    let (value, place) = match op.family.org_placement() {
        OrgPlacement::None => return Ok(String::new()),
        OrgPlacement::Query(name) => (
            query
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str()),
            format!("the query parameter {name}"),
        ),
        OrgPlacement::Header(name) => (req.header(name), format!("the header {name}")),
    };
    let Some(id) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return Err(ApiError::bad(
            code::ORGANIZATION,
            format!(
                "{} calls need the organization id in {place}.",
                op.family.name()
            ),
        ));
    };
    if lock(&sh.store).org(id).is_none() {
        return Err(ApiError::bad(
            code::ORGANIZATION,
            format!(
                "The organization {:?} does not exist; GET /books/v3/organizations lists them.",
                shorten(id)
            ),
        ));
    }
    Ok(id.to_string())
}

fn refusal(why: Refusal) -> ApiError {
    let (c, message) = match why {
        Refusal::PerMinute => (
            code::RATE,
            "Too many requests for this organization in the last minute.",
        ),
        Refusal::InFlight => (
            code::IN_FLIGHT,
            "Too many calls of this organization are in progress at once.",
        ),
        Refusal::Daily => (
            code::DAILY,
            "The daily request quota of this organization's plan is used up.",
        ),
    };
    ApiError::new(429, c, message)
}

/// Draws this call's fault: whether it waits first, and then an answer before anything is applied,
/// a drop after, or none.
fn draw_fault(sh: &App, t: &mut Trace) -> (bool, Result<(), ApiError>) {
    let draw = lock(&sh.faults).draw();
    if draw.slow {
        lock(&sh.counters).fault("slow");
    }
    let fault = match draw.fault {
        Fault::None => Ok(()),
        Fault::Drop => {
            lock(&sh.counters).fault("drop");
            t.drop = true;
            Ok(())
        }
        Fault::Status(429) => {
            lock(&sh.counters).fault("429");
            t.retry_after = Some(1);
            Err(ApiError::new(
                429,
                code::RATE,
                "Too many requests (a fault injected by the sandbox).",
            ))
        }
        Fault::Status(status) => {
            lock(&sh.counters).fault(if status == 503 { "503" } else { "500" });
            Err(ApiError::new(
                status,
                code::INTERNAL,
                "Internal error (a fault injected by the sandbox); nothing was applied.",
            ))
        }
    };
    (draw.slow, fault)
}

fn json_body(body: &[u8]) -> Result<Record, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Obj::default());
    }
    match crate::record::parse(body) {
        Ok(Json::Obj(m)) => Ok(m),
        Ok(other) => Err(ApiError::invalid(vec![Issue {
            path: Vec::new(),
            message: format!(
                "the body must be a JSON object, got {}",
                validate::type_name(&other)
            ),
            problem: Problem::InvalidType {
                expected: "object".into(),
            },
        }])),
        Err(e) => Err(ApiError::bad(
            code::BAD_REQUEST,
            format!("The body is not valid JSON: {e}."),
        )),
    }
}

fn file_issues(
    param: &str,
    field: &str,
    many: bool,
    accept: &'static [&'static str],
    files: &[Part],
) -> Vec<Issue> {
    let at = [PathSeg::Key(param.to_string().into())];
    if files.is_empty() {
        return vec![issue(
            &at,
            format!("{param} is required: send a file in the multipart field {field}"),
            Problem::Required {},
        )];
    }
    let mut out = Vec::new();
    if !many && files.len() > 1 {
        out.push(issue(
            &at,
            format!("{param} takes one file, got {}", files.len()),
            Problem::TooMany { maximum: 1 },
        ));
    }
    for (i, f) in files.iter().enumerate() {
        let name = f.filename.as_deref().unwrap_or("");
        out.extend(validate::file_type_issue(
            param,
            many.then_some(i),
            name,
            accept,
        ));
    }
    out
}

/// The params of a call (JSON body, query and header params), its files, and issues with the files.
fn read_params(
    req: &Request,
    op: &Operation,
    query: &[(String, String)],
) -> Result<(Record, Vec<Part>, Vec<Issue>), ApiError> {
    let schema = validate::rules_for(op);
    let org_param = match op.family.org_placement() {
        OrgPlacement::Query(name) => name,
        _ => "",
    };
    let mut params = Obj::default();
    let mut files = Vec::new();
    let mut issues = Vec::new();
    match op.body {
        BodyKind::Query => {
            for (k, v) in query.iter().filter(|(k, _)| k != org_param) {
                add_text_param(&mut params, schema, k, v);
            }
        }
        BodyKind::Json => {
            params = json_body(&req.body)?;
            for (k, v) in query.iter().filter(|(k, _)| op.query.contains(&k.as_str())) {
                add_text_param(&mut params, schema, k, v);
            }
        }
        BodyKind::Multipart {
            param,
            field,
            many,
            accept,
        } => {
            let boundary = req
                .header("content-type")
                .and_then(multipart::boundary)
                .ok_or_else(|| {
                    ApiError::bad(
                        code::BAD_REQUEST,
                        "This upload takes a multipart/form-data body with a boundary.",
                    )
                })?;
            let parts = multipart::parse(&req.body, &boundary).map_err(|e| {
                ApiError::bad(
                    code::BAD_REQUEST,
                    format!("The multipart body is malformed: {e}."),
                )
            })?;
            for part in parts {
                if part.filename.is_none() {
                    add_text_param(
                        &mut params,
                        schema,
                        &part.name,
                        &String::from_utf8_lossy(&part.data),
                    );
                } else if part.name == field {
                    files.push(part);
                }
            }
            issues = file_issues(param, field, many, accept, &files);
        }
    }
    for (param, header) in op.headers {
        if let Some(v) = req.header(header) {
            add_text_param(&mut params, schema, param, v);
        }
    }
    Ok((params, files, issues))
}

// ---- sandbox-only endpoints

fn sandbox_endpoint(sh: &App, req: &Request, p: &dyn Platform) -> Response {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::NAMED;
    use std::collections::HashSet;
    use svc_core::issue::IssueCode;

    #[test]
    fn every_operation_is_served_by_its_handler_or_the_generic_store() {
        let written = written();
        let ids: HashSet<&str> = written.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids.len(), written.len(), "no handler is declared twice");
        let ops: HashSet<&str> = operations().map(|op| op.id).collect();
        assert_eq!(ops.len(), OPERATIONS.len());
        assert!(ids.is_subset(&ops), "every handler serves a routed row");
        let unserved: Vec<&str> = operations()
            .filter(|op| !ids.contains(op.id) && !generic::serves(op))
            .map(|op| op.id)
            .collect();
        assert_eq!(unserved, Vec::<&str>::new());
    }

    #[test]
    fn generic_creates_name_ids_as_the_handlers_of_their_collection_do() {
        let written = handlers();
        for op in operations().filter(|op| !written.contains_key(op.id) && generic::serves(op)) {
            let table = generic::place(op.path).unwrap().table;
            let Some(id) = generic::id_field(op) else {
                continue;
            };
            for named in NAMED.iter().filter(|r| r.table == table) {
                assert_eq!(id, named.id, "{}", op.id);
            }
        }
    }

    #[test]
    fn seeds_meet_the_rules_and_handler_of_a_request() {
        let config = Config::from_args(Vec::<String>::new()).unwrap();
        let app = App::new(config, "http://x".into(), &[], 1_700_000_000_000, 1).unwrap();
        let now = 1_700_000_000_000;
        let vans = json!({ "fixed_asset_type_name": "Vans", "depreciation_method": "straight_line", "depreciation_frequency": "monthly" });
        let made = app.seed("createFixedAssetType", &[vans], now).unwrap();
        let id = made["fixed_asset_type_id"].as_str().unwrap().to_string();
        let listed = app
            .seed("listFixedAssetTypes", &[], now)
            .unwrap()
            .to_string();
        assert!(listed.contains(&format!("\"{id}\"")), "{listed}");
        let two = json!([{ "fixed_asset_type_name": "A", "depreciation_method": "straight_line", "depreciation_frequency": "monthly" }, { "fixed_asset_type_name": "B", "depreciation_method": "straight_line", "depreciation_frequency": "monthly" }]);
        assert_eq!(
            app.seed("createFixedAssetType", &[two], now)
                .unwrap()
                .as_array()
                .unwrap()
                .len(),
            2
        );
        let refused = app
            .seed(
                "createFixedAssetType",
                &[json!({ "depreciation_method": "sideways" })],
                now,
            )
            .unwrap_err();
        assert_eq!((refused.status, refused.code), (400, code::INVALID));
        assert_eq!(app.seed("nope", &[], now).unwrap_err().code, code::NO_ROUTE);
        let numeric = app
            .seed(
                "updateFixedAssetType",
                &[json!(9007199254740993_u64), json!({})],
                now,
            )
            .unwrap_err();
        assert!(
            numeric
                .message
                .contains("must be a string (ids are strings"),
            "a number's digits may be lost before a path value is read: {}",
            numeric.message
        );
        assert_eq!(
            app.seed("deleteFixedAssetType", &[], now).unwrap_err().code,
            code::BAD_REQUEST
        );
    }

    #[test]
    fn bodies_must_be_json_objects() {
        assert!(json_body(b"  ").unwrap().is_empty());
        assert_eq!(json_body(b"[1]").unwrap_err().code, code::INVALID);
        assert_eq!(json_body(b"{").unwrap_err().code, code::BAD_REQUEST);
    }

    fn params_of(id: &str, query: &[(&str, &str)], body: &[u8]) -> Record {
        let op = OPERATIONS.iter().find(|op| op.id == id).unwrap();
        let req = Request {
            method: op.method.as_str().into(),
            path: String::new(),
            query: String::new(),
            http10: false,
            headers: Vec::new(),
            body: body.to_vec(),
        };
        let query: Vec<(String, String)> = query
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        read_params(&req, op, &query).unwrap().0
    }

    #[test]
    fn a_json_body_keeps_each_number_as_its_text() {
        let body = br#"{"n":9007199254740993,"f":1.5,"e":1e300,"z":-0.0,"i":-2,
            "s":"a\"b\u00e9","o":{"x":[1,null,true,0.1]},"big":18446744073709551616,"n":3,"far":1e400}"#;
        assert_eq!(
            Value::Obj(params_of("createPackage", &[("salesorder_id", "5.")], body)).to_string(),
            r#"{"n":3,"f":1.5,"e":1e300,"z":-0.0,"i":-2,"s":"a\"bé","o":{"x":[1,null,true,0.1]},"big":18446744073709551616,"far":1e400,"salesorder_id":"5."}"#
        );
    }

    /// Number params read from the query take the number their text spells, in JSON's spelling of
    /// that text (`60.` is 60); integers take integer text only, as the client's proxy reads them.
    #[test]
    fn query_text_is_typed_by_the_one_rule_of_the_core() {
        let p = params_of(
            "listVendorCredits",
            &[
                ("total_start", "60."),
                ("total_end", "6e1"),
                ("total_less_than", "-007.50"),
                ("page", "2."),
                ("per_page", "2"),
            ],
            b"",
        );
        assert_eq!(
            Value::Obj(p).to_string(),
            r#"{"total_start":60,"total_end":6e1,"total_less_than":-7.50,"page":"2.","per_page":2}"#
        );
    }

    #[test]
    fn file_checks() {
        let file = |name: &str| Part {
            name: "image".into(),
            filename: Some(name.into()),
            content_type: None,
            data: vec![],
        };
        let accept = &["png", "gif"];
        assert_eq!(
            file_issues("image", "image", false, accept, &[])[0].code(),
            IssueCode::Required
        );
        assert!(file_issues("image", "image", false, accept, &[file("a.PNG")]).is_empty());
        let two = file_issues(
            "image",
            "image",
            false,
            accept,
            &[file("a.png"), file("b.txt")],
        );
        assert_eq!(
            two.iter().map(|i| i.code()).collect::<Vec<_>>(),
            [IssueCode::TooMany, IssueCode::InvalidFormat]
        );
        let many = file_issues(
            "files",
            "attachment",
            true,
            accept,
            &[file("a.png"), file("b.txt")],
        );
        assert_eq!(many[0].path_string(), "files[1]");
    }
}
