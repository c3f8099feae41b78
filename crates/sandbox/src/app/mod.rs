//! The request-to-answer function of the sandbox, shared by its HTTP server and its wasm build.

mod access;
mod admin;
mod answer;
mod fault;
mod oauth;
mod params;
mod pipeline;
mod seeds;
mod serve;
mod state;

pub use state::{handlers, operations, Answer, App, Held, Platform, Step};
