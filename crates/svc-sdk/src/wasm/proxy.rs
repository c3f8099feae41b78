//! The edge proxy (`createProxy`): a Request the runtime hands over, routed by the table, checked,
//! forwarded with the token, and answered; the redaction of what comes back.

use super::body::Unread;
use super::client::{Client, Params};
use super::js::{self, get, to_js_error};
use super::settle;
use crate::proxy::refuse;
use std::rc::Rc;
use svc_core::catalog::{self, BodyKind};
use svc_core::echo::quoted;
use svc_core::error::{Error, ErrorKind};
use svc_json::ToJson;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The proxy's own options, which the client it makes does not take.
const OWN: [&str; 3] = svc_core::declare::names(&crate::surface::PROXY);

/// An edge handler: the operations it forwards, the largest body it reads, and the client that
/// adds the token and the organization.
#[wasm_bindgen(js_name = __Proxy, skip_typescript)]
pub struct Proxy(Rc<Inner>);

struct Inner {
    allowed: Vec<&'static str>,
    /// `allowedOrigins`: a request with an Origin not among them is refused.
    origins: Option<Vec<String>>,
    limit: usize,
    client: Client,
}

fn config(message: impl Into<String>) -> JsValue {
    to_js_error(&Error::config(message))
}

#[wasm_bindgen(js_class = __Proxy)]
impl Proxy {
    /// From `createProxy`'s options (a plain copy): `allow`, `maxBodyBytes` and the client's options.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Proxy, JsValue> {
        let allow = get(&options, "allow");
        let ids = js::is_array(&allow)
            .then(|| js::members(&allow).ok())
            .flatten()
            .filter(|a| a.length() > 0)
            .ok_or_else(|| config("createProxy needs allow: the operation ids it forwards"))?;
        let mut allowed = Vec::new();
        for id in ids.iter() {
            let op = match id.as_string() {
                Some(name) => catalog::find(&name).ok_or_else(|| {
                    config(format!(
                        "allow names an unknown operation {}",
                        quoted(&name)
                    ))
                })?,
                None => {
                    return Err(config(format!(
                        "allow names an unknown operation (a {}, not an operation id)",
                        id.js_typeof().as_string().unwrap_or_default()
                    )))
                }
            };
            allowed.push(op.id);
        }
        if get(&options, "accessToken").is_undefined() && get(&options, "oauth").is_undefined() {
            return Err(config(
                "createProxy needs the accessToken it adds, or oauth to get it itself",
            ));
        }
        let limit = super::options::body_limit(&options, &super::options::PROXY)?;
        let origins = allowed_origins(&get(&options, "allowedOrigins"))?;
        let mut rest = options;
        for own in OWN {
            rest = js::without(&rest, own);
        }
        let client = Client::new(rest)?;
        Ok(Proxy(Rc::new(Inner {
            allowed,
            origins,
            limit,
            client,
        })))
    }

    /// The Response to one request; a rejection only for what is not a Request.
    pub fn handle(&self, request: JsValue) -> js_sys::Promise {
        let inner = self.0.clone();
        super::tasks::spawn(async move { inner.handle(request).await })
    }
}

/// `allowedOrigins`: not given, or an array of origins (`crate::origin::allowed`).
fn allowed_origins(v: &JsValue) -> Result<Option<Vec<String>>, JsValue> {
    if v.is_undefined() {
        return Ok(None);
    }
    let usage = "allowedOrigins must be an array of origins such as \"https://app.example.com\"";
    if !js::is_array(v) {
        return Err(config(usage));
    }
    let list = js::members(v).map_err(|_| config(usage))?;
    let texts = (0..list.length())
        .map(|i| list.get(i).as_string().ok_or_else(|| config(usage)))
        .collect::<Result<Vec<_>, _>>()?;
    crate::origin::allowed(&texts)
        .map(Some)
        .map_err(|e| to_js_error(&e))
}

