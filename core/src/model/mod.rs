//! Wire types of every resource, one file per family; request and response shapes where they differ.

pub mod billing;
pub mod books;
pub mod common;
pub mod crm;
pub mod inventory;
pub mod invoice;
#[cfg(test)]
pub(crate) mod results;
