//! CRM notification channels: the watch update, and the callbacks the sandbox posts on request.

mod callback;
mod channel;

use crate::call::Handler;

#[cfg(not(target_arch = "wasm32"))]
pub use callback::deliver;
pub use callback::{
    callback_body, parse_changes, plan, report, Change, Delivery, DELIVERY_HEADERS,
    DELIVERY_TIMEOUT, OPERATIONS,
};

pub const HANDLERS: &[(&str, Handler)] =
    &[("updateNotificationChannels", channel::update_channels)];
