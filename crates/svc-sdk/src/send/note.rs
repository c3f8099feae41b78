//! What the loop tells of a call as it runs (each attempt, its answer, a wait, the end): at which log level, in which words, and as the record a logger and the hooks get.

use svc_core::catalog::Method;
use svc_core::declare::{Declared, Member};
use svc_core::error::{Error, ErrorKind};
use svc_core::headers::Headers;
use svc_core::redact;
use svc_json::write::{self, Members};

/// The answer's header that names the request, where the service sends one (the sandbox echoes the caller's).
pub const REQUEST_ID: &str = "x-request-id";

/// The levels of `logLevel`, least verbose first; "off" is no level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Error,
    Warn,
    Info,
    Debug,
}

impl Level {
    pub const NAMES: [&'static str; 5] = ["off", "error", "warn", "info", "debug"];

    /// A `logLevel` name: `Some(None)` for "off", `None` when it names no level.
    pub fn parse(name: &str) -> Option<Option<Level>> {
        match name.trim().to_ascii_lowercase().as_str() {
            "off" => Some(None),
            "error" => Some(Some(Level::Error)),
            "warn" => Some(Some(Level::Warn)),
            "info" => Some(Some(Level::Info)),
            "debug" => Some(Some(Level::Debug)),
            _ => None,
        }
    }

    /// The logger's method that writes this level.
    pub fn method(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warn => "warn",
            Level::Info => "info",
            Level::Debug => "debug",
        }
    }
}

/// Why an attempt is sent again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Again {
    /// The service answered this status; `told`: its Retry-After set the wait.
    Status { status: u16, told: bool },
    /// No answer: a network failure or a timeout.
    NoAnswer(ErrorKind),
}

