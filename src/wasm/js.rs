//! Imports from the client's JS snippet (the platform's files, streams and timers), over the
//! binding's (`svc_validate::js`).

pub use svc_validate::js::*;
use wasm_bindgen::prelude::*;

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

/// A promise that resolves when the signal aborts, and the function that removes its listener.
pub fn on_abort(signal: &JsValue) -> (js_sys::Promise, js_sys::Function) {
    use wasm_bindgen::JsCast;
    let pair = on_abort_pair(signal);
    (pair.get(0).unchecked_into(), pair.get(1).unchecked_into())
}
