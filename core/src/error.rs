//! The one error type of the SDK, its kinds, and how it reads as JSON for the JS `SvcError`.

use crate::headers::Headers;
use crate::issue::Issue;
use crate::json::write::{self, Members, ToJson};
use serde::Serialize;
use std::fmt;

/// What went wrong, in the words of API.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    Validation,
    Api,
    RateLimited,
    Unauthorized,
    Network,
    Timeout,
    Aborted,
    Decode,
    Config,
    Verification,
}

impl ErrorKind {
    /// The kind as JSON and API.md write it.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Validation => "validation",
            ErrorKind::Api => "api",
            ErrorKind::RateLimited => "rate_limited",
            ErrorKind::Unauthorized => "unauthorized",
            ErrorKind::Network => "network",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Aborted => "aborted",
            ErrorKind::Decode => "decode",
            ErrorKind::Config => "config",
            ErrorKind::Verification => "verification",
        }
    }

    pub const ALL: [ErrorKind; 10] = [
        ErrorKind::Validation,
        ErrorKind::Api,
        ErrorKind::RateLimited,
        ErrorKind::Unauthorized,
        ErrorKind::Network,
        ErrorKind::Timeout,
        ErrorKind::Aborted,
        ErrorKind::Decode,
        ErrorKind::Config,
        ErrorKind::Verification,
    ];
}

/// A failure of any step of a call. Never holds the access token.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub issues: Vec<Issue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    /// The headers of the answer that was the error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headers: Option<Box<Headers>>,
}

impl Error {
    /// What JS's `SvcError` takes from an error, as JSON text: `{ kinds, fields }`, the kind names
    /// and the names of the members after `kind` and `message`, as this type writes them.
    pub fn shape() -> String {
        let full = Error {
            status: Some(0),
            code: Some(0),
            issues: vec![Issue {
                path: vec![],
                code: crate::issue::IssueCode::Required,
                message: String::new(),
                details: Default::default(),
            }],
            retry_after_ms: Some(0),
            operation_id: Some(String::new()),
            headers: Some(Box::default()),
            ..Error::new(ErrorKind::Api, "")
        };
        let text = full.to_json();
        let value = crate::json::parse(&text).unwrap_or(crate::json::Json::Null);
        let fields: Vec<&str> = value.as_object().map_or_else(Vec::new, |o| {
            o.keys()
                .filter(|k| !matches!(*k, "kind" | "message"))
                .collect()
        });
        let mut out = String::new();
        let mut m = Members::new(&mut out);
        m.value("kinds", &ErrorKind::ALL.map(ErrorKind::name)[..]);
        m.value("fields", &fields);
        m.end();
        out
    }

    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            status: None,
            code: None,
            issues: Vec::new(),
            retry_after_ms: None,
            operation_id: None,
            headers: None,
        }
    }

    pub fn config(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Config, message)
    }

    pub fn decode(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Decode, message)
    }

    /// A validation failure carrying every issue found.
    pub fn validation(issues: Vec<Issue>) -> Self {
        let first = issues
            .first()
            .map(|i| format!("{}: {}", i.path_string(), i.message))
            .unwrap_or_default();
        let more = match issues.len() {
            0 | 1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        Error {
            issues,
            ..Error::new(
                ErrorKind::Validation,
                format!("invalid params: {first}{more}"),
            )
        }
    }

    pub fn with_operation(mut self, id: &str) -> Self {
        self.operation_id = Some(id.to_string());
        self
    }

    pub fn with_status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }

    /// Replaces `secret` wherever the message quotes it: a server may echo the credential it was sent.
    pub fn without_secret(mut self, secret: Option<&str>) -> Self {
        redact_secret(&mut self.message, secret);
        self
    }

    pub fn to_json(&self) -> String {
        self.to_json_text()
    }
}

