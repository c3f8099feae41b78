//! Helpers of the books rule tests: an operation's schema, params edited at a pointer, the issues expected.

use crate::issue::{Issue, IssueCode};
use crate::validate::tests::support::{expect_none, expect_one, issues_at};
use crate::validate::Schema;
use serde_json::Value;

pub(super) const NOW: i64 = 1_732_233_600_000;

pub(super) fn schema(op: &str) -> &'static Schema {
    crate::catalog::find(op)
        .unwrap_or_else(|| panic!("no operation {op}"))
        .params
}

pub(super) fn books() -> impl Iterator<Item = &'static str> {
    crate::catalog::operations()
        .iter()
        .filter(|op| op.family == crate::family::Family::Books)
        .map(|op| op.id)
}

pub(super) fn run(op: &str, params: &Value) -> Vec<Issue> {
    issues_at(schema(op), params, NOW)
}

/// Sets the value at a JSON pointer; `null` removes the key.
pub(super) fn set(mut params: Value, pointer: &str, v: Value) -> Value {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    match params
        .pointer_mut(parent)
        .unwrap_or_else(|| panic!("no {parent}"))
    {
        Value::Object(m) if v.is_null() => {
            m.remove(key);
        }
        Value::Object(m) => {
            m.insert(key.to_string(), v);
        }
        Value::Array(a) => a[key.parse::<usize>().unwrap()] = v,
        other => panic!("cannot set {key} in {other}"),
    }
    params
}

/// The issue path of a JSON pointer: `/line_items/0/name` is `["line_items", 0, "name"]`.
pub(super) fn path_of(pointer: &str) -> Value {
    pointer
        .split('/')
        .skip(1)
        .map(|s| {
            s.parse::<usize>()
                .map(Value::from)
                .unwrap_or_else(|_| s.into())
        })
        .collect()
}

pub(super) fn allowed(values: &[&str]) -> Value {
    values.iter().map(|v| Value::from(*v)).collect()
}

pub(super) fn assert_ok(op: &str, params: &Value) {
    expect_none(&run(op, params));
}

pub(super) fn assert_one(op: &str, params: &Value, code: IssueCode, pointer: &str, details: Value) {
    expect_one(&run(op, params), path_of(pointer), code, details);
}
