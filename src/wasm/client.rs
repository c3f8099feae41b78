//! The JS `Client`: one method per catalog row, `prepare`, `request`, and the send loop.

use super::js::{self, get, to_js_error};
use super::options::{self, Options, Token};
use crate::catalog::{self, Method, Operation, Shape};
use crate::error::{Error, ErrorKind};
use crate::family::Family;
use crate::limit::{Admit, Limiter};
use crate::request::{self, Body, Prepared};
use crate::response::{self, Decoded};
use crate::retry::{self, Outcome, Policy};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::future_to_promise;

/// A client of the Svc API. Holds the options; the token only ever goes into the Authorization header.
#[wasm_bindgen(skip_typescript)]
pub struct Client {
    inner: Rc<Shared>,
}

/// What the calls of one client share: options, the limiter of its organization, the token refresh.
struct Shared {
    opts: Options,
    limiter: Option<RefCell<Limiter>>,
    /// Calls waiting in the limiter's queue, by ticket, with the function that wakes them.
    waiters: RefCell<HashMap<u64, js_sys::Function>>,
    /// How many refreshes have been started, and the one in flight.
    refresh: RefCell<(u64, Option<js_sys::Promise>)>,
}

impl std::ops::Deref for Shared {
    type Target = Options;
    fn deref(&self) -> &Options {
        &self.opts
    }
}

/// Fetches further pages of a list for the page's async iterator.
#[wasm_bindgen(skip_typescript)]
pub struct Pager {
    inner: Rc<Shared>,
    call: Call,
}

/// One call, checked and ready to send.
#[derive(Clone)]
struct Call {
    op_id: Option<&'static str>,
    method: Method,
    shape: Shape,
    prepared: Prepared,
    params: Option<(&'static Operation, Vec<String>, serde_json::Value)>,
    files: JsValue,
    signal: JsValue,
    timeout_ms: f64,
    max_retries: u32,
    /// Hand back the HTTP answer as it came (the proxy), instead of decoding it.
    raw: bool,
}

impl Call {
    /// A call with the client's defaults, overridden by the call's options.
    fn new(
        opts: &Options,
        method: Method,
        shape: Shape,
        prepared: Prepared,
        options: &JsValue,
    ) -> Call {
        Call {
            op_id: None,
            method,
            shape,
            prepared,
            params: None,
            files: JsValue::UNDEFINED,
            signal: get(options, "signal"),
            timeout_ms: get(options, "timeoutMs")
                .as_f64()
                .unwrap_or(opts.timeout_ms as f64),
            max_retries: get(options, "maxRetries")
                .as_f64()
                .map_or(opts.max_retries, |n| n as u32),
            raw: false,
        }
    }
}

pub fn operation(id: &JsValue) -> Result<&'static Operation, JsValue> {
    let name = id
        .as_string()
        .ok_or_else(|| to_js_error(&Error::config("the operation id must be a string")))?;
    catalog::find(&name)
        .ok_or_else(|| to_js_error(&Error::config(catalog::unknown_operation(&name))))
}

fn with_op(e: JsValue, op_id: Option<&str>) -> JsValue {
    if let Some(id) = op_id {
        if get(&e, "operationId").is_undefined() && e.is_object() {
            let _ = js_sys::Reflect::set(&e, &"operationId".into(), &id.into());
        }
    }
    e
}

