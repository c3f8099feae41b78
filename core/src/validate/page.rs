//! The `page` and `per_page` fields of every list operation.

use crate::schema::{opt, Field, Kind, Rule};

pub use crate::schema::PAGE_MAX;
/// `page` of every list operation: a whole number from 1.
pub const PAGE: Field = opt("page", Kind::Int).with(&[Rule::Range(1.0, PAGE_MAX)]);
/// `per_page` of every list operation: a whole number from 1.
pub const PER_PAGE: Field = opt("per_page", Kind::Int).with(&[Rule::Range(1.0, PAGE_MAX)]);
