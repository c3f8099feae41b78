//! The one error type of the SDK: each kind with its own data, how it reads as JSON for the JS `SvcError`, and its TypeScript.

use crate::declare::{self, Declared, Member};
use crate::headers::Headers;
use crate::issue::Issue;
use std::fmt;
use svc_json::write::{Members, ToJson};

impl Member for Vec<Issue> {
    const TS: &'static str = "Issue[]";

    fn write(&self, out: &mut String) {
        self.write_json(out);
    }
}

impl Member for Headers {
    const TS: &'static str = "Record<string, string>";

    fn write(&self, out: &mut String) {
        let mut h = Members::new(out);
        for (k, v) in &self.0 {
            h.str(k, v);
        }
        h.end();
    }
}

/// What a network failure was caused by: its message, code (`ECONNREFUSED`...) and host. JS sets
/// it as the error's `cause`, apart from the error's JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct Cause {
    pub message: String,
    pub code: Option<String>,
    pub host: String,
}

impl Member for Cause {
    const TS: &'static str = "NetworkCause";

    fn present(&self) -> bool {
        false
    }

    fn write(&self, _: &mut String) {}
}

/// The members an answer that was the error gives its kind: the answer's status, the envelope's
/// code, the wait its Retry-After asks for (a 429 or 5xx), and its headers.
macro_rules! answered {
    ($(#[doc = $doc:literal] $variant:ident $name:literal { $($own:ident: $oty:ty = $ojson:literal),* })*) => {
        faults! {
            /// The params broke the rules: every issue found, in one pass.
            Validation "validation" { issues: Vec<Issue> = "issues" }
            $(
                #[doc = $doc]
                $variant $name {
                    status: Option<u16> = "status",
                    code: Option<i64> = "code",
                    retry_after_ms: Option<u64> = "retryAfterMs",
                    $($own: $oty = $ojson,)*
                    headers: Option<Box<Headers>> = "headers"
                }
            )*
            /// The request got no answer (its `cause`: the host and the underlying code).
            Network "network" { cause: Option<Box<Cause>> = "cause" }
            /// No answer in time, or the call's deadline passed.
            Timeout "timeout" {}
            /// The caller's signal ended the call.
            Aborted "aborted" {}
            /// An answer (or a body received) that is not what it should be.
            Decode "decode" { status: Option<u16> = "status", headers: Option<Box<Headers>> = "headers" }
            /// The SDK was used in a way it cannot work: options, arguments.
            Config "config" {}
            /// A received notification or event whose token does not match.
            Verification "verification" {}
        }
    };
}

/// Declares the kinds: each variant of `Fault` with its data (JSON name, TypeScript), and its name.
macro_rules! faults {
    ($(
        #[doc = $doc:literal]
        $variant:ident $name:literal { $($field:ident: $ty:ty = $json:literal),* }
    )*) => {
        /// What went wrong, with the data of its kind.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Fault {
            $(#[doc = $doc] $variant { $($field: $ty),* },)*
        }

        /// The name of a kind, as the public contract (docs/REFERENCE.md, "Errors") writes it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum ErrorKind {
            $($variant,)*
        }

        impl ErrorKind {
            pub const ALL: &'static [ErrorKind] = &[$(ErrorKind::$variant),*];

            /// The kind as JSON and docs/REFERENCE.md write it.
            pub fn name(self) -> &'static str {
                match self {
                    $(ErrorKind::$variant => $name,)*
                }
            }

            /// The kind's members as JSON names them, each with whether it may be left out.
            fn members(self) -> &'static [(&'static str, bool)] {
                match self {
                    $(ErrorKind::$variant => {
                        const MEMBERS: &[(&str, bool)] = &[$(($json, <$ty as Member>::OPTIONAL)),*];
                        MEMBERS
                    })*
                }
            }

            /// The kind's variant name, what it means and its members.
            fn declared(self) -> (&'static str, &'static str, Vec<Declared>) {
                match self {
                    $(ErrorKind::$variant => (
                        stringify!($variant),
                        $doc.trim(),
                        vec![$(Declared::of::<$ty>($json, "")),*],
                    ),)*
                }
            }
        }

        impl Fault {
            pub fn kind(&self) -> ErrorKind {
                match self {
                    $(Fault::$variant { .. } => ErrorKind::$variant,)*
                }
            }

            /// The kind's data with nothing given.
            pub fn of(kind: ErrorKind) -> Fault {
                match kind {
                    $(ErrorKind::$variant => Fault::$variant { $($field: Default::default()),* },)*
                }
            }

            /// The kind's members into `m`, its headers last, after `before_headers`.
            fn write_members(&self, m: &mut Members, before_headers: impl FnOnce(&mut Members)) {
                match self {
                    $(Fault::$variant { $($field),* } => {
                        $(if $json != "headers" {
                            Member::member($field, m, $json);
                        })*
                        before_headers(m);
                        $(if $json == "headers" {
                            Member::member($field, m, $json);
                        })*
                    })*
                }
            }
        }
    };
}

