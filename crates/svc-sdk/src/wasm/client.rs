//! The JS `Client`: its options and transport, and each call checked, built and sent by the
//! send loop (`crate::send`) on the JS platform.

use super::js::{self, get, to_js_error};
use super::options::{self, Options};
use super::platform::{Js, Watchers};
use super::store::Store;
use crate::send::{self, Credential, Failure, Reply, Transport};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use svc_core::catalog::{Method, Operation, Shape};
use svc_core::error::Error;
use svc_core::family::Family;
use svc_core::issue::{Issue, PathSeg, Problem};
use svc_core::request::{self, Body, Prepared};
use svc_json::Json;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A client of the Svc API. Holds the options; the token only ever goes into the Authorization header.
#[wasm_bindgen(skip_typescript)]
pub struct Client {
    opts: Options,
    carrier: Carrier,
}

/// What a client's calls go through: its transport, or one made later (a connection's, once its
/// record is read).
#[derive(Clone)]
enum Carrier {
    Ready(Rc<Transport<Js>>),
    #[cfg(feature = "server")]
    Later(Rc<dyn Later>),
}

/// A future of what `Later` gives.
#[cfg(feature = "server")]
pub(super) type Soon<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// A transport made when the first call needs it, and made anew when what it was made from changes.
#[cfg(feature = "server")]
pub(super) trait Later {
    /// The transport made last, if any.
    fn ready(&self) -> Option<Rc<Transport<Js>>>;
    /// The transport of the next call, made by its `deadline` and before its `signal` fires.
    fn transport<'a>(
        &'a self,
        deadline: send::Deadline,
        signal: Option<&'a JsValue>,
    ) -> Soon<'a, Result<Rc<Transport<Js>>, Failure>>;
    /// What a failed call teaches it; the failure the call ends with.
    fn failed(&self, f: Failure) -> Soon<'_, Failure>;
}

impl Carrier {
    /// The transport of a call, and its options with what is left of its deadline once it is had.
    #[cfg_attr(not(feature = "server"), allow(unused_variables))]
    async fn transport(
        &self,
        options: send::Options,
        signal: Option<&JsValue>,
    ) -> Result<(Rc<Transport<Js>>, send::Options), Failure> {
        match self {
            Carrier::Ready(t) => Ok((t.clone(), options)),
            #[cfg(feature = "server")]
            Carrier::Later(later) => {
                let now = || js_sys::Date::now() as i64;
                let deadline = send::Deadline::new(now(), options.deadline_ms);
                let t = later.transport(deadline, signal).await?;
                let left = deadline
                    .left(now())
                    .map_or(0, |ms| ms.clamp(1, u32::MAX.into()) as u32);
                Ok((
                    t,
                    send::Options {
                        deadline_ms: left,
                        ..options
                    },
                ))
            }
        }
    }

    async fn failed(&self, f: Failure) -> Failure {
        match self {
            Carrier::Ready(_) => f,
            #[cfg(feature = "server")]
            Carrier::Later(later) => later.failed(f).await,
        }
    }
}

/// The transport of a client with `opts`: its platform, credential, limiter and keys.
pub(super) fn transport_of(opts: &Options) -> Transport<Js> {
    let key = opts.target.organization_id.clone().unwrap_or_default();
    let platform = Js {
        fetch: opts.fetch.clone(),
        token: opts.token_function.clone(),
        store: (opts.fleet.as_ref()).and_then(|f| Store::new(f.store.clone(), key)),
        watch: Watchers {
            level: opts.level,
            logger: opts.logger.clone(),
            on_request: opts.on_request.clone(),
            on_response: opts.on_response.clone(),
        },
    };
    let keys = opts.credential_keys();
    let limiting = opts.limiting(keys.as_ref().map_or("", |k| &k.store));
    let mut transport =
        Transport::new(platform, opts.credential.clone(), limiting, opts.max_queued);
    if let Some(keys) = &keys {
        transport = transport.shared_by(&keys.process);
    }
    transport = transport.reserve(opts.reserve_per_mille);
    if opts.follow_grant_domain {
        transport = transport.follow_grant_domain(opts.target.api_domain.clone());
    }
    transport
}

