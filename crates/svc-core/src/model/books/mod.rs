//! Wire types of the books family (accounting): request, response, list entry and query shapes.

mod account;
mod expense;
mod fixed_asset;
mod fixed_asset_type;
mod journal;
mod organization;
mod shared;
mod vendor_credit;
mod vendor_credit_refund;

pub use account::*;
pub use expense::*;
pub use fixed_asset::*;
pub use fixed_asset_type::*;
pub use journal::*;
pub use organization::*;
pub use shared::*;
pub use vendor_credit::*;
pub use vendor_credit_refund::*;

#[cfg(test)]
pub(crate) mod tests;
