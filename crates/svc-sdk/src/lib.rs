//! svc-sdk: the client for the Svc business API, native and WebAssembly, on the pure core (`svc_core`).
#![forbid(unsafe_code)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

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

pub use svc_core::error::{Error, ErrorKind};
