//! The fuzz harness: one function per cargo-fuzz target, shared with `tests/fuzz_regressions.rs`.
//!
//! Each function reads its input bytes in a fixed layout (see `fuzz/README.md`), drives the pure
//! core of svc-sdk with them and asserts its invariants. Nothing may panic except these asserts.
//! The regression test includes this file with `#[path]`, so it uses only `svc_sdk` and
//! `serde_json` and runs on stable Rust.
#![forbid(unsafe_code)]

use serde_json::{Map, Value};
use std::sync::OnceLock;
use svc_core::catalog::{operations, Method, Operation, Shape};
use svc_core::error::ErrorKind;
use svc_core::exact;
use svc_core::family::{Family, OrgPlacement, REGIONS};
use svc_core::lossless;
use svc_core::request::{self, Target};
use svc_core::response::{self, Decoded};
use svc_core::route::{Found, Router};
use svc_core::validate::{self, Kind, Schema};
use svc_json::{Json, ToJson};
use svc_sdk::webhook;

/// Separates the text fields of the `request` and `webhook` inputs (never part of UTF-8 text).
pub const SEP: u8 = 0xFF;

/// Reads fuzz bytes front to back; past the end every read is zero or empty.
struct Reader<'a> {
    data: &'a [u8],
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((b, rest)) => {
                self.data = rest;
                *b
            }
            None => 0,
        }
    }

    fn take(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.data.len());
        let (head, rest) = self.data.split_at(n);
        self.data = rest;
        head
    }

    fn u64(&mut self, n: usize) -> u64 {
        self.take(n)
            .iter()
            .fold(0u64, |acc, b| (acc << 8) | u64::from(*b))
    }

    /// The bytes up to the next `SEP` (consumed), as text.
    fn field(&mut self) -> String {
        let end = self
            .data
            .iter()
            .position(|b| *b == SEP)
            .unwrap_or(self.data.len());
        let text = String::from_utf8_lossy(&self.data[..end]).into_owned();
        self.data = &self.data[(end + 1).min(self.data.len())..];
        text
    }

    fn rest(&mut self) -> &'a [u8] {
        self.take(self.data.len())
    }
}

fn op_at(i: u8) -> &'static Operation {
    operations()
        .get(usize::from(i) % operations().len())
        .unwrap_or(&svc_core::catalog::ROWS[0])
}

// ---------------------------------------------------------------------------------------------
// JSON values from bytes: keys drawn from the operation's own field names, so rules are reached.

/// Every field name of a schema, nested schemas included.
fn names_of(schema: &Schema, out: &mut Vec<&'static str>) {
    fn kind(k: &Kind, out: &mut Vec<&'static str>) {
        match k {
            Kind::Obj(s) => names_of(s, out),
            Kind::Arr(item) => kind(&item.kind, out),
            _ => {}
        }
    }
    for f in schema.fields {
        if !f.name.is_empty() && !out.contains(&f.name) {
            out.push(f.name);
        }
        kind(&f.kind, out);
    }
}

const STRINGS: &[&str] = &[
    "",
    " ",
    "true",
    "false",
    "1",
    "-1",
    "0.5",
    "1e400",
    "NaN",
    "2024-02-29",
    "2023-02-29",
    "2024-01-02T10:00:00+0530",
    "2030-01-01T00:00:00Z",
    "10:30",
    "https://hooks.example.com/cb",
    "http://127.0.0.1:9/cb",
    "Deals.all",
    "a/b?c#d",
    "..",
    ".",
    "%2e%2e",
    "line\r\nX-Evil: 1",
    "nul\0byte",
    "é😀",
    "9007199254740993",
];

fn gen_string(r: &mut Reader) -> String {
    let b = r.byte();
    match b % 4 {
        0 | 1 => STRINGS[usize::from(b / 4) % STRINGS.len()].to_string(),
        2 => {
            let n = usize::from(r.byte() % 32);
            String::from_utf8_lossy(r.take(n)).into_owned()
        }
        _ => "x".repeat(usize::from(r.byte()) * 2),
    }
}

fn gen_value(r: &mut Reader, names: &[&str], depth: u32) -> Value {
    let leaf = depth >= 6;
    match r.byte() % if leaf { 8 } else { 11 } {
        0 => Value::Null,
        1 => Value::Bool(r.byte() & 1 == 1),
        2 => Value::from(r.u64(2) as i64 - 1000),
        3 => Value::from(r.u64(8) as i64),
        4 => Value::from(r.u64(8)),
        5 => serde_json::Number::from_f64(f64::from_bits(r.u64(8)))
            .map_or(Value::Null, Value::Number),
        6 => Value::String(gen_string(r)),
        7 => {
            let what = ["NaN", "Infinity", "a function", "a symbol"][usize::from(r.byte() % 4)];
            let mut m = Map::new();
            m.insert(validate::UNREPRESENTABLE.into(), what.into());
            Value::Object(m)
        }
        8 | 9 => {
            let n = usize::from(r.byte() % 6);
            let mut m = Map::new();
            for _ in 0..n {
                let b = r.byte();
                let key = if b < 224 && !names.is_empty() {
                    names[usize::from(b) % names.len()].to_string()
                } else {
                    gen_string(r)
                };
                m.insert(key, gen_value(r, names, depth + 1));
            }
            Value::Object(m)
        }
        _ => {
            let n = usize::from(r.byte() % 5);
            Value::Array((0..n).map(|_| gen_value(r, names, depth + 1)).collect())
        }
    }
}

/// Params from the rest of the input: JSON text (mode even) or values built from bytes (odd).
fn gen_params(mode: u8, op: &Operation, r: &mut Reader) -> Option<Value> {
    if mode & 1 == 0 {
        return serde_json::from_slice(r.rest()).ok();
    }
    let mut names = Vec::new();
    names_of(op.params, &mut names);
    names.extend(op.query);
    names.extend(op.headers.iter().map(|(p, _)| *p));
    if r.byte() & 3 == 0 {
        return Some(gen_value(r, &names, 0));
    }
    let mut m = Map::new();
    for _ in 0..r.byte() % 12 {
        let b = r.byte();
        let key = if b < 240 && !names.is_empty() {
            names[usize::from(b) % names.len()].to_string()
        } else {
            gen_string(r)
        };
        m.insert(key, gen_value(r, &names, 1));
    }
    Some(Value::Object(m))
}

// ---------------------------------------------------------------------------------------------
// decode

/// Every value under an id key (and inside arrays under one) that is a number breaks losslessness.
fn assert_ids_are_strings(v: &Value, under_id: bool) {
    match v {
        Value::Number(n) => assert!(!under_id, "an id left as a number: {n}"),
        Value::Array(items) => items
            .iter()
            .for_each(|i| assert_ids_are_strings(i, under_id)),
        Value::Object(m) => m
            .iter()
            .for_each(|(k, x)| assert_ids_are_strings(x, lossless::is_id_key(k))),
        _ => {}
    }
}