/// One thing that happened to a call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event<'a> {
    /// The attempt is about to be sent (`onRequest`) with these headers, and Authorization when `authorized`.
    Sending {
        headers: &'a [(String, String)],
        authorized: bool,
    },
    /// Its answer came, `ms` after it was sent (`onResponse`).
    Answered {
        status: u16,
        ms: u64,
        headers: &'a Headers,
    },
    /// It got none.
    NoAnswer { error: &'a Error, ms: u64 },
    /// The next attempt goes in `ms`; `headers`: the answer that asks for it, if any.
    Retrying {
        ms: u64,
        again: Again,
        headers: Option<&'a Headers>,
    },
    /// A 401: the token is fetched again and the call sent once more.
    Refreshing { headers: &'a Headers },
    /// This call refreshed its credential's token (`reason`), in `ms`.
    Refreshed { reason: super::Reason, ms: u64 },
    /// The limiter holds the call (`why`), for `ms` at most when that is known.
    Queued { ms: Option<u64>, why: &'a str },
    /// The call ends with the error its caller gets, `ms` after it started.
    Failed { error: &'a Error, ms: u64 },
    /// Its params hold fields the operation does not know (`warnUnknownFields`), sent as they are.
    UnknownFields { names: &'a [String] },
    /// The fleet store held what could not be used (`why`), and it was replaced.
    StoreRepaired { why: &'a str },
    /// The service states a day of `stated` calls for the organization, not the plan's `plan`.
    DayStated { stated: u32, plan: u32 },
}

impl Event<'_> {
    /// The name a record gives the event (`LogRecord.event`).
    pub fn name(&self) -> &'static str {
        match self {
            Event::Sending { .. } => "sending",
            Event::Answered { .. } => "answered",
            Event::NoAnswer { .. } => "no_answer",
            Event::Retrying { .. } => "retrying",
            Event::Refreshing { .. } => "refreshing",
            Event::Refreshed { .. } => "refreshed",
            Event::Queued { .. } => "queued",
            Event::Failed { .. } => "failed",
            Event::UnknownFields { .. } => "unknown_fields",
            Event::StoreRepaired { .. } => "store_repaired",
            Event::DayStated { .. } => "day_stated",
        }
    }
}

/// The most unknown fields a warning names; the rest are counted.
const UNKNOWN_SHOWN: usize = 10;

/// The names of `LogRecord.event`: every logged event's, and a hook's that threw.
pub const EVENTS: [&str; 11] = [
    "answered",
    "no_answer",
    "retrying",
    "refreshing",
    "refreshed",
    "queued",
    "failed",
    "hook_threw",
    "unknown_fields",
    "store_repaired",
    "day_stated",
];

/// The members of the record each logger method is called with, in the order they are written.
pub const RECORD: [Declared; 12] = [
    Declared::new("level", "Exclude<LogLevel, \"off\">"),
    Declared::new("event", "LogEvent").doc("What happened: the name of the event."),
    Declared::new("message", "string").doc("The line the default logger (console) prints."),
    Declared::new("operationId", "string").doc("The operation, or \"request\" for `request()`."),
    Declared::new("method", "string"),
    Declared::new("url", "string"),
    Declared::new("attempt", "number")
        .doc("The attempt it concerns, from 1 (a failure: the last one sent, 0 when none was)."),
    Declared::new("status", "number")
        .optional()
        .doc("The answer's status: of the attempt, of the answer a retry or a token refresh follows, or of an api error."),
    Declared::new("durationMs", "number")
        .optional()
        .doc("From sending the attempt to its answer (or to giving up on it); for \"failed\", the whole call's."),
    Declared::new("waitMs", "number")
        .optional()
        .doc("The wait before the next attempt (\"retrying\"), or the most the limiter may hold the call (\"queued\")."),
    Declared::new("requestId", "string")
        .optional()
        .doc("The answer's X-Request-Id, where the service sends one."),
    Declared::new("errorKind", "ErrorKind")
        .optional()
        .doc("The kind of the error an attempt or the call ended with."),
];

/// What `onRequest` is told before each attempt.
pub const REQUEST_INFO: [Declared; 5] = [
    Declared::new("operationId", "string"),
    Declared::new("method", "string"),
    Declared::new("url", "string"),
    Declared::new("attempt", "number"),
    Declared::new("headers", "Record<string, string>")
        .doc("The headers sent, names in lower case; Authorization and the token anywhere as \"[redacted]\"."),
];

/// What `onResponse` is told besides `onRequest`'s members (whose `headers` are the answer's here).
pub const RESPONSE_INFO: [Declared; 4] = [
    Declared::new("status", "number"),
    Declared::new("durationMs", "number"),
    Declared::new("headers", "Record<string, string>")
        .doc("The answer's headers, the token anywhere as \"[redacted]\"."),
    Declared::new("requestId", "string")
        .optional()
        .doc("The answer's X-Request-Id, where the service sends one."),
];

/// An event with its call: the operation, method and URL, the attempt it concerns.
#[derive(Clone, Copy, Debug)]
pub struct Note<'a> {
    pub operation: Option<&'static str>,
    pub method: Method,
    pub url: &'a str,
    pub attempt: u32,
    pub event: Event<'a>,
    /// The token of the call, which no line may quote.
    pub secret: Option<&'a str>,
}

impl Note<'_> {
    /// The level the event is logged at; `None`: it is not logged (only the hooks see it).
    pub fn level(&self) -> Option<Level> {
        match self.event {
            Event::Sending { .. } => None,
            Event::Answered { .. } | Event::NoAnswer { .. } => Some(Level::Debug),
            Event::Queued { .. } | Event::Refreshing { .. } | Event::Refreshed { .. } => {
                Some(Level::Info)
            }
            Event::Retrying { .. }
            | Event::UnknownFields { .. }
            | Event::StoreRepaired { .. }
            | Event::DayStated { .. } => Some(Level::Warn),
            Event::Failed { error, .. } if error.kind() == ErrorKind::Aborted => Some(Level::Info),
            Event::Failed { .. } => Some(Level::Error),
        }
    }

    /// The URL without the token.
    pub fn url(&self) -> String {
        let mut url = self.url.to_string();
        redact::literal(&mut url, self.secret);
        url
    }

    /// The log line of the event, if it is logged at `at` or a less verbose level.
    pub fn line(&self, at: Option<Level>) -> Option<(Level, String)> {
        let level = self.level()?;
        if Some(level) > at {
            return None;
        }
        let call = format!(
            "svc-sdk {} {} {}",
            self.operation.unwrap_or("request"),
            self.method.as_str(),
            self.url()
        );
        let n = self.attempt;
        let text = match self.event {
            Event::Sending { .. } => return None,
            Event::Answered { status, ms, .. } => {
                format!("{call}: {status} in {ms} ms (attempt {n})")
            }
            Event::NoAnswer { error, ms } => {
                format!(
                    "{call}: no answer after {ms} ms (attempt {n}): {}",
                    error.message
                )
            }
            Event::Retrying { ms, again, .. } => {
                let why = match again {
                    Again::Status { status, told: true } => {
                        format!(
                            "the service answered {status} and its Retry-After asks for the wait"
                        )
                    }
                    Again::Status {
                        status,
                        told: false,
                    } => {
                        format!("the service answered {status}; backing off")
                    }
                    Again::NoAnswer(ErrorKind::Timeout) => {
                        "the attempt timed out; backing off".into()
                    }
                    Again::NoAnswer(_) => "the attempt got no answer; backing off".into(),
                };
                format!("{call}: attempt {} in {ms} ms: {why}", n + 1)
            }
            Event::Refreshing { .. } => {
                format!("{call}: 401 (attempt {n}); the token is fetched again and the call sent once more")
            }
            Event::Refreshed { reason, ms } => {
                let why = match reason {
                    super::Reason::Initial => "there was none yet",
                    super::Reason::Expired => "the last one was due for renewal",
                    super::Reason::Rejected => "the service refused the last one",
                };
                format!("{call}: the access token was refreshed in {ms} ms ({why})")
            }
            Event::Queued { ms, why } => {
                let most = ms.map(|ms| format!(" (up to {ms} ms)")).unwrap_or_default();
                format!("{call} waits for the rate limiter{most}: {why}")
            }
            Event::Failed { error, .. } => format!("{call} failed: {}", error.message),
            Event::StoreRepaired { why } => format!("{call}: the rate-limit store: {why}"),
            Event::DayStated { stated, plan } => format!(
                "{call}: the service states a day of {stated} requests for the organization (X-Rate-Limit-Limit), not the {plan} of its plan: the client keeps to the service's figure"
            ),
            Event::UnknownFields { names } => {
                format!(
                    "{call}: its params hold {} that the operation does not know, sent as given (a misspelt optional field?): {}",
                    if names.len() == 1 { "a field" } else { "fields" },
                    svc_core::echo::quoted_list(names, UNKNOWN_SHOWN)
                )
            }
        };
        let mut text = text;
        redact::literal(&mut text, self.secret);
        Some((level, text))
    }

    /// The answer the event concerns, if any.
    fn answer(&self) -> Option<&Headers> {
        match self.event {
            Event::Answered { headers, .. } | Event::Refreshing { headers } => Some(headers),
            Event::Retrying { headers, .. } => headers,
            Event::Failed { error, .. } => error.headers(),
            _ => None,
        }
    }

    /// The answer's status, if the event concerns one.
    pub fn status(&self) -> Option<u16> {
        match self.event {
            Event::Answered { status, .. } => Some(status),
            Event::Retrying {
                again: Again::Status { status, .. },
                ..
            } => Some(status),
            Event::Refreshing { .. } => Some(401),
            Event::Failed { error, .. } => error.status(),
            _ => None,
        }
    }

    /// The request id of the answer the event concerns, where the service sends one.
    pub fn request_id(&self) -> Option<String> {
        let id = self.answer()?.get(REQUEST_ID)?;
        let mut id = id.to_string();
        redact::literal(&mut id, self.secret);
        Some(id)
    }

    /// `headers` without the token: names in lower case, Authorization and the token as `[redacted]`.
    fn redacted<'h>(&self, headers: impl Iterator<Item = &'h (String, String)>) -> Headers {
        let pairs = headers.map(|(k, v)| (k.to_ascii_lowercase(), v.clone()));
        Headers(pairs.collect()).without_secret(self.secret)
    }

    /// The members every record and hook info starts with.
    fn call(&self, m: &mut Members) {
        m.str("operationId", self.operation.unwrap_or("request"));
        m.str("method", self.method.as_str());
        m.str("url", &self.url());
        write::unsigned(m.key("attempt"), self.attempt.into());
    }

    /// The record of the event at `level`, worded `message`, as JSON (`RECORD`).
    pub fn record(&self, level: Level, message: &str) -> String {
        self.record_of(level, self.event.name(), message)
    }

    /// The record of a hook that threw (`message`) while told of this event.
    pub fn hook_threw(&self, message: &str) -> String {
        self.record_of(Level::Warn, "hook_threw", message)
    }

    fn record_of(&self, level: Level, event: &str, message: &str) -> String {
        let mut out = String::new();
        let mut m = Members::new(&mut out);
        m.str("level", level.method());
        m.str("event", event);
        let mut message = message.to_string();
        redact::literal(&mut message, self.secret);
        m.str("message", &message);
        self.call(&mut m);
        if let Some(status) = self.status() {
            write::unsigned(m.key("status"), status.into());
        }
        let (duration, wait) = match self.event {
            Event::Answered { ms, .. } | Event::NoAnswer { ms, .. } | Event::Failed { ms, .. } => {
                (Some(ms), None)
            }
            Event::Retrying { ms, .. } => (None, Some(ms)),
            Event::Queued { ms, .. } => (None, ms),
            _ => (None, None),
        };
        if let Some(ms) = duration {
            write::unsigned(m.key("durationMs"), ms);
        }
        if let Some(ms) = wait {
            write::unsigned(m.key("waitMs"), ms);
        }
        if let Some(id) = self.request_id() {
            m.str("requestId", &id);
        }
        if let Event::NoAnswer { error, .. } | Event::Failed { error, .. } = self.event {
            m.str("errorKind", error.kind().name());
        }
        m.end();
        out
    }

    /// What `onRequest` is told of a `Sending` event, or `onResponse` of an `Answered` one, as
    /// JSON (`REQUEST_INFO`, `RESPONSE_INFO`); `None` for the other events.
    pub fn hook_info(&self) -> Option<String> {
        let mut out = String::new();
        let mut m = Members::new(&mut out);
        self.call(&mut m);
        match self.event {
            Event::Sending {
                headers,
                authorized,
            } => {
                let mut sent = self.redacted(headers.iter());
                if authorized {
                    sent.0.push(("authorization".into(), "[redacted]".into()));
                }
                sent.write(m.key("headers"));
            }
            Event::Answered {
                status,
                ms,
                headers,
            } => {
                write::unsigned(m.key("status"), status.into());
                write::unsigned(m.key("durationMs"), ms);
                self.redacted(headers.0.iter()).write(m.key("headers"));
                if let Some(id) = self.request_id() {
                    m.str("requestId", &id);
                }
            }
            _ => return None,
        }
        m.end();
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(event: Event<'_>) -> Note<'_> {
        Note {
            operation: Some("createAccount"),
            method: Method::Post,
            url: "https://h/books/v3/chartofaccounts?organization_id=1&x=tok-4f2e9a",
            attempt: 1,
            event,
            secret: Some("tok-4f2e9a"),
        }
    }

    fn answer() -> Headers {
        Headers(vec![
            ("content-type".into(), "application/json".into()),
            ("x-request-id".into(), "r-tok-4f2e9a-1".into()),
        ])
    }

    #[test]
    fn unknown_fields_are_a_warning_that_names_them_and_no_value() {
        let names = ["descripton".to_string()];
        let n = note(Event::UnknownFields { names: &names });
        assert_eq!(n.line(Some(Level::Error)), None);
        let (level, line) = n.line(Some(Level::Warn)).unwrap();
        assert_eq!(level, Level::Warn);
        assert!(
            line.ends_with("(a misspelt optional field?): \"descripton\""),
            "{line}"
        );
        let r = n.record(level, &line);
        assert!(
            r.starts_with(r#"{"level":"warn","event":"unknown_fields","#),
            "{r}"
        );
        assert_eq!(n.hook_info(), None);
    }

    #[test]
    fn each_event_has_its_level_and_a_line_without_the_token() {
        let e = Error::new(ErrorKind::Network, "the request to h failed: tok-4f2e9a");
        let h = answer();
        let cases = [
            (
                Event::Sending {
                    headers: &[],
                    authorized: true,
                },
                None,
            ),
            (
                Event::Answered {
                    status: 201,
                    ms: 12,
                    headers: &h,
                },
                Some(Level::Debug),
            ),
            (Event::NoAnswer { error: &e, ms: 3 }, Some(Level::Debug)),
            (
                Event::Queued {
                    ms: Some(5),
                    why: "2 of 2 calls in flight",
                },
                Some(Level::Info),
            ),
            (Event::Refreshing { headers: &h }, Some(Level::Info)),
            (
                Event::Retrying {
                    ms: 800,
                    again: Again::Status {
                        status: 503,
                        told: false,
                    },
                    headers: Some(&h),
                },
                Some(Level::Warn),
            ),
            (Event::Failed { error: &e, ms: 40 }, Some(Level::Error)),
        ];
        for (event, level) in cases {
            let n = note(event);
            assert_eq!(n.level(), level, "{event:?}");
            let line = n.line(Some(Level::Debug));
            assert_eq!(line.as_ref().map(|l| l.0), level);
            if let Some((_, text)) = line {
                assert!(!text.contains("tok-4f2e9a"), "{text}");
                assert!(
                    text.starts_with("svc-sdk createAccount POST https://h/"),
                    "{text}"
                );
            }
        }
        let answered = Event::Answered {
            status: 201,
            ms: 12,
            headers: &h,
        };
        assert_eq!(
            note(answered).line(Some(Level::Debug)).unwrap().1,
            "svc-sdk createAccount POST https://h/books/v3/chartofaccounts?organization_id=1&x=[redacted]: 201 in 12 ms (attempt 1)"
        );
    }

    #[test]
    fn a_line_is_written_only_at_its_level_or_a_more_verbose_one() {
        let h = answer();
        let n = note(Event::Refreshing { headers: &h });
        assert!(n.line(Some(Level::Info)).is_some());
        assert!(n.line(Some(Level::Debug)).is_some());
        assert!(n.line(Some(Level::Warn)).is_none());
        assert!(n.line(None).is_none());
    }

    #[test]
    fn level_names_parse_as_log_level_does() {
        assert_eq!(Level::parse("off"), Some(None));
        assert_eq!(Level::parse(" DEBUG "), Some(Some(Level::Debug)));
        assert_eq!(Level::parse("verbose"), None);
        for name in &Level::NAMES[1..] {
            assert_eq!(Level::parse(name).flatten().map(Level::method), Some(*name));
        }
    }

    /// The keys of a JSON object, in order.
    fn keys(json: &str) -> Vec<String> {
        let v = svc_json::parse(json).unwrap();
        v.as_object().unwrap().keys().map(str::to_string).collect()
    }

    #[test]
    fn a_record_holds_the_facts_of_its_event_declared_in_order_and_never_the_token() {
        let h = answer();
        let e = Error::new(ErrorKind::Network, "the request to h failed: tok-4f2e9a");
        let declared: Vec<&str> = RECORD.iter().map(|d| d.name).collect();
        let retrying = Event::Retrying {
            ms: 1000,
            again: Again::Status {
                status: 429,
                told: true,
            },
            headers: Some(&h),
        };
        let r = note(retrying).record(Level::Warn, "waiting for tok-4f2e9a");
        assert_eq!(
            r,
            r#"{"level":"warn","event":"retrying","message":"waiting for [redacted]","operationId":"createAccount","method":"POST","url":"https://h/books/v3/chartofaccounts?organization_id=1&x=[redacted]","attempt":1,"status":429,"waitMs":1000,"requestId":"r-[redacted]-1"}"#
        );
        for event in [
            retrying,
            Event::Answered {
                status: 201,
                ms: 12,
                headers: &h,
            },
            Event::NoAnswer { error: &e, ms: 3 },
            Event::Queued {
                ms: None,
                why: "full",
            },
            Event::Failed { error: &e, ms: 40 },
        ] {
            let r = note(event).record(Level::Debug, "m");
            assert!(!r.contains("tok-4f2e9a"), "{r}");
            let keys = keys(&r);
            let mut at = declared.iter();
            for k in &keys {
                assert!(
                    at.any(|d| d == k),
                    "{k} is undeclared or out of order in {r}"
                );
            }
            assert!(r.contains(&format!(r#""event":"{}""#, event.name())), "{r}");
            assert!(EVENTS.contains(&event.name()));
        }
        let failed = note(Event::Failed { error: &e, ms: 40 }).record(Level::Error, "m");
        assert!(
            failed.ends_with(r#""attempt":1,"durationMs":40,"errorKind":"network"}"#),
            "{failed}"
        );
        let threw = note(Event::Queued { ms: None, why: "" }).hook_threw("boom");
        assert!(threw.starts_with(r#"{"level":"warn","event":"hook_threw","message":"boom","#));
    }

    #[test]
    fn hooks_get_the_headers_redacted_and_the_answer_s_request_id() {
        let sent = [
            ("Content-Type".to_string(), "application/json".to_string()),
            ("X-Mine".to_string(), "Bearer tok-4f2e9a".to_string()),
        ];
        let sending = Event::Sending {
            headers: &sent,
            authorized: true,
        };
        let info = note(sending).hook_info().unwrap();
        assert_eq!(
            info,
            r#"{"operationId":"createAccount","method":"POST","url":"https://h/books/v3/chartofaccounts?organization_id=1&x=[redacted]","attempt":1,"headers":{"content-type":"application/json","x-mine":"Bearer [redacted]","authorization":"[redacted]"}}"#
        );
        let h = answer();
        let answered = Event::Answered {
            status: 200,
            ms: 7,
            headers: &h,
        };
        let info = note(answered).hook_info().unwrap();
        assert!(
            info.ends_with(r#""attempt":1,"status":200,"durationMs":7,"headers":{"content-type":"application/json","x-request-id":"r-[redacted]-1"},"requestId":"r-[redacted]-1"}"#),
            "{info}"
        );
        let declared: Vec<&str> = REQUEST_INFO
            .iter()
            .chain(&RESPONSE_INFO)
            .map(|d| d.name)
            .collect();
        assert!(keys(&info).iter().all(|k| declared.contains(&k.as_str())));
        assert_eq!(note(Event::Refreshing { headers: &h }).hook_info(), None);
    }
}
