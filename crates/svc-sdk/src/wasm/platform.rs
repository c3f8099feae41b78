//! The send loop's platform in JS: the global `fetch` or the user's, timers, abort signals, the
//! token function, and bodies read as the runtime streams them.

use super::js::{self, get};
use super::store::Store;
use super::{body, settle};
use crate::access::AccessToken;
use crate::origin;
use crate::send::{
    self, Answer, Event, Failure, Level, Note, Outgoing, Platform, Reason, TokenFailure,
    TokenResult,
};
use gloo_net::http::Headers;
use std::future::Future;
use svc_core::error::{Error, ErrorKind};
use svc_core::request::host_of;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// The global fetch, looked up at each call (a test or a polyfill may replace it). Bound as
    /// gloo-net binds it, but keeping the rejection itself: gloo-net's `send` keeps only its name
    /// and message, and the network error must carry its cause (`ECONNREFUSED`...).
    #[wasm_bindgen(js_name = fetch, catch)]
    fn global_fetch(url: &str, init: &web_sys::RequestInit) -> Result<js_sys::Promise, JsValue>;
}

/// The JS side of a client: the user's fetch (else the global one, through gloo-net), token
/// function, store, and who is told what happens to its calls.
#[derive(Clone)]
pub struct Js {
    pub fetch: Option<js_sys::Function>,
    pub token: Option<js_sys::Function>,
    /// `rateLimit.store`, keyed by the organization.
    pub store: Option<Store>,
    pub watch: Watchers,
}

/// `logLevel` with its `logger`, and the `onRequest` / `onResponse` hooks.
#[derive(Clone)]
pub struct Watchers {
    pub level: Option<Level>,
    /// The user's logger, told records; `None`: the runtime's console, told lines.
    pub logger: Option<JsValue>,
    pub on_request: Option<js_sys::Function>,
    pub on_response: Option<js_sys::Function>,
}

impl Watchers {
    /// Logs `note` at its level, if `logLevel` lets it through.
    pub fn tell(&self, note: &Note<'_>) {
        if let Some((level, line)) = note.line(self.level) {
            self.log(level, &line, || note.record(level, &line));
        }
    }

    /// Writes at `level`: the user's logger gets the record (`record`, JSON), the console the line.
    fn log(&self, level: Level, line: &str, record: impl FnOnce() -> String) {
        let (logger, arg) = match &self.logger {
            Some(logger) => (logger.clone(), js::frozen(&super::json_to_js(&record()))),
            None => (get(&js_sys::global(), "console"), JsValue::from_str(line)),
        };
        let write = get(&logger, level.method());
        if let Some(f) = write.dyn_ref::<js_sys::Function>() {
            let _ = f.call1(&logger, &arg);
        }
    }

    /// Calls a hook with a frozen view of the attempt; a hook that throws is logged, never fatal.
    fn hook(&self, hook: &Option<js_sys::Function>, name: &str, note: &Note<'_>) {
        let Some(f) = hook else {
            return;
        };
        let Some(info) = note.hook_info() else {
            return;
        };
        let info = js::frozen(&super::json_to_js(&info));
        if let Err(e) = f.call1(&JsValue::UNDEFINED, &info) {
            if self.level >= Some(Level::Warn) {
                let message = super::message_of(&e);
                let line = format!("svc-sdk: {name} threw and was ignored: {message}");
                self.log(Level::Warn, &line, || note.hook_threw(&line));
            }
        }
    }
}

/// An answer's body unread, with the controller that lets go of it.
pub struct Raw {
    /// What the fetch resolved to: a Response, or whatever a `fetch` option gave.
    pub response: JsValue,
    /// Its Content-Length, as it said, when it counts the bytes the body gives: not for an
    /// encoded (compressed) body, whose inflated bytes are counted as they stream instead.
    declared: Option<String>,
    controller: web_sys::AbortController,
    /// The token the attempt carried, which a proxied body must not show.
    pub secret: Option<String>,
}

/// Aborts the request when the attempt is dropped unfinished (a timeout, an abort).
struct AbortOnDrop(Option<web_sys::AbortController>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(c) = self.0.take() {
            c.abort();
        }
    }
}

fn string_of(v: &JsValue, key: &str) -> Option<String> {
    get(v, key).as_string()
}

/// A fetch that failed: the host, the code of its cause (`ECONNREFUSED`...) and its messages.
fn network(url: &str, e: &JsValue) -> Failure {
    let cause = get(e, "cause");
    let code = string_of(&cause, "code").or_else(|| string_of(e, "code"));
    let what = string_of(e, "message").unwrap_or_else(|| {
        e.as_string()
            .unwrap_or_else(|| "the fetch failed".to_string())
    });
    let inner = (!cause.is_undefined()).then(|| {
        string_of(&cause, "message")
            .or_else(|| cause.as_string())
            .unwrap_or_default()
    });
    Failure::network(host_of(url), &what, code.as_deref(), inner.as_deref())
}