fn config(message: impl Into<String>, op: Option<&str>) -> JsValue {
    let e = Error::config(message);
    to_js_error(&match op {
        Some(id) => e.with_operation(id),
        None => e,
    })
}

/// Path params, params and options from the arguments of an operation method, checked; a path
/// param longer than `max` (maxRequestBytes) is refused before it is copied into the core.
fn split_args(
    op: &Operation,
    args: &js_sys::Array,
    max: usize,
) -> Result<(Vec<String>, JsValue, JsValue), JsValue> {
    let names: Vec<&str> = op.path_params().collect();
    let n = names.len() as u32;
    let usage = || {
        let mut parts: Vec<String> = names.iter().map(|p| format!("{p}: string")).collect();
        parts.push("params?".into());
        parts.push("options?".into());
        format!("{}({})", op.id, parts.join(", "))
    };
    let mut path = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        path.push(super::params::path_value(
            op,
            name,
            &args.get(i as u32),
            max,
            &usage,
        )?);
    }
    if (n + 2..args.length()).any(|i| !args.get(i).is_undefined()) {
        return Err(config(
            format!("too many arguments: call {}", usage()),
            Some(op.id),
        ));
    }
    Ok((path, args.get(n), args.get(n + 1)))
}

/// A call's options over the client's: timeout and retries, its signal, and its extra headers.
type CallOptions = (send::Options, Option<JsValue>, Vec<(String, String)>);

fn call_options(
    opts: &Options,
    options: &JsValue,
    op: Option<&str>,
) -> Result<CallOptions, JsValue> {
    let defaults = send::Options {
        timeout_ms: opts.timeout_ms,
        deadline_ms: opts.deadline_ms,
        max_retries: opts.max_retries,
        max_response_bytes: opts.max_response_bytes,
        raw: false,
        background: opts.background,
    };
    if options.is_undefined() || options.is_null() {
        return Ok((defaults, None, Vec::new()));
    }
    // Each option read once, into a copy: a getter could give the checks one value and the call
    // another. Where reading them throws, the checks read the options themselves and say so.
    let copy = match options.is_object() && !js::is_array(options) && !options.is_function() {
        true => js::copied(options).ok(),
        false => None,
    };
    let options = copy.as_ref().unwrap_or(options);
    options::check_call(options).inspect_err(|e| {
        if let Some(id) = op {
            let _ = js_sys::Reflect::set(e, &"operationId".into(), &id.into());
        }
    })?;
    let count = |key: &str, default: u32| get(options, key).as_f64().map_or(default, |n| n as u32);
    let signal = get(options, "signal");
    Ok((
        send::Options {
            timeout_ms: count("timeoutMs", defaults.timeout_ms),
            deadline_ms: count("deadlineMs", defaults.deadline_ms),
            max_retries: count("maxRetries", defaults.max_retries),
            background: options::background(options)?.unwrap_or(defaults.background),
            ..defaults
        },
        (!signal.is_undefined()).then_some(signal),
        options::call_headers(options)?,
    ))
}

/// A request built, ready for the loop: its headers and its body as JS values.
struct Ready {
    method: Method,
    url: String,
    headers: Vec<(String, String)>,
    body: JsValue,
}