/// Path params, params and options from the positional arguments of an operation method.
fn split_args<'a>(
    op: &Operation,
    args: &'a [JsValue],
) -> Result<(Vec<String>, &'a JsValue, &'a JsValue), JsValue> {
    let names: Vec<&str> = op.path_params().collect();
    let n = names.len();
    let usage = || {
        let mut parts: Vec<String> = names.iter().map(|p| format!("{p}: string")).collect();
        parts.push("params?".into());
        parts.push("options?".into());
        format!("{}({})", op.id, parts.join(", "))
    };
    let mut path = Vec::with_capacity(n);
    for (i, name) in names.iter().enumerate() {
        match args[i].as_string() {
            Some(s) => path.push(s),
            None if args[i].is_undefined() => {
                return Err(to_js_error(
                    &Error::config(format!("{name} is missing: call {}", usage()))
                        .with_operation(op.id),
                ))
            }
            None => {
                return Err(to_js_error(
                    &Error::config(format!(
                    "{name} must be a string (ids are strings so that no digit is lost): call {}",
                    usage()
                ))
                    .with_operation(op.id),
                ))
            }
        }
    }
    if args.iter().skip(n + 2).any(|a| !a.is_undefined()) {
        return Err(to_js_error(
            &Error::config(format!("too many arguments: call {}", usage())).with_operation(op.id),
        ));
    }
    Ok((path, &args[n], &args[n + 1]))
}

impl Client {
    fn invoke(&self, id: &str, args: &[JsValue]) -> js_sys::Promise {
        match self.start(id, args) {
            Ok(call) => {
                let inner = self.inner.clone();
                future_to_promise(execute(inner, call))
            }
            Err(e) => js_sys::Promise::reject(&e),
        }
    }

    /// Everything before the network: arguments, conversion, validation, request building.
    fn start(&self, id: &str, args: &[JsValue]) -> Result<Call, JsValue> {
        let op = catalog::find(id)
            .ok_or_else(|| to_js_error(&Error::config(catalog::unknown_operation(id))))?;
        let (path, params, options) = split_args(op, args)?;
        let options = js::read_options(options).map_err(|e| with_op(e, Some(op.id)))?;
        let (prepared, value, files) = self.check(op, &path, params)?;
        Ok(Call {
            op_id: Some(op.id),
            params: Some((op, path, value)),
            files,
            ..Call::new(&self.inner, op.method, op.response, prepared, &options)
        })
    }

    fn check(
        &self,
        op: &'static Operation,
        path: &[String],
        params: &JsValue,
    ) -> Result<(Prepared, serde_json::Value, JsValue), JsValue> {
        let files = js::check_params(op.id, params)?;
        let value = js::params_value(params, op)?;
        let refs: Vec<&str> = path.iter().map(String::as_str).collect();
        let prepared = request::build(op, &self.inner.target, &refs, &value)
            .map_err(|e| to_js_error(&e.with_operation(op.id)))?;
        Ok((prepared, value, files))
    }
}

#[wasm_bindgen]
impl Client {
    /// Calls an operation: the package gives `Client` one method per catalog row that calls this.
    #[wasm_bindgen(js_name = __invoke, skip_typescript)]
    pub fn invoke_js(&self, id: String, args: js_sys::Array) -> js_sys::Promise {
        let mut args: Vec<JsValue> = args.iter().collect();
        let min = 5.max(args.len());
        args.resize(min, JsValue::UNDEFINED);
        self.invoke(&id, &args)
    }

    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Client, JsValue> {
        let opts = options::read(&options)?;
        let limiter = opts.limits().map(|l| RefCell::new(Limiter::new(l)));
        Ok(Client {
            inner: Rc::new(Shared {
                opts,
                limiter,
                waiters: RefCell::new(HashMap::new()),
                refresh: RefCell::new((0, None)),
            }),
        })
    }

    /// What the limiter allows now: per minute, in flight, today, and what the server last said.
    #[wasm_bindgen(js_name = rateLimitState)]
    pub fn rate_limit_state(&self) -> JsValue {
        match &self.inner.limiter {
            Some(l) => {
                let state = l.borrow_mut().state(crate::clock::now_ms());
                super::json_to_js(&serde_json::to_string(&state).unwrap_or_default())
            }
            None => JsValue::NULL,
        }
    }

