//! Imports from the JS snippets (`SvcError`, params as JSON text), the guarded built-ins, and
//! conversions between JS values and the pure core.

use svc_core::error::Error;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/js/error.js")]
extern "C" {
    #[wasm_bindgen(js_name = makeError)]
    pub fn make_error(json: &str) -> JsValue;
}

#[wasm_bindgen(module = "/src/wasm/js/params.js")]
extern "C" {
    /// The JSON text of user params, still a JS string (`text_within` brings it in), or what
    /// `JSON.stringify` threw (`params::unwritable` says why in words).
    #[wasm_bindgen(js_name = toWire, catch)]
    pub fn to_wire(value: &JsValue) -> Result<js_sys::JsString, JsValue>;
    #[wasm_bindgen(js_name = isParams)]
    pub fn is_params(value: &JsValue) -> bool;
    /// A shallow copy of an object without one key.
    pub fn without(value: &JsValue, key: &str) -> JsValue;
    /// `TextEncoder.encodeInto` of the text into the view: the bytes written, or `None` when it did not all fit.
    #[wasm_bindgen(js_name = writeInto)]
    fn write_into(text: &js_sys::JsString, into: &js_sys::Uint8Array) -> Option<u32>;
}

/// The built-ins the core calls on values a user gave, each with `catch`: a Proxy, a getter or a
/// revoked object that throws becomes an `Err` here instead of an exception through the wasm.
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Object, js_name = keys, catch)]
    fn object_keys(v: &JsValue) -> Result<js_sys::Array, JsValue>;
    #[wasm_bindgen(js_namespace = Array, js_name = isArray, catch)]
    fn array_is_array(v: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(js_namespace = Array, js_name = from, catch)]
    fn array_from(v: &JsValue) -> Result<js_sys::Array, JsValue>;
    #[wasm_bindgen(js_namespace = Promise, js_name = resolve, catch)]
    fn promise_resolve(v: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// The own enumerable keys of an object, or what reading them threw.
pub fn keys(v: &JsValue) -> Result<Vec<String>, JsValue> {
    Ok(object_keys(v)?
        .iter()
        .filter_map(|k| k.as_string())
        .collect())
}

/// Whether `v` is an array (a revoked Proxy is not).
pub fn is_array(v: &JsValue) -> bool {
    array_is_array(v).unwrap_or(false)
}

/// The members of an array or iterable as a plain array, or what reading them threw.
pub fn members(v: &JsValue) -> Result<js_sys::Array, JsValue> {
    array_from(v)
}

/// `Promise.resolve(v)`; a value whose reading throws is a rejected promise.
pub fn resolved(v: &JsValue) -> js_sys::Promise {
    promise_resolve(v).unwrap_or_else(|e| js_sys::Promise::reject(&e))
}

/// The time of a Date in ms since the epoch, or `None` for anything else (a Proxy of a Date).
pub fn time_of(v: &JsValue) -> Option<f64> {
    use wasm_bindgen::JsCast;
    v.dyn_ref::<js_sys::Date>()?;
    let get_time = get(&js_sys::Date::new_0(), "getTime")
        .dyn_into::<js_sys::Function>()
        .ok()?;
    js_sys::Reflect::apply(&get_time, v, &js_sys::Array::new())
        .ok()?
        .as_f64()
}

/// A JS string as UTF-8 text written once into the wasm's memory (`encodeInto`, no copy in JS),
/// or `None` when it is more than `max` bytes as UTF-8 (one of more than `max` UTF-16 units is not
/// copied at all). ASCII fits in one byte per unit; anything else is written again into three.
pub fn text_within(s: &js_sys::JsString, max: usize) -> Option<String> {
    let units = s.length() as usize;
    if units > max {
        return None;
    }
    let mut bytes = Vec::new();
    for room in [units, units.checked_mul(3)?] {
        bytes.reserve_exact(room);
        // SAFETY: the view spans `room` bytes of the vector's spare capacity and is used only by
        // `write_into`, which allocates nothing in the wasm (its memory cannot move meanwhile).
        let view = unsafe { js_sys::Uint8Array::view_mut_raw(bytes.as_mut_ptr(), room) };
        if let Some(written) = write_into(s, &view) {
            // SAFETY: `encodeInto` initialised the first `written` bytes, at most `room`.
            unsafe { bytes.set_len(written as usize) };
            break;
        }
    }
    let text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (text.len() <= max).then_some(text)
}

pub fn to_js_error(e: &Error) -> JsValue {
    make_error(&e.to_json())
}

pub fn get(obj: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}
