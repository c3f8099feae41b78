//! Pure request construction: method, URL, headers and body of a call, with no I/O.

mod auth;
mod build;
mod encode;
mod extra;
mod raw;
mod target;

pub use auth::*;
pub use build::*;
pub use encode::*;
pub use extra::*;
pub use raw::*;
pub use target::*;

#[cfg(test)]
mod tests;
