//! One rule (length, range, value set, format, count) applied to a value.

use super::ctx::Ctx;
use super::name::field_label;
use crate::issue::Problem;
use crate::message::Message;
use crate::schema::{Field, Rule};
use svc_json::Json;

pub(super) fn apply_rule(field: &Field, rule: &Rule, v: &Json, ctx: &mut Ctx) {
    let label = field_label(field);
    match (rule, v) {
        (Rule::MaxLen(max), Json::Str(s)) => {
            let n = s.chars().count();
            if n > *max {
                ctx.push(
                    Message::TooLong.say(&[&label, max, &n]),
                    Problem::TooLong { maximum: *max },
                );
            }
        }
        (Rule::LenBetween(min, max), Json::Str(s)) => {
            let n = s.chars().count();
            if n < *min {
                ctx.push(
                    Message::TooShort.say(&[&label, min, &n]),
                    Problem::TooShort { minimum: *min },
                );
            } else if n > *max {
                ctx.push(
                    Message::TooLong.say(&[&label, max, &n]),
                    Problem::TooLong { maximum: *max },
                );
            }
        }
        (Rule::Range(min, max), _) => in_range(label, *min, *max, v, ctx),
        (Rule::OneOf(allowed), Json::Str(s)) if !allowed.contains(&s.as_ref()) => {
            not_one_of(label, allowed, s, ctx)
        }
        (Rule::OneOfUnlessBlank(allowed), Json::Str(s))
            if !s.trim().is_empty() && !allowed.contains(&s.as_ref()) =>
        {
            not_one_of(label, allowed, s, ctx)
        }
        (Rule::Format(f), Json::Str(s)) if !f.matches(s) => ctx.push(
            Message::WrongType.say(&[&label, &f.describe(), &crate::echo::quoted(s)]),
            Problem::InvalidFormat {
                format: f.name().into(),
                allowed: None,
            },
        ),
        (Rule::MaxItems(max), Json::Arr(items)) if items.len() > *max => ctx.push(
            Message::TooMany.say(&[&label, max, &items.len()]),
            Problem::TooMany { maximum: *max },
        ),
        _ => {}
    }
}

/// A number, or a decimal text, between `min` and `max`.
fn in_range(label: &str, min: f64, max: f64, v: &Json, ctx: &mut Ctx) {
    let n = match v {
        Json::Num(_) => v.as_f64(),
        Json::Str(s) => crate::decimal::parse(s.trim()),
        _ => None,
    };
    match n {
        Some(n) if n >= min && n <= max => {}
        Some(_) => {
            let (min, max) = (min as i64, max as i64);
            ctx.push(
                Message::OutOfRange.say(&[&label, &min, &max]),
                Problem::OutOfRange {
                    minimum: min.into(),
                    maximum: max.into(),
                },
            )
        }
        None => ctx.push(
            Message::NotANumber.say(&[&label]),
            Problem::InvalidType {
                expected: "number".into(),
            },
        ),
    }
}

fn not_one_of(label: &str, allowed: &'static [&'static str], s: &str, ctx: &mut Ctx) {
    ctx.push(
        Message::NotOneOf.say(&[&label, &allowed.join(", "), &crate::echo::quoted(s)]),
        Problem::InvalidValue { allowed },
    )
}