impl Ready {
    /// The request with its body; a file that seemed a Blob but cannot be sent as one is a
    /// validation issue.
    fn of(prepared: Prepared, files: &JsValue) -> Result<Ready, Error> {
        let multipart = matches!(prepared.body, Body::Multipart { .. });
        let body = match &prepared.body {
            Body::None => JsValue::UNDEFINED,
            Body::Json(text) => JsValue::from_str(text),
            Body::Multipart { field } => js::form_data(field, files).map_err(|e| {
                Error::validation(vec![Issue {
                    path: vec![PathSeg::Key(field.to_string().into())],
                    message: format!("a file could not be read: {}", super::message_of(&e)),
                    problem: Problem::InvalidType {
                        expected: "file".into(),
                    },
                }])
            })?,
        };
        let headers = prepared
            .headers
            .into_iter()
            .filter(|(k, _)| !(multipart && k == "Content-Type"))
            .collect();
        Ok(Ready {
            method: prepared.method,
            url: prepared.url,
            headers,
            body,
        })
    }
}

/// An error of the loop as an SvcError, with the cause of a network failure.
fn failure_to_js(f: Failure) -> JsValue {
    let e = to_js_error(&f.error);
    if let Some(c) = f.error.cause() {
        js::with_cause(&e, &c.message, c.code.as_deref(), &c.host);
    }
    e
}

/// The params the proxy forwards: the JSON text the core planned from the query, the headers and a
/// JSON body (every value as the sender wrote it, never through JS numbers), or a form's as a JS object.
#[cfg(feature = "server")]
pub(super) enum Params {
    Text(String),
    Form(JsValue),
}

impl Client {
    /// How long a body this client's proxy reads from now may take: its calls' timeout as the
    /// most it may send nothing, and their deadline.
    #[cfg(feature = "server")]
    pub fn body_wait(&self) -> crate::proxy::BodyWait {
        let now = js_sys::Date::now() as i64;
        crate::proxy::BodyWait::new(now, self.opts.timeout_ms, self.opts.deadline_ms)
    }

    fn build(
        &self,
        op: &'static Operation,
        path: &[String],
        params: &JsValue,
    ) -> Result<Ready, JsValue> {
        self.ready(op, path, params).map_err(|e| to_js_error(&e))
    }

    fn ready(
        &self,
        op: &'static Operation,
        path: &[String],
        params: &JsValue,
    ) -> Result<Ready, Error> {
        let max = self.opts.max_request_bytes;
        super::upload::check(op, params, max, |checked| self.built(op, path, checked))
            .map_err(|issues| Error::validation(issues).with_operation(op.id))?
    }

    /// The request of checked params, built from the value they were checked as.
    fn built(
        &self,
        op: &'static Operation,
        path: &[String],
        checked: super::upload::Checked<'_>,
    ) -> Result<Ready, Error> {
        let value = checked.value;
        let refs: Vec<&str> = path.iter().map(String::as_str).collect();
        let prepared = request::build_json(op, &self.opts.target, &refs, &value)
            .map_err(|e| e.with_operation(op.id))?;
        if self.opts.warn_unknown_fields {
            self.warn_unknown(op, &prepared, &value);
        }
        Ready::of(prepared, &checked.files).map_err(|e| e.with_operation(op.id))
    }

    /// Logs the fields of `params` that `op` does not know (`warnUnknownFields`), by name only.
    fn warn_unknown(&self, op: &'static Operation, prepared: &Prepared, params: &Json) {
        let names = svc_core::validate::unknown::unknown_fields(op.params, params);
        if names.is_empty() {
            return;
        }
        let watch = Watchers {
            level: self.opts.level,
            logger: self.opts.logger.clone(),
            on_request: None,
            on_response: None,
        };
        watch.tell(&crate::send::note::Note {
            operation: Some(op.id),
            method: prepared.method,
            url: &prepared.url,
            attempt: 0,
            event: crate::send::note::Event::UnknownFields { names: &names },
            secret: match &self.opts.credential {
                Credential::Static(t) => Some(t.expose()),
                _ => None,
            },
        });
    }

