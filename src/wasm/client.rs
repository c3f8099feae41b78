//! The JS `Client`: options, the request of each call, and the synchronous steps that the send loop
//! (`js/send.js`) asks for: the token's header, the limiter, the retry policy, decoding.

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
use wasm_bindgen::prelude::*;

/// A client of the Svc API. Holds the options; the token only ever goes into the Authorization header.
#[wasm_bindgen(skip_typescript)]
pub struct Client {
    opts: Options,
    limiter: Option<RefCell<Limiter>>,
}

/// The JSON text of a query or body given to `request()`, or the validation error of what JSON cannot hold.
fn wire_text(value: &JsValue) -> Result<String, JsValue> {
    js::to_wire(value)
        .map(|text| text.as_string().unwrap_or_default())
        .map_err(|e| {
            let issue = crate::validate::Issue {
                path: vec![],
                code: crate::validate::IssueCode::InvalidFormat,
                message: super::message_of(&e),
                details: crate::validate::details([("format", "JSON".into())]),
            };
            to_js_error(&Error::validation(vec![issue]))
        })
}

pub fn operation(id: &JsValue) -> Result<&'static Operation, JsValue> {
    let name = id
        .as_string()
        .ok_or_else(|| to_js_error(&Error::config("the operation id must be a string")))?;
    catalog::find(&name)
        .ok_or_else(|| to_js_error(&Error::config(catalog::unknown_operation(&name))))
}

/// What the send loop sends, as `send.js`'s `callOf` takes it.
struct Call<'a> {
    method: Method,
    shape: Shape,
    prepared: Prepared,
    files: &'a JsValue,
    options: &'a JsValue,
    /// Without the Authorization header (`prepare()`).
    bare: bool,
}

impl Client {
    fn call_of(&self, call: Call) -> JsValue {
        let mut lines = format!("{}\n{}\n", call.method.as_str(), call.prepared.url);
        let authorization = self.static_authorization().filter(|_| !call.bare);
        for (k, v) in call.prepared.headers.iter().chain(authorization.iter()) {
            if matches!(call.prepared.body, Body::Multipart { .. }) && k == "Content-Type" {
                continue;
            }
            lines.push_str(k);
            lines.push('\n');
            lines.push_str(v);
            lines.push('\n');
        }
        let (body, field) = match &call.prepared.body {
            Body::None => (None, None),
            Body::Json(text) => (Some(text.as_str()), None),
            Body::Multipart { field } => (None, Some(*field)),
        };
        let kind = match call.shape {
            Shape::List(_) => "list",
            Shape::Binary => "binary",
            _ => "json",
        };
        js::call_of(&lines, body, field, call.files, kind, call.options)
    }

    /// `("Authorization", ...)` for a token given as a string (checked when the client was made).
    fn static_authorization(&self) -> Option<(String, String)> {
        match &self.opts.token {
            Token::Static(t) => request::authorization(t)
                .ok()
                .map(|h| ("Authorization".into(), h)),
            _ => None,
        }
    }

    fn secret(&self, token: Option<String>) -> Option<String> {
        match &self.opts.token {
            Token::Static(t) => Some(t.clone()),
            _ => token,
        }
    }
}

#[wasm_bindgen]
impl Client {
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Client, JsValue> {
        let opts = options::read(&options)?;
        let limiter = opts.limits().map(|l| RefCell::new(Limiter::new(l)));
        Ok(Client { opts, limiter })
    }

    /// What the limiter allows now: per minute, in flight, today, and what the server last said.
    #[wasm_bindgen(js_name = rateLimitState)]
    pub fn rate_limit_state(&self) -> JsValue {
        match &self.limiter {
            Some(l) => {
                let state = l.borrow_mut().state(crate::clock::now_ms());
                super::json_to_js(&serde_json::to_string(&state).unwrap_or_default())
            }
            None => JsValue::NULL,
        }
    }

    /// The call of operation number `index` for the send loop: its path params (strings, checked by
    /// `send.js`) and its params as the caller gave them, validated here; `bare` leaves the
    /// Authorization header out (`prepare()`).
    #[wasm_bindgen(js_name = __build, skip_typescript)]
    pub fn build(
        &self,
        index: u32,
        path: Vec<String>,
        params: JsValue,
        bare: bool,
    ) -> Result<JsValue, JsValue> {
        let op = catalog::OPERATIONS
            .get(index as usize)
            .ok_or_else(|| to_js_error(&Error::config("no operation at this index")))?;
        let checked = super::params::check(op, &params, self.opts.max_request_bytes)
            .map_err(|issues| to_js_error(&Error::validation(issues).with_operation(op.id)))?;
        let value = match checked.text.as_deref().map(crate::json::parse) {
            Some(Ok(v)) => v,
            _ => crate::json::Json::Null,
        };
        let refs: Vec<&str> = path.iter().map(String::as_str).collect();
        let prepared = request::build_json(op, &self.opts.target, &refs, &value)
            .map_err(|e| to_js_error(&e.with_operation(op.id)))?;
        Ok(self.call_of(Call {
            method: op.method,
            shape: op.response,
            prepared,
            files: &checked.files,
            options: &JsValue::UNDEFINED,
            bare,
        }))
    }