/// Layout: `[op, status_hi, status_lo, content_type, body...]`; status_hi 0 means 200.
pub fn decode(data: &[u8]) {
    let mut r = Reader { data };
    let op = op_at(r.byte());
    let (hi, lo) = (r.byte(), r.byte());
    let status = if hi == 0 {
        200 + u16::from(lo % 8)
    } else {
        u16::from_be_bytes([hi, lo])
    };
    let content_type = [
        None,
        Some("application/json"),
        Some("application/json; charset=UTF-8"),
        Some("application/pdf"),
        Some("text/html"),
    ][usize::from(r.byte() % 5)];
    let body = r.rest();

    // Lossless scanning of the body itself, whatever the operation.
    if let Ok(text) = std::str::from_utf8(body) {
        let strict = serde_json::from_str::<Value>(text).ok();
        let doc = lossless::Document::parse(text);
        assert_eq!(doc.is_ok(), lossless::members(text).is_ok());
        if let Ok(doc) = doc {
            // The one-pass splice writes each member exactly as rewriting it alone does.
            for m in &doc.members {
                let id = lossless::is_id_key(m.key);
                let spans = std::iter::once(m.value)
                    .chain(lossless::array_items(m.value).unwrap_or_default());
                for value in spans {
                    let mut alone = String::new();
                    let done = lossless::rewrite_into(value, id, &mut alone);
                    assert!(done.is_ok(), "a member's span does not scan: {done:?}");
                    let mut spliced = String::new();
                    doc.write_value(value, &mut spliced);
                    assert_eq!(spliced, alone, "write_value and rewrite_into differ");
                }
            }
        }
        match lossless::rewrite(text) {
            Ok(out) => {
                if strict.is_some() {
                    let v: Value = serde_json::from_str(&out)
                        .unwrap_or_else(|e| panic!("rewrite made invalid JSON ({e}): {out}"));
                    assert_ids_are_strings(&v, false);
                    // Rewriting is idempotent once every id is a string, but for the markers it
                    // wrote, whose key a text going to JS may not hold.
                    match lossless::rewrite(&out) {
                        Ok(again) => assert_eq!(again, out),
                        Err(e) => assert!(
                            e.contains("keeps for numbers") && out.contains(exact::EXACT),
                            "{e}: {out}"
                        ),
                    }
                }
            }
            Err(_) => assert!(
                strict.is_none() || text.len() > 100_000 || depth_over(text, 120),
                "valid JSON refused by the lossless scanner: {text}"
            ),
        }
    }

    let result = response::decode(op, status, content_type, body);
    let _ = response::error_from(status, body);
    match result {
        Err(e) => {
            assert_eq!(e.operation_id.as_deref(), Some(op.id));
            if !(200..300).contains(&status) {
                assert_eq!(e.status(), Some(status));
                assert!(matches!(
                    e.kind(),
                    ErrorKind::Api | ErrorKind::Unauthorized | ErrorKind::RateLimited
                ));
            }
            let _ = e.to_json();
        }
        Ok(Decoded::Binary) => assert_eq!(op.response, Shape::Binary),
        Ok(Decoded::Json(out)) => {
            assert!(
                (200..300).contains(&status),
                "a {status} decoded as a success"
            );
            assert_ne!(op.response, Shape::Binary);
            let strict_input = std::str::from_utf8(body)
                .ok()
                .and_then(|t| serde_json::from_str::<Value>(t).ok());
            if strict_input.is_some() {
                let v: Value = serde_json::from_str(&out)
                    .unwrap_or_else(|e| panic!("decode made invalid JSON ({e}): {out}"));
                assert_ids_are_strings(&v, false);
                match op.response {
                    Shape::Key(_) => assert!(v.is_object(), "a resource that is no object: {out}"),
                    Shape::KeyArray(_) => {
                        assert!(v.is_array(), "a resource that is no array: {out}")
                    }
                    Shape::KeyOrOneElementArray(_) => assert!(
                        v.is_object() || v.as_array().is_some_and(|a| a.len() > 1),
                        "a resource that is no object: {out}"
                    ),
                    Shape::TopLevel => assert!(
                        v.as_object().is_some_and(|o| !o.is_empty()),
                        "no resource fields: {out}"
                    ),
                    Shape::List(_) => {
                        assert!(v["items"].is_array(), "a page without items: {out}");
                        if let Some(pc) = v.get("page_context") {
                            assert!(
                                response::PageContext::read(pc).is_ok(),
                                "a page_context not as documented: {out}"
                            );
                        }
                    }
                    Shape::Empty | Shape::Binary => {}
                }
            }
        }
    }
}