    /// The request an operation would send, validated; nothing is sent. The Authorization header is left out.
    pub fn prepare(
        &self,
        id: JsValue,
        a: JsValue,
        b: JsValue,
        c: JsValue,
        d: JsValue,
    ) -> js_sys::Promise {
        let result = (|| {
            let op = operation(&id)?;
            let args = [a, b, c, d, JsValue::UNDEFINED];
            let (path, params, options) = split_args(op, &args)?;
            if !options.is_undefined() {
                return Err(to_js_error(&Error::config(format!(
                    "prepare takes ({}, ...pathParams, params?)",
                    op.id
                ))));
            }
            let (prepared, _, files) = self.check(op, &path, params)?;
            Ok(prepared_to_js(&prepared, &files, None))
        })();
        match result {
            Ok(v) => js_sys::Promise::resolve(&v),
            Err(e) => js_sys::Promise::reject(&e),
        }
    }

    /// A call that is not in the table: `request(method, family, path, { query?, body? }, options?)`.
    pub fn request(
        &self,
        method: JsValue,
        family: JsValue,
        path: JsValue,
        init: JsValue,
        options: JsValue,
    ) -> js_sys::Promise {
        let result = (|| {
            let m = method
                .as_string()
                .and_then(|m| Method::parse(&m))
                .ok_or_else(|| {
                    to_js_error(&Error::config(
                        "method must be one of GET, POST, PUT, PATCH, DELETE",
                    ))
                })?;
            let f = family
                .as_string()
                .and_then(|f| Family::from_name(&f))
                .ok_or_else(|| {
                    to_js_error(&Error::config(
                        "family must be one of books, inventory, invoice, billing, crm",
                    ))
                })?;
            let path = path
                .as_string()
                .ok_or_else(|| to_js_error(&Error::config("path must be a string")))?;
            if !init.is_undefined() && !js::is_params(&init) {
                return Err(to_js_error(&Error::config(
                    "the fourth argument must be { query?, body? }",
                )));
            }
            let query = get(&init, "query");
            let query = if query.is_undefined() {
                serde_json::Map::new()
            } else {
                match serde_json::from_str(&js::to_wire(&query)?) {
                    Ok(serde_json::Value::Object(m)) => m,
                    _ => return Err(to_js_error(&Error::config("query must be an object"))),
                }
            };
            let body = get(&init, "body");
            let body = if body.is_undefined() {
                None
            } else {
                Some(
                    serde_json::from_str(&js::to_wire(&body)?)
                        .map_err(|e| to_js_error(&Error::config(format!("body: {e}"))))?,
                )
            };
            let prepared =
                request::build_raw(m, f, &path, &self.inner.target, &query, body.as_ref())
                    .map_err(|e| to_js_error(&e))?;
            let options = js::read_options(&options)?;
            Ok(Call::new(&self.inner, m, Shape::Empty, prepared, &options))
        })();
        match result {
            Ok(call) => {
                let inner = self.inner.clone();
                future_to_promise(execute(inner, call))
            }
            Err(e) => js_sys::Promise::reject(&e),
        }
    }
}

#[wasm_bindgen]
impl Client {
    /// Sends an operation and hands back the HTTP answer undecoded: the edge proxy's upstream call.
    #[wasm_bindgen(js_name = __forward, skip_typescript)]
    pub fn forward(&self, id: JsValue, path: JsValue, params: JsValue) -> js_sys::Promise {
        let result = (|| {
            let op = operation(&id)?;
            let path: Vec<String> = js_sys::Array::from(&path)
                .iter()
                .map(|p| p.as_string().unwrap_or_default())
                .collect();
            let (prepared, value, files) = self.check(op, &path, &params)?;
            Ok(Call {
                op_id: Some(op.id),
                params: Some((op, path, value)),
                files,
                raw: true,
                ..Call::new(
                    &self.inner,
                    op.method,
                    op.response,
                    prepared,
                    &JsValue::UNDEFINED,
                )
            })
        })();
        match result {
            Ok(call) => future_to_promise(execute(self.inner.clone(), call)),
            Err(e) => js_sys::Promise::reject(&e),
        }
    }
}

