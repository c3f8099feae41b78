//! CRM notification channels: the watch update, and the callbacks the sandbox posts on request.

mod callback;
mod channel;

use crate::call::Handler;

pub use callback::{
    callback_body, deliver, parse_changes, plan, report, Change, Delivery, DELIVERY_HEADERS,
    DELIVERY_TIMEOUT, OPERATIONS,
};

pub const HANDLERS: &[(&str, Handler)] =
    &[("updateNotificationChannels", channel::update_channels)];
