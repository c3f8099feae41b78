//! svc-sdk/testing: the sandbox's own request handling in wasm, answering requests in-process.
#![forbid(unsafe_code)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod client;
mod log;
mod notification;
mod oauth;
mod serve;
#[cfg(not(target_arch = "wasm32"))]
pub mod surface;

use log::{clipped, Log};
use sandbox::config::Config;
use sandbox::crm::{self, Delivery, DELIVERY_HEADERS, DELIVERY_TIMEOUT};
use sandbox::error::ApiError;
use sandbox::http::{self, Request};
use sandbox::record::{Record as Map, Value};
use sandbox::store::Store;
use sandbox::{App, Held, Platform, Step};
use std::cell::RefCell;
use svc_core::numbered::Numbered;
use svc_json::json;
use svc_json::Num;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The origin of the in-process sandbox: a loopback name (RFC 6761), so a client accepts `http://`.
pub const ORIGIN: &str = "http://sandbox.localhost";

/// The host of the wasm build: the runtime's clock; callbacks handed to the JS side.
struct Host {
    /// The callbacks posted or recorded, the newest up to the log's limit.
    callbacks: RefCell<Log<Value>>,
    /// The callbacks of the request in hand, for a `callbackFetch` to post.
    posts: RefCell<Vec<Delivery>>,
}

impl Platform for Host {
    fn now_ms(&self) -> i64 {
        svc_core::clock::now_ms()
    }

    fn deliver(&self, d: &Delivery) -> Result<u16, String> {
        self.callbacks.borrow_mut().push(json!({
            "channelId": d.channel_id,
            "notifyUrl": d.notify_url,
            "body": d.body,
        }));
        self.posts.borrow_mut().push(Delivery {
            channel_id: d.channel_id.clone(),
            notify_url: d.notify_url.clone(),
            body: d.body.clone(),
        });
        Ok(200)
    }
}

/// The most entries `logLimit` keeps: with paths cut to `log::MAX_TEXT`, well under 100 MB.
const MAX_LOG_LIMIT: usize = 100_000;

/// The options that carry a flag's value, and the flag.
const VALUED: &[(&str, &str)] = &[
    ("organizationId", "--org"),
    ("plan", "--plan"),
    ("ratePerMinute", "--rate-per-minute"),
    ("minuteMs", "--minute-ms"),
    ("dailyQuota", "--daily-quota"),
    ("othersSpent", "--others-spent"),
    ("faults", "--faults"),
    ("seed", "--seed"),
    ("slowMs", "--slow-ms"),
];

/// The options whose `false` is a flag.
const SWITCHES: &[(&str, &str)] = &[
    ("rateLimit", "--no-rate-limit"),
    ("devToken", "--no-dev-token"),
];

/// What a value the options' `toWire` could not write as JSON was (the core's marker), in words, if it is one.
fn marked(v: &Value) -> Option<&str> {
    let tag = v.get(svc_core::validate::UNREPRESENTABLE)?.as_str()?;
    Some(svc_core::unwritable::words(tag))
}

/// A flag's text of an option's value: a string, or a number a JS number holds exactly.
fn text(v: &Value) -> Result<String, String> {
    let exact = svc_core::validate::MAX_EXACT_INT;
    match v {
        Value::Str(s) => Ok(s.to_string()),
        Value::Num(n) if v.as_f64().is_some_and(|f| f.abs() > exact as f64) => {
            let n = match v.as_num() {
                Some(Num::F(f)) => format!("{f:.0}"),
                _ => n.to_string(),
            };
            Err(format!(
                "{n} is beyond 2^53 - 1, where a JS number loses digits: give it as a string"
            ))
        }
        Value::Num(n) => Ok(n.to_string()),
        // A BigInt (or an ExactNumber) crosses as the exact number it is: its text.
        Value::Obj(m) if m.len() == 1 && m.contains_key(svc_core::exact::EXACT) => m
            .get(svc_core::exact::EXACT)
            .and_then(Value::as_str)
            .map(String::from)
            .ok_or_else(|| "expected a string or a number".to_string()),
        other => Err(format!(
            "expected a string or a number, got {}",
            marked(other).map_or_else(|| svc_core::echo::shorten(&other.to_string()), String::from)
        )),
    }
}

