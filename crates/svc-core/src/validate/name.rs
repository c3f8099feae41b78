//! The words messages use for a value's JSON type and for a field.

use super::ctx::UNREPRESENTABLE;
use crate::schema::Field;
use svc_json::Json;

pub fn type_name(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "boolean",
        Json::Num(_) => "number",
        Json::Str(_) => "string",
        Json::Arr(_) => "array",
        Json::Obj(m) if m.contains_key(UNREPRESENTABLE) => "a value that is not JSON",
        Json::Obj(_) => "object",
    }
}

pub(super) fn field_label(field: &Field) -> &'static str {
    if field.name.is_empty() {
        "each member"
    } else {
        field.name
    }
}
