//! The group of a notification condition: its members, `{field}` or nested groups, and their count.

use crate::message::Message;
use crate::model::crm::{ApiRef, FieldSelection};
use crate::schema::{Params, Shape};
use crate::validate::{check_object, req, Ctx, PathSeg, Problem, Schema, UNREPRESENTABLE};
use svc_json::{Json, Obj};

/// A `{field}` member of a group.
static FIELD_MEMBER: Schema = Schema {
    fields: &[req("field", <ApiRef as Shape>::KIND)],
    checks: &[],
};

enum MemberShape {
    Field,
    Group,
}

fn member_shape(member: &Obj) -> Option<MemberShape> {
    if member.contains_key("field") {
        Some(MemberShape::Field)
    } else if member.contains_key("group") || member.contains_key("group_operator") {
        Some(MemberShape::Group)
    } else {
        None
    }
}

/// Walks the members of a group: each is a `{field}` or a nested `{group_operator, group}`.
pub(in crate::validate) fn group_members(group: &Obj, ctx: &mut Ctx) {
    let Some(Json::Arr(members)) = group.get("group") else {
        return;
    };
    ctx.enter(PathSeg::Key("group".into()), |ctx| {
        for (i, member) in members.iter().enumerate() {
            let Json::Obj(member) = member else {
                continue;
            };
            ctx.enter(PathSeg::Index(i), |ctx| match member_shape(member) {
                Some(MemberShape::Field) => check_object(&FIELD_MEMBER, member, ctx),
                Some(MemberShape::Group) => check_object(FieldSelection::SCHEMA, member, ctx),
                None if member.contains_key(UNREPRESENTABLE) => {}
                None => ctx.push(
                    "a group member must be {field: {api_name, id}} or {group_operator, group}",
                    Problem::InvalidType {
                        expected: "field or group".into(),
                    },
                ),
            });
        }
    });
}

fn count_fields(members: &[Json]) -> usize {
    members
        .iter()
        .map(|member| match member {
            Json::Obj(m) if m.contains_key("field") => 1,
            Json::Obj(m) => match m.get("group") {
                Some(Json::Arr(inner)) => count_fields(inner),
                _ => 0,
            },
            _ => 0,
        })
        .sum()
}

/// At most `max` `{field}` members in the group under `field`, however nested.
pub(in crate::validate) fn max_fields_nested(
    map: &Obj,
    field: &'static str,
    max: usize,
    ctx: &mut Ctx,
) {
    let Some(Json::Obj(selection)) = map.get(field) else {
        return;
    };
    let Some(Json::Arr(group)) = selection.get("group") else {
        return;
    };
    let n = count_fields(group);
    if n > max {
        let what = field.replace('_', " ");
        ctx.enter(PathSeg::Key(field.into()), |ctx| {
            ctx.push_at(
                "group",
                Message::TooManyNested.say(&[&what, &max, &n]),
                Problem::TooMany { maximum: max },
            )
        });
    }
}
