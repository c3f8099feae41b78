//! Pure response decoding: the envelope, each response shape, errors, lossless ids.

mod envelope;
mod error;
mod page;
mod shape;

pub use error::*;
pub use page::*;
pub use shape::*;

#[cfg(test)]
mod tests;