/// Whether JSON text nests deeper than `max` (roughly: brackets outside strings).
fn depth_over(text: &str, max: usize) -> bool {
    let (mut depth, mut in_str, mut esc) = (0usize, false, false);
    for b in text.bytes() {
        match (in_str, esc, b) {
            (true, true, _) => esc = false,
            (true, false, b'\\') => esc = true,
            (true, false, b'"') => in_str = false,
            (true, false, _) => {}
            (false, _, b'"') => in_str = true,
            (false, _, b'[' | b'{') => {
                depth += 1;
                if depth > max {
                    return true;
                }
            }
            (false, _, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

// ---------------------------------------------------------------------------------------------
// validate

/// The operation, the time and the params of a `validate` input. Layout: `[op, mode, now (4 bytes,
/// seconds after 2020-09-13), params...]`; params are JSON text when mode is even, values built
/// from the bytes when it is odd.
pub fn validation_input(data: &[u8]) -> Option<(&'static Operation, i64, Value)> {
    let mut r = Reader { data };
    let op = op_at(r.byte());
    let mode = r.byte();
    let now_ms = 1_600_000_000_000 + r.u64(4) as i64 * 1000;
    gen_params(mode, op, &mut r).map(|params| (op, now_ms, params))
}

/// See `validation_input` for the layout.
pub fn validate(data: &[u8]) {
    let Some((op, now_ms, params)) = validation_input(data) else {
        return;
    };
    let issues = validate::validate_at(op, &params, now_ms);
    for issue in &issues {
        assert!(!issue.message.is_empty());
        let _ = issue.path_string();
    }
    let json = serde_json::to_string(&issues).expect("issues serialize");
    assert!(serde_json::from_str::<Value>(&json).is_ok());
    if let Some(m) = svc_json::of_value(&params).as_object() {
        let _ = svc_core::placement::wire_issues(op, m);
    }
    // What validation lets through, the request builder builds.
    let target = Target::new(Some("us"), None, Some("10234695"), None).expect("target");
    let path: Vec<&str> = op.path_params().map(|_| "4600000000000000123").collect();
    let built = request::build(op, &target, &path, &params);
    if issues.is_empty() {
        let p = built.unwrap_or_else(|e| panic!("valid params of {} not built: {e:?}", op.id));
        assert_request(op, &target, &path, &p);
    } else if !params.is_object() && !params.is_null() {
        assert!(built.is_err());
    }
    if !issues.is_empty() {
        let e = svc_sdk::Error::validation(issues);
        assert!(e.message.starts_with("invalid params: "));
        let _ = e.to_json();
    }
}

// ---------------------------------------------------------------------------------------------
// webhook

const CANARY: &str = "\u{1}canary-token\u{1}";

/// Layout: `[mode] token SEP body`; the token is given when bit 0 of mode is set.
pub fn webhook(data: &[u8]) {
    let mut r = Reader { data };
    let mode = r.byte();
    let token = r.field();
    let body = String::from_utf8_lossy(r.rest()).into_owned();
    let token = (mode & 1 == 1).then_some(token.as_str());

    let plain = webhook::watch_notification_text(&body, None);
    if let Ok(text) = &plain {
        let v: Value = serde_json::from_str(text).expect("a notification is JSON");
        assert!(
            v["channel_id"].is_string(),
            "channel_id not a string: {text}"
        );
        assert_ids_are_strings(&v, false);
    }
    if let Some(t) = token {
        let checked = webhook::watch_notification_text(&body, Some(t));
        match (&plain, &checked) {
            (Err(a), Err(b)) => assert_eq!(a, b, "a decoding error that depends on the token"),
            (Ok(text), Ok(same)) => {
                assert_eq!(text, same);
                let v: Value = serde_json::from_str(text).unwrap();
                assert_eq!(
                    v.get("token").and_then(Value::as_str).unwrap_or(""),
                    t,
                    "a notification accepted with another token"
                );
            }
            (Ok(_), Err(e)) => {
                assert_eq!(e.kind(), ErrorKind::Verification);
                if let Err(other) = webhook::watch_notification_text(&body, Some(CANARY)) {
                    assert_eq!(e, &other, "the verification error depends on the token");
                }
                assert!(!e.to_json().contains(CANARY));
            }
            (Err(_), Ok(_)) => panic!("a token made an unreadable notification readable"),
        }
        let _ = webhook::parse_watch_notification(&body, Some(t));
    }
    let _ = webhook::parse_watch_notification(&body, None);

    match webhook::event_text(&body) {
        Ok(text) => {
            let v: Value = serde_json::from_str(&text).expect("an event is JSON");
            let kind = v["event_type"].as_str().expect("event_type is a string");
            assert!(svc_core::model::billing::EVENT_TYPES.contains(&kind));
            assert!(v["event_id"].is_string());
            assert_ids_are_strings(&v, false);
        }
        Err(e) => assert_eq!(e.kind(), ErrorKind::Decode),
    }
    let _ = webhook::parse_event(&body);

    // The body read as the URL an event was posted to: it passes only holding the token once.
    if let Some(t) = token {
        match webhook::verify_event_url(&body, "token", t) {
            Ok(()) => {
                let given: Vec<String> = webhook::event_url_query(&body)
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|(k, _)| k == "token")
                    .map(|(_, v)| v)
                    .collect();
                assert_eq!(given, [t], "an event URL accepted without its token");
            }
            Err(e) if t.is_empty() => assert_eq!(e.kind(), ErrorKind::Config),
            Err(e) => {
                assert_eq!(e.kind(), ErrorKind::Verification);
                if let Err(other) = webhook::verify_event_url(&body, "token", CANARY) {
                    assert_eq!(e, other, "the verification error depends on the token");
                }
            }
        }
    }

    let a = token.unwrap_or("").as_bytes();
    let b = body.as_bytes();
    assert_eq!(webhook::constant_time_eq(a, b), a == b);
    assert!(webhook::constant_time_eq(a, a));
}

// ---------------------------------------------------------------------------------------------
// request

fn router() -> &'static Router {
    static ROUTER: OnceLock<Router> = OnceLock::new();
    ROUTER.get_or_init(|| Router::new(operations().iter()).expect("the catalog routes"))
}

/// Whether a URL parser (WHATWG) would read a path segment as `.` or `..` and climb the path.
fn is_dot_segment(seg: &str) -> bool {
    let s = seg.to_ascii_lowercase().replace("%2e", ".");
    s == "." || s == ".."
}

fn is_hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}

/// The shape every URL must have: no white space or control characters, no fragment, and a path
/// without dot segments below `prefix`. Returns (path below prefix, query).
fn assert_url(url: &str, prefix: &str) -> (String, Option<String>) {
    assert!(url.starts_with(prefix), "{url} is not below {prefix}");
    assert!(
        !url.chars().any(|c| c.is_control() || c.is_whitespace()),
        "a control character or white space in {url:?}"
    );
    assert!(!url.contains('#'), "a fragment in {url:?}");
    assert!(!url.contains('\\'), "a backslash in {url:?}");
    let rest = &url[prefix.len()..];
    let (path, query) = match rest.split_once('?') {
        Some((p, q)) => (p, Some(q.to_string())),
        None => (rest, None),
    };
    assert!(
        path.is_empty() || path.starts_with('/'),
        "the path leaves the root: {url:?}"
    );
    for seg in path.split('/').skip(1) {
        assert!(!is_dot_segment(seg), "a dot segment {seg:?} in {url:?}");
    }
    if let Some(q) = &query {
        for pair in q.split('&') {
            let (k, v) = pair.split_once('=').expect("key=value");
            assert!(request::percent_decode(k, true).is_some());
            assert!(request::percent_decode(v, true).is_some());
        }
    }
    (path.to_string(), query)
}

fn assert_headers(headers: &[(String, String)]) {
    for (name, value) in headers {
        assert!(
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_graphic() && b != b':'),
            "a bad header name {name:?}"
        );
        assert!(
            !value.contains(['\r', '\n', '\0']),
            "a line break in header {name}: {value:?}"
        );
    }
}

/// The invariants of a built operation request.
fn assert_request(op: &Operation, target: &Target, path: &[&str], p: &request::Prepared) {
    assert_eq!(p.method, op.method);
    let root = format!(
        "{}{}",
        target.api_domain,
        op.family.root(&target.crm_version)
    );
    let (below, query) = assert_url(&p.url, &root);
    // The path is the template with each value as one encoded segment, and nothing else.
    let mut expected = String::new();
    let mut values = path.iter();
    for seg in op.path.split('/').skip(1) {
        expected.push('/');
        if seg.starts_with('{') {
            let mut enc = String::new();
            request::percent_encode(values.next().expect("a value"), &mut enc);
            let raw = enc.as_bytes();
            for (i, b) in raw.iter().enumerate() {
                assert!(
                    !matches!(b, b'/' | b'?' | b'#' | b'\r' | b'\n'),
                    "{enc:?} holds a raw {b}"
                );
                if *b == b'%' {
                    assert!(raw.len() > i + 2 && is_hex(raw[i + 1]) && is_hex(raw[i + 2]));
                }
            }
            expected.push_str(&enc);
        } else {
            expected.push_str(seg);
        }
    }
    assert_eq!(below, expected, "the path of {}", op.id);
    // What a server receives routes back to the operation with the same values.
    let full = format!("{}{}", op.family.root(&target.crm_version), below);
    match router().find(op.method.as_str(), &full) {
        Found::Op(found, got) => {
            assert_eq!(found.id, op.id, "{full} routes to another operation");
            let got: Vec<&str> = got
                .iter()
                .filter(|(k, _)| k != "version")
                .map(|(_, v)| v.as_str())
                .collect();
            assert_eq!(got, path, "{full} carries other values");
        }
        other => panic!("{full} does not route back to {}: {other:?}", op.id),
    }
    if let (true, OrgPlacement::Query(name), Some(org)) = (
        op.org,
        op.family.org_placement(),
        target.organization_id.as_deref(),
    ) {
        let mut want = String::new();
        request::percent_encode(org, &mut want);
        let q = query.expect("the organization in the query");
        assert!(q.split('&').any(|kv| kv == format!("{name}={want}")), "{q}");
    }
    assert_headers(&p.headers);
}