#[wasm_bindgen]
impl Pager {
    /// The page with this number, with the same filters and per_page.
    pub fn fetch(&self, page: u32) -> js_sys::Promise {
        let mut call = self.call.clone();
        if let Some((op, path, value)) = &mut call.params {
            let mut map = value.as_object().cloned().unwrap_or_default();
            map.insert("page".into(), page.into());
            *value = serde_json::Value::Object(map);
            let refs: Vec<&str> = path.iter().map(String::as_str).collect();
            match request::build(op, &self.inner.target, &refs, value) {
                Ok(p) => call.prepared = p,
                Err(e) => return js_sys::Promise::reject(&to_js_error(&e)),
            }
        }
        let inner = self.inner.clone();
        future_to_promise(execute(inner, call))
    }
}

fn headers_object(prepared: &Prepared, authorization: Option<&str>) -> js_sys::Object {
    let headers = js_sys::Object::new();
    for (k, v) in &prepared.headers {
        if matches!(prepared.body, Body::Multipart { .. }) && k == "Content-Type" {
            continue;
        }
        let _ = js_sys::Reflect::set(&headers, &k.into(), &v.into());
    }
    if let Some(auth) = authorization {
        let _ = js_sys::Reflect::set(&headers, &"Authorization".into(), &auth.into());
    }
    headers
}

fn body_value(prepared: &Prepared, files: &JsValue) -> JsValue {
    match &prepared.body {
        Body::None => JsValue::NULL,
        Body::Json(text) => text.into(),
        Body::Multipart { field } => js::form_data(field, files),
    }
}

fn prepared_to_js(prepared: &Prepared, files: &JsValue, authorization: Option<&str>) -> JsValue {
    let out = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&out, &"method".into(), &prepared.method.as_str().into());
    let _ = js_sys::Reflect::set(&out, &"url".into(), &prepared.url.as_str().into());
    let _ = js_sys::Reflect::set(
        &out,
        &"headers".into(),
        &headers_object(prepared, authorization),
    );
    let _ = js_sys::Reflect::set(&out, &"body".into(), &body_value(prepared, files));
    out.into()
}

fn token_error(why: &str) -> JsValue {
    to_js_error(&Error::new(
        ErrorKind::Unauthorized,
        format!("the accessToken function {why}"),
    ))
}

/// Calls the token function: a string, or a promise of one.
fn call_token_fn(f: &js_sys::Function) -> js_sys::Promise {
    match f.call0(&JsValue::UNDEFINED) {
        Ok(v) => js_sys::Promise::resolve(&v),
        Err(_) => js_sys::Promise::reject(&token_error("threw an error")),
    }
}

async fn await_token(promise: js_sys::Promise) -> Result<String, JsValue> {
    let value = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|e| {
            if get(&e, "kind").as_string().as_deref() == Some("unauthorized") {
                e
            } else {
                token_error("rejected")
            }
        })?;
    match value.as_string() {
        Some(s) if !s.is_empty() => Ok(s),
        _ => Err(token_error(
            "must return a non-empty string (or a promise of one)",
        )),
    }
}

/// The token for an attempt (none behind a proxy), and the refresh generation it belongs to.
async fn token(shared: &Shared) -> Result<(Option<String>, u64), JsValue> {
    match &shared.token {
        Token::Static(s) => Ok((Some(s.clone()), 0)),
        Token::Func(f) => {
            let generation = shared.refresh.borrow().0;
            Ok((Some(await_token(call_token_fn(f)).await?), generation))
        }
        Token::None => Ok((None, 0)),
    }
}

/// After a 401: one refresh shared by every call that saw a 401 with a token of `generation`.
async fn refreshed_token(shared: &Shared, generation: u64) -> Result<String, JsValue> {
    let Token::Func(f) = &shared.token else {
        unreachable!("only token functions are refreshed")
    };
    let promise = {
        let mut refresh = shared.refresh.borrow_mut();
        match &refresh.1 {
            Some(p) if refresh.0 > generation => p.clone(),
            _ => {
                let p = call_token_fn(f);
                *refresh = (refresh.0 + 1, Some(p.clone()));
                p
            }
        }
    };
    await_token(promise).await
}

fn jitter() -> f64 {
    js_sys::Math::random()
}

