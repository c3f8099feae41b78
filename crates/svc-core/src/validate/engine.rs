//! The entry points: params checked against an operation's rules, object by object, in one pass.

use super::ctx::{unrepresentable, Ctx, Source};
use super::name::type_name;
use super::value::{check_object, sweep_unrepresentable};
use crate::issue::{Issue, PathSeg, Problem};
use crate::message::Message;
use crate::schema::Schema;
use svc_json::{Json, Obj};

/// What the engine needs of an operation: the rules of its params, and the issues of params that
/// cannot travel where the operation sends them (the request side knows where each param goes).
pub trait Rules {
    fn schema(&self) -> &'static Schema;
    fn wire_issues(&self, params: &Obj) -> Vec<Issue>;
}

/// Checks params against the operation's rules: every issue, in one pass.
#[cfg(any(test, feature = "serde_json"))]
pub fn validate(op: &impl Rules, params: &serde_json::Value) -> Vec<Issue> {
    validate_at(op, params, crate::clock::now_ms())
}

/// `validate` with an explicit "now" (milliseconds since the Unix epoch).
#[cfg(any(test, feature = "serde_json"))]
pub fn validate_at(op: &impl Rules, params: &serde_json::Value, now_ms: i64) -> Vec<Issue> {
    validate_from(op, params, now_ms, Source::Json)
}

/// `validate_at` for params written in `source`.
#[cfg(any(test, feature = "serde_json"))]
pub fn validate_from(
    op: &impl Rules,
    params: &serde_json::Value,
    now_ms: i64,
    source: Source,
) -> Vec<Issue> {
    check(op, &svc_json::of_value(params), now_ms, source)
}

/// Checks params read from JSON text (`json::parse`) written in `source`: every issue, in one pass.
pub fn check(op: &impl Rules, params: &Json, now_ms: i64, source: Source) -> Vec<Issue> {
    let mut ctx = Ctx {
        source,
        ..Ctx::at(now_ms)
    };
    if let Some(what) = unrepresentable(params) {
        ctx.push(
            Message::NotAnObjectGot.say(&[&"params", &what]),
            Problem::InvalidType {
                expected: "object".into(),
            },
        );
        return ctx.issues;
    }
    match params {
        Json::Null => check_object(op.schema(), &Obj::default(), &mut ctx),
        Json::Obj(map) => {
            check_object(op.schema(), map, &mut ctx);
            for wire in op.wire_issues(map) {
                if !ctx
                    .issues
                    .iter()
                    .any(|i| wire.path.starts_with(&i.path[..1.min(i.path.len())]))
                {
                    ctx.issues.push(wire);
                }
            }
        }
        other => ctx.push(
            Message::NotAnObjectGot.say(&[&"params", &type_name(other)]),
            Problem::InvalidType {
                expected: "object".into(),
            },
        ),
    }
    ctx.issues
}

/// The schema of an operation's params.
pub fn rules_for(op: &impl Rules) -> &'static Schema {
    op.schema()
}

/// The issues of values below `v`, found at `path`, that JSON cannot hold (NaN, a function...).
pub fn unrepresentable_issues(v: &Json, path: &str) -> Vec<Issue> {
    let mut ctx = Ctx::default();
    ctx.enter(PathSeg::Key(path.to_string().into()), |ctx| {
        sweep_unrepresentable(v, ctx)
    });
    ctx.issues
}