answered! {
    /// The service answered with an error (or a 2xx whose envelope's code is not 0), or refused on the way (a redirect, a proxy).
    Api "api" {}
    /// Too many calls: the service's 429, or a wait for the limiter that would pass the deadline or a full queue.
    RateLimited "rate_limited" {}
    /// The token was refused (401), or none could be had.
    Unauthorized "unauthorized" { reauthorize: Option<bool> = "reauthorize" }
}

impl Fault {
    /// The answer's status, for the kinds an answer gives one.
    pub fn status(&self) -> Option<u16> {
        match self {
            Fault::Api { status, .. }
            | Fault::RateLimited { status, .. }
            | Fault::Unauthorized { status, .. }
            | Fault::Decode { status, .. } => *status,
            _ => None,
        }
    }

    fn status_mut(&mut self) -> Option<&mut Option<u16>> {
        match self {
            Fault::Api { status, .. }
            | Fault::RateLimited { status, .. }
            | Fault::Unauthorized { status, .. }
            | Fault::Decode { status, .. } => Some(status),
            _ => None,
        }
    }

    fn answered_mut(&mut self) -> Option<(&mut Option<i64>, &mut Option<u64>)> {
        match self {
            Fault::Api {
                code,
                retry_after_ms,
                ..
            }
            | Fault::RateLimited {
                code,
                retry_after_ms,
                ..
            }
            | Fault::Unauthorized {
                code,
                retry_after_ms,
                ..
            } => Some((code, retry_after_ms)),
            _ => None,
        }
    }

    /// The headers of the answer that was the error, where the kind keeps them.
    pub fn headers_mut(&mut self) -> Option<&mut Option<Box<Headers>>> {
        match self {
            Fault::Api { headers, .. }
            | Fault::RateLimited { headers, .. }
            | Fault::Unauthorized { headers, .. }
            | Fault::Decode { headers, .. } => Some(headers),
            _ => None,
        }
    }
}

/// A failure of any step of a call. Never holds the access token.
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    pub fault: Fault,
    pub message: String,
    pub operation_id: Option<String>,
}

/// The members an `SvcError` may have after `kind` and `message`, in the order it takes them.
pub const FIELDS: [&str; 7] = [
    "status",
    "code",
    "issues",
    "retryAfterMs",
    "reauthorize",
    "operationId",
    "headers",
];

impl Error {
    /// The kind of `new SvcError(kind, ...)`: the one whose name `is` the given kind, else `api` (an
    /// error a caller makes of what a service answered).
    pub fn kind_named(is: impl Fn(&str) -> bool) -> ErrorKind {
        ErrorKind::ALL
            .iter()
            .copied()
            .find(|k| is(k.name()))
            .unwrap_or(ErrorKind::Api)
    }

