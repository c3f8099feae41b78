//! svc-sdk/testing: the sandbox's own request handling in wasm, answering requests in-process.

use sandbox::config::Config;
use sandbox::crm::{self, Delivery, DELIVERY_HEADERS, DELIVERY_TIMEOUT};
use sandbox::error::ApiError;
use sandbox::http::{self, Request};
use sandbox::store::Store;
use sandbox::{App, Held, Platform, Step};
use serde_json::{json, Map, Value};
use std::cell::RefCell;
use svc_core::numbered::Numbered;
use wasm_bindgen::prelude::*;

/// The origin of the in-process sandbox: a loopback name (RFC 6761), so a client accepts `http://`.
pub const ORIGIN: &str = "http://sandbox.localhost";

/// The host of the wasm build: the runtime's clock; callbacks handed to the JS side.
#[derive(Default)]
struct Host {
    callbacks: RefCell<Vec<Value>>,
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

/// The options that carry a flag's value, and the flag.
const VALUED: &[(&str, &str)] = &[
    ("organizationId", "--org"),
    ("plan", "--plan"),
    ("ratePerMinute", "--rate-per-minute"),
    ("minuteMs", "--minute-ms"),
    ("dailyQuota", "--daily-quota"),
    ("faults", "--faults"),
    ("seed", "--seed"),
    ("slowMs", "--slow-ms"),
];

/// The options whose `false` is a flag.
const SWITCHES: &[(&str, &str)] = &[
    ("rateLimit", "--no-rate-limit"),
    ("devToken", "--no-dev-token"),
];

/// The binary's flags of the options object: `VALUED`, `SWITCHES` and `tokens` (name → scopes). A
/// `callbackFetch` stays in JS, so one that reaches here is not a function.
pub fn flags(options: &Map<String, Value>) -> Result<Vec<String>, String> {
    let text = |v: &Value| match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        other => Err(format!("expected a string or a number, got {other}")),
    };
    let mut out = Vec::new();
    for (key, v) in options {
        if let Some((_, flag)) = VALUED.iter().find(|(k, _)| k == key) {
            if !v.is_null() {
                out.extend([
                    flag.to_string(),
                    text(v).map_err(|e| format!("{key}: {e}"))?,
                ]);
            }
        } else if let Some((_, flag)) = SWITCHES.iter().find(|(k, _)| k == key) {
            match v {
                Value::Bool(false) => out.push(flag.to_string()),
                Value::Bool(true) | Value::Null => {}
                other => return Err(format!("{key}: expected true or false, got {other}")),
            }
        } else if key == "callbackFetch" {
            if !v.is_null() {
                return Err("callbackFetch: expected a fetch function".into());
            }
        } else if key == "tokens" {
            let Value::Object(tokens) = v else {
                return Err("tokens: expected an object of token → scopes".into());
            };
            for (token, scopes) in tokens {
                let scopes = match scopes {
                    Value::Array(list) => list
                        .iter()
                        .map(text)
                        .collect::<Result<Vec<_>, _>>()?
                        .join(","),
                    other => text(other)?,
                };
                out.extend(["--token".into(), format!("{token}={scopes}")]);
            }
        } else {
            return Err(format!("unknown option {key:?}"));
        }
    }
    Ok(out)
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

/// An in-process sandbox: the binary's handlers, store, seed data, limits and faults.
#[wasm_bindgen]
pub struct Sandbox {
    config: Config,
    seed: u64,
    app: App,
    host: Host,
    log: Vec<Value>,
    /// The calls slow faults hold, by ticket, until the JS side has waited (a reset drops them).
    held: Numbered<(Request, Box<Held>)>,
}

impl Sandbox {
    /// The JSON of the request's callbacks as the binary posts them: URL, headers and body text.
    fn posts(&self) -> Option<String> {
        let posts = self.host.posts.borrow();
        let list: Vec<Value> = posts
            .iter()
            .map(|d| json!({ "url": d.notify_url, "channelId": d.channel_id, "headers": DELIVERY_HEADERS, "body": d.body.to_string(), "timeoutMs": DELIVERY_TIMEOUT.as_millis() as u64 }))
            .collect();
        (!list.is_empty()).then(|| Value::Array(list).to_string())
    }

