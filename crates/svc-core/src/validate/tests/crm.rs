//! Tests of the notification channel (watch) update's rules.

use crate::issue::{Issue, IssueCode};
use crate::model::crm as m;
use crate::schema::Params;
use crate::validate::crm::*;
use crate::validate::tests::support::{expect_all, expect_none, expect_one, issues_at};
use serde_json::{json, Value};

/// Modules whose records a channel can watch, by API name; custom modules are allowed too.
const SUPPORTED_MODULES: &[&str] = &[
    "Leads",
    "Accounts",
    "Contacts",
    "Deals",
    "Campaigns",
    "Tasks",
    "Cases",
    "Meetings",
    "Calls",
    "Solutions",
    "Products",
    "Vendors",
    "Price_Books",
    "Quotes",
    "Sales_Orders",
    "Purchase_Orders",
    "Invoices",
    "Appointments",
    "Services",
];

/// 2024-05-01T10:40:00Z.
const NOW: i64 = 1_714_560_000_000;
const NOW_ISO: &str = "2024-05-01T10:40:00Z";
const WEEK_ISO: &str = "2024-05-08T10:40:00Z";

fn run(params: Value) -> Vec<Issue> {
    issues_at(m::WatchParams::SCHEMA, &params, NOW)
}

fn passes(params: Value) {
    expect_none(&run(params));
}

/// Asserts exactly one issue, with this path, code and details.
fn fails(params: Value, path: Value, code: IssueCode, details: Value) {
    expect_one(&run(params), path, code, details);
}

fn channel() -> Value {
    json!({
        "channel_id": 1000000068001u64,
        "events": ["Deals.all", "Contacts.edit"],
        "notify_url": "https://hooks.example.com/svc?auth=abc",
    })
}

/// Params of one channel with `key` set (or removed when `value` is null).
fn with(key: &str, value: Value) -> Value {
    let mut c = channel();
    match value {
        Value::Null => {
            c.as_object_mut().unwrap().remove(key);
        }
        v => c[key] = v,
    }
    json!({ "watch": [c] })
}

fn field(name: &str) -> Value {
    json!({"field": {"api_name": name, "id": "5725767000000002565"}})
}

fn condition(group: Value) -> Value {
    json!({
        "type": "field_selection",
        "module": {"api_name": "Deals", "id": "5725767000000002175"},
        "field_selection": {"group_operator": "or", "group": group}
    })
}

fn with_condition(group: Value) -> Value {
    with("notification_condition", json!([condition(group)]))
}

fn at(path: &[Value]) -> Value {
    let mut full = vec![json!("watch"), json!(0)];
    full.extend_from_slice(path);
    Value::Array(full)
}

#[test]
fn a_documented_channel_passes() {
    passes(json!({"watch": [{
        "channel_id": "1000000068001",
        "events": ["Deals.all", "Contacts.create", "Price_Books.delete", "Custom_Module1.edit"],
        "notify_url": "https://hooks.example.com/svc",
        "token": "deals-channel",
        "channel_expiry": "2024-05-02T10:40:00+05:30",
        "notify_on_related_action": false,
        "notification_condition": [condition(json!([
            field("Stage"),
            {"group_operator": "and", "group": [field("Amount"), field("Closing_Date")]}
        ]))]
    }]}));
}

#[test]
fn watch_is_required() {
    fails(json!({}), json!(["watch"]), IssueCode::Required, json!({}));
}

#[test]
fn watch_with_one_channel_passes() {
    passes(json!({ "watch": [channel()] }));
}

#[test]
fn watch_with_no_channel_is_missing_its_member() {
    fails(
        json!({"watch": []}),
        json!(["watch"]),
        IssueCode::Required,
        json!({}),
    );
}

#[test]
fn watch_members_must_be_objects() {
    let params = json!({"watch": [channel(), "Deals.all"]});
    fails(
        params,
        json!(["watch", 1]),
        IssueCode::InvalidType,
        json!({"expected": "object"}),
    );
}

#[test]
fn channel_id_passes_as_an_integer_or_digits() {
    passes(with("channel_id", json!(1)));
    passes(with("channel_id", json!("1000000068001")));
}