/// The entries `requests()` and `callbacks()` keep (`logLimit`): `log::DEFAULT_LIMIT` when not given.
pub fn log_limit(options: &Map) -> Result<usize, String> {
    match options.get("logLimit") {
        None | Some(Value::Null) => Ok(log::DEFAULT_LIMIT),
        Some(v) => {
            let v = text(v).map_err(|e| format!("logLimit: {e}"))?;
            v.parse()
                .ok()
                .filter(|n| *n <= MAX_LOG_LIMIT)
                .ok_or_else(|| {
                    format!(
                        "logLimit: {:?} is not a whole number from 0 to {MAX_LOG_LIMIT}",
                        svc_core::echo::shorten(&v)
                    )
                })
        }
    }
}

/// The binary's flags of the options object: `VALUED`, `SWITCHES`, `tokens` (name → scopes) and
/// `accounts` (the accounts server's `--oauth-*` flags, `sandbox::accounts::options::option_flags`);
/// `logLimit` is the in-process log's own (`log_limit`). A `callbackFetch` stays in JS: here it is
/// the marker of a function, or it is not one.
pub fn flags(options: &Map) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (key, v) in options.iter() {
        if let Some((_, flag)) = VALUED.iter().find(|(k, _)| *k == key) {
            if !v.is_null() {
                out.extend([
                    flag.to_string(),
                    text(v).map_err(|e| format!("{key}: {e}"))?,
                ]);
            }
        } else if let Some((_, flag)) = SWITCHES.iter().find(|(k, _)| *k == key) {
            match v {
                Value::Bool(false) => out.push(flag.to_string()),
                Value::Bool(true) | Value::Null => {}
                other => {
                    let got = marked(other)
                        .map_or_else(|| svc_core::echo::shorten(&other.to_string()), String::from);
                    return Err(format!("{key}: expected true or false, got {got}"));
                }
            }
        } else if key == "logLimit" {
            log_limit(options)?;
        } else if key == "callbackFetch" {
            if !v.is_null() && marked(v) != Some("a function") {
                return Err("callbackFetch: expected a fetch function".into());
            }
        } else if key == "accounts" {
            if !v.is_null() {
                let flags = sandbox::accounts::options::option_flags(&v.to_string())
                    .map_err(|e| format!("accounts: {e}"))?;
                out.extend(flags);
            }
        } else if key == "tokens" {
            let Value::Obj(tokens) = v else {
                return Err("tokens: expected an object of token → scopes".into());
            };
            for (token, scopes) in tokens.iter() {
                let scopes = match scopes {
                    Value::Arr(list) => list
                        .iter()
                        .map(text)
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|e| format!("tokens: {e}"))?
                        .join(","),
                    other => text(other).map_err(|e| format!("tokens: {e}"))?,
                };
                out.extend(["--token".into(), format!("{token}={scopes}")]);
            }
        } else {
            return Err(format!("unknown option {key:?}"));
        }
    }
    Ok(out)
}

/// The JS value of a record's text, as the client makes it of an answer.
fn answer_to_js(text: &str) -> JsValue {
    svc_validate::js::answer_to_js(text)
}

/// The callback body a channel's notify_url receives, as the sandbox posts it (see `notification::body`).
#[wasm_bindgen]
pub fn notification(options: JsValue) -> Result<String, JsError> {
    let fail = |e: String| JsError::new(&format!("notification(options): {e}"));
    let text =
        client::options_text(&options, "notification(options)").map_err(|e| JsError::new(&e))?;
    match sandbox::record::parse(text.as_bytes()) {
        Ok(Value::Obj(options)) => {
            notification::body(&options, svc_core::clock::now_ms()).map_err(fail)
        }
        _ => Err(fail("options must be an object".into())),
    }
}

/// Splits `http://host/path?query` into its path and query, as a server reads them off the wire.
fn target(url: &str) -> (String, String) {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let path = rest.find('/').map_or("/", |i| &rest[i..]);
    let path = path.split('#').next().unwrap_or(path);
    match path.split_once('?') {
        Some((p, q)) => (p.into(), q.into()),
        None => (path.into(), String::new()),
    }
}

