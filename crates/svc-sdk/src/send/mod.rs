//! The send loop as platform-free async Rust: token, limiter, attempts with timeout and abort, retries, decoding.

mod alarm;
mod answer;
mod attempt;
mod deadline;
#[cfg(feature = "server")]
mod grant;
#[cfg(feature = "server")]
mod member;
#[cfg(feature = "server")]
pub use grant::post as accounts_post;
mod keeper;
pub mod note;
mod platform;
mod queue;
pub(crate) mod race;
mod run;
mod token;
mod transport;

#[cfg(test)]
mod tests;

pub use answer::{stalled, too_large, Answer, Failure, Head, Outgoing};
#[cfg(feature = "server")]
pub use attempt::within;
pub use deadline::Deadline;
#[cfg(feature = "server")]
pub use member::Options as FleetOptions;
pub use note::{Again, Event, Level, Note};
pub use platform::Platform;
pub use token::{Credential, Reason, TokenFailure, TokenResult};
pub use transport::{Call, Limiting, Options, Reply, Transport};

use std::future::Future;

/// A step of the loop as a future of its own: its state and its code stay out of the caller's.
type Boxed<'a, T> = std::pin::Pin<Box<dyn Future<Output = T> + 'a>>;

/// `rateLimit.reserve`'s default, in thousandths of the day: a tenth.
pub const DEFAULT_RESERVE_PER_MILLE: u32 = 100;

/// The message of an abort whose reason has none.
pub const ABORTED: &str = "the call was aborted";