/// The body of the proxy's own answers: `{"code":…,"message":…}`, then the issues when there are.
fn body(code: u16, message: &str, issues: Option<&[svc_core::issue::Issue]>) -> String {
    let mut out = String::new();
    let mut members = svc_json::write::Members::new(&mut out);
    svc_json::write::unsigned(members.key("code"), code.into());
    members.str("message", message);
    if let Some(issues) = issues {
        svc_json::write::array(members.key("issues"), issues, |o, i| i.write_json(o));
    }
    members.end();
    out
}

/// A JSON answer of the proxy itself.
fn answer(status: u16, body: &str) -> Result<JsValue, JsValue> {
    answer_with(status, body, None)
}

/// A JSON answer of the proxy itself, with a Retry-After of so many seconds.
fn answer_with(status: u16, body: &str, retry_after: Option<u64>) -> Result<JsValue, JsValue> {
    let headers = web_sys::Headers::new()?;
    headers.set("content-type", "application/json")?;
    if let Some(secs) = retry_after {
        headers.set("retry-after", &secs.to_string())?;
    }
    let init = web_sys::ResponseInit::new();
    init.set_status(status);
    init.set_headers(&headers);
    web_sys::Response::new_with_opt_str_and_init(Some(body), &init).map(Into::into)
}

/// A request the proxy cannot route or read, answered with the status its error carries (404,
/// 405, 413...) or 400.
fn refused(e: &Error) -> Result<JsValue, JsValue> {
    let status = e.status().unwrap_or(400);
    answer(status, &body(1000 + status, &e.message, None))
}

/// The answer to a request whose forward a restart of the core stopped (an aborted SvcError of
/// `core.js`): 503; any other rejection of `handle` (what is not a Request) stays one.
#[wasm_bindgen(js_name = __proxyFailed, skip_typescript)]
pub fn stopped(error: JsValue) -> Result<JsValue, JsValue> {
    match get(&error, "kind").as_string().as_deref() {
        Some("aborted") => failed(&error),
        _ => Err(error),
    }
}

/// A forward that failed (an SvcError of the send loop): 504 for a timeout, 429 for the limits,
/// 503 for a forward the proxy stopped, else 502, which says only that: its detail (a host, the
/// accounts server's refusal and what to configure) is the server's, in its log, not the page's.
fn failed(e: &JsValue) -> Result<JsValue, JsValue> {
    let status = match get(e, "kind").as_string().as_deref() {
        Some("timeout") => 504,
        Some("rate_limited") => 429,
        Some("aborted") => 503,
        _ => return answer(502, &body(1000, UPSTREAM_FAILED, None)),
    };
    let message = get(e, "message")
        .as_string()
        .unwrap_or_else(|| UPSTREAM_FAILED.into());
    let wait = get(e, "retryAfterMs").as_f64().filter(|ms| *ms >= 0.0);
    let retry_after = wait.map(|ms| (ms / 1000.0).ceil() as u64);
    answer_with(status, &body(1000, &message, None), retry_after)
}

/// The message of a 502: the proxy's upstream failed.
const UPSTREAM_FAILED: &str =
    "the proxy could not forward the request to the service; its server's log says why";

fn unreadable() -> Error {
    refuse(400, "the request could not be read")
}

/// A header of the request, read through its `get`.
fn header(headers: &JsValue, name: &str) -> Option<String> {
    let get_fn = get(headers, "get").dyn_into::<js_sys::Function>().ok()?;
    get_fn.call1(headers, &name.into()).ok()?.as_string()
}

