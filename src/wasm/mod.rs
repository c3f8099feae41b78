//! The `#[wasm_bindgen]` surface: the JS `Client`, free functions, fetch and timers.

pub mod client;
