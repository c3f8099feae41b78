//! Wire types of the inventory family: packages and composite items.

mod composite_item;
mod package;

pub use composite_item::*;
pub use package::*;

#[cfg(test)]
mod tests;
