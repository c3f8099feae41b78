//! The checks across a params object's fields (`Check`), and the issues each reports.

use super::crm;
use super::ctx::{Ctx, UNREPRESENTABLE};
use super::name::type_name;
use crate::issue::Problem;
use crate::message::Message;
use crate::schema::{Check, Field, IntText, Schema};
use svc_json::{Json, Num, Obj};

impl Check {
    pub(super) fn run(self, schema: &Schema, map: &Obj, ctx: &mut Ctx) {
        match self {
            Check::LooseInteger { field, text } => loose_integer(map, field, text, ctx),
            Check::NotEmpty(field) => not_empty(map, field, ctx),
            Check::NotAllowedWhen {
                field,
                when,
                equals,
                applies_to,
            } => {
                if map.get(when).and_then(Json::as_str) == Some(equals) && given(map, field) {
                    let why = Message::AppliesOnlyTo.say(&[&field, &applies_to, &equals]);
                    not_allowed(field, why, ctx);
                }
            }
            Check::NotAllowedUnless {
                field,
                when,
                equals,
            } => {
                let listed = |t: &str| {
                    let set = schema.field(when).and_then(Field::value_set);
                    set.is_none_or(|set| set.contains(&t))
                };
                let applies = match map.get(when).and_then(Json::as_str).map(str::trim) {
                    Some(t) if t == equals => false,
                    Some(t) => t.is_empty() || listed(t),
                    None => true,
                };
                if applies && given(map, field) {
                    not_allowed(
                        field,
                        Message::AppliesOnlyWhen.say(&[&field, &when, &equals]),
                        ctx,
                    );
                }
            }
            Check::MaxFieldsNested { field, max } => crm::max_fields_nested(map, field, max, ctx),
            Check::EventsNameModuleAndOperation => crm::events_name_module_and_operation(map, ctx),
            Check::ExpiryWithinAWeek => crm::expiry_within_a_week(map, ctx),
            Check::GroupMembers => crm::group_members(map, ctx),
        }
    }
}

fn loose_integer(map: &Obj, field: &'static str, text: IntText, ctx: &mut Ctx) {
    let ok = match map.get(field) {
        None | Some(Json::Null) => true,
        Some(n @ Json::Num(_)) => n.as_num().is_some_and(Num::is_integer),
        Some(Json::Str(s)) => text.allows(s),
        Some(Json::Obj(m)) => m.contains_key(UNREPRESENTABLE),
        Some(_) => false,
    };
    if let (false, Some(v)) = (ok, map.get(field)) {
        ctx.push_at(
            field,
            Message::WrongType.say(&[&field, &text.describe(), &type_name(v)]),
            Problem::InvalidType {
                expected: "integer".into(),
            },
        );
    }
}

fn not_empty(map: &Obj, field: &'static str, ctx: &mut Ctx) {
    if matches!(map.get(field), Some(Json::Arr(items)) if items.is_empty()) {
        ctx.push_at(
            field,
            Message::NoMember.say(&[&field]),
            Problem::Required {},
        );
    }
}

/// Whether a field carries a value: present, not null, not a blank string.
fn given(map: &Obj, name: &str) -> bool {
    match map.get(name) {
        None | Some(Json::Null) => false,
        Some(Json::Str(s)) => !s.trim().is_empty(),
        Some(_) => true,
    }
}

fn not_allowed(field: &'static str, message: String, ctx: &mut Ctx) {
    ctx.push_at(field, message, Problem::NotAllowed {});
}