    /// The edge proxy's upstream call: the promise of the answer as it came, as a Response to pass
    /// back (its body a stream, the token redacted from it and from the headers); `signal` (the
    /// Request's) stops it.
    #[cfg(feature = "server")]
    pub(super) fn forward(
        &self,
        op: &'static Operation,
        path: &[String],
        params: &Params,
        signal: Option<JsValue>,
    ) -> Result<js_sys::Promise, Error> {
        let ready = match params {
            Params::Form(params) => self.ready(op, path, params)?,
            Params::Text(text) => {
                let max = self.opts.max_request_bytes;
                super::upload::check_text(op, text, max, |checked| self.built(op, path, checked))
                    .map_err(|issues| Error::validation(issues).with_operation(op.id))??
            }
        };
        let options = send::Options {
            timeout_ms: self.opts.timeout_ms,
            deadline_ms: self.opts.deadline_ms,
            max_retries: self.opts.max_retries,
            max_response_bytes: self.opts.max_response_bytes,
            raw: true,
            background: self.opts.background,
        };
        Ok(self.send(ready, op.response, Some(op.id), options, signal))
    }

    /// Sends a built request through the loop; the promise of its result.
    fn send(
        &self,
        ready: Ready,
        shape: Shape,
        operation: Option<&'static str>,
        options: send::Options,
        signal: Option<JsValue>,
    ) -> js_sys::Promise {
        let carrier = self.carrier.clone();
        super::tasks::spawn(async move {
            let (transport, options) = carrier
                .transport(options, signal.as_ref())
                .await
                .map_err(failure_to_js)?;
            let call = send::Call {
                method: ready.method,
                url: &ready.url,
                headers: &ready.headers,
                body: &ready.body,
                shape,
                operation,
                options,
                signal: signal.as_ref(),
            };
            let sent: Pin<Box<dyn Future<Output = _>>> = Box::pin(transport.send(&call));
            match sent.await {
                Ok(Reply::Json { text, head }) => Ok(js::with_response(
                    &super::answer_to_js(&text),
                    &head.to_json(),
                )),
                Ok(Reply::Binary { bytes, head }) => {
                    let content_type = head.header("content-type").unwrap_or("");
                    let blob = js::blob(&bytes, content_type);
                    Ok(js::with_response(&blob, &head.to_json()))
                }
                Ok(Reply::Raw(answer)) => {
                    let secret = answer.raw.secret.as_deref();
                    let headers = crate::proxy::passed_back(&answer.headers, secret);
                    super::body::pass_back(
                        &answer.raw.response,
                        answer.status,
                        &headers.0,
                        secret,
                        options.timeout_ms,
                    )
                    .map_err(|e| {
                        let why = super::message_of(&e);
                        let f = Failure::network("the service", &why, None, None);
                        failure_to_js(f)
                    })
                }
                Err(f) => Err(failure_to_js(carrier.failed(f).await)),
            }
        })
    }

    /// A client whose transport `later` makes (a connection's).
    #[cfg(feature = "server")]
    pub(super) fn later(opts: Options, later: Rc<dyn Later>) -> Client {
        Client {
            opts,
            carrier: Carrier::Later(later),
        }
    }
}

fn settle(result: Result<js_sys::Promise, JsValue>) -> js_sys::Promise {
    result.unwrap_or_else(|e| js_sys::Promise::reject(&e))
}

#[wasm_bindgen]
impl Client {
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Client, JsValue> {
        let opts = options::read(&options)?;
        let transport = Rc::new(transport_of(&opts));
        Ok(Client {
            opts,
            carrier: Carrier::Ready(transport),
        })
    }

    /// What the limiter allows now: per minute, in flight, today, and what the server last said.
    #[wasm_bindgen(js_name = rateLimitState)]
    pub fn rate_limit_state(&self) -> JsValue {
        let transport = match &self.carrier {
            Carrier::Ready(t) => Some(t.clone()),
            #[cfg(feature = "server")]
            Carrier::Later(later) => later.ready(),
        };
        match transport.and_then(|t| t.rate_limit_state()) {
            Some(state) => super::json_to_js(&svc_json::to_string(&state)),
            None => JsValue::NULL,
        }
    }

