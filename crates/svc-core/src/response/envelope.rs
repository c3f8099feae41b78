//! The envelope of an answer: its members, its `code`, whether it is JSON.
use crate::lossless::Member;
use svc_json::Json;

pub(super) fn find<'a>(members: &'a [Member<'a>], key: &str) -> Option<&'a Member<'a>> {
    members.iter().find(|m| m.key == key)
}

/// The envelope's `code`: 0, "SUCCESS" or absent mean success.
pub(super) fn envelope_code<'a>(members: &'a [Member<'a>]) -> Option<Json<'a>> {
    find(members, "code").and_then(|m| svc_json::parse(m.value).ok())
}

pub(super) fn code_is_success(code: &Option<Json>) -> bool {
    match code {
        None => true,
        Some(Json::Num(_)) => code.as_ref().and_then(Json::as_i64) == Some(0),
        Some(Json::Str(s)) => s.eq_ignore_ascii_case("success"),
        Some(_) => false,
    }
}

pub(super) fn is_json(content_type: Option<&str>) -> bool {
    content_type.is_some_and(|ct| ct.to_ascii_lowercase().contains("json"))
}