    /// The sandbox's answer, logged, as the JS side takes it.
    fn answer(&mut self, req: &Request, answer: sandbox::Answer) -> Answer {
        let status = answer.response.as_ref().map(|r| r.status);
        self.log.push(json!({ "method": req.method, "path": req.path, "operationId": answer.what, "status": status }));
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
    /// `options`: the JSON of the options object (see `flags`).
    #[wasm_bindgen(constructor)]
    pub fn new(options: &str) -> Result<Sandbox, JsError> {
        let options = match serde_json::from_str(options) {
            Ok(Value::Object(options)) => options,
            Ok(Value::Null) => Map::new(),
            _ => {
                return Err(JsError::new(
                    "new Sandbox(options): options must be an object",
                ))
            }
        };
        let config = Config::from_args(flags(&options).map_err(|e| JsError::new(&e))?)
            .map_err(|e| JsError::new(&e))?;
        let now = svc_core::clock::now_ms();
        let seed = config.seed.unwrap_or(now as u64);
        let app = App::new(config.clone(), ORIGIN.into(), &[], now, seed)
            .map_err(|e| JsError::new(&e))?;
        Ok(Sandbox {
            config,
            seed,
            app,
            host: Host::default(),
            log: Vec::new(),
            held: Numbered::default(),
        })
    }

    #[wasm_bindgen(getter, js_name = organizationId)]
    pub fn organization_id(&self) -> String {
        self.config.org_id.clone()
    }

    #[wasm_bindgen(getter)]
    pub fn url(&self) -> String {
        ORIGIN.into()
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
        let read = |text: &str| serde_json::from_str::<Vec<Value>>(text);
        let (posts, outcomes) = read(posts)
            .and_then(|p| Ok((p, read(outcomes)?)))
            .map_err(|e| JsError::new(&e.to_string()))?;
        let mut answer: Value =
            serde_json::from_slice(body).map_err(|e| JsError::new(&e.to_string()))?;
        if let Some(Value::Array(reports)) = answer.get_mut("deliveries") {
            for ((report, post), outcome) in reports.iter_mut().zip(posts).zip(outcomes) {
                let d = Delivery {
                    channel_id: post["channelId"].clone(),
                    notify_url: post["url"].as_str().unwrap_or_default().to_string(),
                    body: Value::Null,
                };
                let outcome = match outcome {
                    Value::Number(n) => Ok(n.as_u64().unwrap_or(0) as u16),
                    Value::String(why) => Err(format!("delivery failed: {why}")),
                    _ => Err("delivery failed: callbackFetch did not give a Response".into()),
                };
                *report = crm::report(&d, &outcome);
            }
        }
        Ok(answer.to_string().into_bytes())
    }

    /// Seeds records through the rules and handler of `operationId`: `args` is the JSON array of a
    /// client call's arguments (path values, then params or a list of them). The resource(s) as a
    /// client returns them, or an Error with the `status`, `code` and `body` a request would get.
    pub fn seed(&self, operation_id: &str, args: &str) -> Result<String, JsValue> {
        let args: Vec<Value> = serde_json::from_str(args)
            .map_err(|e| JsValue::from(js_sys::Error::new(&e.to_string())))?;
        self.app
            .seed(operation_id, &args, svc_core::clock::now_ms())
            .map(|v| v.to_string())
            .map_err(refused)
    }

    /// Back to the state of a new sandbox of the same options: seed data, limits, faults, logs.
    pub fn reset(&mut self) {
        let now = svc_core::clock::now_ms();
        if let Ok(app) = App::new(self.config.clone(), ORIGIN.into(), &[], now, self.seed) {
            self.app = app;
        }
        self.log.clear();
        self.held.clear();
        self.host.callbacks.borrow_mut().clear();
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot(self.app.store())
    }

    pub fn restore(&self, snapshot: &Snapshot) {
        self.app.restore(snapshot.0.clone());
    }

    /// The JSON of the requests answered: method, path, operation id and status (null: dropped).
    pub fn requests(&self) -> String {
        Value::Array(self.log.clone()).to_string()
    }

    /// The JSON of the CRM callbacks the sandbox would have posted.
    pub fn callbacks(&self) -> String {
        Value::Array(self.host.callbacks.borrow().clone()).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_become_the_binary_flags() {
        let options = json!({ "organizationId": "42", "tokens": { "t": ["ZohoBooks.fullaccess.all"], "u": "*" }, "dailyQuota": 5, "rateLimit": false, "faults": "429=1" });
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

    /// Every flag of the binary's usage is an option, but those of its socket and its terminal; and the
    /// options are the members of `SandboxOptions` in testing.d.ts, with the JS side's `callbackFetch`.
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
        for flag in sandbox::config::USAGE
            .split_whitespace()
            .filter(|w| w.starts_with("--"))
        {
            let flag = flag.trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
            assert!(
                mirrored.contains(&flag) || SOCKET_AND_TERMINAL.contains(&flag),
                "the binary's {flag} has no option in svc-sdk/testing"
            );
        }
        let dts = include_str!("../testing.d.ts");
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
            .chain(["tokens", "callbackFetch"])
            .collect();
        declared.sort_unstable();
        options.sort_unstable();
        assert_eq!(declared, options);
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