const DOMAINS: &[&str] = &[
    "http://127.0.0.1:8787",
    "http://localhost:3000/api/",
    "https://proxy.example.com/svc",
    "http://[::1]:9",
];

/// Layout: `[op, flags, domain, mode] token SEP organization SEP crm version SEP api domain
/// SEP raw path SEP path values (one field each) ... SEP params`. Flags: bit 0 no organization,
/// bit 1 default crm version, bit 2 behind a proxy, bit 3 a body for the raw request. Domain
/// picks a region, one of `DOMAINS`, or (255) the api domain field. Mode as in `validate`.
pub fn request(data: &[u8]) {
    let mut r = Reader { data };
    let (op_i, flags, domain, mode) = (r.byte(), r.byte(), r.byte(), r.byte());
    let op = op_at(op_i);
    let token = r.field();
    let org = r.field();
    let crm = r.field();
    let api = r.field();
    let raw_path = r.field();
    let path: Vec<String> = (0..op.path_param_count()).map(|_| r.field()).collect();

    match request::authorization(&token) {
        Ok(v) => {
            assert_eq!(v, format!("Svc-oauthtoken {token}"));
            assert!(!v.chars().any(char::is_control), "{v:?}");
        }
        Err(e) => {
            assert_eq!(e.kind(), ErrorKind::Config);
            // A refused token that is a piece of the refusals' wording (" ", "n ", "too") is in it anyway.
            let wording = ["", "\n", " ", "x", "xx"]
                .map(|t| request::authorization(t).unwrap_err().to_json());
            if !token.is_empty() && !wording.iter().any(|w| w.contains(token.as_str())) {
                assert!(
                    !e.to_json().contains(token.as_str()),
                    "the token in an error"
                );
            }
        }
    }

    let (region, api_domain) = match domain {
        255 => (None, Some(api.as_str())),
        d if usize::from(d) < REGIONS.len() => (Some(REGIONS[usize::from(d)].0), None),
        d => (None, Some(DOMAINS[usize::from(d) % DOMAINS.len()])),
    };
    let target = Target::new(
        region,
        api_domain,
        (flags & 1 == 0).then_some(org.as_str()),
        (flags & 2 == 0).then_some(crm.as_str()),
    );
    let Ok(mut target) = target else {
        return;
    };
    assert!(!target.api_domain.ends_with('/'));
    if let Some(o) = &target.organization_id {
        assert!(!o.is_empty() && !o.chars().any(char::is_control));
    }
    target.via_proxy = flags & 4 != 0;

    let params = gen_params(mode, op, &mut r).unwrap_or(Value::Null);
    let refs: Vec<&str> = path.iter().map(String::as_str).collect();
    match request::build(op, &target, &refs, &params) {
        Ok(p) => {
            for v in &refs {
                assert!(
                    !v.is_empty() && *v != "." && *v != "..",
                    "{v:?} was let through"
                );
            }
            assert_request(op, &target, &refs, &p);
        }
        Err(e) => {
            let _ = e.to_json();
        }
    }

    let query = match &params {
        Value::Object(m) => m.clone(),
        _ => Map::new(),
    };
    let body = (flags & 8 != 0).then_some(&params);
    let family = Family::ALL[usize::from(op_i) % Family::ALL.len()];
    let method = [
        Method::Get,
        Method::Post,
        Method::Put,
        Method::Patch,
        Method::Delete,
    ][usize::from(mode >> 1) % 5];
    if let Ok(p) = request::build_raw(method, family, &raw_path, &target, &query, body) {
        let root = format!("{}{}/", target.api_domain, family.root(&target.crm_version));
        let (below, _) = assert_url(&p.url, &root[..root.len() - 1]);
        assert!(below.starts_with('/'));
        assert_headers(&p.headers);
        assert_eq!(p.method, method);
    }
}

// ---------------------------------------------------------------------------------------------
// proxy

const METHODS: &[&str] = &[
    "GET", "POST", "PUT", "PATCH", "DELETE", "get", "Post", "HEAD", "OPTIONS", "",
];

/// The tail of a path with its last `n` segments, one trailing `/` aside, as `Router::find` reads it.
fn last_segments(path: &str, n: usize) -> Option<&str> {
    let trimmed = match path.strip_suffix('/') {
        Some(p) if !p.is_empty() => p,
        _ => path,
    };
    let i = trimmed.rmatch_indices('/').nth(n.checked_sub(1)?)?.0;
    Some(&path[i..])
}

