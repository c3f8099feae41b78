//! What an attempt sends and what comes back: the outgoing request, an answer's head with its body
//! unread, and the failure that leaves the loop (its secret redacted).

use std::fmt;
use svc_core::catalog::Method;
use svc_core::error::{Cause, Error, ErrorKind, Fault};
use svc_core::headers::Headers;
use svc_core::redact;

/// What one attempt sends. The platform adds `Authorization: {authorization}` when there is one.
pub struct Outgoing<'a, B> {
    pub method: Method,
    pub url: &'a str,
    pub headers: &'a [(String, String)],
    pub authorization: Option<&'a str>,
    /// Opaque to the loop: JSON text, or a form on JS.
    pub body: &'a B,
    /// The token this attempt carries (or the static one), which no error or proxied byte may quote.
    pub secret: Option<&'a str>,
    /// A proxy's forward: keep the body unread (`Platform::read` is not called on it).
    pub raw: bool,
    /// The call's timeout, which a raw body may also use as its idle limit.
    pub timeout_ms: u32,
    /// Who it goes to, in the words of its errors.
    pub upstream: crate::origin::Upstream,
}

/// What came back: the status, where from, and the headers; `raw` holds the body unread.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(bound = "")]
pub struct Answer<R> {
    pub status: u16,
    /// The answer's URL (the request's when the platform does not tell it).
    pub url: String,
    pub headers: Headers,
    #[serde(skip)]
    pub raw: R,
}

/// An answer without its body: what `withResponse()` shows of it.
pub type Head = Answer<()>;

impl<R> Answer<R> {
    /// The same answer holding `raw` instead, and what it held.
    pub(super) fn with<S>(self, raw: S) -> (Answer<S>, R) {
        let Answer {
            status,
            url,
            headers,
            raw: old,
        } = self;
        (
            Answer {
                status,
                url,
                headers,
                raw,
            },
            old,
        )
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name)
    }
}

impl Head {
    /// `{ status, url, headers }` as JSON text.
    pub fn to_json(&self) -> String {
        svc_json::to_string(self)
    }

    pub(super) fn without_secret(mut self, secret: Option<&str>) -> Head {
        redact::literal(&mut self.url, secret);
        Answer {
            headers: self.headers.without_secret(secret),
            ..self
        }
    }
}

/// An error leaving the loop (a network failure's with its cause).
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub error: Error,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Failure {
        Failure { error }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl std::error::Error for Failure {}

impl Failure {
    /// A request that got no answer: `the request to {host} failed: {what} ({code})`, its cause
    /// the inner error's message (else `what`), the code and the host.
    pub fn network(host: &str, what: &str, code: Option<&str>, inner: Option<&str>) -> Failure {
        let code_part = code.map(|c| format!(" ({c})")).unwrap_or_default();
        let cause = Cause {
            message: inner.unwrap_or(what).to_string(),
            code: code.map(str::to_string),
            host: host.to_string(),
        };
        Failure {
            error: Error {
                fault: Fault::Network {
                    cause: Some(Box::new(cause)),
                },
                message: format!("the request to {host} failed: {what}{code_part}"),
                operation_id: None,
            },
        }
    }

    /// Every one of `secrets` out of every text, each in all its spellings (`finish`).
    #[cfg(feature = "server")]
    pub(crate) fn without_secrets<'s>(self, secrets: impl IntoIterator<Item = &'s str>) -> Failure {
        secrets
            .into_iter()
            .fold(self, |f, secret| f.finish(Some(secret), None))
    }

    /// The secret out of every text (the answer's headers too), and the operation set unless it is already.
    pub(crate) fn finish(
        mut self,
        secret: Option<&str>,
        operation: Option<&'static str>,
    ) -> Failure {
        self.error = self.error.without_secret(secret);
        if let Some(headers) = self.error.fault.headers_mut() {
            *headers = headers.take().map(|h| Box::new(h.without_secret(secret)));
        }
        if let Fault::Network { cause: Some(c) } = &mut self.error.fault {
            for text in [&mut c.message, &mut c.host]
                .into_iter()
                .chain(c.code.as_mut())
            {
                redact::literal(text, secret);
            }
        }
        if let (Some(op), None) = (operation, &self.error.operation_id) {
            self.error.operation_id = Some(op.to_string());
        }
        self
    }
}

/// The error of an answer above `max` bytes, which `Platform::read` refuses unread.
pub fn too_large(max: usize) -> Error {
    Error::decode(format!(
        "the answer is larger than maxResponseBytes ({max} bytes) and was not read; raise maxResponseBytes if such an answer is expected"
    ))
}

/// The error of a proxied body whose service sent nothing for `ms`, the call's timeout.
pub fn stalled(ms: u32) -> Error {
    Error::new(
        ErrorKind::Timeout,
        format!("the service sent nothing more for {ms} ms"),
    )
}
