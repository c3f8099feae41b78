//! Imports from the JS snippets (`SvcError`, params as JSON text, and with the client the platform's
//! files, streams and timers), and conversions between JS values and the pure core.

use crate::error::Error;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/js/error.js")]
extern "C" {
    #[wasm_bindgen(js_name = makeError)]
    pub fn make_error(json: &str) -> JsValue;
}

#[wasm_bindgen(module = "/src/wasm/js/params.js")]
extern "C" {
    /// The JSON text of user params as UTF-8 bytes (one copy into the core, however long), or what
    /// `JSON.stringify` threw (`params::unwritable` says why in words).
    #[wasm_bindgen(js_name = toWire, catch)]
    pub fn to_wire(value: &JsValue) -> Result<js_sys::Uint8Array, JsValue>;
    #[wasm_bindgen(js_name = isParams)]
    pub fn is_params(value: &JsValue) -> bool;
    /// A shallow copy of an object without one key.
    pub fn without(value: &JsValue, key: &str) -> JsValue;
}

#[cfg(feature = "client")]
#[wasm_bindgen(module = "/src/wasm/js/runtime.js")]
extern "C" {
    /// `{ name, blob }` of an upload's file (a Blob, a File or `{ name, data }`), or null.
    #[wasm_bindgen(js_name = fileOf)]
    pub fn file_of(value: &JsValue) -> JsValue;
    /// A FormData with every file (`{ name, blob }`) under `field`, or what a file that is not
    /// what it seems threw.
    #[wasm_bindgen(js_name = formData, catch)]
    pub fn form_data(field: &str, files: &JsValue) -> Result<JsValue, JsValue>;
    /// A Blob of these bytes.
    pub fn blob(bytes: &[u8], content_type: &str) -> JsValue;
    /// What `prepare()` gives: `{ method, url, headers, body }` (`lines`: each header's name and value).
    pub fn prepared(method: &str, url: &str, lines: &str, body: &JsValue) -> JsValue;
    /// An environment variable where the runtime has an environment the SDK may read.
    #[wasm_bindgen(js_name = envVar)]
    pub fn env_var(name: &str) -> Option<String>;
    /// The origin of the web page the SDK runs in, if any.
    #[wasm_bindgen(js_name = pageOrigin)]
    pub fn page_origin() -> Option<String>;
    /// An answer's headers as `name\nvalue\n` lines.
    #[wasm_bindgen(js_name = headerLines)]
    pub fn header_lines(response: &JsValue) -> String;
    /// The frozen `{ operationId, method, url, attempt, status?, durationMs? }` a hook gets.
    #[wasm_bindgen(js_name = hookInfo)]
    pub fn hook_info(
        operation: &str,
        method: &str,
        url: &str,
        attempt: u32,
        status: Option<u16>,
        duration_ms: Option<f64>,
    ) -> JsValue;
    /// `{ data, response }`: a result and the answer it came in (`{ status, url, headers }` as JSON).
    #[wasm_bindgen(js_name = withResponse)]
    pub fn with_response(data: &JsValue, response: &str) -> JsValue;
    /// Sets the cause of a network error: an Error with the code and the host.
    #[wasm_bindgen(js_name = withCause)]
    pub fn with_cause(error: &JsValue, message: &str, code: Option<&str>, host: &str);
    /// Every byte of an answer's body (a Uint8Array), or null once it is known to be above `max`.
    #[wasm_bindgen(js_name = readAll)]
    pub fn read_all(response: &JsValue, declared: Option<String>, max: f64) -> js_sys::Promise;
    /// Settles wait `id` of the core (`settle::settle`) when the promise settles.
    pub fn watch(promise: &js_sys::Promise, id: u32);
    /// A timer that settles wait `id` after `ms`; its handle.
    pub fn timer(ms: f64, id: u32) -> JsValue;
    #[wasm_bindgen(js_name = clearTimer)]
    pub fn clear_timer(handle: &JsValue);
    /// Every byte of a stream (a Uint8Array), or null once more than `max` bytes came.
    #[wasm_bindgen(js_name = readStream)]
    pub fn read_stream(stream: &JsValue, max: f64) -> js_sys::Promise;
    /// The `[name, value]` entries of a multipart body (a value is a string or a File).
    #[wasm_bindgen(js_name = formEntries)]
    pub fn form_entries(bytes: &js_sys::Uint8Array, content_type: &str) -> js_sys::Promise;
    /// Lets go of an unread body.
    pub fn discard(response: &JsValue);
    /// `[promise, resolve, reject]`: a promise and the functions that settle it.
    pub fn deferred() -> js_sys::Array;
    /// Queues a run of the woken tasks (`tasks::run`) on the microtask queue.
    #[wasm_bindgen(js_name = scheduleRun)]
    pub fn schedule_run();
    /// `[promise, remove]`: a promise that resolves when the signal aborts, and what removes its listener.
    #[wasm_bindgen(js_name = onAbort)]
    pub fn on_abort_pair(signal: &JsValue) -> js_sys::Array;
    /// A proxied answer as the Response the proxy gives back: its status, the headers it passes back
    /// (`proxy::passed_back`, as lines) and the body's stream, with every spelling of `secret`
    /// redacted, erroring when the service stalls for `idle_ms`; what reading the answer threw.
    #[wasm_bindgen(js_name = passBack, catch)]
    pub fn pass_back(
        response: &JsValue,
        status: u16,
        headers: &str,
        secret: Option<&str>,
        idle_ms: f64,
    ) -> Result<JsValue, JsValue>;
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
#[cfg(feature = "client")]
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
#[cfg(feature = "client")]
pub fn resolved(v: &JsValue) -> js_sys::Promise {
    promise_resolve(v).unwrap_or_else(|e| js_sys::Promise::reject(&e))
}

/// The time of a Date in ms since the epoch, or `None` for anything else (a Proxy of a Date).
#[cfg(feature = "client")]
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

pub fn to_js_error(e: &Error) -> JsValue {
    make_error(&e.to_json())
}

pub fn get(obj: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// A promise that resolves when the signal aborts, and the function that removes its listener.
#[cfg(feature = "client")]
pub fn on_abort(signal: &JsValue) -> (js_sys::Promise, js_sys::Function) {
    use wasm_bindgen::JsCast;
    let pair = on_abort_pair(signal);
    (pair.get(0).unchecked_into(), pair.get(1).unchecked_into())
}