/// Layout: `[method, op, flags] method SEP prefix SEP path SEP query SEP headers SEP body`.
/// Method picks one of `METHODS`, or (240 and above) the method field. The path is the prefix
/// then, when bit 0 of flags is set, the path field; otherwise the operation's path template
/// (family root included, the CRM version a parameter) with each parameter filled by a field of
/// its own, in place of the path field, percent-encoded when bit 1 is set. Headers are
/// `name: value` lines; with bit 2 every header not among them answers with the whole field.
/// Bit 3: no body. Bit 4: a trailing `/`. The body is the rest, as (lossy) UTF-8 text.
pub fn proxy(data: &[u8]) {
    let mut r = Reader { data };
    let (m, op_i, flags) = (r.byte(), r.byte(), r.byte());
    let method_field = r.field();
    let method = if m >= 240 {
        method_field.as_str()
    } else {
        METHODS[usize::from(m) % METHODS.len()]
    };
    let op = op_at(op_i);
    let mut path = r.field();
    let no_prefix = path.is_empty();
    let mut values = Vec::new();
    let template = svc_core::route::template(op);
    if flags & 1 == 1 {
        path.push_str(&r.field());
    } else {
        for seg in template.split('/').skip(1) {
            path.push('/');
            match seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                Some(name) => {
                    let v = r.field();
                    if flags & 2 != 0 {
                        request::percent_encode(&v, &mut path);
                    } else {
                        path.push_str(&v);
                    }
                    values.push((name, v));
                }
                None => path.push_str(seg),
            }
        }
    }
    if flags & 16 != 0 {
        path.push('/');
    }
    let query = r.field();
    let headers = r.field();
    let body = String::from_utf8_lossy(r.rest()).into_owned();
    let body = (flags & 8 == 0).then_some(body.as_str());
    let header = |name: &str| {
        let listed = headers.lines().find_map(|line| {
            let (n, v) = line.split_once(':')?;
            (n == name).then(|| v.trim().to_string())
        });
        listed.or_else(|| (flags & 4 != 0).then(|| headers.clone()))
    };

    let planned = svc_sdk::proxy::plan(method, &path, &query, header, body);

    // Against the router on the whole path, below every prefix, where that is cheap.
    if path.starts_with('/') && path.matches('/').count() <= 40 {
        match (router().find_below_prefix(method, &path), &planned) {
            (Found::Op(a, _), Ok(p)) => assert_eq!(a.id, p.op.id, "{path:?}"),
            (Found::Op(..), Err(e)) => {
                assert!(matches!(e.status(), Some(400 | 415)), "{path:?}: {e:?}")
            }
            (Found::NotFound, Err(e)) => assert_eq!(e.status(), Some(404), "{path:?}: {e:?}"),
            (Found::MethodNotAllowed(_), Err(e)) => {
                assert_eq!(e.status(), Some(405), "{path:?}: {e:?}")
            }
            (found, planned) => panic!("{path:?}: the router {found:?}, the plan {planned:?}"),
        }
    }

    match planned {
        Ok(plan) => {
            let found = plan.op;
            assert!(found.method.as_str().eq_ignore_ascii_case(method));
            assert_eq!(plan.path_params.len(), found.path_param_count());
            // The route is the path's last segments, and carries the plan's path values.
            let segs = svc_core::route::template(found).matches('/').count();
            let tail = last_segments(&path, segs).expect("as many segments as the route");
            match router().find(method, tail) {
                Found::Op(again, got) => {
                    assert_eq!(again.id, found.id, "{tail:?}");
                    let got: Vec<String> = got
                        .into_iter()
                        .filter(|(k, _)| k != "version")
                        .map(|(_, v)| v)
                        .collect();
                    assert_eq!(got, plan.path_params, "{tail:?}");
                }
                other => panic!("{tail:?} of {path:?} routes to {other:?}"),
            }
            // A path that is this operation's template with encoded values (no prefix) routes at
            // its root, so when it found the operation it carries the values given.
            if flags & 3 == 2
                && no_prefix
                && found.id == op.id
                && values.iter().all(|(_, v)| !v.is_empty())
            {
                let want: Vec<&str> = values
                    .iter()
                    .filter(|(k, _)| *k != "version")
                    .map(|(_, v)| v.as_str())
                    .collect();
                assert_eq!(plan.path_params, want, "{path:?}");
            }
            let text = plan.params;
            let Ok(Value::Object(params)) = serde_json::from_str::<Value>(&text) else {
                panic!("params are no JSON object: {text}")
            };
            if !found.method.has_body() {
                let by_header = found.headers.iter().any(|(p, _)| *p == "organization_id");
                assert!(by_header || !params.contains_key("organization_id"));
            }
            if found.body == svc_core::catalog::BodyKind::Json {
                if let Some(text) = body.filter(|b| !b.trim().is_empty()) {
                    let object: Map<String, Value> =
                        serde_json::from_str(text).expect("a planned body is a JSON object");
                    for (k, v) in &object {
                        assert_eq!(params.get(k), Some(v), "body member {k:?}");
                    }
                }
            }
        }
        Err(e) => {
            assert_eq!(e.kind(), ErrorKind::Api, "{e:?}");
            match e.status() {
                Some(404) => assert!(e.message.starts_with("no operation at ")),
                Some(405) => assert!(e.message.starts_with(&format!("{method} is not allowed"))),
                Some(400) => {}
                Some(415) => {
                    // Only a request with a body whose media type is not its operation's.
                    let routed = svc_sdk::proxy::route(method, &path).expect("routed");
                    assert!(routed.op.method.has_body(), "{e:?}");
                    let want = match routed.op.body {
                        svc_core::catalog::BodyKind::Multipart { .. } => "multipart/form-data",
                        _ => "application/json",
                    };
                    let got = header("content-type").map(|c| svc_sdk::proxy::media_type(&c));
                    assert_ne!(got.as_deref(), Some(want), "{e:?}");
                }
                other => panic!("a proxy error with status {other:?}: {e:?}"),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// numbers

/// Number texts a fuzzer rarely builds digit by digit: the edges of a double and of exactness.
const EDGE_NUMBERS: &[&str] = &[
    "9007199254740991",
    "9007199254740992",
    "9007199254740993",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "-9223372036854775809",
    "123456789012345678901234567890",
    "1000.00000000000000000000000001",
    "0.30000000000000004",
    "0.1000000000000000055511151231257827",
    "1e400",
    "-1e400",
    "1e-400",
    "-0",
    "-0.0",
    "0e99999999999999999999",
    "-0E-7",
    "1.7976931348623157e308",
    "1.7976931348623158e308",
    "17976931348623157e292",
    "179769313486231570000e288",
    "2.2250738585072014e-308",
    "2.2250738585072011e-308",
    "4.9406564584124654e-324",
    "5e-324",
    "2.4703282292062327e-324",
    "2.4703282292062328e-324",
    "1e21",
    "1e23",
    "8.41e21",
    "9.999999999999999e22",
    "1.00000000000000011102230246251565404236316680908203125",
];

/// Keys that name the organization in some spelling a server may read as it (raw JSON string contents).
const ORG_KEYS: &[&str] = &[
    "organization_id",
    "Organization_ID",
    " organization_id",
    "ORGANIZATION_ID ",
    "+organization_id+",
    "organization_id\\t",
    "organization\\u005fid",
    "\\u004frganization_id",
];

/// Spellings of the exact-number marker's key (raw JSON string contents).
const MARKER_KEYS: &[&str] = &[
    "$svc_exact",
    "\\u0024svc_exact",
    "$svc\\u005fexact",
    "\\u0024\\u0073vc_exact",
];

const ID_KEYS: &[&str] = &["id", "ids", "x_id", "tax_ids", "contact_persons", "item_id"];
const OTHER_KEYS: &[&str] = &[
    "amount",
    "rate",
    "paid",
    "identity",
    "idx",
    "item_idz",
    "$svc_exactly",
    "$",
    "r\\u0061te",
    "\\u0069d",
];

/// A generated JSON value; keys are raw string contents (escapes as written).
#[derive(Clone)]
enum Node {
    Num(String),
    Str(&'static str),
    Arr(Vec<Node>),
    Obj(Vec<(String, Node)>),
    /// An object whose key spells the marker's: `{"<key>": "<number text>"}` (a marker), or with a
    /// bare number, a string that is no number, or a second member (no marker).
    Marker {
        key: &'static str,
        value: MarkerValue,
        extra: bool,
    },
}

#[derive(Clone)]
enum MarkerValue {
    Text(String),
    Bare(String),
    NotANumber(&'static str),
}

/// What `render` writes.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    /// The input, with its blanks.
    Raw,
    /// What `lossless::rewrite` must write: ids quoted, numbers a double changes marked, blanks kept.
    Lossless,
    /// What `exact::read` of the rewritten text writes back (compact; ids strings, markers numbers).
    LosslessRead,
    /// The proxy's params text: compact, numbers as written, `organization_id` spellings dropped at
    /// the top level.
    Params,
    /// What `exact::read` of the params text writes back: markers read as their numbers.
    ParamsRead,
}

/// Whether a double holds the value of JSON number text `t`, by std's correctly rounded parser and
/// shortest printer: the independent oracle for `exact::holds`.
pub fn oracle_holds(t: &str) -> bool {
    let Some((neg, digits, exp)) = normalized(t) else {
        panic!("not a number text: {t:?}");
    };
    if digits.is_empty() {
        return true;
    }
    let f: f64 = t.parse().expect("std parses JSON number text");
    if !f.is_finite() {
        return false;
    }
    normalized(&js_text(f)) == Some((neg, digits, exp))
}

/// The shortest text of a double as JS writes it: std's shortest digits, except that of two
/// shortest texts equally near the double JS (ECMAScript's Number::toString, V8's and Gay's dtoa)
/// takes the one whose last digit is even, where std's printer takes the upper one
/// (`2000000000000001.25` is `2000000000000001.2` in JS, `2.0000000000000013e15` in std).
fn js_text(f: f64) -> String {
    let shortest = format!("{f:e}");
    let (Some((_, digits, _)), Some((neg, exact, e))) =
        (normalized(&shortest), normalized(&format!("{f:.800e}")))
    else {
        return shortest;
    };
    let k = digits.len();
    if k == 0 || exact.len() != k + 1 || !exact.ends_with('5') {
        return shortest;
    }
    // A tie: the exact digits cut to k, or that plus one in the last place.
    let down: u128 = exact[..k].parse().expect("digits");
    let even = if down.is_multiple_of(2) {
        down
    } else {
        down + 1
    };
    let text = even.to_string();
    let e = e + (text.len() - k) as i128;
    let sign = if neg { "-" } else { "" };
    let candidate = format!("{sign}{}.{}0e{e}", &text[..1], &text[1..]);
    match candidate.parse::<f64>() {
        Ok(g) if g == f => candidate,
        _ => shortest,
    }
}

/// Sign, significant digits (no leading or trailing zeros) and the power of ten of the first digit;
/// an exponent beyond ±10^30 saturates (no double is near).
fn normalized(t: &str) -> Option<(bool, String, i128)> {
    let (neg, unsigned) = match t.strip_prefix('-') {
        Some(u) => (true, u),
        None => (false, t),
    };
    let (mantissa, exp) = match unsigned.find(['e', 'E']) {
        Some(i) => {
            let e = &unsigned[i + 1..];
            let (sign, ds) = match e.as_bytes().first() {
                Some(b'-') => (-1, &e[1..]),
                Some(b'+') => (1, &e[1..]),
                _ => (1, e),
            };
            if ds.is_empty() || !ds.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let v = ds.bytes().fold(0i128, |acc, b| {
                (acc * 10 + i128::from(b - b'0')).min(1_000_000_000_000_000_000_000_000_000_000)
            });
            (&unsigned[..i], sign * v)
        }
        None => (unsigned, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let all = format!("{int}{frac}");
    let zeros = all.bytes().take_while(|&b| b == b'0').count();
    let digits = all[zeros..].trim_end_matches('0').to_string();
    if digits.is_empty() {
        return Some((neg, digits, 0));
    }
    Some((neg, digits, exp + int.len() as i128 - 1 - zeros as i128))
}

/// `n` decimal digits drawn from the input: each from a byte, one digit repeated, nines, or zeros
/// before one digit.
fn gen_digits(r: &mut Reader, n: usize, out: &mut String) {
    let mode = r.byte();
    let d = char::from(b'0' + r.byte() % 10);
    for i in 0..n {
        out.push(match mode % 4 {
            0 => char::from(b'0' + r.byte() % 10),
            1 => d,
            2 => '9',
            _ if i + 1 == n => d,
            _ => '0',
        });
    }
}

const DIGIT_COUNTS: &[usize] = &[
    1, 1, 2, 3, 5, 15, 16, 17, 18, 19, 20, 21, 30, 40, 100, 310, 400,
];

/// A JSON number text built from the input: an edge value, a double's text (shortest, more digits
/// than that, or one digit off), or sign, digits, fraction and exponent drawn one by one.
fn gen_number(r: &mut Reader) -> String {
    let c = r.byte();
    match c % 8 {
        0 => EDGE_NUMBERS[usize::from(r.byte()) % EDGE_NUMBERS.len()].to_string(),
        1 => {
            let f = f64::from_bits(r.u64(8));
            let f = if f.is_finite() { f } else { f64::MIN_POSITIVE };
            let shortest = format!("{f:e}");
            match r.byte() % 8 {
                0 => shortest,
                1 => format!("{f:.16e}"),
                2 => format!("{f:.15e}"),
                3 => format!("{f:.17e}"),
                4 => format!("{f}"),
                5 => {
                    // Zeros after the shortest text's last digit.
                    let (m, e) = shortest.split_once('e').expect("an exponent");
                    let dot = if m.contains('.') { "" } else { "." };
                    format!("{m}{dot}000000e{e}")
                }
                6 => {
                    // One more digit after the shortest text's last.
                    let (m, e) = shortest.split_once('e').expect("an exponent");
                    let dot = if m.contains('.') { "" } else { ".0" };
                    format!("{m}{dot}{}e{e}", 1 + r.byte() % 9)
                }
                _ => {
                    // The last digit one off (up or down), where it stays a digit.
                    let (m, e) = shortest.split_once('e').expect("an exponent");
                    let mut m = m.as_bytes().to_vec();
                    let last = m.last_mut().expect("a digit");
                    *last = match (*last, r.byte() & 1) {
                        (b'9', _) | (_, 0) if *last > b'0' => *last - 1,
                        (x, _) if x < b'9' => x + 1,
                        (x, _) => x,
                    };
                    format!("{}e{e}", String::from_utf8(m).expect("ASCII"))
                }
            }
        }
        _ => {
            let mut t = String::new();
            if c & 8 != 0 {
                t.push('-');
            }
            if c & 16 != 0 {
                t.push('0');
            } else {
                t.push(char::from(b'1' + r.byte() % 9));
                let n = DIGIT_COUNTS[usize::from(r.byte()) % DIGIT_COUNTS.len()];
                gen_digits(r, n - 1, &mut t);
            }
            if c & 32 != 0 {
                t.push('.');
                let n = DIGIT_COUNTS[usize::from(r.byte()) % DIGIT_COUNTS.len()];
                gen_digits(r, n, &mut t);
            }
            if c & 64 != 0 {
                let e = r.byte();
                t.push(if e & 1 == 0 { 'e' } else { 'E' });
                t.push_str(["", "+", "-"][usize::from(e >> 1) % 3]);
                let n = [1, 1, 2, 3, 3, 3, 4, 20][usize::from(e >> 3) % 8];
                gen_digits(r, n, &mut t);
            }
            t
        }
    }
}

/// A key not yet used in its object (raw contents): an id key, another key, or (`special`) a
/// spelling of `organization_id`.
fn gen_key(r: &mut Reader, used: &mut Vec<String>, special: bool) -> String {
    let b = r.byte();
    let base = match b % 4 {
        0 | 1 => ID_KEYS[usize::from(b >> 2) % ID_KEYS.len()],
        2 => OTHER_KEYS[usize::from(b >> 2) % OTHER_KEYS.len()],
        _ if special => ORG_KEYS[usize::from(b >> 2) % ORG_KEYS.len()],
        _ => OTHER_KEYS[usize::from(b >> 2) % OTHER_KEYS.len()],
    };
    let mut key = base.to_string();
    let mut n = used.len();
    while used.contains(&unescaped(&key)) {
        key = format!("k{n}_{base}");
        n += 1;
    }
    used.push(unescaped(&key));
    key
}

fn unescaped(raw: &str) -> String {
    serde_json::from_str(&format!("\"{raw}\"")).expect("a generated key is JSON string contents")
}

fn gen_node(r: &mut Reader, depth: u32, budget: &mut u32) -> Node {
    *budget = budget.saturating_sub(1);
    let b = if depth >= 5 || *budget == 0 {
        0
    } else {
        r.byte()
    };
    match b % 10 {
        6 | 7 => {
            let n = r.byte() % 5;
            Node::Arr((0..n).map(|_| gen_node(r, depth + 1, budget)).collect())
        }
        8 => {
            let n = usize::from(r.byte() % 5);
            Node::Obj(gen_members(r, depth + 1, budget, false, n))
        }
        9 => {
            let k = r.byte();
            let value = match k % 4 {
                0 | 1 => MarkerValue::Text(gen_number(r)),
                2 => MarkerValue::Bare(gen_number(r)),
                _ => MarkerValue::NotANumber(
                    ["01", "1.", "x", " 1", "", "1e"][usize::from(k >> 2) % 6],
                ),
            };
            Node::Marker {
                key: MARKER_KEYS[usize::from(k >> 4) % MARKER_KEYS.len()],
                value,
                extra: k & 8 != 0 && k % 4 != 3,
            }
        }
        5 => Node::Str(["9007199254740993", "1e400", "$svc_exact", "x"][usize::from(b >> 4) % 4]),
        _ => Node::Num(gen_number(r)),
    }
}

fn gen_members(
    r: &mut Reader,
    depth: u32,
    budget: &mut u32,
    special: bool,
    n: usize,
) -> Vec<(String, Node)> {
    let mut used = Vec::new();
    let mut members = Vec::new();
    for _ in 0..n {
        if r.data.is_empty() && !members.is_empty() {
            break;
        }
        let key = gen_key(r, &mut used, special);
        members.push((key, gen_node(r, depth, budget)));
    }
    members
}

/// Writes `node` in `form`; `id` says whether it sits under an id key (as the scanner reads keys:
/// raw); `numbers` collects the numbers a reader of the result sees, with whether they are read
/// as written by JSON.stringify (`exact::from_double`).
fn render(
    node: &Node,
    form: Form,
    id: bool,
    ws: &str,
    out: &mut String,
    numbers: &mut Vec<(String, bool)>,
) {
    let compact = !matches!(form, Form::Raw | Form::Lossless);
    let blank = if compact { "" } else { ws };
    let key_text = |raw: &str| {
        if compact {
            serde_json::to_string(&unescaped(raw)).expect("a key")
        } else {
            format!("\"{raw}\"")
        }
    };
    let proxy = matches!(form, Form::Params | Form::ParamsRead);
    match node {
        Node::Num(t) => match form {
            Form::Raw => out.push_str(t),
            Form::Lossless | Form::LosslessRead if id => {
                out.push('"');
                out.push_str(t);
                out.push('"');
            }
            Form::Lossless => {
                if exact::holds(t) {
                    out.push_str(t);
                } else {
                    out.push_str(&format!("{{\"$svc_exact\":\"{t}\"}}"));
                }
            }
            Form::LosslessRead => {
                out.push_str(t);
                numbers.push((t.clone(), exact::holds(t)));
            }
            Form::Params | Form::ParamsRead => {
                out.push_str(t);
                numbers.push((t.clone(), true));
            }
        },
        Node::Str(s) => {
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        Node::Arr(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(blank);
                render(item, form, id, ws, out, numbers);
            }
            out.push_str(blank);
            out.push(']');
        }
        Node::Obj(members) => {
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(blank);
                out.push_str(&key_text(k));
                out.push(':');
                out.push_str(blank);
                render(v, form, lossless::is_id_key(k), ws, out, numbers);
            }
            out.push_str(blank);
            out.push('}');
        }
        Node::Marker { key, value, extra } => {
            let is_marker = matches!(value, MarkerValue::Text(_)) && !extra;
            if form == Form::ParamsRead && is_marker {
                let MarkerValue::Text(t) = value else {
                    unreachable!()
                };
                out.push_str(t);
                numbers.push((t.clone(), false));
                return;
            }
            assert!(
                proxy || form == Form::Raw,
                "a marker's key goes through the scanner"
            );
            out.push('{');
            out.push_str(&key_text(key));
            out.push(':');
            match value {
                MarkerValue::Text(t) => {
                    out.push('"');
                    out.push_str(t);
                    out.push('"');
                }
                MarkerValue::Bare(t) => {
                    out.push_str(t);
                    if proxy {
                        numbers.push((t.clone(), true));
                    }
                }
                MarkerValue::NotANumber(s) => {
                    out.push('"');
                    out.push_str(s);
                    out.push('"');
                }
            }
            if *extra {
                out.push_str(",\"b\":1");
                if proxy {
                    numbers.push(("1".into(), true));
                }
            }
            out.push('}');
        }
    }
}

fn has_marker_key(node: &Node) -> bool {
    match node {
        Node::Marker { .. } => true,
        Node::Arr(items) => items.iter().any(has_marker_key),
        Node::Obj(members) => members.iter().any(|(_, v)| has_marker_key(v)),
        Node::Num(_) | Node::Str(_) => false,
    }
}

/// The numbers of a read tree in document order, with `exact::from_double` of each.
fn read_numbers(v: &Json, out: &mut Vec<(String, bool)>) {
    match v {
        Json::Num(t) => out.push((t.to_string(), exact::from_double(v))),
        Json::Arr(items) => items.iter().for_each(|i| read_numbers(i, out)),
        Json::Obj(m) => m.values().for_each(|x| read_numbers(x, out)),
        _ => {}
    }
}

/// Whether a key names the organization in a spelling a server may read as it.
fn names_the_organization(key: &str) -> bool {
    key.trim_matches(|c: char| c.is_whitespace() || c == '+')
        .eq_ignore_ascii_case("organization_id")
}

/// Layout: `[flags, list op, key op, body op] members...`: an object document whose members (keys
/// drawn among id keys, other keys and spellings of `organization_id`, values numbers, strings,
/// arrays, objects and objects whose key spells the exact-number marker's, nested up to 5 deep)
/// are read from the rest. Flags bits 0-1 choose the blanks between tokens; bits 2-3 the query.
/// Every number text is checked against `oracle_holds`, then the document goes through
/// `lossless::rewrite`, `response::decode` (a list and a key row) and the proxy's `plan_text`
/// (a JSON-body operation), each result read back with `exact::read`.
pub fn numbers(data: &[u8]) {
    let mut r = Reader { data };
    let flags = r.byte();
    let (list_i, key_i, body_i) = (r.byte(), r.byte(), r.byte());
    let ws = ["", " ", "\n  ", " \t\r\n"][usize::from(flags % 4)];
    let mut budget = 64;
    let members = gen_members(&mut r, 0, &mut budget, true, 48);
    let doc = Node::Obj(members);

    let mut all = Vec::new();
    collect_numbers(&doc, &mut all);
    for t in &all {
        assert!(exact::is_number_text(t), "{t:?} is JSON number text");
        let (held, oracle) = (exact::holds(t), oracle_holds(t));
        assert!(
            held == oracle,
            "exact::holds({t:?}) is {held}, std's parse and shortest print ({:e}) say {oracle}",
            t.parse::<f64>().unwrap_or(f64::NAN)
        );
    }

    let mut raw = String::new();
    render(&doc, Form::Raw, false, ws, &mut raw, &mut Vec::new());
    let refused = has_marker_key(&doc);

    // The scanner.
    let expected = (!refused).then(|| {
        let mut out = String::new();
        render(&doc, Form::Lossless, false, ws, &mut out, &mut Vec::new());
        out
    });
    match (lossless::rewrite(&raw), &expected) {
        (Ok(out), Some(want)) => {
            assert_eq!(&out, want, "rewrite of {raw}");
            // The core's reader, not serde_json's: serde_json's arithmetic overflows on numbers
            // just below the largest double (`179769313486231570000e288`), which JSON.parse reads.
            let read = exact::read(&out).unwrap_or_else(|e| panic!("{e:?}: {out}"));
            let mut numbers = Vec::new();
            let mut want = String::new();
            render(&doc, Form::LosslessRead, false, ws, &mut want, &mut numbers);
            assert_eq!(read.to_json_text(), want, "read back of {out}");
            let mut got = Vec::new();
            read_numbers(&read, &mut got);
            assert_eq!(got, numbers, "numbers read from {out}");
        }
        (Err(e), None) => assert!(e.contains("keeps for numbers"), "{e}: {raw}"),
        (got, _) => panic!("rewrite of {raw}: {got:?}, the marker's key present: {refused}"),
    }

    // The decoder, for a list row and a key row.
    let pick = |i: u8, f: &dyn Fn(&Operation) -> Option<&'static str>| {
        let ops: Vec<(&Operation, &str)> = operations()
            .iter()
            .filter_map(|op| f(op).map(|k| (op, k)))
            .filter(|(_, k)| !lossless::is_id_key(k))
            .collect();
        ops[usize::from(i) % ops.len()]
    };
    let (list_op, list_key) = pick(list_i, &|op| match op.response {
        Shape::List(k) => Some(k),
        _ => None,
    });
    let (key_op, key) = pick(key_i, &|op| match op.response {
        Shape::Key(keys) => Some(keys[0]),
        _ => None,
    });
    for (op, body, wrap) in [
        (
            list_op,
            format!("{{\"code\":0,\"message\":\"ok\",\"{list_key}\":[{raw}]}}"),
            true,
        ),
        (key_op, format!("{{\"code\":0,\"{key}\":{raw}}}"), false),
    ] {
        let got = response::decode(op, 200, Some("application/json"), body.as_bytes());
        match (got, &expected) {
            (Ok(Decoded::Json(out)), Some(want)) => {
                let want = if wrap {
                    format!("{{\"items\":[{want}]}}")
                } else {
                    want.clone()
                };
                assert_eq!(out, want, "{} decoding {body}", op.id);
            }
            (Err(e), None) => assert!(e.message.contains("keeps for numbers"), "{e:?}"),
            (got, _) => panic!("{} decoding {body}: {got:?}", op.id),
        }
    }

    // The proxy, for a JSON-body operation with no path values.
    let body_ops: Vec<&Operation> = operations()
        .iter()
        .filter(|op| {
            op.method == Method::Post
                && op.body == svc_core::catalog::BodyKind::Json
                && op.headers.is_empty()
                && !svc_core::route::template(op).contains('{')
        })
        .collect();
    let op = body_ops[usize::from(body_i) % body_ops.len()];
    let query = [
        "",
        "organization_id=5",
        "organization_id+=6&Organization_ID=7&%20organization_id=8&x_unlisted=1",
        "%2Borganization_id%09=9&ORGANIZATION_ID=1",
    ][usize::from(flags >> 2) % 4];
    let json_body = |name: &str| (name == "content-type").then(|| "application/json".to_string());
    let planned = svc_sdk::proxy::route("POST", &svc_core::route::template(op))
        .expect("the template routes")
        .plan_text(query, json_body, Some(&raw))
        .unwrap_or_else(|e| panic!("{} planning {raw}: {e:?}", op.id));
    assert_eq!(planned.op.id, op.id);
    let Node::Obj(members) = &doc else {
        unreachable!()
    };
    let kept = Node::Obj(
        members
            .iter()
            .filter(|(k, _)| !names_the_organization(&unescaped(k)))
            .cloned()
            .collect(),
    );
    let mut want = String::new();
    render(&kept, Form::Params, false, ws, &mut want, &mut Vec::new());
    assert_eq!(planned.params, want, "{} planning {raw}", op.id);
    let read = exact::read(&planned.params).unwrap_or_else(|e| panic!("{e:?}: {}", planned.params));
    let Json::Obj(m) = &read else {
        panic!("params that are no object: {}", planned.params)
    };
    assert!(
        !m.keys().any(names_the_organization),
        "an organization_id got through: {}",
        planned.params
    );
    let mut numbers = Vec::new();
    let mut want = String::new();
    render(&kept, Form::ParamsRead, false, ws, &mut want, &mut numbers);
    assert_eq!(read.to_json_text(), want, "read back of {}", planned.params);
    let mut got = Vec::new();
    read_numbers(&read, &mut got);
    assert_eq!(got, numbers, "numbers read from {}", planned.params);
}

fn collect_numbers(node: &Node, out: &mut Vec<String>) {
    match node {
        Node::Num(t) => out.push(t.clone()),
        Node::Arr(items) => items.iter().for_each(|i| collect_numbers(i, out)),
        Node::Obj(members) => members.iter().for_each(|(_, v)| collect_numbers(v, out)),
        Node::Marker {
            value: MarkerValue::Text(t) | MarkerValue::Bare(t),
            ..
        } => out.push(t.clone()),
        Node::Marker { .. } | Node::Str(_) => {}
    }
}
