//! Decoding and declaration tests of the crm wire types.

use super::*;
use crate::model::common::Id;
use serde_json::json;
use serde_json::Value;
use tsify::Tsify;

const PARAMS: &str = r#"{"watch": [{
    "channel_id": 1000000068001,
    "events": ["Deals.all", "Contacts.edit"],
    "notify_url": "https://hooks.example.com/svc?auth=abc",
    "token": "deals-channel",
    "channel_expiry": "2024-05-07T12:00:00+05:30",
    "notify_on_related_action": false,
    "notification_condition": [{
        "type": "field_selection",
        "module": {"api_name": "Deals", "id": "5725767000000002175"},
        "field_selection": {
            "group_operator": "or",
            "group": [
                {"field": {"api_name": "Stage", "id": "5725767000000002565"}},
                {"group_operator": "and", "group": [
                    {"field": {"api_name": "Amount", "id": "5725767000000002557"}},
                    {"field": {"api_name": "Closing_Date"}}
                ]}
            ]
        }
    }]
}]}"#;

#[test]
fn watch_params_with_nested_groups_round_trip() {
    let raw: Value = serde_json::from_str(PARAMS).unwrap();
    let params: WatchParams = serde_json::from_value(raw.clone()).unwrap();
    let channel = &params.watch[0];
    assert_eq!(channel.channel_id, Id::from("1000000068001"));
    let condition = &channel.notification_condition.as_ref().unwrap()[0];
    assert_eq!(condition.r#type, ConditionType::FieldSelection);
    match &condition.field_selection.group[1] {
        GroupMember::Group(inner) => {
            assert_eq!(inner.group_operator, GroupOperator::And);
            assert_eq!(inner.group.len(), 2);
        }
        other => panic!("expected a nested group, got {other:?}"),
    }
    let mut back = serde_json::to_value(&params).unwrap();
    assert_eq!(back["watch"][0]["channel_id"], json!("1000000068001"));
    back["watch"][0]["channel_id"] = json!(1000000068001u64);
    assert_eq!(back, raw);
}

#[test]
fn a_member_of_neither_shape_does_not_decode() {
    let bad = json!({"group_operator": "and", "group": [{"name": "Stage"}]});
    assert!(serde_json::from_value::<FieldSelection>(bad).is_err());
}

#[test]
fn the_update_result_decodes() {
    let body: Value = serde_json::from_str(
        r#"{"watch": [{
            "code": "SUCCESS", "status": "success", "message": "Successfully subscribed for actions-watch of the given module",
            "details": {"events": [{
                "channel_expiry": "2024-05-07T12:00:00+05:30",
                "resource_uri": "https://www.svcapis.com/crm/v8/Deals",
                "resource_id": 5725767000000002175,
                "resource_name": "Deals",
                "channel_id": 1000000068001
            }]}
        }]}"#,
    )
    .unwrap();
    let results: Vec<WatchResult> = serde_json::from_value(body["watch"].clone()).unwrap();
    let event = &results[0]
        .details
        .as_ref()
        .unwrap()
        .events
        .as_ref()
        .unwrap()[0];
    assert_eq!(results[0].code.as_deref(), Some("SUCCESS"));
    assert_eq!(event.resource_id, Some(Id::from("5725767000000002175")));
    assert_eq!(event.channel_id, Some(Id::from("1000000068001")));
}

#[test]
fn a_callback_decodes_with_every_documented_field() {
    let body = r#"{
        "server_time": 1714560000123,
        "affected_values": [{"record_id": 5725767000000411001, "values": {"Stage": "Closed Won"}}],
        "query_params": {"auth": "abc"},
        "module": "Deals",
        "resource_uri": "https://www.svcapis.com/crm/v8/Deals",
        "ids": [5725767000000411001, "5725767000000411002"],
        "affected_fields": [{"5725767000000411001": ["Stage"]}],
        "operation": "update",
        "channel_id": 1000000068001,
        "token": "deals-channel",
        "sent_by": "svc"
    }"#;
    let n: WatchNotification = serde_json::from_str(body).unwrap();
    assert_eq!(n.server_time, Some(1714560000123));
    assert_eq!(
        n.ids,
        Some(vec![
            Id::from("5725767000000411001"),
            Id::from("5725767000000411002")
        ])
    );
    let values = &n.affected_values.as_ref().unwrap()[0];
    assert_eq!(values.record_id, Some(Id::from("5725767000000411001")));
    assert_eq!(
        values.values.as_ref().unwrap()["Stage"],
        svc_json::of_value(&json!("Closed Won"))
    );
    assert_eq!(
        n.affected_fields.as_ref().unwrap()[0]["5725767000000411001"],
        ["Stage"]
    );
    assert_eq!(n.channel_id, Id::from("1000000068001"));
    assert_eq!(n.extra["sent_by"], svc_json::of_value(&json!("svc")));
}

#[test]
fn typescript_types_follow_the_documents() {
    assert!(
        WatchChannel::DECL.contains("events: `${string}.${WatchOperation}`[]"),
        "{}",
        WatchChannel::DECL
    );
    assert!(
        !WatchChannel::DECL.contains("Record<string, unknown>"),
        "{}",
        WatchChannel::DECL
    );
    assert!(
        NotificationCondition::DECL.contains("type: ConditionType"),
        "{}",
        NotificationCondition::DECL
    );
    assert!(
        GroupMember::DECL.contains("{ field: ApiRef } | FieldSelection"),
        "{}",
        GroupMember::DECL
    );
    assert!(WatchOperation::DECL.contains("\"create\" | \"delete\" | \"edit\" | \"all\""));
    assert!(WatchNotification::DECL.contains("affected_fields?: Record<string, string[]>[]"));
}
