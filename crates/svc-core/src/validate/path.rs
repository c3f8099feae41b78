//! A path param given as another JS value than a string: taken as an id field of a body takes it, or refused with that field's issue.

use super::{check_value, Ctx, Source};
use crate::issue::{Issue, PathSeg};
use crate::schema::{req, Kind};
use svc_json::Json;

/// The path param `name` given as the JSON `text` that params.js writes of a JS value (a number; a
/// BigInt as its exact number; a marker where JSON cannot hold it): its digits where an id field of a
/// body takes the value, else that field's issues, at `name`.
pub fn path_id(name: &'static str, text: &str) -> Result<String, Vec<Issue>> {
    let field = req(name, Kind::Id);
    let mut ctx = Ctx {
        source: Source::Js,
        ..Ctx::default()
    };
    let value = crate::exact::read(text).unwrap_or(Json::Null);
    ctx.enter(PathSeg::Key(name.into()), |ctx| {
        check_value(&field, &value, ctx)
    });
    match value {
        Json::Num(n) | Json::Str(n) if ctx.issues.is_empty() => Ok(n.into_owned()),
        _ if ctx.issues.is_empty() => Err(vec![Issue::new(
            vec![PathSeg::Key(name.into())],
            crate::message::Message::NotAnId.say(&[&name]),
            crate::issue::Problem::InvalidType {
                expected: "id (string or integer)".into(),
            },
        )]),
        _ => Err(ctx.issues),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::issue::IssueCode;

    #[test]
    fn a_path_id_is_taken_as_a_body_takes_an_id() {
        assert_eq!(path_id("task_id", "42").unwrap(), "42");
        let exact = format!("{{\"{}\":\"9007199254740993\"}}", crate::exact::EXACT);
        assert_eq!(path_id("task_id", &exact).unwrap(), "9007199254740993");
    }

    #[test]
    fn a_js_number_beyond_2_53_is_the_issue_it_is_in_a_body() {
        let issues = path_id("task_id", "9007199254740992").unwrap_err();
        assert_eq!(issues.len(), 1, "{issues:?}");
        assert_eq!(issues[0].code(), IssueCode::OutOfRange);
        assert_eq!(issues[0].path, vec![PathSeg::Key("task_id".into())]);
        assert!(
            issues[0]
                .message
                .starts_with("task_id is a JS number beyond 2^53 - 1")
                && issues[0]
                    .message
                    .ends_with("give the id as a string or a BigInt"),
            "{}",
            issues[0].message
        );
        let body = super::super::check(
            crate::catalog::find("createJournal").unwrap(),
            &svc_json::parse(r#"{"journal_date":"2024-01-02","line_items":[{"account_id":9007199254740992,"debit_or_credit":"debit","amount":1}]}"#).unwrap(),
            0,
            Source::Js,
        );
        assert!(
            body.iter().any(|i| i.code() == IssueCode::OutOfRange),
            "{body:?}"
        );
    }

    #[test]
    fn other_values_are_refused_as_a_body_refuses_them() {
        for text in ["1.5", "true", "null", "{}", "[]"] {
            let issues = path_id("task_id", text).unwrap_err();
            assert_eq!(
                issues[0].code(),
                IssueCode::InvalidType,
                "{text}: {issues:?}"
            );
            assert_eq!(issues[0].path, vec![PathSeg::Key("task_id".into())]);
        }
    }
}