/// The Error of a refused seed: the message, status, code and body of the API's answer.
fn refused(e: ApiError) -> JsValue {
    let error = js_sys::Error::new(&e.message);
    let body = js_sys::JSON::parse(&e.body().to_string()).unwrap_or(JsValue::NULL);
    for (key, value) in [
        ("status", JsValue::from(e.status)),
        ("code", JsValue::from(e.code as f64)),
        ("body", body),
    ] {
        let _ = js_sys::Reflect::set(&error, &key.into(), &value);
    }
    error.into()
}

/// A request answered: its method and path (each cut to `log::MAX_TEXT`), operation and status.
struct Logged {
    method: String,
    path: String,
    what: &'static str,
    status: Option<u16>,
}

/// The JS array of a log's entries, with `dropped` (not enumerable, so the array compares and prints
/// as its entries): how many older ones it let go of.
fn logged<T>(log: &Log<T>, entry: impl Fn(&T) -> Value) -> JsValue {
    let list = Value::Arr(log.iter().map(entry).collect()).to_string();
    let array = js_sys::JSON::parse(&list).unwrap_or_else(|_| js_sys::Array::new().into());
    let dropped = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&dropped, &"value".into(), &(log.dropped() as f64).into());
    let _ = js_sys::Reflect::define_property(
        array.unchecked_ref::<js_sys::Object>(),
        &"dropped".into(),
        &dropped,
    );
    array
}

/// An in-process sandbox: the binary's handlers, store, seed data, limits and faults.
#[wasm_bindgen]
pub struct Sandbox {
    config: Config,
    /// Its URL: `ORIGIN`, or where `svc-sdk sandbox` serves it (`serve.rs`).
    origin: String,
    seed: u64,
    app: App,
    host: Host,
    log: Log<Logged>,
    /// The calls slow faults hold, by ticket, until the JS side has waited (a reset drops them).
    held: Numbered<(Request, Box<Held>)>,
}

impl Sandbox {
    /// A sandbox of `config` whose logs keep `limit` entries, at `ORIGIN`.
    fn of(config: Config, limit: usize) -> Result<Sandbox, JsError> {
        let now = svc_core::clock::now_ms();
        let seed = config.seed.unwrap_or(now as u64);
        let app = App::new(config.clone(), ORIGIN.into(), &[], now, seed)
            .map_err(|e| JsError::new(&e))?;
        Ok(Sandbox {
            config,
            origin: ORIGIN.into(),
            seed,
            app,
            host: Host {
                callbacks: RefCell::new(Log::new(limit)),
                posts: RefCell::default(),
            },
            log: Log::new(limit),
            held: Numbered::default(),
        })
    }

    /// The JSON of the request's callbacks as the binary posts them: URL, headers and body text.
    fn posts(&self) -> Option<String> {
        let posts = self.host.posts.borrow();
        let list: Vec<Value> = posts
            .iter()
            .map(|d| json!({ "url": d.notify_url, "channelId": d.channel_id, "headers": DELIVERY_HEADERS, "body": d.body.to_string(), "timeoutMs": DELIVERY_TIMEOUT.as_millis() as u64 }))
            .collect();
        (!list.is_empty()).then(|| Value::Arr(list).to_string())
    }

    /// The sandbox's answer, logged, as the JS side takes it.
    fn answer(&mut self, req: &Request, answer: sandbox::Answer) -> Answer {
        self.log.push(Logged {
            method: clipped(&req.method),
            path: clipped(&req.path),
            what: answer.what,
            status: answer.response.as_ref().map(|r| r.status),
        });
        let Some(r) = answer.response else {
            return Answer::dropped();
        };
        let empty = req.method == "HEAD" || matches!(r.status, 101 | 204 | 205 | 304);
        Answer {
            status: r.status,
            headers: r.headers.into_iter().flat_map(|(k, v)| [k, v]).collect(),
            body: (!empty).then_some(r.body),
            delay_ms: 0.0,
            ticket: 0,
            dropped: false,
            posts: self.posts(),
        }
    }
}

/// A copy of a sandbox's records.
#[wasm_bindgen]
pub struct Snapshot(Store);