    /// Calls operation `id` with the arguments of its method: checked, built and sent.
    #[wasm_bindgen(js_name = __call, skip_typescript)]
    pub fn call(&self, id: JsValue, args: js_sys::Array) -> js_sys::Promise {
        settle((|| {
            let op = super::operation_by_id(&id)?;
            let (path, params, options) = split_args(op, &args, self.opts.max_request_bytes)?;
            let (options, signal, extra) = call_options(&self.opts, &options, Some(op.id))?;
            let mut ready = self.build(op, &path, &params)?;
            request::merge_headers(&mut ready.headers, &extra);
            Ok(self.send(ready, op.response, Some(op.id), options, signal))
        })())
    }

    /// The request an operation would send, validated; nothing is sent. The Authorization header is left out.
    #[wasm_bindgen(js_name = __prepare, skip_typescript)]
    pub fn prepare(&self, id: JsValue, args: js_sys::Array) -> js_sys::Promise {
        settle((|| {
            let op = super::operation_by_id(&id)?;
            args.push(&JsValue::UNDEFINED);
            let (path, params, options) = split_args(op, &args, self.opts.max_request_bytes)?;
            if !options.is_undefined() {
                return Err(config(
                    format!("prepare takes ({}, ...pathParams, params?)", op.id),
                    None,
                ));
            }
            let ready = self.build(op, &path, &params)?;
            Ok(js_sys::Promise::resolve(&js::prepared(
                ready.method.as_str(),
                &ready.url,
                &ready.headers,
                &ready.body,
            )))
        })())
    }

    /// A call that is not in the table: `request(method, family, path, { query?, body? }, options?)`.
    #[wasm_bindgen(js_name = __request, skip_typescript)]
    pub fn request(
        &self,
        method: JsValue,
        family: JsValue,
        path: JsValue,
        init: JsValue,
        options: JsValue,
    ) -> js_sys::Promise {
        settle((|| {
            let prepared = self.start_request(method, family, path, init)?;
            let (options, signal, extra) = call_options(&self.opts, &options, None)?;
            let mut ready =
                Ready::of(prepared, &JsValue::UNDEFINED).map_err(|e| to_js_error(&e))?;
            request::merge_headers(&mut ready.headers, &extra);
            Ok(self.send(ready, Shape::Empty, None, options, signal))
        })())
    }
}

/// The JSON text of a query or body given to `request()`, or the validation error of what JSON
/// cannot hold, or of more than `max` bytes (maxRequestBytes), which is not read into the core.
fn wire_text(value: &JsValue, what: &str, max: usize) -> Result<String, JsValue> {
    let wire = js::to_wire(value)
        .map_err(|e| to_js_error(&Error::validation(vec![super::params::unwritable(&e)])))?;
    js::text_within(&wire, max).ok_or_else(|| {
        config(
            format!("the {what} is more than maxRequestBytes ({max}) as JSON and was not read"),
            None,
        )
    })
}

