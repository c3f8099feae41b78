//! Wire types of the invoice family: currencies, projects with their comments and invoices, recurring invoices.

mod currency;
mod project;
mod project_comment;
mod project_invoice;
mod recurring_invoice;

pub use currency::*;
pub use project::*;
pub use project_comment::*;
pub use project_invoice::*;
pub use recurring_invoice::*;

#[cfg(test)]
pub(crate) mod tests;