#[test]
fn channel_id_as_other_text_is_not_an_integer() {
    for v in [json!("1000-68"), json!(1.5), json!(true)] {
        fails(
            with("channel_id", v),
            at(&[json!("channel_id")]),
            IssueCode::InvalidType,
            json!({"expected": "integer"}),
        );
    }
}

#[test]
fn channel_id_events_and_notify_url_are_required() {
    for key in ["channel_id", "events", "notify_url"] {
        fails(
            with(key, Value::Null),
            at(&[json!(key)]),
            IssueCode::Required,
            json!({}),
        );
    }
}

#[test]
fn events_of_every_supported_module_and_operation_pass() {
    let events: Vec<String> = SUPPORTED_MODULES
        .iter()
        .flat_map(|m| EVENT_OPERATIONS.iter().map(move |o| format!("{m}.{o}")))
        .chain(["Custom_Module1.all".to_string(), "zoo2.create".to_string()])
        .collect();
    passes(with("events", json!(events)));
}

#[test]
fn an_event_with_an_undocumented_operation_is_invalid() {
    let params = with("events", json!(["Deals.all", "Deals.update"]));
    fails(
        params,
        at(&[json!("events"), json!(1)]),
        IssueCode::InvalidValue,
        json!({"allowed": EVENT_OPERATIONS}),
    );
}

#[test]
fn an_event_not_shaped_module_dot_operation_is_malformed() {
    for bad in ["Deals", "Price Books.all", "1Deals.create", ".all", ""] {
        let params = with("events", json!([bad]));
        fails(
            params,
            at(&[json!("events"), json!(0)]),
            IssueCode::InvalidFormat,
            json!({"format": EVENT_FORMAT}),
        );
    }
}

#[test]
fn events_with_no_member_are_missing() {
    fails(
        with("events", json!([])),
        at(&[json!("events")]),
        IssueCode::Required,
        json!({}),
    );
}

#[test]
fn notify_url_over_http_or_https_passes() {
    passes(with("notify_url", json!("http://hooks.example.com/svc")));
}

#[test]
fn notify_url_that_is_not_an_absolute_http_url_is_malformed() {
    for bad in ["ftp://hooks.example.com", "/svc/callback", "https://"] {
        let params = with("notify_url", json!(bad));
        fails(
            params,
            at(&[json!("notify_url")]),
            IssueCode::InvalidFormat,
            json!({"format": "url"}),
        );
    }
}

#[test]
fn token_of_50_characters_passes() {
    passes(with("token", json!("t".repeat(50))));
}

#[test]
fn token_of_51_characters_is_too_long() {
    let params = with("token", json!("t".repeat(51)));
    fails(
        params,
        at(&[json!("token")]),
        IssueCode::TooLong,
        json!({"maximum": 50}),
    );
}

#[test]
fn channel_expiry_exactly_one_week_ahead_passes() {
    passes(with("channel_expiry", json!(WEEK_ISO)));
    passes(with("channel_expiry", json!("2024-05-08T16:10:00+05:30")));
}

#[test]
fn channel_expiry_one_second_past_a_week_is_out_of_range() {
    let params = with("channel_expiry", json!("2024-05-08T10:40:01Z"));
    let range = json!({"minimum": NOW_ISO, "maximum": WEEK_ISO});
    fails(
        params,
        at(&[json!("channel_expiry")]),
        IssueCode::OutOfRange,
        range,
    );
}

#[test]
fn the_bounds_of_channel_expiry_are_whole_seconds_when_now_is_not() {
    let params = with("channel_expiry", json!("2024-05-08T10:40:01Z"));
    let found = issues_at(m::WatchParams::SCHEMA, &params, NOW + 930);
    let range = json!({"minimum": NOW_ISO, "maximum": WEEK_ISO});
    expect_one(
        &found,
        at(&[json!("channel_expiry")]),
        IssueCode::OutOfRange,
        range,
    );
    assert!(found[0]
        .message
        .ends_with("one week from now (2024-05-08T10:40:00Z)"));
    let last = with("channel_expiry", json!(WEEK_ISO));
    expect_none(&issues_at(m::WatchParams::SCHEMA, &last, NOW + 930));
}

