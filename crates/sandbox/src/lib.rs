//! The sandbox: a stateful local stand-in for the Svc service, built on the svc-sdk catalog and rules.
#![forbid(unsafe_code)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod accounts;
pub mod app;
pub mod billing;
pub mod books;
pub mod call;
pub mod common;
pub mod config;
pub mod counters;
pub mod crm;
pub mod error;
pub mod faults;
pub mod generic;
pub mod http;
pub mod inventory;
pub mod invoice;
pub mod limits;
pub mod list;
pub mod multipart;
pub mod record;
pub mod resource;
pub mod seed;
#[cfg(not(target_arch = "wasm32"))]
pub mod server;
pub mod store;
pub mod time;
pub mod unique;

pub use app::{Answer, App, Held, Platform, Step};
pub use config::Config;
#[cfg(not(target_arch = "wasm32"))]
pub use server::{start, start_with, Server};
