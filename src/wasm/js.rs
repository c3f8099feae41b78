//! Imports from the runtime snippet, and conversions between JS values and the pure core.

use crate::error::Error;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/js/runtime.js")]
extern "C" {
    #[wasm_bindgen(js_name = makeError)]
    pub fn make_error(json: &str) -> JsValue;
    /// The JSON text of user params (a string), or a plain Error saying why it cannot be written.
    #[wasm_bindgen(js_name = toWire, catch)]
    pub fn to_wire(value: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = isParams)]
    pub fn is_params(value: &JsValue) -> bool;
    /// A shallow copy of an object without one key.
    pub fn without(value: &JsValue, key: &str) -> JsValue;
    /// `{ name, blob }` of an upload's file (a Blob, a File or `{ name, data }`), or null.
    #[wasm_bindgen(js_name = fileOf)]
    pub fn file_of(value: &JsValue) -> JsValue;
}

#[wasm_bindgen(module = "/src/wasm/js/send.js")]
extern "C" {
    /// A call for the send loop: `lines` are the method, the URL, and each header's name and value;
    /// `kind` json, list or binary.
    #[wasm_bindgen(js_name = callOf)]
    pub fn call_of(
        lines: &str,
        body: Option<&str>,
        multipart_field: Option<&str>,
        files: &JsValue,
        kind: &str,
        options: &JsValue,
    ) -> JsValue;
    #[wasm_bindgen(js_name = transportOf)]
    pub fn transport_of(
        fetch: Option<&JsValue>,
        token: &JsValue,
        secret: Option<&str>,
        timeout_ms: f64,
        max_retries: u32,
        limited: bool,
        max_response_bytes: f64,
    ) -> JsValue;
}

pub fn to_js_error(e: &Error) -> JsValue {
    make_error(&e.to_json())
}

pub fn get(obj: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}
