//! svc-sdk: the client core for the Svc business API, native and WebAssembly.
#![recursion_limit = "256"]

/// Items of the client (feature `client`): without them the crate is the validation engine alone.
macro_rules! client {
    ($($item:item)*) => { $(#[cfg(feature = "client")] $item)* };
}

pub mod calendar;
pub mod catalog;
pub mod clock;
pub mod decimal;
pub mod error;
#[cfg(test)]
pub mod examples;
pub mod family;
pub mod headers;
pub mod issue;
pub mod json;
pub mod model;
pub mod placement;
pub mod sorted;
pub mod validate;

client! {
    pub mod fleet;
    pub mod limit;
    pub mod lossless;
    pub mod origin;
    pub mod proxy;
    pub mod redact;
    pub mod request;
    pub mod response;
    pub mod retry;
    pub mod route;
    pub mod send;
    pub mod webhook;
}

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use error::{Error, ErrorKind};
