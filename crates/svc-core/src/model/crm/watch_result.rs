//! Wire types of a watch update's result.

use crate::model::common::{wire, Id};

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