#[test]
fn channel_expiry_now_passes() {
    passes(with("channel_expiry", json!(NOW_ISO)));
    passes(with("channel_expiry", json!("2024-05-01T03:40:00-0700")));
}

#[test]
fn channel_expiry_one_second_in_the_past_is_out_of_range() {
    let params = with("channel_expiry", json!("2024-05-01T10:39:59Z"));
    let range = json!({"minimum": NOW_ISO, "maximum": WEEK_ISO});
    fails(
        params,
        at(&[json!("channel_expiry")]),
        IssueCode::OutOfRange,
        range,
    );
}

#[test]
fn channel_expiry_without_an_offset_is_malformed() {
    for bad in ["2024-05-02T10:40:00", "2024-05-02", "tomorrow"] {
        let params = with("channel_expiry", json!(bad));
        fails(
            params,
            at(&[json!("channel_expiry")]),
            IssueCode::InvalidFormat,
            json!({"format": "date-time"}),
        );
    }
}

#[test]
fn notify_on_related_action_passes_as_a_boolean() {
    passes(with("notify_on_related_action", json!(true)));
}

#[test]
fn notify_on_related_action_as_text_is_invalid() {
    let params = with("notify_on_related_action", json!("true"));
    fails(
        params,
        at(&[json!("notify_on_related_action")]),
        IssueCode::InvalidType,
        json!({"expected": "boolean"}),
    );
}

#[test]
fn two_notification_conditions_pass() {
    let c = condition(json!([field("Stage")]));
    passes(with("notification_condition", json!([c.clone(), c])));
}

#[test]
fn three_notification_conditions_are_too_many() {
    let c = condition(json!([field("Stage")]));
    let params = with("notification_condition", json!([c.clone(), c.clone(), c]));
    fails(
        params,
        at(&[json!("notification_condition")]),
        IssueCode::TooMany,
        json!({"maximum": 2}),
    );
}

fn condition_at(path: &[Value]) -> Value {
    let mut full = vec![json!("notification_condition"), json!(0)];
    full.extend_from_slice(path);
    at(&full)
}

#[test]
fn condition_type_field_selection_passes() {
    passes(with_condition(json!([field("Stage")])));
}

#[test]
fn condition_type_other_than_field_selection_is_invalid() {
    let mut c = condition(json!([field("Stage")]));
    c["type"] = json!("field");
    let params = with("notification_condition", json!([c]));
    fails(
        params,
        condition_at(&[json!("type")]),
        IssueCode::InvalidValue,
        json!({"allowed": ["field_selection"]}),
    );
}

#[test]
fn condition_type_module_and_field_selection_are_required() {
    for key in ["type", "module", "field_selection"] {
        let mut c = condition(json!([field("Stage")]));
        c.as_object_mut().unwrap().remove(key);
        let params = with("notification_condition", json!([c]));
        fails(
            params,
            condition_at(&[json!(key)]),
            IssueCode::Required,
            json!({}),
        );
    }
}

#[test]
fn condition_module_must_be_an_object_of_api_name_and_id() {
    let mut c = condition(json!([field("Stage")]));
    c["module"] = json!({"api_name": "Deals", "id": false});
    let params = with("notification_condition", json!([c]));
    let want = json!({"expected": "id (string or integer)"});
    fails(
        params,
        condition_at(&[json!("module"), json!("id")]),
        IssueCode::InvalidType,
        want,
    );
}

fn selection_at(path: &[Value]) -> Value {
    let mut full = vec![json!("field_selection")];
    full.extend_from_slice(path);
    condition_at(&full)
}

#[test]
fn group_operator_and_and_or_pass() {
    passes(with_condition(
        json!([{"group_operator": "and", "group": [field("Stage")]}]),
    ));
}

#[test]
fn group_operator_outside_the_set_is_invalid() {
    let mut c = condition(json!([field("Stage")]));
    c["field_selection"]["group_operator"] = json!("xor");
    let params = with("notification_condition", json!([c]));
    fails(
        params,
        selection_at(&[json!("group_operator")]),
        IssueCode::InvalidValue,
        json!({"allowed": ["and", "or"]}),
    );
}

