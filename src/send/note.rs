//! What the loop tells of a call as it runs (each attempt, its answer, a wait, the end), at which log level, in which words.

use crate::catalog::Method;
use crate::error::{Error, ErrorKind};
use crate::redact;

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
    /// The attempt is about to be sent (`onRequest`).
    Sending,
    /// Its answer came, `ms` after it was sent (`onResponse`).
    Answered { status: u16, ms: u64 },
    /// It got none.
    NoAnswer { error: &'a Error, ms: u64 },
    /// The next attempt goes in `ms`.
    Retrying { ms: u64, again: Again },
    /// A 401: the token is fetched again and the call sent once more.
    Refreshing,
    /// The limiter holds the call (`why`), for `ms` at most when that is known.
    Queued { ms: Option<u64>, why: &'a str },
    /// The call ends with the error its caller gets.
    Failed { error: &'a Error },
}

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
            Event::Sending => None,
            Event::Answered { .. } | Event::NoAnswer { .. } => Some(Level::Debug),
            Event::Queued { .. } | Event::Refreshing => Some(Level::Info),
            Event::Retrying { .. } => Some(Level::Warn),
            Event::Failed { error } if error.kind() == ErrorKind::Aborted => Some(Level::Info),
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
            Event::Sending => return None,
            Event::Answered { status, ms } => format!("{call}: {status} in {ms} ms (attempt {n})"),
            Event::NoAnswer { error, ms } => {
                format!(
                    "{call}: no answer after {ms} ms (attempt {n}): {}",
                    error.message
                )
            }
            Event::Retrying { ms, again } => {
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
            Event::Refreshing => {
                format!("{call}: 401 (attempt {n}); the token is fetched again and the call sent once more")
            }
            Event::Queued { ms, why } => {
                let most = ms.map(|ms| format!(" (up to {ms} ms)")).unwrap_or_default();
                format!("{call} waits for the rate limiter{most}: {why}")
            }
            Event::Failed { error } => format!("{call} failed: {}", error.message),
        };
        let mut text = text;
        redact::literal(&mut text, self.secret);
        Some((level, text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(event: Event<'_>) -> Note<'_> {
        Note {
            operation: Some("createAccount"),
            method: Method::Post,
            url: "https://h/books/v3/chartofaccounts?organization_id=1&x=tok",
            attempt: 1,
            event,
            secret: Some("tok"),
        }
    }

    #[test]
    fn each_event_has_its_level_and_a_line_without_the_token() {
        let e = Error::new(ErrorKind::Network, "the request to h failed: tok");
        let cases = [
            (Event::Sending, None),
            (
                Event::Answered {
                    status: 201,
                    ms: 12,
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
            (Event::Refreshing, Some(Level::Info)),
            (
                Event::Retrying {
                    ms: 800,
                    again: Again::Status {
                        status: 503,
                        told: false,
                    },
                },
                Some(Level::Warn),
            ),
            (Event::Failed { error: &e }, Some(Level::Error)),
        ];
        for (event, level) in cases {
            let n = note(event);
            assert_eq!(n.level(), level, "{event:?}");
            let line = n.line(Some(Level::Debug));
            assert_eq!(line.as_ref().map(|l| l.0), level);
            if let Some((_, text)) = line {
                assert!(!text.contains("tok"), "{text}");
                assert!(
                    text.starts_with("svc-sdk createAccount POST https://h/"),
                    "{text}"
                );
            }
        }
        assert_eq!(
            note(Event::Answered { status: 201, ms: 12 }).line(Some(Level::Debug)).unwrap().1,
            "svc-sdk createAccount POST https://h/books/v3/chartofaccounts?organization_id=1&x=[redacted]: 201 in 12 ms (attempt 1)"
        );
    }

    #[test]
    fn a_line_is_written_only_at_its_level_or_a_more_verbose_one() {
        let n = note(Event::Refreshing);
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
}
