//! Wire types of the callback a notification channel receives.

use crate::model::common::{wire, Id, JsonInteger};
use std::collections::BTreeMap;
use svc_json::Map;

wire! {
    /// The new values of one record in a callback.
    response AffectedValues {
        record_id?: Id,
        /// Field API name to its new value.
        #[tsify(type = "Record<string, unknown>")]
        values?: Map,
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
        query_params?: Map,
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