impl Client {
    fn start_request(
        &self,
        method: JsValue,
        family: JsValue,
        path: JsValue,
        init: JsValue,
    ) -> Result<Prepared, JsValue> {
        let m = method
            .as_string()
            .and_then(|m| Method::parse(&m))
            .ok_or_else(|| config("method must be one of GET, POST, PUT, PATCH, DELETE", None))?;
        let f = family
            .as_string()
            .and_then(|f| Family::from_name(&f))
            .ok_or_else(|| {
                config(
                    "family must be one of books, inventory, invoice, billing, crm",
                    None,
                )
            })?;
        let max = self.opts.max_request_bytes;
        let path = match path.dyn_ref::<js_sys::JsString>() {
            Some(s) if s.length() as usize > max => {
                return Err(config(
                    format!("path is longer than maxRequestBytes ({max}) and was not read"),
                    None,
                ))
            }
            Some(s) => js::unicode_text(s, "path").map_err(|m| config(m, None))?,
            None => return Err(config("path must be a string", None)),
        };
        if !init.is_undefined() && !js::is_params(&init) {
            return Err(config(
                "the fourth argument must be { query?, body? }",
                None,
            ));
        }
        let query = get(&init, "query");
        let query_text = if query.is_undefined() {
            None
        } else {
            Some(wire_text(&query, "query", max)?)
        };
        let query = match query_text.as_deref().map(svc_core::exact::read) {
            None => svc_json::Obj::default(),
            Some(Ok(Json::Obj(m))) => m,
            Some(_) => return Err(config("query must be an object", None)),
        };
        let body = get(&init, "body");
        let body_text = if body.is_undefined() {
            None
        } else {
            Some(wire_text(&body, "body", max)?)
        };
        let body = body_text
            .as_deref()
            .map(svc_core::exact::read)
            .transpose()
            .map_err(|e| config(format!("body: {e}"), None))?;
        let query = Json::Obj(query);
        let mut issues = svc_core::validate::unrepresentable_issues(&query, "query");
        if let Some(body) = &body {
            issues.extend(svc_core::validate::unrepresentable_issues(body, "body"));
        }
        if !issues.is_empty() {
            return Err(to_js_error(&Error::validation(issues)));
        }
        let empty = svc_json::Obj::default();
        let query = query.as_object().unwrap_or(&empty);
        request::build_raw_json(m, f, &path, &self.opts.target, query, body.as_ref())
            .map_err(|e| to_js_error(&e))
    }
}

/// `error` (a call's) with the frames of `site`, an Error made when the call started, in place of
/// its own: its own are the core's and the glue's, made in a callback. The site's frames in the
/// SDK's file (of its first frame) up to the caller's are the glue's but the last, the public
/// method the caller called: that one opens the stack, the caller's code follows.
#[wasm_bindgen(js_name = __calledFrom, skip_typescript)]
pub fn called_from(error: JsValue, site: JsValue) -> JsValue {
    let (Some(own), Some(caller)) = (
        get(&error, "stack").as_string(),
        get(&site, "stack").as_string(),
    ) else {
        return error;
    };
    let stack = crate::stack::with_frames(&own, &caller);
    let _ = js_sys::Reflect::set(&error, &js::name("stack"), &stack.into());
    error
}

/// The error of a `Client` method called on what is no Client, or (`freed`) on one after its `free()`.
#[wasm_bindgen(js_name = __misused, skip_typescript)]
pub fn misused(freed: bool) -> JsValue {
    let message = match freed {
        true => "this Client was freed (client.free()): make a new one",
        false => "this method needs a Client made with new Client(options)",
    };
    config(message, None)
}

/// The `max` of `toArray(options)` (`svc_core::gather::max_items`); a `config` error for options that
/// are not `{ max? }`.
#[wasm_bindgen(js_name = __maxItems, skip_typescript)]
pub fn max_items(options: JsValue) -> Result<u32, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(svc_core::gather::DEFAULT_MAX);
    }
    let keys = options
        .dyn_ref::<js_sys::Object>()
        .map(|o| js_sys::Object::keys(o).to_vec());
    let Some(keys) = keys.filter(|k| k.iter().all(|k| k.as_string().as_deref() == Some("max")))
    else {
        return Err(config("toArray(options): options must be { max }", None));
    };
    let max = get(&options, "max");
    if max.is_undefined() || keys.is_empty() {
        return Ok(svc_core::gather::DEFAULT_MAX);
    }
    let Some(given) = max.as_f64() else {
        let kind = max.js_typeof().as_string().unwrap_or_default();
        return Err(to_js_error(&svc_core::gather::bad_max(&format!(
            "a {kind}"
        ))));
    };
    svc_core::gather::max_items(Some(given)).map_err(|e| to_js_error(&e))
}