    /// The list members an `SvcError` of `kind` always has (empty when not given).
    pub fn lists(kind: ErrorKind) -> impl Iterator<Item = &'static str> {
        kind.members()
            .iter()
            .filter(|(_, optional)| !optional)
            .map(|(name, _)| *name)
    }

    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            fault: Fault::of(kind),
            message: message.into(),
            operation_id: None,
        }
    }

    pub fn kind(&self) -> ErrorKind {
        self.fault.kind()
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
            fault: Fault::Validation { issues },
            message: format!("invalid params: {first}{more}"),
            operation_id: None,
        }
    }

    /// The issues of a validation error; none for the other kinds.
    pub fn issues(&self) -> &[Issue] {
        match &self.fault {
            Fault::Validation { issues } => issues,
            _ => &[],
        }
    }

    pub fn status(&self) -> Option<u16> {
        self.fault.status()
    }

    /// What a network failure was caused by.
    pub fn cause(&self) -> Option<&Cause> {
        match &self.fault {
            Fault::Network { cause } => cause.as_deref(),
            _ => None,
        }
    }

    /// The envelope's code of the answer that was the error.
    pub fn code(&self) -> Option<i64> {
        match &self.fault {
            Fault::Api { code, .. }
            | Fault::RateLimited { code, .. }
            | Fault::Unauthorized { code, .. } => *code,
            _ => None,
        }
    }

    /// How long the service (or the limiter) asks to wait before trying again.
    pub fn retry_after_ms(&self) -> Option<u64> {
        match &self.fault {
            Fault::Api { retry_after_ms, .. }
            | Fault::RateLimited { retry_after_ms, .. }
            | Fault::Unauthorized { retry_after_ms, .. } => *retry_after_ms,
            _ => None,
        }
    }

    pub fn headers(&self) -> Option<&Headers> {
        match &self.fault {
            Fault::Api { headers, .. }
            | Fault::RateLimited { headers, .. }
            | Fault::Unauthorized { headers, .. }
            | Fault::Decode { headers, .. } => headers.as_deref(),
            _ => None,
        }
    }

    pub fn with_operation(mut self, id: &str) -> Self {
        self.operation_id = Some(id.to_string());
        self
    }

    /// The answer's status, for a kind that keeps one (api, rate_limited, unauthorized, decode).
    pub fn with_status(mut self, status: u16) -> Self {
        if let Some(s) = self.fault.status_mut() {
            *s = Some(status);
        }
        self
    }

    /// The envelope's code, for a kind an answer gives one (api, rate_limited, unauthorized).
    pub fn with_code(mut self, envelope: Option<i64>) -> Self {
        if let Some((code, _)) = self.fault.answered_mut() {
            *code = envelope;
        }
        self
    }

    /// The wait asked for, for a kind that keeps one (api, rate_limited, unauthorized).
    pub fn with_retry_after(mut self, ms: Option<u64>) -> Self {
        if let Some((_, retry)) = self.fault.answered_mut() {
            *retry = ms;
        }
        self
    }

    /// An `unauthorized` error of a connection whose grant was revoked: its user must authorize again.
    pub fn with_reauthorize(mut self) -> Self {
        if let Fault::Unauthorized { reauthorize, .. } = &mut self.fault {
            *reauthorize = Some(true);
        }
        self
    }

    /// Whether the error asks for a new grant (`with_reauthorize`).
    pub fn reauthorize(&self) -> bool {
        matches!(
            self.fault,
            Fault::Unauthorized {
                reauthorize: Some(true),
                ..
            }
        )
    }

    /// The answer's headers, for a kind that keeps them.
    pub fn with_headers(mut self, answer: &Headers) -> Self {
        if let Some(h) = self.fault.headers_mut() {
            *h = Some(Box::new(answer.clone()));
        }
        self
    }

    /// Replaces `secret` wherever the message quotes it: a server may echo the credential it was sent.
    pub fn without_secret(mut self, secret: Option<&str>) -> Self {
        crate::redact::literal(&mut self.message, secret);
        self
    }

    pub fn to_json(&self) -> String {
        self.to_json_text()
    }

    /// The interface of one kind (its own members, the others' as absent), its members added to
    /// `all` (the members the constructor takes); returns its name.
    fn kind_interface(out: &mut String, kind: ErrorKind, all: &mut Vec<Declared>) -> String {
        let (variant, about, own) = kind.declared();
        let name = format!("{variant}Error");
        declare::doc(out, "", about);
        out.push_str(&format!(
            "export interface {name} extends SvcErrorBase {{\n  readonly kind: \"{}\";\n",
            kind.name()
        ));
        let mut list = own.clone();
        for field in FIELDS {
            let absent = Declared::new(field, "undefined").optional();
            if field != "operationId" && !own.iter().any(|d| d.name == field) {
                list.push(absent);
            }
        }
        list.sort_by_key(|d| FIELDS.iter().position(|f| *f == d.name));
        declare::members(out, &list, true);
        out.push_str("}\n");
        for d in own {
            if FIELDS.contains(&d.name) && !all.iter().any(|a| a.name == d.name) {
                all.push(d.optional());
            }
        }
        name
    }

    /// The TypeScript of `ErrorKind` and `SvcError`: an interface per kind with its members, their
    /// union, and the class's constructor (`instanceof` narrows to the union, `kind` to one kind).
    pub fn declarations() -> String {
        let mut out = String::new();
        let names: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.name()).collect();
        declare::names_union(&mut out, "The kind of an SvcError.", "ErrorKind", &names);
        let base = [
            Declared::new("name", "\"SvcError\""),
            Declared::new("kind", "ErrorKind"),
            Declared::new("message", "string"),
            Declared::new("operationId", "string").optional().doc("The operation of the call that failed."),
            Declared::new("cause", "unknown")
                .optional()
                .doc("What failed underneath (network errors: the host and the underlying code), the token redacted."),
        ];
        declare::doc(&mut out, "", "What every SvcError has, whatever its kind.");
        out.push_str("export interface SvcErrorBase extends Error {\n");
        declare::members(&mut out, &base, true);
        out.push_str("}\n");
        let mut all: Vec<Declared> = Vec::new();
        let mut union = Vec::new();
        for kind in ErrorKind::ALL {
            union.push(Self::kind_interface(&mut out, *kind, &mut all));
        }
        declare::doc(
            &mut out,
            "",
            "Every failure of the SDK: narrow it by `kind`.",
        );
        out.push_str(&format!("export type SvcError = {};\n", union.join(" | ")));
        let cause = [
            Declared::new("code", "string").optional(),
            Declared::new("host", "string"),
        ];
        declare::doc(&mut out, "", "The cause of a network error: the underlying message, its code (`ECONNREFUSED`...) and the host.");
        out.push_str("export interface NetworkCause extends Error {\n");
        declare::members(&mut out, &cause, true);
        out.push_str("}\n");
        all.push(base[3]);
        all.push(base[4]);
        all.sort_by_key(|d| {
            FIELDS
                .iter()
                .position(|f| *f == d.name)
                .unwrap_or(FIELDS.len())
        });
        declare::interface(
            &mut out,
            "The members `new SvcError(kind, message, init)` takes.",
            "SvcErrorInit",
            &all,
        );
        declare::doc(
            &mut out,
            "",
            "The class of every SvcError: `instanceof` works, and narrows to the union of the kinds.",
        );
        out.push_str(concat!(
            "export interface SvcErrorConstructor {\n",
            "  new <K extends ErrorKind>(kind: K, message: string, init?: SvcErrorInit): Extract<SvcError, { kind: K }>;\n",
            "  readonly prototype: SvcError;\n",
            "}\n",
            "export declare const SvcError: SvcErrorConstructor;\n",
        ));
        out
    }
}