fn header(res: &JsValue, key: &str) -> Option<String> {
    get(res, key).as_string()
}

fn header_num<T: std::str::FromStr>(res: &JsValue, key: &str) -> Option<T> {
    header(res, key).and_then(|v| v.trim().parse().ok())
}

/// Waits for a slot of the limiter; the returned guard frees it when dropped.
async fn admit(shared: &Rc<Shared>, signal: &JsValue) -> Result<Option<Slot>, JsValue> {
    let Some(limiter) = &shared.limiter else {
        return Ok(None);
    };
    let ticket = limiter.borrow_mut().enqueue();
    loop {
        let decision = limiter.borrow_mut().poll(ticket, crate::clock::now_ms());
        match decision {
            Admit::Go => {
                wake_head(shared);
                return Ok(Some(Slot(shared.clone())));
            }
            Admit::QuotaSpent { until } => {
                let mut e = Error::new(
                    ErrorKind::RateLimited,
                    format!(
                        "the daily quota of {} requests of this plan is spent; it renews at the next day (UTC)",
                        limiter.borrow().limits().daily
                    ),
                );
                e.retry_after_ms = Some((until - crate::clock::now_ms()).max(0) as u64);
                return Err(to_js_error(&e));
            }
            Admit::Wait(ms) => {
                let ms = ms
                    .map(|m| JsValue::from_f64(m as f64))
                    .unwrap_or(JsValue::UNDEFINED);
                let w = js::wakeable(ms, signal);
                shared
                    .waiters
                    .borrow_mut()
                    .insert(ticket, get(&w, "wake").unchecked_into());
                let waited = wasm_bindgen_futures::JsFuture::from(
                    get(&w, "promise").unchecked_into::<js_sys::Promise>(),
                )
                .await;
                shared.waiters.borrow_mut().remove(&ticket);
                if let Err(e) = waited {
                    limiter.borrow_mut().cancel(ticket);
                    wake_head(shared);
                    return Err(e);
                }
            }
        }
    }
}

/// Wakes the call at the head of the limiter's queue so that it asks again.
fn wake_head(shared: &Shared) {
    let Some(limiter) = &shared.limiter else {
        return;
    };
    let head = limiter.borrow().head();
    if let Some(wake) = head.and_then(|t| shared.waiters.borrow_mut().remove(&t)) {
        let _ = wake.call0(&JsValue::UNDEFINED);
    }
}

/// A started call's place in the limiter; dropping it frees the slot.
struct Slot(Rc<Shared>);

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(l) = &self.0.limiter {
            l.borrow_mut().finish(crate::clock::now_ms());
        }
        wake_head(&self.0);
    }
}

/// Sends a call: token, attempts, retries, decoding.
async fn execute(opts: Rc<Shared>, call: Call) -> Result<JsValue, JsValue> {
    let result = send(&opts, &call).await;
    result.map_err(|e| with_op(e, call.op_id))
}

