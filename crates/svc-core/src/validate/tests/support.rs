//! Helpers shared by the rule tests of every family.

use crate::issue::{Issue, IssueCode};
use crate::validate::{check_object, Ctx, Schema};
use serde_json::{json, Value};

/// The issues of `params` against `schema`, checked at time 0.
pub fn issues(schema: &Schema, params: &Value) -> Vec<Issue> {
    issues_at(schema, params, 0)
}

/// The issues of `params` against `schema`, checked at `now_ms`.
pub fn issues_at(schema: &Schema, params: &Value, now_ms: i64) -> Vec<Issue> {
    let mut ctx = Ctx::at(now_ms);
    let params = svc_json::of_value(params);
    check_object(
        schema,
        params.as_object().expect("params are an object"),
        &mut ctx,
    );
    ctx.issues
}

/// `base` with the value at `path` (keys and indices) replaced; `null` removes it.
pub fn with(base: &Value, path: &Value, v: Value) -> Value {
    let mut out = base.clone();
    let segs = path.as_array().expect("a path is an array");
    let (last, parents) = segs.split_last().expect("a path is not empty");
    let mut at = &mut out;
    for seg in parents {
        at = match seg {
            Value::String(k) => &mut at[k.as_str()],
            n => &mut at[n.as_u64().unwrap() as usize],
        };
    }
    match (last, v) {
        (Value::String(k), Value::Null) => {
            at.as_object_mut().unwrap().remove(k);
        }
        (Value::String(k), v) => at[k.as_str()] = v,
        (n, v) => at[n.as_u64().unwrap() as usize] = v,
    }
    out
}

/// Asserts no issue.
pub fn expect_none(issues: &[Issue]) {
    assert!(issues.is_empty(), "{issues:#?}");
}

/// Asserts exactly one issue, with this path, code and details, and a message.
pub fn expect_one(issues: &[Issue], path: Value, code: IssueCode, details: Value) {
    assert_eq!(issues.len(), 1, "{issues:#?}");
    let issue = &issues[0];
    assert_eq!(json!(issue.path), path, "{issue:#?}");
    assert_eq!(issue.code(), code, "{issue:#?}");
    assert_eq!(
        Value::Object(issue.problem.details()),
        details,
        "{issue:#?}"
    );
    assert!(!issue.message.is_empty(), "{issue:#?}");
}

/// Asserts the issues, in order, by path string and code.
pub fn expect_all(issues: &[Issue], want: &[(&str, IssueCode)]) {
    let got: Vec<(String, IssueCode)> =
        issues.iter().map(|i| (i.path_string(), i.code())).collect();
    let want: Vec<(String, IssueCode)> = want.iter().map(|(p, c)| (p.to_string(), *c)).collect();
    assert_eq!(got, want);
}

/// The JSONPath form of an issue's path as the vendor files write it: `$.line_items[].name`.
pub fn json_path(issue: &Issue) -> String {
    let mut s = String::from("$");
    for seg in &issue.path {
        match seg {
            crate::issue::PathSeg::Key(k) => {
                s.push('.');
                s.push_str(k);
            }
            crate::issue::PathSeg::Index(_) => s.push_str("[]"),
        }
    }
    s
}

pub fn vendor(name: &str) -> Value {
    let path =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/vendor/").to_string() + name;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap()
}

/// The params a vendor file sends: the body of a body method, else the query.
pub fn vendor_params(name: &str) -> Value {
    let file = vendor(name);
    match file["method"].as_str() {
        Some("POST" | "PUT" | "PATCH") => file["request_body"].clone(),
        _ => file["query_params_example"].clone(),
    }
}

/// Checks that a vendor request passes, except on the fields its placeholders stand in for.
pub fn vendor_request_passes(name: &str, schema: &Schema) {
    let params = vendor_params(name);
    let placeholders: Vec<String> = vendor(name)["type_placeholders_used"]["request"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p.as_str().map(String::from))
        .collect();
    for issue in issues(schema, &params) {
        assert!(
            placeholders.contains(&json_path(&issue)),
            "{name}: {issue:#?}"
        );
    }
}

/// Two tests per rule: the value at the edge passes, the one just past it fails with one issue (at
/// `$path`, or at the path after `at`). Values are JSON tokens (`null` removes the field); wrap a
/// Rust expression in parentheses.
macro_rules! edge {
    ($($pass:ident / $fail:ident: $schema:expr, $base:expr, $path:tt, $ok:tt => $bad:tt,
        $code:ident $details:tt $(at $at:tt)?;)*) => {$(
        #[test]
        fn $pass() {
            let p = $crate::validate::tests::support::with(&$base, &serde_json::json!($path), serde_json::json!($ok));
            let found = $crate::validate::tests::support::issues(&$schema, &p);
            assert!(found.is_empty(), "{found:#?}");
        }

        #[test]
        fn $fail() {
            let p = $crate::validate::tests::support::with(&$base, &serde_json::json!($path), serde_json::json!($bad));
            $crate::validate::tests::support::expect_one(
                &$crate::validate::tests::support::issues(&$schema, &p),
                [$(serde_json::json!($at),)? serde_json::json!($path)][0].clone(),
                $crate::issue::IssueCode::$code,
                serde_json::json!($details),
            );
        }
    )*};
}
pub(crate) use edge;
