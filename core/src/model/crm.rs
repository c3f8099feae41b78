//! Wire types of the crm family: notification channels (watch), their update result and callbacks.

use crate::format::Format;
use crate::model::common::{value_set, wire, Id, JsonInteger};
use crate::schema::{Check, IntText};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use tsify::Tsify;

value_set! {
    /// The operation half of an `events` entry `{module_api_name}.{operation}`.
    WatchOperation {
        Create = "create",
        Delete = "delete",
        Edit = "edit",
        All = "all",
    }
}

value_set! {
    ConditionType { FieldSelection = "field_selection" }
}

value_set! {
    GroupOperator { And = "and", Or = "or" }
}

wire! {
    /// A module or a field, named by its API name and id.
    #[derive(Default)]
    request ApiRef {
        api_name?: String,
        id?: Id,
    }
}

wire! {
    /// A group of fields joined by one operator; groups nest.
    request FieldSelection {
        group_operator: GroupOperator,
        group: Vec<GroupMember>,
    }
    checks [Check::NotEmpty("group"), Check::GroupMembers]
}

/// A member of a group: one field, or a nested group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(untagged)]
pub enum GroupMember {
    Field { field: ApiRef },
    Group(FieldSelection),
}

/// A member's shape is the `GroupMembers` check's to say: a field, or a group in turn.
impl crate::schema::Shape for GroupMember {
    const KIND: crate::schema::Kind = crate::schema::Kind::Obj(&crate::schema::Schema::EMPTY);
}

wire! {
    /// Notify only when the selected fields of a module change.
    request NotificationCondition {
        r#type: ConditionType,
        module: ApiRef,
        field_selection: FieldSelection,
    }
    checks [Check::MaxFieldsNested { field: "field_selection", max: 10 }]
}

wire! {
    /// One channel of the `updateNotificationChannels` body.
    request WatchChannel {
        /// A long; echoed back in callbacks.
        #[tsify(type = "Id | number")]
        channel_id: Id as Any,
        #[tsify(type = "`${string}.${WatchOperation}`[]")]
        events: Vec<String>,
        /// Receives the POST callbacks.
        notify_url: String [Format(Format::HttpUrl)],
        /// Echoed in callbacks for verification.
        token?: String [MaxLen(50)],
        /// ISO date-time, at most one week ahead; the service defaults to one hour.
        channel_expiry?: String [Format(Format::Timestamp)],
        notification_condition?: Vec<NotificationCondition> [MaxItems(2)],
        notify_on_related_action?: bool,
    }
    checks [
        Check::LooseInteger { field: "channel_id", text: IntText::Digits },
        Check::NotEmpty("events"),
        Check::EventsNameModuleAndOperation,
        Check::ExpiryWithinAWeek,
    ]
}

wire! {
    /// Params of `updateNotificationChannels`.
    request WatchParams {
        watch: Vec<WatchChannel>,
    }
    checks [Check::NotEmpty("watch")]
}

wire! {
    /// One entry of `details.events` in the update result.
    response WatchedEvent {
        channel_expiry?: String,
        resource_uri?: String,
        resource_id?: Id,
        resource_name?: String,
        channel_id?: Id,
    }
}

wire! {
    response WatchResultDetails {
        events?: Vec<WatchedEvent>,
    }
}

wire! {
    /// One item of the `watch` array that `updateNotificationChannels` returns.
    response WatchResult {
        /// `SUCCESS` on success.
        code?: String,
        /// `success` on success.
        status?: String,
        message?: String,
        details?: WatchResultDetails,
    }
}

wire! {
    /// The new values of one record in a callback.
    response AffectedValues {
        record_id?: Id,
        /// Field API name to its new value.
        #[tsify(type = "Record<string, unknown>")]
        values?: Map<String, Value>,
    }
}

wire! {
    /// The callback body the service posts to a channel's `notify_url`.
    response WatchNotification {
        /// Server time of sending.
        server_time?: JsonInteger,
        affected_values?: Vec<AffectedValues>,
        /// The parameters given in the notify URL.
        #[tsify(type = "Record<string, unknown>")]
        query_params?: Map<String, Value>,
        module: String,
        resource_uri?: String,
        /// The affected records.
        ids?: Vec<Id>,
        /// Record id to the names of its changed fields, one object per record.
        #[tsify(type = "Record<string, string[]>[]")]
        affected_fields?: Vec<BTreeMap<String, Vec<String>>>,
        operation: String,
        channel_id: Id,
        token?: String,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
            json!("Closed Won")
        );
        assert_eq!(
            n.affected_fields.as_ref().unwrap()[0]["5725767000000411001"],
            ["Stage"]
        );
        assert_eq!(n.channel_id, Id::from("1000000068001"));
        assert_eq!(n.extra["sent_by"], json!("svc"));
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
}
