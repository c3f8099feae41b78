//! The error envelope: `ApiError`, the application codes, and the issues of validation errors.

use crate::record::Value;
use svc_core::issue::{Issue, PathSeg, Problem};
use svc_json::json;
use svc_json::{Json, ToJson};

/// Application codes of the envelope. The documented ones are the SDK's table (`svc_core::code`,
/// the package's `ErrorCode`); the others are the sandbox's own (listed in sandbox/README.md).
pub mod code {
    pub use svc_core::code::{
        INTERNAL, NEGATIVE_AMOUNT, NOT_FOUND, PROJECT_HAS_EXPENSES,
        RECURRING_INVOICE_NAME_MISSING as RECURRING_NAME,
    };
    pub const INVALID: i64 = 1001;
    pub const DUPLICATE: i64 = 1003;
    pub const IN_USE: i64 = 1004;
    pub const ORGANIZATION: i64 = 1005;
    pub const BAD_REQUEST: i64 = 1400;
    pub const UNAUTHORIZED: i64 = 1401;
    pub const SCOPE: i64 = 1403;
    pub const NO_ROUTE: i64 = 1404;
    pub const METHOD: i64 = 1405;
    pub const TOO_LARGE: i64 = 1413;
    pub const RATE: i64 = 1429;
    pub const IN_FLIGHT: i64 = 1430;
    pub const DAILY: i64 = 1431;
}

/// A failed call: HTTP status, the envelope's code and message, and validation issues.
#[derive(Debug)]
pub struct ApiError {
    pub status: u16,
    pub code: i64,
    pub message: String,
    pub issues: Vec<Issue>,
}

impl ApiError {
    pub fn new(status: u16, code: i64, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            issues: Vec::new(),
        }
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(404, code::NOT_FOUND, message)
    }

    pub fn bad(code: i64, message: impl Into<String>) -> ApiError {
        ApiError::new(400, code, message)
    }

    pub fn invalid(issues: Vec<Issue>) -> ApiError {
        let first = issues
            .first()
            .map(|i| format!(": {}: {}", i.path_string(), i.message))
            .unwrap_or_default();
        let n = issues.len();
        let noun = if n == 1 { "issue" } else { "issues" };
        ApiError {
            issues,
            ..ApiError::bad(code::INVALID, format!("Invalid request, {n} {noun}{first}"))
        }
    }

    pub fn body(&self) -> Value {
        let mut v = json!({ "code": self.code, "message": self.message });
        if let (false, Value::Obj(m)) = (self.issues.is_empty(), &mut v) {
            let issues = svc_json::parse(&self.issues.to_json_text()).map(Json::into_owned);
            m.insert("issues".into(), issues.unwrap_or_default());
        }
        v
    }
}

/// An issue at a path of the params.
pub fn issue(path: &[PathSeg], message: impl Into<String>, problem: Problem) -> Issue {
    Issue::new(path.to_vec(), message, problem)
}

/// A `required` issue for a top-level param.
pub fn required(name: &str) -> Issue {
    issue(
        &[PathSeg::Key(name.to_string().into())],
        format!("{name} is required"),
        Problem::Required {},
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_errors_carry_their_issues() {
        let issue = Issue::new(
            vec![PathSeg::Key("name".into())],
            "name is required",
            Problem::Required {},
        );
        let e = ApiError::invalid(vec![issue]);
        assert_eq!(e.status, 400);
        let body = e.body();
        assert_eq!(body["code"], json!(code::INVALID));
        assert_eq!(body["issues"][0]["code"], json!("required"));
        assert_eq!(body["issues"][0]["path"], json!(["name"]));
        assert!(body["message"]
            .as_str()
            .unwrap()
            .contains("name is required"));
    }
}