/// The error of a list with more than `max` items than `toArray({ max })` gathers.
#[wasm_bindgen(js_name = __tooMany, skip_typescript)]
pub fn too_many(max: u32) -> JsValue {
    to_js_error(&svc_core::gather::too_many(max))
}

/// The arguments of the call of operation `id` that fetches the page after the one that `args`
/// asked for (its params' `page`, else 1), which came with this `page_context` and this many items
/// (`response::next_page`): undefined after the last (a `config` error when `required`: the page's
/// `getNextPage()`), a `decode` error when the pages do not advance or the page_context is not as
/// documented.
#[wasm_bindgen(js_name = __nextArgs, skip_typescript)]
pub fn next_args(
    id: JsValue,
    args: js_sys::Array,
    context: JsValue,
    items: u32,
    required: bool,
) -> Result<JsValue, JsValue> {
    let op = super::operation_by_id(&id)?;
    let n = op.path_params().count() as u32;
    let params = args.get(n);
    let Some(page) = next_page(&params, context, items)? else {
        return match required {
            true => Err(config(
                "this is the last page: there is no next one (ask page.hasNextPage() before page.getNextPage())",
                Some(op.id),
            )),
            false => Ok(JsValue::UNDEFINED),
        };
    };
    let more = js_sys::Array::new();
    for i in 0..args.length().max(n + 1) {
        more.push(&args.get(i));
    }
    let params = if params.is_undefined() || params.is_null() {
        js_sys::Object::new().into()
    } else {
        js::copied(&params)?
    };
    js_sys::Reflect::set(&params, &"page".into(), &(page as f64).into())?;
    more.set(n, params);
    Ok(more.into())
}

fn next_page(asked: &JsValue, context: JsValue, items: u32) -> Result<Option<u64>, JsValue> {
    let fail = |message: String| to_js_error(&Error::decode(message));
    let page = if asked.is_object() {
        js::get(asked, "page")
    } else {
        asked.clone()
    };
    let asked = if page.is_undefined() || page.is_null() {
        1
    } else {
        // A BigInt page is the number it is (params carry it as a number: params.js).
        let text = page.as_string().or_else(|| {
            let big = page.dyn_ref::<js_sys::BigInt>()?;
            big.to_string(10).ok().map(String::from)
        });
        page.as_f64()
            .filter(|n| *n >= 1.0 && n.fract() == 0.0 && *n <= 9_007_199_254_740_991.0)
            .map(|n| n as u64)
            .or_else(|| text.and_then(|t| t.parse().ok()).filter(|n| *n >= 1))
            .ok_or_else(|| fail("the page asked for is not a positive integer".into()))?
    };
    let context = if context.is_undefined() {
        None
    } else {
        let text = js_sys::JSON::stringify(&context)
            .ok()
            .and_then(|t| t.as_string())
            .ok_or_else(|| fail("the page's page_context could not be read".into()))?;
        let value = svc_json::parse(&text)
            .map_err(|e| fail(format!("the page's page_context could not be read: {e}")))?;
        let read = svc_core::response::PageContext::read_json(&value)
            .map_err(|why| fail(format!("the page's {why}")))?;
        Some(read)
    };
    svc_core::response::next_page(asked, context, items as usize).map_err(|e| to_js_error(&e))
}

/// The id of the operation that the client calls `name` (in `family`'s namespace when one is given),
/// or undefined: for the client's methods, found in the table on first use.
#[wasm_bindgen(js_name = __operationNamed, skip_typescript)]
pub fn operation_named(family: JsValue, name: JsValue) -> JsValue {
    let Some(name) = name.as_string() else {
        return JsValue::UNDEFINED;
    };
    let op = match family.as_string() {
        None => svc_core::catalog::find(&name),
        Some(f) => Family::from_name(&f).and_then(|f| svc_core::catalog::in_family(f, &name)),
    };
    op.map_or(JsValue::UNDEFINED, |op| JsValue::from_str(op.id))
}
