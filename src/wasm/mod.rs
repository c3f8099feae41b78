//! The client's `#[wasm_bindgen]` surface: the JS `Client`, the proxy and the receivers, over the
//! validation binding (`svc_validate`), whose exports this wasm has too.

mod abort;
mod body;
pub mod client;
mod js;
mod limiter;
mod options;
mod platform;
mod proxy;
mod receive;
mod settle;
mod store;
mod table;
mod tasks;
mod upload;

pub(crate) use svc_validate::{
    answer_to_js, json_to_js, message_of, operation_by_id, params, to_js_error,
};
