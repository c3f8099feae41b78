//! svc-sdk: the client for the Svc business API, native and WebAssembly, on the pure core (`svc_core`).
#![forbid(unsafe_code)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub use svc_core::{
    calendar, catalog, clock, code, decimal, declare, echo, error, exact, family, gather, headers,
    issue, json, lossless, model, placement, plans, redact, request, response, route, sorted,
    validate,
};

pub mod access;
#[cfg(any(feature = "cli", test))]
pub mod cli;
#[cfg(feature = "server")]
pub mod connect;
pub mod fleet;
pub mod limit;
pub mod oauth;
pub mod origin;
pub mod proxy;
pub mod retry;
pub mod secret;
pub mod send;
pub mod stack;
pub mod surface;
pub mod webhook;

pub mod wasm;

pub use error::{Error, ErrorKind};
