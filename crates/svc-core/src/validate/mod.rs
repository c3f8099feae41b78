//! The rule engine: checks raw JSON params against rules kept as data, every issue in one pass.

pub use crate::format;

pub mod crm;
pub mod path;
pub mod unknown;

mod checks;
mod ctx;
mod engine;
mod file;
mod name;
mod rule;
mod value;

use crate::issue::{PathSeg, Problem};
pub use crate::schema::{opt, req, Check, Field, IntText, Kind, Rule, Schema};
pub use ctx::*;
pub use engine::*;
pub use file::*;
pub use name::*;
pub use value::*;

#[cfg(test)]
pub(crate) mod tests;
