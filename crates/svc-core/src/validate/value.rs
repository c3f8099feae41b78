//! A params object and each of its values walked against their schema: types, exactness in JS, rules, checks.

use super::ctx::{unrepresentable, Ctx, Source};
use super::name::{field_label, type_name};
use super::rule::apply_rule;
use crate::issue::{PathSeg, Problem};
use crate::message::Message;
use crate::schema::{Field, Kind, Schema};
use svc_json::{Json, Num, Obj};

fn expected_name(kind: &Kind) -> &'static str {
    match kind {
        Kind::Str => "string",
        Kind::Num => "number",
        Kind::Int => "integer",
        Kind::Bool | Kind::BoolLike => "boolean",
        Kind::Id => "id (string or integer)",
        Kind::StrOrNum => "string or number",
        Kind::Obj(_) => "object",
        Kind::Arr(_) => "array",
        Kind::Any => "any",
    }
}

fn is_blank(v: &Json) -> bool {
    matches!(v, Json::Str(s) if s.trim().is_empty())
}

/// Checks one present value against its field: type first, then the rules.
pub fn check_value(field: &Field, v: &Json, ctx: &mut Ctx) {
    if let Some(what) = unrepresentable(v) {
        ctx.push(
            Message::WrongType.say(&[&field_label(field), &expected_name(&field.kind), &what]),
            Problem::InvalidType {
                expected: expected_name(&field.kind).into(),
            },
        );
        return;
    }
    if field.required && is_blank(v) {
        ctx.push(
            Message::Required.say(&[&field_label(field)]),
            Problem::Required {},
        );
        return;
    }
    let type_ok = match (&field.kind, v) {
        (Kind::Any, _) => {
            sweep_unrepresentable(v, ctx);
            true
        }
        (Kind::Str, Json::Str(_)) => true,
        (Kind::Num, Json::Num(_)) => true,
        (Kind::Int | Kind::Id, Json::Num(_)) => v.as_num().is_some_and(Num::is_integer),
        (Kind::Bool | Kind::BoolLike, Json::Bool(_)) => true,
        (Kind::BoolLike, Json::Str(s)) => s == "true" || s == "false",
        (Kind::Id, Json::Str(s)) => !s.is_empty(),
        (Kind::StrOrNum, Json::Str(_) | Json::Num(_)) => true,
        (Kind::Obj(schema), Json::Obj(m)) => {
            check_object(schema, m, ctx);
            true
        }
        (Kind::Arr(item), Json::Arr(items)) => {
            for (i, member) in items.iter().enumerate() {
                ctx.enter(PathSeg::Index(i), |ctx| match member {
                    Json::Null => ctx.push(
                        Message::NullMember.say(&[&field_label(field)]),
                        Problem::InvalidType {
                            expected: expected_name(&item.kind).into(),
                        },
                    ),
                    m => check_value(item, m, ctx),
                });
            }
            true
        }
        _ => false,
    };
    if !type_ok {
        let expected = expected_name(&field.kind);
        ctx.push(
            Message::WrongType.say(&[&field_label(field), &expected, &type_name(v)]),
            Problem::InvalidType {
                expected: expected.into(),
            },
        );
        return;
    }
    if let (Kind::Id | Kind::Int, Some(n), Source::Js) = (&field.kind, v.as_num(), ctx.source) {
        if crate::exact::from_double(v) && !is_exact_in_js(n) {
            push_inexact(field, n, ctx);
            return;
        }
    }
    for rule in field.rules {
        apply_rule(field, rule, v, ctx);
    }
}

/// The largest integer a JS number (and many JSON readers) holds exactly: 2^53 - 1.
pub const MAX_EXACT_INT: u64 = (1 << 53) - 1;

fn is_exact_in_js(n: Num) -> bool {
    match (n.as_u64(), n.as_i64()) {
        (Some(u), _) => u <= MAX_EXACT_INT,
        (_, Some(i)) => i.unsigned_abs() <= MAX_EXACT_INT,
        _ => true,
    }
}

fn push_inexact(field: &Field, n: Num, ctx: &mut Ctx) {
    let label = field_label(field);
    let n: &dyn crate::message::Part = match &n {
        Num::U(u) => u,
        Num::I(i) => i,
        Num::F(_) => &"",
    };
    let give = if matches!(field.kind, Kind::Id) {
        "give the id as a string or a BigInt"
    } else {
        "give it as a BigInt or an ExactNumber"
    };
    let message = Message::Inexact.say(&[&label, n, &give]);
    let bound = MAX_EXACT_INT as i64;
    ctx.push(
        message,
        Problem::OutOfRange {
            minimum: (-bound).into(),
            maximum: bound.into(),
        },
    );
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
                Message::Required.say(&[&field.name]),
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

/// Reports unrepresentable values anywhere below a value that no rule describes.
pub(super) fn sweep_unrepresentable(v: &Json, ctx: &mut Ctx) {
    if let Some(what) = unrepresentable(v) {
        ctx.push(
            Message::NotJson.say(&[&what]),
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
