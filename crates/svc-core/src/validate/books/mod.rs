//! The tests of the rules of the books operations' params, one file per resource (the rules are
//! declared with their types in `crate::model::books`; an upload's params are its files, `upload!` in
//! the table, the receipt's file types `crate::catalog::RECEIPT_TYPES`).

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