/// The answer of a fetch as gloo-net reads it, once it is known to have headers to read (a custom
/// fetch may resolve to anything).
/// Its status read as a property (never through a getter of web-sys, which a Proxy or a plain
/// object makes throw).
fn answer_of(value: &JsValue) -> Result<u16, Failure> {
    let not_a_response = || {
        Failure::from(Error::config(
            "the fetch option resolved to something that is not a Response",
        ))
    };
    let headers = get(value, "headers");
    if !get(&headers, "get").is_function() {
        return Err(not_a_response());
    }
    let status = get(value, "status").as_f64().unwrap_or(-1.0);
    if status.fract() != 0.0 || !(0.0..=599.0).contains(&status) {
        return Err(not_a_response());
    }
    Ok(status as u16)
}

/// The request's init: method, headers (with the Authorization of this attempt), body, signal, and
/// redirects not followed (`origin::redirected` makes an error of one).
/// Header values reach here checked (printable ASCII), so `Headers::set` cannot throw.
fn init(req: &Outgoing<'_, JsValue>, signal: &web_sys::AbortSignal) -> web_sys::RequestInit {
    let headers = Headers::new();
    for (k, v) in req.headers {
        headers.set(k, v);
    }
    if let Some(a) = req.authorization {
        headers.set("Authorization", a);
    }
    let init = web_sys::RequestInit::new();
    init.set_method(req.method.as_str());
    init.set_headers(&headers.into_raw());
    if !req.body.is_undefined() {
        init.set_body(req.body);
    }
    init.set_signal(Some(signal));
    init.set_redirect(web_sys::RequestRedirect::Manual);
    init
}

impl Platform for Js {
    type Body = JsValue;
    type Raw = Raw;
    type Signal = JsValue;

    async fn fetch(&self, req: Outgoing<'_, JsValue>) -> Result<Answer<Raw>, Failure> {
        let controller = web_sys::AbortController::new().map_err(|_| {
            Failure::from(Error::config("AbortController is missing in this runtime"))
        })?;
        let init = init(&req, &controller.signal());
        let mut guard = AbortOnDrop(Some(controller));
        let url = JsValue::from_str(req.url);
        let promise = match &self.fetch {
            Some(f) => f
                .call2(&JsValue::UNDEFINED, &url, &init)
                .map(|v| js::resolved(&v)),
            None => global_fetch(req.url, &init),
        };
        let response = match promise {
            Ok(p) => settle::promise(&p).await,
            Err(e) => Err(e),
        }
        .map_err(|e| network(req.url, &e))?;
        let url = string_of(&response, "url").filter(|u| !u.is_empty());
        let pairs = js::header_pairs(&response);
        let response_type = string_of(&response, "type").unwrap_or_default();
        let followed = get(&response, "redirected").as_bool() == Some(true);
        let status = answer_of(&response)?;
        let url = url.unwrap_or_else(|| req.url.to_string());
        let mut headers = svc_core::headers::Headers(pairs);
        let came = origin::Came {
            status,
            response_type: &response_type,
            followed,
            url: &url,
            location: headers.get("location"),
        };
        if let Some(e) = origin::redirected(&came, req.url, req.upstream) {
            js::discard(&response);
            headers.0.retain(|(k, _)| k != "location");
            let e = match e.status() {
                Some(_) => e.with_headers(&headers),
                None => e,
            };
            return Err(e.into());
        }
        let Some(controller) = guard.0.take() else {
            return Err(Error::config("the attempt lost its controller").into());
        };
        let encoded = headers
            .get("content-encoding")
            .is_some_and(|e| !e.trim().eq_ignore_ascii_case("identity"));
        let declared = match encoded {
            true => None,
            false => headers.get("content-length").map(str::to_string),
        };
        Ok(Answer {
            status,
            url,
            headers,
            raw: Raw {
                response,
                declared,
                controller,
                secret: req.secret.map(str::to_string),
            },
        })
    }

    async fn read(&self, raw: Raw, max: usize) -> Result<Vec<u8>, Failure> {
        let Raw {
            response,
            declared,
            controller,
            ..
        } = raw;
        let mut guard = AbortOnDrop(Some(controller));
        let bytes = body::read_answer(&response, declared, max)
            .await
            .map_err(|e| Failure::network("the service", &super::message_of(&e), None, None))?;
        guard.0.take();
        bytes.ok_or_else(|| send::too_large(max).into())
    }

    fn discard(&self, raw: Raw) {
        js::discard(&raw.response);
    }