/// One answer: status, headers as name/value pairs, body (none for HEAD and null-body statuses),
/// whether the connection is dropped instead, and the JSON of the callbacks it posts
/// (`[{ url, channelId, headers, body }]`, for a `callbackFetch`; none when there are none). Or a slow
/// fault's wait: `delayMs`, after which `resume(ticket)` gives the answer.
#[wasm_bindgen(getter_with_clone)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<String>,
    pub body: Option<Vec<u8>>,
    #[wasm_bindgen(js_name = delayMs)]
    pub delay_ms: f64,
    pub ticket: u32,
    pub dropped: bool,
    pub posts: Option<String>,
}

impl Answer {
    fn dropped() -> Answer {
        Answer {
            status: 0,
            headers: Vec::new(),
            body: None,
            delay_ms: 0.0,
            ticket: 0,
            dropped: true,
            posts: None,
        }
    }
}

#[wasm_bindgen]
impl Sandbox {
    /// `options`: the options object (see `flags` and `log_limit`), read as the client reads params.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Sandbox, JsError> {
        let options =
            client::options_text(&options, "new Sandbox(options)").map_err(|e| JsError::new(&e))?;
        let options = match sandbox::record::parse(options.as_bytes()) {
            Ok(Value::Obj(options)) => options,
            Ok(Value::Null) => Map::new(),
            _ => {
                return Err(JsError::new(
                    "new Sandbox(options): options must be an object",
                ))
            }
        };
        let config = Config::from_args(flags(&options).map_err(|e| JsError::new(&e))?)
            .map_err(|e| JsError::new(&e))?;
        Sandbox::of(config, log_limit(&options).map_err(|e| JsError::new(&e))?)
    }

    #[wasm_bindgen(getter, js_name = organizationId)]
    pub fn organization_id(&self) -> String {
        self.config.org_id.clone()
    }

    #[wasm_bindgen(getter)]
    pub fn url(&self) -> String {
        self.origin.clone()
    }

    /// The answer to one request; `headers` are name/value pairs in a row.
    /// The binary's limits hold: a head over `MAX_HEAD` is answered 431 and a body over `MAX_BODY` 413,
    /// the body left in JS memory.
    pub fn handle(
        &mut self,
        method: String,
        url: &str,
        headers: Vec<String>,
        body: &js_sys::Uint8Array,
    ) -> Answer {
        let (path, query) = target(url);
        let head = method.len() + url.len() + headers.iter().map(|h| h.len() + 2).sum::<usize>();
        let refused = if head > http::MAX_HEAD {
            Some((431, http::HEAD_TOO_LARGE))
        } else if body.length() as usize > http::MAX_BODY {
            Some((413, http::BODY_TOO_LARGE))
        } else {
            None
        };
        let body = if refused.is_some() {
            Vec::new()
        } else {
            body.to_vec()
        };
        let headers = headers
            .chunks_exact(2)
            .map(|p| (p[0].clone(), p[1].clone()))
            .collect();
        let req = Request {
            method,
            path,
            query,
            http10: false,
            headers,
            body,
        };
        self.host.posts.borrow_mut().clear();
        if let Some((status, why)) = refused {
            let response = self
                .app
                .unreadable(status, why.into(), svc_core::clock::now_ms());
            let answer = sandbox::Answer {
                response: Some(response),
                what: "-",
            };
            return self.answer(&req, answer);
        }
        match self.app.begin(&req, &self.host) {
            Step::Done(answer) => self.answer(&req, answer),
            Step::Wait(0, held) => {
                let answer = self.app.resume(&req, *held);
                self.answer(&req, answer)
            }
            Step::Wait(ms, held) => Answer {
                delay_ms: ms as f64,
                ticket: self.held.insert((req, held)),
                dropped: false,
                ..Answer::dropped()
            },
        }
    }

    /// The answer of a call a slow fault held, once its wait is spent (or cut short: it is applied
    /// all the same, as the binary applies it for a caller that hung up); dropped if a reset came between.
    pub fn resume(&mut self, ticket: u32) -> Answer {
        let Some((req, held)) = self.held.remove(ticket) else {
            return Answer::dropped();
        };
        self.host.posts.borrow_mut().clear();
        let answer = self.app.resume(&req, *held);
        self.answer(&req, answer)
    }

    /// The answer's body once a `callbackFetch` has posted its callbacks (`posts`, as the answer gave
    /// them, each with the binary's `timeoutMs`): each delivery reports the status it got (a number),
    /// what its fetch threw (a string) or null for no Response, in the JSON array `outcomes`.
    pub fn settle(&self, body: &[u8], posts: &str, outcomes: &str) -> Result<Vec<u8>, JsError> {
        let read = |text: &[u8]| match sandbox::record::parse(text) {
            Ok(Value::Arr(items)) => Ok(items),
            Ok(_) => Err(JsError::new("expected a JSON array")),
            Err(e) => Err(JsError::new(&e)),
        };
        let (posts, outcomes) = (read(posts.as_bytes())?, read(outcomes.as_bytes())?);
        let mut answer = sandbox::record::parse(body).map_err(|e| JsError::new(&e))?;
        if let Some(Value::Arr(reports)) = answer.get_mut("deliveries") {
            for ((report, post), outcome) in reports.iter_mut().zip(posts).zip(outcomes) {
                let d = Delivery {
                    channel_id: post["channelId"].clone(),
                    notify_url: post["url"].as_str().unwrap_or_default().to_string(),
                    body: Value::Null,
                };
                let outcome = match outcome {
                    Value::Num(_) => Ok(outcome.as_u64().unwrap_or(0) as u16),
                    Value::Str(why) => Err(format!("delivery failed: {why}")),
                    _ => Err("delivery failed: callbackFetch did not give a Response".into()),
                };
                *report = crm::report(&d, &outcome);
            }
        }
        Ok(answer.to_string().into_bytes())
    }

    /// Seeds records through the rules and handler of `operationId`: `args` are a client call's
    /// arguments (path values, then params or a list of them), checked and written as the client
    /// checks and writes them (its SvcError where it would refuse them). The resource(s) as a client
    /// returns them, or an Error with the `status`, `code` and `body` a request would get.
    pub fn seed(&self, operation_id: JsValue, args: js_sys::Array) -> Result<JsValue, JsValue> {
        let args = client::seed_args(&operation_id, &args, http::MAX_BODY)?;
        let id = operation_id.as_string().unwrap_or_default();
        let record = self
            .app
            .seed(&id, &args, svc_core::clock::now_ms())
            .map_err(refused)?
            .to_string();
        // As the client would give it: ids as strings, a number a double cannot hold an ExactNumber.
        let text = svc_core::lossless::rewrite(&record).unwrap_or(record);
        Ok(answer_to_js(&text))
    }

    /// Back to the state of a new sandbox of the same options: seed data, limits, faults, logs; the
    /// memory of the records, logs and held calls is let go of (the wasm keeps it for reuse).
    pub fn reset(&mut self) {
        let now = svc_core::clock::now_ms();
        if let Ok(app) = App::new(
            self.config.clone(),
            self.origin.clone(),
            &[],
            now,
            self.seed,
        ) {
            self.app = app;
        }
        self.log.clear();
        self.held.clear();
        self.host.callbacks.borrow_mut().clear();
        *self.host.posts.borrow_mut() = Vec::new();
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot(self.app.store())
    }

    pub fn restore(&self, snapshot: &Snapshot) {
        self.app.restore(snapshot.0.clone());
    }

    /// The requests answered, the newest up to the log's limit: method, path, operation id and
    /// status (null: dropped); `dropped`: how many older ones were let go of.
    pub fn requests(&self) -> JsValue {
        logged(
            &self.log,
            |r| json!({ "method": r.method, "path": r.path, "operationId": r.what, "status": r.status }),
        )
    }

    /// The CRM callbacks the sandbox posted or would have posted, the newest up to the log's limit;
    /// `dropped`: how many older ones were let go of.
    pub fn callbacks(&self) -> JsValue {
        logged(&self.host.callbacks.borrow(), Value::clone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_become_the_binary_flags() {
        let options = json!({ "organizationId": "42", "tokens": { "t": ["ZohoBooks.fullaccess.all"], "u": "*" }, "dailyQuota": 5, "othersSpent": 2, "rateLimit": false, "faults": "429=1" });
        let args = flags(options.as_object().unwrap()).unwrap();
        assert_eq!(
            args,
            [
                "--org",
                "42",
                "--token",
                "t=ZohoBooks.fullaccess.all",
                "--token",
                "u=*",
                "--daily-quota",
                "5",
                "--others-spent",
                "2",
                "--no-rate-limit",
                "--faults",
                "429=1"
            ]
        );
        assert!(Config::from_args(args).is_ok());
        assert!(flags(json!({ "port": 1 }).as_object().unwrap()).is_err());
        assert!(flags(json!({ "rateLimit": "no" }).as_object().unwrap()).is_err());
        let not_a_function = flags(json!({ "callbackFetch": "x" }).as_object().unwrap());
        assert_eq!(
            not_a_function.unwrap_err(),
            "callbackFetch: expected a fetch function"
        );
    }

    /// The marker `toWire` writes for what JSON cannot hold.
    fn marker(what: &str) -> Value {
        json!({ (svc_core::validate::UNREPRESENTABLE): what })
    }

    /// Every value of every option is honoured or refused at construction, saying what is wrong.
    #[test]
    fn odd_option_values_are_refused_with_what_is_wrong() {
        let refused = |options: Value| {
            let options = options.as_object().unwrap().clone();
            flags(&options)
                .and_then(Config::from_args)
                .and_then(|_| log_limit(&options))
                .unwrap_err()
        };
        for (options, why) in [
            (
                json!({ "slowMs": marker("NaN") }),
                "slowMs: expected a string or a number, got NaN",
            ),
            (
                json!({ "minuteMs": marker("Infinity") }),
                "minuteMs: expected a string or a number, got Infinity",
            ),
            (
                json!({ "seed": 9007199254740993_u64 }),
                "seed: 9007199254740993 is beyond 2^53 - 1",
            ),
            (
                json!({ "slowMs": -1 }),
                "--slow-ms: \"-1\" is not a whole number from 0 to 2147483647",
            ),
            (
                json!({ "slowMs": 1.5 }),
                "--slow-ms: \"1.5\" is not a whole number",
            ),
            (json!({ "slowMs": 4294967296_u64 }), "from 0 to 2147483647"),
            (
                json!({ "ratePerMinute": true }),
                "ratePerMinute: expected a string or a number, got true",
            ),
            (json!({ "dailyQuota": -3 }), "--daily-quota: \"-3\""),
            (
                json!({ "othersSpent": 4294967295_u64 }),
                "--others-spent: \"4294967295\" is not a whole number from 0 to 4294967294",
            ),
            (
                json!({ "rateLimit": marker("function") }),
                "rateLimit: expected true or false, got a function",
            ),
            (
                json!({ "tokens": { "t": [marker("symbol")] } }),
                "tokens: expected a string or a number, got a symbol",
            ),
            (
                json!({ "logLimit": -1 }),
                "logLimit: \"-1\" is not a whole number from 0 to 100000",
            ),
            (json!({ "logLimit": 100001 }), "from 0 to 100000"),
            (
                json!({ "logLimit": marker("NaN") }),
                "logLimit: expected a string or a number, got NaN",
            ),
        ] {
            let err = refused(options.clone());
            assert!(err.contains(why), "{options}: {err}");
        }
        let honoured = json!({ "slowMs": 0, "logLimit": 5, "seed": "18446744073709551615", "callbackFetch": marker("function") });
        let honoured = honoured.as_object().unwrap();
        let config = Config::from_args(flags(honoured).unwrap()).unwrap();
        assert_eq!((config.slow_ms, config.seed), (0, Some(u64::MAX)));
        assert_eq!(log_limit(honoured), Ok(5));
        assert_eq!(log_limit(&Map::new()), Ok(log::DEFAULT_LIMIT));
    }

    /// Every flag of the binary's usage is an option, but those of its socket and its terminal; and the
    /// options are the members of `SandboxOptions` (`surface.rs`), with the JS side's `callbackFetch`
    /// and the in-process log's `logLimit` (the binary keeps no log: it writes each line to stderr).
    #[test]
    fn the_options_mirror_the_binary_flags_and_the_declarations() {
        const SOCKET_AND_TERMINAL: [&str; 5] = [
            "--port",
            "--cors",
            "--exit-on-stdin-eof",
            "--quiet",
            "--help",
        ];
        let mirrored: Vec<&str> = VALUED
            .iter()
            .chain(SWITCHES)
            .map(|(_, f)| *f)
            .chain(["--token"])
            .collect();
        let accounts = &sandbox::accounts::options::VALUED;
        let mirrored: Vec<&str> = mirrored
            .into_iter()
            .chain(accounts.iter().map(|(_, f)| *f))
            .chain(
                sandbox::accounts::options::SWITCHES
                    .iter()
                    .map(|(_, _, f)| *f),
            )
            .chain([sandbox::accounts::options::CLIENTS.1])
            .chain(sandbox::accounts::options::PLACES.iter().map(|(_, f)| *f))
            .collect();
        for flag in sandbox::config::usage()
            .split_whitespace()
            .filter(|w| w.starts_with("--"))
        {
            let flag = flag.trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
            assert!(
                mirrored.contains(&flag) || SOCKET_AND_TERMINAL.contains(&flag),
                "the binary's {flag} has no option in svc-sdk/testing"
            );
        }
        let dts = crate::surface::declarations();
        let dts = dts.as_str();
        let start = dts.find("export interface SandboxOptions {").unwrap();
        let body = &dts[start..start + dts[start..].find("\n}").unwrap()];
        let mut declared: Vec<&str> = body
            .lines()
            .filter_map(|l| l.strip_prefix("  ")?.split_once("?:").map(|(k, _)| k))
            .filter(|k| k.chars().all(|c| c.is_ascii_alphanumeric()))
            .collect();
        let mut options: Vec<&str> = VALUED
            .iter()
            .chain(SWITCHES)
            .map(|(k, _)| *k)
            .chain(["tokens", "callbackFetch", "logLimit", "accounts"])
            .collect();
        declared.sort_unstable();
        options.sort_unstable();
        assert_eq!(declared, options);
        let start = dts.find("export interface SandboxAccounts {").unwrap();
        let body = &dts[start..start + dts[start..].find("\n}").unwrap()];
        let mut declared: Vec<&str> = body
            .lines()
            .filter_map(|l| l.strip_prefix("  ")?.split_once("?:").map(|(k, _)| k))
            .collect();
        let mut members: Vec<&str> = accounts
            .iter()
            .map(|(k, _)| *k)
            .chain(
                sandbox::accounts::options::SWITCHES
                    .iter()
                    .map(|(k, _, _)| *k),
            )
            .chain([sandbox::accounts::options::CLIENTS.0])
            .chain(sandbox::accounts::options::PLACES.iter().map(|(k, _)| *k))
            .collect();
        declared.sort_unstable();
        members.sort_unstable();
        assert_eq!(declared, members, "SandboxAccounts in testing.d.ts");
    }

    #[test]
    fn the_accounts_option_becomes_the_oauth_flags() {
        let options = json!({ "accounts": { "clients": [{ "clientId": "c", "clientSecret": "s:1", "refreshTokens": ["r"] }], "liveTokenCap": 3, "echoSecrets": true } });
        let args = flags(options.as_object().unwrap()).unwrap();
        assert_eq!(
            args,
            [
                "--oauth-client",
                "c:s%3A1:r",
                "--oauth-live-token-cap",
                "3",
                "--oauth-echo-secrets"
            ]
        );
        let config = Config::from_args(args).unwrap();
        assert_eq!(config.accounts.clients[1].secret, "s:1");
        assert_eq!(config.accounts.live_token_cap, 3);
        let refused = flags(
            json!({ "accounts": { "refreshLimit": 0 } })
                .as_object()
                .unwrap(),
        )
        .and_then(Config::from_args)
        .unwrap_err();
        assert!(
            refused.contains("--oauth-refresh-limit: \"0\" is not a whole number from 1"),
            "{refused}"
        );
        let refused = flags(json!({ "accounts": { "nope": 1 } }).as_object().unwrap()).unwrap_err();
        assert_eq!(refused, "accounts: unknown member \"nope\"");
    }

    #[test]
    fn a_url_splits_into_path_and_query() {
        assert_eq!(
            target("http://sandbox.localhost/books/v3/items?a=1#x"),
            ("/books/v3/items".into(), "a=1".into())
        );
        assert_eq!(
            target("http://sandbox.localhost"),
            ("/".into(), String::new())
        );
    }
}
