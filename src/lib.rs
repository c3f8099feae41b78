//! svc-sdk: the client core for the Svc business API, native and WebAssembly.
#![recursion_limit = "256"]

pub mod calendar;
pub mod catalog;
pub mod clock;
pub mod decimal;
pub mod error;
#[cfg(test)]
pub mod examples;
pub mod family;
pub mod fleet;
pub mod headers;
pub mod issue;
pub mod json;
pub mod limit;
pub mod lossless;
pub mod model;
pub mod placement;
pub mod proxy;
pub mod redact;
pub mod request;
pub mod response;
pub mod retry;
pub mod route;
pub mod send;
pub mod sorted;
pub mod validate;
pub mod webhook;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use error::{Error, ErrorKind};
