//! Wire types of the billing family: project tasks, plans, events and their list queries.

mod event;
mod number_or_text;
mod plan;
mod task;

pub use event::*;
pub use number_or_text::*;
pub use plan::*;
pub use task::*;

#[cfg(test)]
mod tests;