impl ToJson for Error {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::new(out);
        m.str("kind", self.kind.name());
        m.str("message", &self.message);
        if let Some(status) = self.status {
            write::integer(m.key("status"), i64::from(status));
        }
        if let Some(code) = self.code {
            write::integer(m.key("code"), code);
        }
        if !self.issues.is_empty() {
            m.value("issues", &self.issues);
        }
        if let Some(ms) = self.retry_after_ms {
            write::unsigned(m.key("retryAfterMs"), ms);
        }
        if let Some(id) = &self.operation_id {
            m.str("operationId", id);
        }
        if let Some(headers) = &self.headers {
            let mut h = Members::new(m.key("headers"));
            for (k, v) in &headers.0 {
                h.str(k, v);
            }
            h.end();
        }
        m.end();
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Puts `[redacted]` wherever `text` quotes `secret` as it is; an empty or absent secret changes nothing.
pub fn redact_secret(text: &mut String, secret: Option<&str>) {
    if let Some(secret) = secret.filter(|s| !s.is_empty()) {
        if text.contains(secret) {
            *text = text.replace(secret, "[redacted]");
        }
    }
}

/// Cuts text that is echoed into a message to a readable length, on a char boundary.
pub fn shorten(text: &str) -> String {
    const MAX: usize = 64;
    match text.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// Text echoed into a message, shortened and quoted as a JSON string (the JS engine writes it alike).
pub fn quoted(text: &str) -> String {
    shorten(text).as_str().to_json_text()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shape_js_takes_names_every_kind_and_every_member() {
        let shape: serde_json::Value = serde_json::from_str(&Error::shape()).unwrap();
        assert_eq!(
            shape,
            serde_json::json!({
                "kinds": ["validation", "api", "rate_limited", "unauthorized", "network",
                          "timeout", "aborted", "decode", "config", "verification"],
                "fields": ["status", "code", "issues", "retryAfterMs", "operationId", "headers"],
            })
        );
    }

    #[test]
    fn json_uses_the_js_names() {
        let mut e = Error::new(ErrorKind::RateLimited, "slow down").with_status(429);
        e.retry_after_ms = Some(1500);
        let e = e.with_operation("listPlans");
        assert_eq!(
            e.to_json(),
            r#"{"kind":"rate_limited","message":"slow down","status":429,"retryAfterMs":1500,"operationId":"listPlans"}"#
        );
    }

    #[test]
    fn the_core_writes_an_error_as_serde_json_writes_it() {
        use crate::issue::{details, IssueCode, PathSeg};
        let issue = |path: Vec<PathSeg>, d| Issue {
            path,
            code: IssueCode::OutOfRange,
            message: "a \"quoted\" \\ \u{1} \n é".into(),
            details: d,
        };
        let mut e = Error::validation(vec![
            issue(
                vec![PathSeg::Key("lines".into()), PathSeg::Index(3)],
                details([("minimum", (-5i64).into()), ("maximum", u32::MAX.into())]),
            ),
            issue(
                vec![],
                details([("allowed", ["a", "b\tc"].into_iter().collect())]),
            ),
            issue(vec![], Default::default()),
        ]);
        e.status = Some(400);
        e.code = Some(-1);
        e.retry_after_ms = Some(u64::MAX);
        e.operation_id = Some("createTask".into());
        e.headers = Some(Box::new(Headers(vec![("x-a".into(), "\u{7f}\"".into())])));
        assert_eq!(e.to_json(), serde_json::to_string(&e).unwrap());
        let plain = Error::config("no");
        assert_eq!(plain.to_json(), serde_json::to_string(&plain).unwrap());
    }

    #[test]
    fn an_echoed_secret_is_redacted() {
        let e = Error::new(ErrorKind::Api, "token s3cr3t is not valid for s3cr3t-org");
        assert_eq!(
            e.clone().without_secret(Some("s3cr3t")).message,
            "token [redacted] is not valid for [redacted]-org"
        );
        assert_eq!(e.clone().without_secret(Some("")).message, e.message);
        assert_eq!(e.clone().without_secret(None).message, e.message);
    }

    #[test]
    fn shorten_cuts_on_char_boundaries() {
        let long = "é".repeat(100);
        assert_eq!(shorten(&long).chars().count(), 65);
        assert_eq!(shorten("abc"), "abc");
    }
}
