//! svc-core: the pure core of svc-sdk (the catalog, models, rules, request building and decoding, on
//! svc-json's reader), shared by the client, the validation-only wasm and the sandbox.
#![forbid(unsafe_code)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]
#![recursion_limit = "256"]

pub mod calendar;
pub mod catalog;
pub mod clock;
pub mod code;
pub mod decimal;
pub mod declare;
pub mod echo;
pub mod error;
pub mod exact;
#[cfg(any(test, feature = "serde_json"))]
pub mod examples;
pub mod family;
pub mod format;
pub mod gather;
pub mod headers;
pub mod issue;
#[cfg(not(target_arch = "wasm32"))]
pub mod jsdoc;
pub mod labels;
pub mod lossless;
pub mod message;
pub mod model;
pub mod numbered;
pub mod placement;
pub mod plans;
pub mod published;
pub mod redact;
pub mod request;
pub mod response;
pub mod route;
pub mod row;
#[cfg(not(target_arch = "wasm32"))]
pub mod rules_doc;
pub mod schema;
pub mod sorted;
pub mod unwritable;
pub mod validate;

pub use error::{Error, ErrorKind};
