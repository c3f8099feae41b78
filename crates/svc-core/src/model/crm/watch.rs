//! Wire types of a notification channel (watch) update: the channel, its conditions and groups.

use crate::format::Format;
use crate::model::common::{value_set, wire, Id};
use crate::schema::{Check, IntText};
use serde::{Deserialize, Serialize};
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
