//! Rules for the params of the books uploads, which take no request type (their params are their
//! files). The others are declared with their types in `crate::model::books`; their tests are here,
//! one file per resource.

mod uploads;

pub use uploads::*;

#[cfg(test)]
mod account;
#[cfg(test)]
mod examples;
#[cfg(test)]
mod expense;
#[cfg(test)]
mod fixed_asset;
#[cfg(test)]
mod fixed_asset_type;
#[cfg(test)]
mod journal;
#[cfg(test)]
mod organization;
#[cfg(test)]
mod testing;
#[cfg(test)]
mod vendor_credit;
#[cfg(test)]
mod vendor_examples;