/// What the proxy forwards: the operation, its path values and its params.
type Forward = (&'static catalog::Operation, Vec<String>, Params);

impl Inner {
    async fn handle(&self, request: JsValue) -> Result<JsValue, JsValue> {
        let url = get(&request, "url").as_string();
        let method = get(&request, "method").as_string();
        let headers = get(&request, "headers");
        let (Some(url), Some(method), true) = (url, method, get(&headers, "get").is_function())
        else {
            return Err(config(
                "proxy(request) takes the Request the runtime hands over",
            ));
        };
        let (op, path, params) = match self.plan(&request, &url, &method, &headers).await {
            Ok(forward) => forward,
            Err(e) => return refused(&e),
        };
        // The Request's signal (a Node server's when its client leaves) stops the forward.
        let signal = Some(get(&request, "signal")).filter(|s| s.is_object());
        let sent = match self.client.forward(op, &path, &params, signal) {
            Ok(sent) => sent,
            Err(e) if e.kind() == ErrorKind::Validation => {
                return answer(400, &body(1001, &e.message, Some(e.issues())));
            }
            Err(_) => return answer(502, &body(1000, UPSTREAM_FAILED, None)),
        };
        match settle::promise(&sent).await {
            Ok(response) => Ok(response),
            Err(e) => failed(&e),
        }
    }

    /// The request's body, read within `maxBodyBytes` and the client's body wait (`None` for a
    /// method without one): a declared or an actual length above the limit is a 413.
    async fn body(
        &self,
        request: &JsValue,
        method: &str,
        headers: &JsValue,
    ) -> Result<Option<Vec<u8>>, Error> {
        let too_large = || {
            let limit = self.limit;
            refuse(
                413,
                format!("the request body is larger than maxBodyBytes ({limit} bytes)"),
            )
        };
        let declared = header(headers, "content-length").and_then(|n| n.trim().parse::<u64>().ok());
        if declared.is_some_and(|n| n > self.limit as u64) {
            return Err(too_large());
        }
        let stream = get(request, "body");
        let with_body = !matches!(method, "GET" | "DELETE" | "HEAD") && stream.is_truthy();
        Ok(if with_body {
            let wait = self.client.body_wait();
            Some(
                super::body::read_within(&stream, self.limit, wait)
                    .await
                    .map_err(|e| match e {
                        Unread::TooLarge => too_large(),
                        Unread::Late(e) => e,
                        Unread::Failed(_) => unreadable(),
                    })?,
            )
        } else {
            None
        })
    }

    async fn plan(
        &self,
        request: &JsValue,
        url: &str,
        method: &str,
        headers: &JsValue,
    ) -> Result<Forward, Error> {
        let origin = header(headers, "origin");
        crate::origin::admitted(self.origins.as_deref(), origin.as_deref())?;
        let url = web_sys::Url::new(url).map_err(|_| unreadable())?;
        let routed = crate::proxy::route(method, &url.pathname())?;
        if !self.allowed.contains(&routed.op.id) {
            return Err(refuse(
                403,
                format!("this proxy does not forward {}", routed.op.id),
            ));
        }
        let content_type = header(headers, "content-type");
        routed.admit(content_type.as_deref())?;
        let content_type = content_type.unwrap_or_default();
        let bytes = self.body(request, method, headers).await?;
        let text = match (&bytes, routed.op.body) {
            (Some(b), BodyKind::Json) => {
                let text = std::str::from_utf8(b).map_err(|e| {
                    crate::proxy::refuse(
                        400,
                        format!(
                            "the body is not UTF-8 text (a byte that is not UTF-8 at byte {}), as JSON must be",
                            e.valid_up_to()
                        ),
                    )
                })?;
                Some(text.strip_prefix('\u{feff}').unwrap_or(text))
            }
            _ => None,
        };
        let search = url.search();
        let plan = routed.plan_text(
            search.strip_prefix('?').unwrap_or(&search),
            |name| header(headers, name),
            text,
        )?;
        let BodyKind::Multipart { param, many, .. } = plan.op.body else {
            return Ok((plan.op, plan.path_params, Params::Text(plan.params)));
        };
        let params = js_sys::JSON::parse(&plan.params).map_err(|_| unreadable())?;
        let body = bytes.unwrap_or_default();
        let entries = super::body::form_entries(&body, &content_type)
            .await
            .map_err(|_| unreadable())?;
        let files = js_sys::Array::new();
        for entry in entries.iter() {
            let entry: js_sys::Array = entry.unchecked_into();
            let (key, value) = (entry.get(0), entry.get(1));
            if value.is_string() {
                let _ = js_sys::Reflect::set(&params, &key, &value);
            } else {
                files.push(&value);
            }
        }
        let files = if many { files.into() } else { files.get(0) };
        let _ = js_sys::Reflect::set(&params, &param.into(), &files);
        Ok((plan.op, plan.path_params, Params::Form(params)))
    }
}
