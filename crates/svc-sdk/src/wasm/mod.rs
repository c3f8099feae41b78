//! The client's `#[wasm_bindgen]` surface: the JS `Client`, the proxy and the receivers, over the
//! validation binding (`svc_validate`), whose exports this wasm has too.

mod abort;
mod body;
#[cfg(feature = "cli")]
mod cli;
pub mod client;
#[cfg(feature = "server")]
mod connections;
mod js;
#[cfg(feature = "server")]
mod limiter;
mod options;
mod platform;
#[cfg(feature = "server")]
mod proxy;
#[cfg(feature = "server")]
mod receive;
mod settle;
#[cfg(not(feature = "server"))]
mod stand_ins;
#[cfg(not(feature = "server"))]
use stand_ins::store;
#[cfg(feature = "server")]
mod store;
mod table;
mod tasks;
mod upload;

pub(crate) use svc_validate::{
    answer_to_js, json_to_js, message_of, operation_by_id, params, to_js_error,
};
