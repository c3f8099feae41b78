//! Imports from the runtime snippet, and conversions between JS values and the pure core.

use crate::catalog::{BodyKind, Operation};
use crate::error::Error;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/js/runtime.js")]
extern "C" {
    #[wasm_bindgen(js_name = makeError)]
    pub fn make_error(json: &str) -> JsValue;
    #[wasm_bindgen(js_name = toWire, catch)]
    pub fn to_wire(value: &JsValue) -> Result<String, JsValue>;
    #[wasm_bindgen(js_name = isParams)]
    pub fn is_params(value: &JsValue) -> bool;
    #[wasm_bindgen(js_name = readOptions, catch)]
    pub fn read_options(value: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = formData)]
    pub fn form_data(field: &str, files: &JsValue) -> JsValue;
    /// A call for the send loop: `lines` are the method, the URL, and each header's name and value;
    /// `op` is the operation's place in the table (-1: none); `kind` json, list, binary or raw.
    #[wasm_bindgen(js_name = callOf)]
    #[allow(clippy::too_many_arguments)]
    pub fn call_of(
        op: i32,
        path_params: u32,
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
        timeout_ms: f64,
        max_retries: u32,
        limited: bool,
    ) -> JsValue;
}

#[wasm_bindgen(module = "/src/wasm/js/rules.js")]
extern "C" {
    /// Validates the params of an operation (the files of an upload too) with the JS engine: the
    /// files, or a validation SvcError with every issue.
    #[wasm_bindgen(js_name = checkParams, catch)]
    pub fn check_params(operation_id: &str, params: &JsValue) -> Result<JsValue, JsValue>;
}

pub fn to_js_error(e: &Error) -> JsValue {
    make_error(&e.to_json())
}

pub fn get(obj: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// The params of a call, which `check_params` has passed, as JSON (an upload's files left out).
pub fn params_value(params: &JsValue, op: &Operation) -> Result<serde_json::Value, JsValue> {
    if params.is_undefined() || params.is_null() {
        return Ok(serde_json::Value::Null);
    }
    let params = match op.body {
        BodyKind::Multipart { param, .. } => without_key(params, param),
        _ => params.clone(),
    };
    let text = to_wire(&params)?;
    serde_json::from_str(&text).map_err(|e| {
        let issue = crate::validate::Issue {
            path: vec![],
            code: crate::validate::IssueCode::InvalidFormat,
            message: format!("params could not be read: {e} (at most 128 levels of nesting)"),
            details: crate::validate::details([(
                "format",
                "JSON nested at most 128 levels".into(),
            )]),
        };
        to_js_error(&Error::validation(vec![issue]).with_operation(op.id))
    })
}

fn without_key(params: &JsValue, key: &str) -> JsValue {
    if params.is_undefined() || params.is_null() {
        return params.clone();
    }
    let out = js_sys::Object::new();
    for k in js_sys::Object::keys(params.unchecked_ref::<js_sys::Object>()).iter() {
        if k.as_string().as_deref() != Some(key) {
            let _ = js_sys::Reflect::set(
                &out,
                &k,
                &js_sys::Reflect::get(params, &k).unwrap_or(JsValue::UNDEFINED),
            );
        }
    }
    out.into()
}
