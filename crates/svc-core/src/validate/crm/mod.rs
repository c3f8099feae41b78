//! Rules for the params of the crm operations: the notification channel (watch) update.

mod events;
mod expiry;
mod group;

pub use events::*;
pub(super) use expiry::*;
pub(super) use group::*;
