//! svc-sdk: the client core for the Svc business API, native and WebAssembly.
#![recursion_limit = "256"]

pub mod calendar;
pub mod catalog;
pub mod clock;
pub mod decimal;
pub mod error;
pub mod family;
pub mod issue;
pub mod json;
pub mod limit;
pub mod lossless;
pub mod model;
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

pub use catalog::{find as find_operation, Method, Operation, OPERATIONS};
pub use error::{Error, ErrorKind};
pub use family::{Family, REGIONS};
pub use request::{build, Body, Prepared, Target};
pub use response::{decode, Decoded};
pub use validate::{validate, Issue, IssueCode};
