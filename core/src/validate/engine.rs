//! The entry points: params checked against an operation's rules, object by object, in one pass.

use super::ctx::{unrepresentable, Ctx, Source};
use super::value::{check_value, type_name};
use crate::issue::{Issue, PathSeg, Problem};
use crate::json;
use crate::json::{Json, Obj};
use crate::schema::Schema;
use serde_json::Value;

/// What the engine needs of an operation: the rules of its params, and the issues of params that
/// cannot travel where the operation sends them (the request side knows where each param goes).
pub trait Rules {
    fn schema(&self) -> &'static Schema;
    fn wire_issues(&self, params: &Obj) -> Vec<Issue>;
}

/// Checks params against the operation's rules: every issue, in one pass.
pub fn validate(op: &impl Rules, params: &Value) -> Vec<Issue> {
    validate_at(op, params, crate::clock::now_ms())
}

/// `validate` with an explicit "now" (milliseconds since the Unix epoch).
pub fn validate_at(op: &impl Rules, params: &Value, now_ms: i64) -> Vec<Issue> {
    validate_from(op, params, now_ms, Source::Json)
}

/// `validate_at` for params written in `source`.
pub fn validate_from(op: &impl Rules, params: &Value, now_ms: i64, source: Source) -> Vec<Issue> {
    check(op, &json::of_value(params), now_ms, source)
}

/// Checks params read from JSON text (`json::parse`) written in `source`: every issue, in one pass.
pub fn check(op: &impl Rules, params: &Json, now_ms: i64, source: Source) -> Vec<Issue> {
    let mut ctx = Ctx {
        source,
        ..Ctx::at(now_ms)
    };
    if let Some(what) = unrepresentable(params) {
        ctx.push(
            format!("params must be an object, got {what}"),
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
            format!("params must be an object, got {}", type_name(other)),
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

pub fn check_object(schema: &Schema, map: &Obj, ctx: &mut Ctx) {
    // Each member is matched to its field once, the search starting after the last match (params
    // usually come in the table's order); issues still come field by field, then unknown keys.
    let fields = schema.fields;
    let mut values: Vec<Option<&Json>> = vec![None; fields.len()];
    let mut unknown = false;
    let mut next = 0;
    for (key, v) in map.iter() {
        let found = (next..fields.len())
            .chain(0..next)
            .find(|&i| fields[i].name == key);
        match found {
            Some(i) => {
                values[i] = Some(v);
                next = i + 1;
            }
            None => unknown = true,
        }
    }
    for (field, value) in fields.iter().zip(values) {
        match value {
            None | Some(Json::Null) if field.required => ctx.push_at(
                field.name,
                format!("{} is required", field.name),
                Problem::Required {},
            ),
            None | Some(Json::Null) => {}
            Some(v) => ctx.enter(PathSeg::Key(field.name.into()), |ctx| {
                check_value(field, v, ctx)
            }),
        }
    }
    if unknown {
        for (key, v) in map.iter() {
            if schema.field(key).is_none() {
                ctx.enter(PathSeg::Key(key.to_string().into()), |ctx| {
                    sweep_unrepresentable(v, ctx)
                });
            }
        }
    }
    for check in schema.checks {
        check.run(schema, map, ctx);
    }
}

/// The issues of values below `v`, found at `path`, that JSON cannot hold (NaN, a function...).
pub fn unrepresentable_issues(v: &Json, path: &str) -> Vec<Issue> {
    let mut ctx = Ctx::default();
    ctx.enter(PathSeg::Key(path.to_string().into()), |ctx| {
        sweep_unrepresentable(v, ctx)
    });
    ctx.issues
}

/// Reports unrepresentable values anywhere below a value that no rule describes.
pub(super) fn sweep_unrepresentable(v: &Json, ctx: &mut Ctx) {
    if let Some(what) = unrepresentable(v) {
        ctx.push(
            format!("{what} cannot be sent as JSON"),
            Problem::InvalidType {
                expected: "a JSON value".into(),
            },
        );
        return;
    }
    match v {
        Json::Arr(items) => {
            for (i, item) in items.iter().enumerate() {
                ctx.enter(PathSeg::Index(i), |ctx| sweep_unrepresentable(item, ctx));
            }
        }
        Json::Obj(m) => {
            for (k, item) in m.iter() {
                ctx.enter(PathSeg::Key(k.to_string().into()), |ctx| {
                    sweep_unrepresentable(item, ctx)
                });
            }
        }
        _ => {}
    }
}