    /// A call that is not in the table, for the send loop: `request(method, family, path, { query?, body? }, options?)`.
    #[wasm_bindgen(js_name = __startRequest, skip_typescript)]
    pub fn start_request(
        &self,
        method: JsValue,
        family: JsValue,
        path: JsValue,
        init: JsValue,
        options: JsValue,
    ) -> Result<JsValue, JsValue> {
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
            match serde_json::from_str(&wire_text(&query)?) {
                Ok(serde_json::Value::Object(m)) => m,
                _ => return Err(to_js_error(&Error::config("query must be an object"))),
            }
        };
        let body = get(&init, "body");
        let body = if body.is_undefined() {
            None
        } else {
            Some(
                serde_json::from_str(&wire_text(&body)?)
                    .map_err(|e| to_js_error(&Error::config(format!("body: {e}"))))?,
            )
        };
        let query_value = serde_json::Value::Object(query);
        let mut issues =
            crate::validate::unrepresentable_issues(&crate::json::of_value(&query_value), "query");
        if let Some(body) = &body {
            issues.extend(crate::validate::unrepresentable_issues(
                &crate::json::of_value(body),
                "body",
            ));
        }
        let query = match query_value {
            serde_json::Value::Object(m) => m,
            _ => serde_json::Map::new(),
        };
        if !issues.is_empty() {
            return Err(to_js_error(&Error::validation(issues)));
        }
        let prepared = request::build_raw(m, f, &path, &self.opts.target, &query, body.as_ref())
            .map_err(|e| to_js_error(&e))?;
        let options = if options.is_undefined() || options.is_null() {
            js_sys::Object::new().into()
        } else {
            options::check_call(&options)?;
            options
        };
        Ok(self.call_of(Call {
            method: m,
            shape: Shape::Empty,
            prepared,
            files: &JsValue::UNDEFINED,
            options: &options,
            bare: false,
        }))
    }

    /// Checks the options of one call as the client's own are checked.
    #[wasm_bindgen(js_name = __checkCallOptions, skip_typescript)]
    pub fn check_call_options(&self, options: JsValue) -> Result<(), JsValue> {
        options::check_call(&options)
    }

    /// `{ fetch, token, secret, timeoutMs, maxRetries, limited, maxResponseBytes }`: the client's fetch (or undefined), its
    /// token function (undefined for a string, which the calls carry already), the string token
    /// (`secret`, which no error may quote), its defaults, whether it has a limiter, and its limit on answers.
    #[wasm_bindgen(js_name = __transport, skip_typescript)]
    pub fn transport(&self) -> JsValue {
        let token = match &self.opts.token {
            Token::Func(f) => f.clone().into(),
            _ => JsValue::UNDEFINED,
        };
        let secret = match &self.opts.token {
            Token::Static(t) => Some(t.as_str()),
            _ => None,
        };
        js::transport_of(
            self.opts.fetch.clone().map(JsValue::from).as_ref(),
            &token,
            secret,
            self.opts.timeout_ms as f64,
            self.opts.max_retries,
            self.limiter.is_some(),
            self.opts.max_response_bytes as f64,
        )
    }

    /// The Authorization header of a token a token function gave, or an `unauthorized` SvcError.
    #[wasm_bindgen(js_name = __authorization, skip_typescript)]
    pub fn authorization(&self, token: &str) -> Result<String, JsValue> {
        request::authorization(token).map_err(|e| to_js_error(&e.without_secret(Some(token))))
    }

    /// A place in the limiter's queue, or -1 without a limiter.
    #[wasm_bindgen(js_name = __enqueue, skip_typescript)]
    pub fn enqueue(&self) -> f64 {
        self.limiter
            .as_ref()
            .map_or(-1.0, |l| l.borrow_mut().enqueue() as f64)
    }

    /// Whether the call holding `ticket` may start: -1 go, Infinity wait until woken, else wait
    /// that many ms; a `rate_limited` SvcError when the daily quota is spent.
    #[wasm_bindgen(js_name = __poll, skip_typescript)]
    pub fn poll(&self, ticket: f64) -> Result<f64, JsValue> {
        let Some(limiter) = &self.limiter else {
            return Ok(-1.0);
        };
        let now = crate::clock::now_ms();
        let decision = limiter.borrow_mut().poll(ticket as u64, now);
        match decision {
            Admit::Go => Ok(-1.0),
            Admit::Wait(ms) => Ok(ms.map_or(f64::INFINITY, |m| m as f64)),
            Admit::QuotaSpent { until } => {
                let mut e = Error::new(
                    ErrorKind::RateLimited,
                    format!(
                        "the daily quota of {} requests of this plan is spent; it renews at the next day (UTC)",
                        limiter.borrow().limits().daily
                    ),
                );
                e.retry_after_ms = Some((until - now).max(0) as u64);
                Err(to_js_error(&e))
            }
        }
    }

    /// The ticket at the head of the limiter's queue, or -1.
    #[wasm_bindgen(js_name = __head, skip_typescript)]
    pub fn head(&self) -> f64 {
        self.limiter
            .as_ref()
            .and_then(|l| l.borrow().head())
            .map_or(-1.0, |t| t as f64)
    }

    /// Leaves the queue without starting (an aborted wait).
    #[wasm_bindgen(js_name = __cancel, skip_typescript)]
    pub fn cancel(&self, ticket: f64) {
        if let Some(l) = &self.limiter {
            l.borrow_mut().cancel(ticket as u64);
        }
    }

    /// A started call has ended: its slot is free.
    #[wasm_bindgen(js_name = __finish, skip_typescript)]
    pub fn finish(&self) {
        if let Some(l) = &self.limiter {
            l.borrow_mut().finish(crate::clock::now_ms());
        }
    }

    /// What an answer tells the limiter: the server's rate-limit headers, and a 429's wait.
    #[wasm_bindgen(js_name = __observe, skip_typescript)]
    pub fn observe(
        &self,
        status: u16,
        limit: Option<String>,
        remaining: Option<String>,
        reset: Option<String>,
        retry_after: Option<String>,
    ) {
        let Some(l) = &self.limiter else {
            return;
        };
        let now = crate::clock::now_ms();
        let num = |v: Option<String>| v.and_then(|v| v.trim().parse::<u64>().ok());
        let count = |v: Option<String>| num(v).and_then(|n| u32::try_from(n).ok());
        let mut l = l.borrow_mut();
        l.observe(count(limit), count(remaining), num(reset), now);
        if status == 429 {
            let wait = retry_after.and_then(|v| retry::parse_retry_after(&v, now));
            l.back_off(wait.unwrap_or(1_000) as i64, now);
        }
    }

    /// The wait before the next attempt, or -1 when the outcome is final. `status` is 0 for a
    /// timeout or a network failure (`timedOut` tells which).
    #[wasm_bindgen(js_name = __retryDelay, skip_typescript)]
    pub fn retry_delay(
        &self,
        method: &str,
        retries: u32,
        max_retries: u32,
        status: u16,
        timed_out: bool,
        retry_after: Option<String>,
    ) -> f64 {
        let method = Method::parse(method).unwrap_or(Method::Post);
        let outcome = match status {
            0 if timed_out => Outcome::Timeout,
            0 => Outcome::Network,
            s => Outcome::Status(
                s,
                retry_after.and_then(|v| retry::parse_retry_after(&v, crate::clock::now_ms())),
            ),
        };
        Policy::new(max_retries)
            .next_delay(method, retries, outcome, js_sys::Math::random())
            .map_or(-1.0, |ms| ms as f64)
    }

    /// The result of an answer of operation number `index` (-1: a `request()` call) as JSON text
    /// (the id digits kept), undefined for the bytes of a binary answer, or an SvcError. The
    /// content type matters to a binary answer only; `uncertain`: an earlier attempt may have
    /// reached the server; `token` is the one the attempt carried, which no message may quote.
    #[wasm_bindgen(js_name = __decode, skip_typescript)]
    #[allow(clippy::too_many_arguments)]
    pub fn decode(
        &self,
        index: i32,
        method: &str,
        status: u16,
        content_type: Option<String>,
        body: &[u8],
        retry_after: Option<String>,
        uncertain: bool,
        token: Option<String>,
    ) -> Result<Option<String>, JsValue> {
        let op = usize::try_from(index)
            .ok()
            .and_then(|i| catalog::OPERATIONS.get(i));
        let method = Method::parse(method).unwrap_or(Method::Post);
        let fail = |e: Error| {
            let e = match op {
                Some(op) => e.with_operation(op.id),
                None => e,
            };
            to_js_error(&e.without_secret(self.secret(token.clone()).as_deref()))
        };
        if (200..300).contains(&status) || !retry::delete_already_done(method, status, uncertain) {
            let shape = op.map_or(Shape::Empty, |op| op.response);
            return match response::decode_shape(shape, status, content_type.as_deref(), body) {
                Ok(Decoded::Json(text)) => Ok(Some(text)),
                Ok(Decoded::Binary) => Ok(None),
                Err(mut e) => {
                    if status == 429 || status >= 500 {
                        e.retry_after_ms = retry_after
                            .and_then(|v| retry::parse_retry_after(&v, crate::clock::now_ms()));
                    }
                    Err(fail(e))
                }
            };
        }
        Ok(Some(
            r#"{"code":0,"message":"already deleted: an earlier attempt went through"}"#.into(),
        ))
    }
}
