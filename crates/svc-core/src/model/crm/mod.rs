//! Wire types of the crm family: notification channels (watch), their update result and callbacks.

mod notification;
mod watch;
mod watch_result;

pub use notification::*;
pub use watch::*;
pub use watch_result::*;

#[cfg(test)]
mod tests;