#[test]
fn a_nested_group_needs_its_operator_and_members() {
    let params = with_condition(json!([field("Stage"), {"group": [field("Amount")]}]));
    let path = selection_at(&[json!("group"), json!(1), json!("group_operator")]);
    fails(params, path, IssueCode::Required, json!({}));
    let params = with_condition(json!([field("Stage"), {"group_operator": "and", "group": []}]));
    fails(
        params,
        selection_at(&[json!("group"), json!(1), json!("group")]),
        IssueCode::Required,
        json!({}),
    );
}

#[test]
fn a_group_with_no_member_is_missing_its_members() {
    fails(
        with_condition(json!([])),
        selection_at(&[json!("group")]),
        IssueCode::Required,
        json!({}),
    );
}

#[test]
fn a_member_of_neither_shape_is_reported_at_its_own_path() {
    let params = with_condition(json!([field("A"), field("B"), field("C"), {"api_name": "Stage"}]));
    let path = selection_at(&[json!("group"), json!(3)]);
    fails(
        params,
        path,
        IssueCode::InvalidType,
        json!({"expected": "field or group"}),
    );
}

#[test]
fn a_member_that_is_not_an_object_is_a_type_issue() {
    let params = with_condition(json!([field("A"), "Stage"]));
    fails(
        params,
        selection_at(&[json!("group"), json!(1)]),
        IssueCode::InvalidType,
        json!({"expected": "object"}),
    );
}

#[test]
fn issues_deep_in_nested_groups_carry_their_full_path() {
    let deep = json!([field("A"), {"group_operator": "and", "group": [
        field("B"),
        {"group_operator": "or", "group": [{"field": {"api_name": 7}}]}
    ]}]);
    let path = selection_at(&[
        json!("group"),
        json!(1),
        json!("group"),
        json!(1),
        json!("group"),
        json!(0),
        json!("field"),
        json!("api_name"),
    ]);
    fails(
        with_condition(deep),
        path,
        IssueCode::InvalidType,
        json!({"expected": "string"}),
    );
}

fn nested_fields(n: usize) -> Value {
    let (outer, inner) = (n / 2, n - n / 2);
    let mut group: Vec<Value> = (0..outer).map(|i| field(&format!("F{i}"))).collect();
    let deep: Vec<Value> = (0..inner).map(|i| field(&format!("G{i}"))).collect();
    group
        .push(json!({"group_operator": "and", "group": [{"group_operator": "or", "group": deep}]}));
    Value::Array(group)
}

#[test]
fn ten_fields_however_nested_pass() {
    passes(with_condition(nested_fields(10)));
}

#[test]
fn eleven_fields_however_nested_are_too_many() {
    let params = with_condition(nested_fields(11));
    fails(
        params,
        selection_at(&[json!("group")]),
        IssueCode::TooMany,
        json!({"maximum": 10}),
    );
}

#[test]
fn every_watch_issue_is_reported_at_once() {
    let params = json!({"watch": [
        channel(),
        {
            "channel_id": "abc",
            "events": ["Deals.update", "Deals"],
            "notify_url": "hooks.example.com",
            "token": "t".repeat(51),
            "channel_expiry": "2024-06-01T00:00:00Z",
            "notification_condition": [condition(json!([{"name": "x"}, {"group_operator": "nor", "group": [field("A")]}]))]
        }
    ]});
    let issues = run(params);
    let want = [
        ("watch[1].notify_url", IssueCode::InvalidFormat),
        ("watch[1].token", IssueCode::TooLong),
        (
            "watch[1].notification_condition[0].field_selection.group[0]",
            IssueCode::InvalidType,
        ),
        (
            "watch[1].notification_condition[0].field_selection.group[1].group_operator",
            IssueCode::InvalidValue,
        ),
        ("watch[1].channel_id", IssueCode::InvalidType),
        ("watch[1].events[0]", IssueCode::InvalidValue),
        ("watch[1].events[1]", IssueCode::InvalidFormat),
        ("watch[1].channel_expiry", IssueCode::OutOfRange),
    ];
    expect_all(&issues, &want);
}

#[test]
fn deeply_nested_groups_are_walked() {
    let mut group = json!([field("A")]);
    for _ in 0..64 {
        group = json!([{"group_operator": "and", "group": group}]);
    }
    passes(with_condition(group));
}