    /// A wait longer than a JS timer holds (2^31 - 1 ms, past which it fires at once) is a chain
    /// of timers.
    fn sleep(&self, ms: u64) -> impl Future<Output = ()> {
        const MOST: u64 = i32::MAX as u64;
        let first = settle::timer(ms.min(MOST) as f64);
        async move {
            let _ = first.await;
            let mut left = ms.saturating_sub(MOST);
            while left > 0 {
                let _ = settle::timer(left.min(MOST) as f64).await;
                left = left.saturating_sub(MOST);
            }
        }
    }

    fn now_ms(&self) -> i64 {
        js_sys::Date::now() as i64
    }

    fn random(&self) -> f64 {
        js_sys::Math::random()
    }

    /// A reason named `TimeoutError` (`AbortSignal.timeout`) ends the call as a timeout.
    fn aborted(&self, signal: &JsValue) -> Option<(ErrorKind, String)> {
        if get(signal, "aborted").as_bool() != Some(true) {
            return None;
        }
        let reason = get(signal, "reason");
        let kind = match string_of(&reason, "name").as_deref() {
            Some("TimeoutError") => ErrorKind::Timeout,
            _ => ErrorKind::Aborted,
        };
        let message = string_of(&reason, "message").unwrap_or_else(|| send::ABORTED.to_string());
        Some((kind, message))
    }

    /// One listener per signal, shared by every wait on it (`abort`).
    fn on_abort(&self, signal: &JsValue) -> impl Future<Output = ()> {
        super::abort::on_abort(signal)
    }

    fn token(&self, reason: Reason) -> impl Future<Output = TokenResult> + 'static {
        let called = match &self.token {
            Some(f) => f
                .call1(&JsValue::UNDEFINED, &context(reason))
                .map_err(|_| TokenFailure::Threw),
            None => Ok(JsValue::UNDEFINED),
        };
        let promise = called.map(|v| settle::promise(&js::resolved(&v)));
        async move {
            match promise?.await {
                Ok(v) => issued(&v),
                Err(e) => Err(token_failure(&e)),
            }
        }
    }

    fn note(&self, note: &Note<'_>) {
        let w = &self.watch;
        match note.event {
            Event::Sending { .. } => w.hook(&w.on_request, "onRequest", note),
            Event::Answered { .. } => w.hook(&w.on_response, "onResponse", note),
            _ => {}
        }
        w.tell(note);
    }

    fn store_step(
        &self,
        key: Option<&str>,
        request: String,
    ) -> impl Future<Output = Result<String, String>> {
        let store = self.store.clone();
        let key = key.map(str::to_string);
        async move {
            match store {
                Some(store) => store.step(key, request).await,
                None => Err("this client has no store".into()),
            }
        }
    }
}

/// What the token function is told: `{ reason }`, frozen.
fn context(reason: Reason) -> JsValue {
    let ctx = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&ctx, &"reason".into(), &reason.name().into());
    js::frozen(&ctx)
}

/// What the token function gave: a string, or `{ token, expiresAt }` with `expiresAt` in ms since
/// the epoch or a Date; anything else `None`. A token longer than any the client sends stays in JS,
/// its length said (`TokenFailure::TooLong`).
fn issued(v: &JsValue) -> TokenResult {
    let fits = |t: &JsValue| match t.dyn_ref::<js_sys::JsString>().map(|s| s.length() as usize) {
        Some(n) if n > svc_core::request::TOKEN_MAX => Err(TokenFailure::TooLong(n)),
        n => Ok(n.is_some()),
    };
    if fits(v)? {
        return Ok(v.as_string().map(AccessToken::from));
    }
    let token = get(v, "token");
    if !fits(&token)? {
        return Ok(None);
    }
    let Some(token) = token.as_string() else {
        return Ok(None);
    };
    let at = get(v, "expiresAt");
    let expires_at = match js::time_of(&at).or_else(|| at.as_f64()) {
        _ if at.is_undefined() || at.is_null() => None,
        Some(n) if n.is_finite() => Some(n as i64),
        _ => return Err(TokenFailure::NoTime),
    };
    Ok(Some(AccessToken {
        token: token.into(),
        expires_at,
        domain: None,
    }))
}

/// A rejection of the token function: an SDK error of kind unauthorized or aborted as it is, any
/// other a plain rejection.
fn token_failure(e: &JsValue) -> TokenFailure {
    let kind = string_of(e, "kind");
    let is_svc = string_of(e, "name").as_deref() == Some("SvcError");
    match (is_svc, kind.as_deref()) {
        (true, Some(k @ ("unauthorized" | "aborted"))) => {
            let kind = if k == "aborted" {
                ErrorKind::Aborted
            } else {
                ErrorKind::Unauthorized
            };
            TokenFailure::Error(Error::new(
                kind,
                string_of(e, "message").unwrap_or_default(),
            ))
        }
        _ => TokenFailure::Rejected,
    }
}