async fn send(opts: &Rc<Shared>, call: &Call) -> Result<JsValue, JsValue> {
    let fetch: js_sys::Function = match &opts.fetch {
        Some(f) => f.clone(),
        None => js::global_fetch().dyn_into().map_err(|_| {
            to_js_error(&Error::config(
                "no global fetch in this runtime: pass options.fetch",
            ))
        })?,
    };
    let policy = Policy::new(call.max_retries);
    let binary = call.shape == Shape::Binary;
    let body = body_value(&call.prepared, &call.files);
    let mut retries = 0u32;
    let mut uncertain = false;
    let mut refreshed: Option<String> = None;
    loop {
        let (token, generation) = match refreshed.take() {
            Some(t) => (Some(t), u64::MAX),
            None => token(opts).await?,
        };
        let auth = token
            .as_deref()
            .map(request::authorization)
            .transpose()
            .map_err(|e| to_js_error(&e))?;
        let fail = |e: Error| to_js_error(&e.without_secret(token.as_deref()));
        let slot = admit(opts, &call.signal).await?;
        let init = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&init, &"method".into(), &call.method.as_str().into());
        let _ = js_sys::Reflect::set(
            &init,
            &"headers".into(),
            &headers_object(&call.prepared, auth.as_deref()),
        );
        if !body.is_null() {
            let _ = js_sys::Reflect::set(&init, &"body".into(), &body);
        }
        let attempt = js::attempt(
            &fetch,
            &call.prepared.url,
            &init,
            &call.signal,
            call.timeout_ms,
            binary,
            call.raw.then(|| token.clone().unwrap_or_default()),
        )
        .await;
        let res = match attempt {
            Ok(res) => res,
            Err(e) => {
                let outcome = match get(&e, "kind").as_string().as_deref() {
                    Some("timeout") => Outcome::Timeout,
                    Some("network") => Outcome::Network,
                    _ => return Err(e),
                };
                match policy.next_delay(call.method, retries, outcome, jitter()) {
                    Some(ms) => {
                        js::sleep(ms as f64, &call.signal).await?;
                        retries += 1;
                        uncertain = true;
                        continue;
                    }
                    None => return Err(e),
                }
            }
        };
        drop(slot);
        let status = get(&res, "status").as_f64().unwrap_or(0.0) as u16;
        let now = crate::clock::now_ms();
        if let Some(l) = &opts.limiter {
            l.borrow_mut().observe(
                header_num(&res, "rateLimitLimit"),
                header_num(&res, "rateLimitRemaining"),
                header_num(&res, "rateLimitReset"),
                now,
            );
        }
        if status == 401 && matches!(opts.token, Token::Func(_)) && generation != u64::MAX {
            js::discard(&res);
            refreshed = Some(refreshed_token(opts, generation).await?);
            continue;
        }
        if status == 429 || status >= 500 {
            let retry_after =
                header(&res, "retryAfter").and_then(|v| retry::parse_retry_after(&v, now));
            if status == 429 {
                if let Some(l) = &opts.limiter {
                    l.borrow_mut()
                        .back_off(retry_after.unwrap_or(1_000) as i64, now);
                }
            }
            if let Some(ms) = policy.next_delay(
                call.method,
                retries,
                Outcome::Status(status, retry_after),
                jitter(),
            ) {
                js::discard(&res);
                js::sleep(ms as f64, &call.signal).await?;
                retries += 1;
                uncertain |= status >= 500;
                continue;
            }
            if call.raw {
                return Ok(res);
            }
            let bytes = bytes_of(&res);
            let mut err = response::error_from(status, &bytes);
            err.retry_after_ms = retry_after;
            return Err(fail(err));
        }
        if call.raw {
            return Ok(res);
        }
        if retry::delete_already_done(call.method, status, uncertain) {
            return Ok(super::json_to_js(
                r#"{"code":0,"message":"already deleted: an earlier attempt went through"}"#,
            ));
        }
        let blob = get(&res, "blob");
        if !blob.is_undefined() {
            return Ok(blob);
        }
        let bytes = bytes_of(&res);
        let content_type = get(&res, "contentType").as_string();
        let decoded = response::decode_shape(call.shape, status, content_type.as_deref(), &bytes)
            .map_err(fail)?;
        return match decoded {
            Decoded::Binary => Ok(js_sys::Uint8Array::from(bytes.as_slice()).into()),
            Decoded::Json(text) => {
                let value = js_sys::JSON::parse(&text).map_err(|_| {
                    to_js_error(
                        &Error::decode("the decoded response is not valid JSON")
                            .with_status(status),
                    )
                })?;
                if matches!(call.shape, Shape::List(_)) {
                    let pager = Pager {
                        inner: opts.clone(),
                        call: call.clone(),
                    };
                    Ok(js::make_page(&value, pager.into()))
                } else {
                    Ok(value)
                }
            }
        };
    }
}

fn bytes_of(res: &JsValue) -> Vec<u8> {
    get(res, "bytes")
        .dyn_into::<js_sys::Uint8Array>()
        .map(|a| a.to_vec())
        .unwrap_or_default()
}