impl ToJson for Error {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::new(out);
        m.str("kind", self.kind().name());
        m.str("message", &self.message);
        self.fault.write_members(&mut m, |m| {
            if let Some(id) = &self.operation_id {
                m.str("operationId", id);
            }
        });
        m.end();
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::issue::{PathSeg, Problem};

    #[test]
    fn a_new_svc_error_takes_every_kind_and_every_member() {
        let kinds: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(
            kinds,
            [
                "validation",
                "api",
                "rate_limited",
                "unauthorized",
                "network",
                "timeout",
                "aborted",
                "decode",
                "config",
                "verification"
            ]
        );
        for kind in ErrorKind::ALL {
            assert_eq!(Error::kind_named(|k| k == kind.name()), *kind);
        }
        assert_eq!(Error::kind_named(|k| k == "teapot"), ErrorKind::Api);
        let lists: Vec<(&str, Vec<&str>)> = ErrorKind::ALL
            .iter()
            .map(|k| (k.name(), Error::lists(*k).collect::<Vec<_>>()))
            .filter(|(_, l)| !l.is_empty())
            .collect();
        assert_eq!(lists, [("validation", vec!["issues"])]);
        for kind in ErrorKind::ALL {
            for d in kind.declared().2 {
                let apart = d.name == "cause" && *kind == ErrorKind::Network;
                assert!(
                    FIELDS.contains(&d.name) || apart,
                    "{} of {}",
                    d.name,
                    kind.name()
                );
            }
        }
    }

