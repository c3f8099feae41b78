//! The tests of the rules of the books operations' params, one file per resource (the rules are
//! declared with their types in `crate::model::books`; an upload's params are its files, `upload!` in
//! the table, the receipt's file types `crate::catalog::RECEIPT_TYPES`).

mod account;
mod examples;
mod expense;
mod fixed_asset;
mod fixed_asset_type;
mod journal;
mod organization;
mod support;
mod vendor_credit;
mod vendor_examples;
