//! Tests of the rule engine: types, rules, checks, unrepresentable values, sources.

use crate::issue::Issue;
use crate::issue::IssueCode;
use crate::validate::*;
use serde_json::json;
use serde_json::Value;

static LINE: Schema = Schema {
    fields: &[
        req("name", Kind::Str).with(&[Rule::MaxLen(3)]),
        opt("amount", Kind::Num),
    ],
    checks: &[],
};
static LINE_FIELD: Field = opt("", Kind::Obj(&LINE));
static TOP: Schema = Schema {
    fields: &[
        req("title", Kind::Str),
        opt("kind", Kind::Str).with(&[Rule::OneOf(&["a", "b"])]),
        opt("lines", Kind::Arr(&LINE_FIELD)).with(&[Rule::MaxItems(2)]),
        opt("pct", Kind::Num).with(&[Rule::Range(0.0, 100.0)]),
        opt("id", Kind::Id),
    ],
    checks: &[],
};

fn run(v: Value) -> Vec<Issue> {
    let mut ctx = Ctx::default();
    check_object(&TOP, svc_json::of_value(&v).as_object().unwrap(), &mut ctx);
    ctx.issues
}

#[test]
fn every_issue_in_one_pass_with_paths() {
    let issues = run(json!({
        "kind": "c",
        "lines": [{"name": "ok"}, {"name": 5, "amount": "x"}, {"name": "long"}],
        "pct": 100.5,
        "id": true
    }));
    let got: Vec<(String, IssueCode)> =
        issues.iter().map(|i| (i.path_string(), i.code())).collect();
    assert_eq!(
        got,
        vec![
            ("title".into(), IssueCode::Required),
            ("kind".into(), IssueCode::InvalidValue),
            ("lines[1].name".into(), IssueCode::InvalidType),
            ("lines[1].amount".into(), IssueCode::InvalidType),
            ("lines[2].name".into(), IssueCode::TooLong),
            ("lines".into(), IssueCode::TooMany),
            ("pct".into(), IssueCode::OutOfRange),
            ("id".into(), IssueCode::InvalidType),
        ]
    );
    let path = serde_json::to_value(&issues[4].path).unwrap();
    assert_eq!(path, json!(["lines", 2, "name"]));
    assert_eq!(issues[4].problem, Problem::TooLong { maximum: 3 });
}

#[test]
fn file_types_by_extension() {
    let accept = crate::catalog::IMAGE_TYPES;
    assert!(file_type_issue("image", None, "logo.PNG", accept).is_none());
    let issue = file_type_issue("files", Some(1), "notes.txt", accept).unwrap();
    assert_eq!(issue.code(), IssueCode::InvalidFormat);
    assert_eq!(issue.path_string(), "files[1]");
    assert!(file_type_issue("image", None, "png", accept).is_some());
}

#[test]
fn blank_required_strings_are_missing() {
    let issues = run(json!({"title": "  "}));
    assert_eq!(issues[0].code(), IssueCode::Required);
}

#[test]
fn unrepresentable_values_below_a_field_of_any_kind_are_reported() {
    static ANY: Schema = Schema {
        fields: &[opt("extra", Kind::Any)],
        checks: &[],
    };
    let bad = json!({ UNREPRESENTABLE: "NaN" });
    let mut ctx = Ctx::default();
    check_object(
        &ANY,
        svc_json::of_value(&json!({"extra": {"deep": [1, bad]}}))
            .as_object()
            .unwrap(),
        &mut ctx,
    );
    let got: Vec<String> = ctx.issues.iter().map(|i| i.path_string()).collect();
    assert_eq!(got, vec!["extra.deep[1]"]);
}

#[test]
fn unrepresentable_values_are_type_issues_wherever_they_are() {
    let bad = json!({ UNREPRESENTABLE: "Infinity" });
    let issues = run(json!({"title": "t", "pct": bad.clone(), "extra": {"deep": [bad]}}));
    let got: Vec<String> = issues.iter().map(|i| i.path_string()).collect();
    assert_eq!(got, vec!["pct", "extra.deep[0]"]);
    assert!(issues.iter().all(|i| i.code() == IssueCode::InvalidType));
    assert!(
        issues[0].message.contains("Infinity"),
        "{}",
        issues[0].message
    );
}

static MODES: Schema = Schema {
    fields: &[
        opt("mode", Kind::Str).with(&[Rule::OneOf(&["a", "b"])]),
        opt("extra", Kind::Any),
        opt("other", Kind::Any),
    ],
    checks: &[
        Check::NotAllowedUnless {
            field: "extra",
            when: "mode",
            equals: "a",
        },
        Check::NotAllowedWhen {
            field: "other",
            when: "mode",
            equals: "b",
            applies_to: "a",
        },
    ],
};

fn modes(v: Value) -> Vec<String> {
    let mut ctx = Ctx::default();
    check_object(
        &MODES,
        svc_json::of_value(&v).as_object().unwrap(),
        &mut ctx,
    );
    ctx.issues.iter().map(|i| i.path_string()).collect()
}

#[test]
fn not_allowed_unless_trims_its_condition_and_defers_to_its_value_set() {
    assert!(modes(json!({"mode": "a", "extra": 1})).is_empty());
    assert_eq!(modes(json!({"mode": " a ", "extra": 1})), ["mode"]);
    assert_eq!(modes(json!({"mode": "c", "extra": 1})), ["mode"]);
    for mode in [json!("b"), json!(" "), json!(null), json!(2)] {
        let got = modes(json!({"mode": mode.clone(), "extra": 1}));
        assert_eq!(got.last().map(String::as_str), Some("extra"), "{mode}");
    }
    assert!(modes(json!({"mode": "b", "extra": " "})).is_empty());
}

#[test]
fn not_allowed_when_compares_its_condition_as_sent() {
    assert_eq!(modes(json!({"mode": "b", "other": 1})), ["other"]);
    assert_eq!(modes(json!({"mode": " b", "other": 1})), ["mode"]);
    assert!(modes(json!({"other": 1, "extra": null})).is_empty());
}