    #[test]
    fn json_uses_the_js_names() {
        let e = Error::new(ErrorKind::RateLimited, "slow down")
            .with_status(429)
            .with_retry_after(Some(1500))
            .with_operation("listPlans");
        assert_eq!(
            e.to_json(),
            r#"{"kind":"rate_limited","message":"slow down","status":429,"retryAfterMs":1500,"operationId":"listPlans"}"#
        );
        let e = Error::new(ErrorKind::Api, "gone")
            .with_status(404)
            .with_code(Some(1002))
            .with_headers(&Headers(vec![("x-a".into(), "b\"".into())]))
            .with_operation("getTask");
        assert_eq!(
            e.to_json(),
            r#"{"kind":"api","message":"gone","status":404,"code":1002,"operationId":"getTask","headers":{"x-a":"b\""}}"#
        );
        let issue = Issue::new(
            vec![PathSeg::Key("lines".into()), PathSeg::Index(3)],
            "a \"quoted\" \\ \u{1} \n é",
            Problem::OutOfRange {
                minimum: (-5i64).into(),
                maximum: i64::from(u32::MAX).into(),
            },
        );
        let e = Error::validation(vec![issue.clone()]).with_operation("createTask");
        assert_eq!(
            e.to_json(),
            format!(
                r#"{{"kind":"validation","message":{},"issues":[{}],"operationId":"createTask"}}"#,
                e.message.to_json_text(),
                serde_json::to_string(&issue).unwrap()
            )
        );
        assert_eq!(
            Error::config("no").to_json(),
            r#"{"kind":"config","message":"no"}"#
        );
        assert_eq!(Error::config("no").with_status(400).status(), None);
    }

    #[test]
    fn each_kind_is_declared_with_its_members_and_none_of_the_others() {
        let ts = Error::declarations();
        assert!(ts.contains("export interface ValidationError extends SvcErrorBase {\n  readonly kind: \"validation\";\n  readonly status?: undefined;\n  readonly code?: undefined;\n  readonly issues: Issue[];\n"), "{ts}");
        assert!(ts.contains("  readonly kind: \"decode\";\n  readonly status?: number;\n  readonly code?: undefined;\n"), "{ts}");
        assert!(
            ts.contains("export type SvcError = ValidationError | ApiError | RateLimitedError"),
            "{ts}"
        );
    }

    #[test]
    fn an_echoed_secret_is_redacted() {
        let e = Error::new(
            ErrorKind::Api,
            "token s3cr3t-tok is not valid for s3cr3t-tok-org",
        );
        assert_eq!(
            e.clone().without_secret(Some("s3cr3t-tok")).message,
            "token [redacted] is not valid for [redacted]-org"
        );
        // Too short to be a token, so never sent: its letters stay in the words.
        assert_eq!(e.clone().without_secret(Some("t")).message, e.message);
        assert_eq!(e.clone().without_secret(Some("")).message, e.message);
        assert_eq!(e.clone().without_secret(None).message, e.message);
    }
}
