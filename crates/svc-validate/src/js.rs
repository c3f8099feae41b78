//! Imports from the JS snippets (`SvcError`, params as JSON text), the guarded built-ins, and
//! conversions between JS values and the pure core.

use svc_core::error::Error;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(module = "/src/wasm/js/error.js")]
extern "C" {
    type SvcError;
    /// `new SvcError(kind, message, extra)`: `extra` holds the other members (`Error::to_json`).
    #[wasm_bindgen(constructor)]
    fn new(kind: &JsValue, message: &JsValue, extra: &JsValue) -> SvcError;
}

#[wasm_bindgen(module = "/src/wasm/js/core.js")]
extern "C" {
    /// The running core's timers, which a restart clears (`__restarted`).
    #[wasm_bindgen(thread_local_v2, js_name = timers)]
    pub static TIMERS: js_sys::Set;
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timer(handle: &JsValue);
}

/// Clears the timers of a core that trapped (a restart's new core runs this): none of them fires
/// into the new one, nor keeps a process alive.
pub fn clear_timers() {
    TIMERS.with(|timers| {
        timers.for_each(&mut |t, _, _| clear_timer(&t));
        timers.clear();
    });
}

#[wasm_bindgen(module = "/src/wasm/js/exact.js")]
extern "C" {
    /// `JSON.parse` of the core's text of an answer, its exact-number markers made `ExactNumber`s.
    #[wasm_bindgen(js_name = parseExact)]
    fn parse_exact(text: &str) -> JsValue;
}

/// The JS value of the core's text of an answer (`response::decode`, the receivers): an `ExactNumber`
/// where it holds an exact-number marker, which only the core writes (it refuses a text with its key).
pub fn answer_to_js(text: &str) -> JsValue {
    if svc_core::exact::mentions_marker(text) {
        parse_exact(text)
    } else {
        js_sys::JSON::parse(text).unwrap_or(JsValue::NULL)
    }
}

#[wasm_bindgen(module = "/src/wasm/js/params.js")]
extern "C" {
    /// The JSON text of user params, still a JS string (`text_within` brings it in), or what
    /// `JSON.stringify` threw (`params::unwritable` says why in words).
    #[wasm_bindgen(js_name = toWire, catch)]
    pub fn to_wire(value: &JsValue) -> Result<js_sys::JsString, JsValue>;
}

/// Whether a value is a plain params object (or absent); one whose reading throws is, and
/// `to_wire` says why.
pub fn is_params(v: &JsValue) -> bool {
    v.is_undefined() || v.is_null() || is_object_params(v)
}

/// Whether a value is a plain params object (not absent).
pub fn is_object_params(v: &JsValue) -> bool {
    v.is_object() && !is_array(v) && !v.is_instance_of::<Blob>()
}

/// A shallow copy of an object without one key (the object itself when reading it throws).
pub fn without(v: &JsValue, key: &str) -> JsValue {
    let copy = || -> Result<JsValue, JsValue> {
        let out = js_sys::Object::new();
        for k in keys(v)?.iter().filter(|k| k.as_str() != key) {
            let k = JsValue::from_str(k);
            js_sys::Reflect::set(&out, &k, &js_sys::Reflect::get(v, &k)?)?;
        }
        Ok(out.into())
    };
    copy().unwrap_or_else(|_| v.clone())
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
    #[wasm_bindgen(js_namespace = Object, js_name = getPrototypeOf, catch)]
    fn prototype_of(v: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_namespace = Promise, js_name = resolve, catch)]
    fn promise_resolve(v: &JsValue) -> Result<js_sys::Promise, JsValue>;
    /// The global `Blob`, whose `instanceof` is false where there is none.
    pub type Blob;
}

/// The own enumerable keys of an object, or what reading them threw.
pub fn keys(v: &JsValue) -> Result<Vec<String>, JsValue> {
    Ok(object_keys(v)?
        .iter()
        .filter_map(|k| k.as_string())
        .collect())
}

/// Whether `v` is a plain object (of `Object` or of no prototype), or what reading it threw.
pub fn is_plain_object(v: &JsValue) -> Result<bool, JsValue> {
    let proto = prototype_of(v)?;
    Ok(proto.is_null() || proto == prototype_of(&js_sys::Object::new())?)
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
    v.dyn_ref::<js_sys::Date>()?;
    let get_time = get(&js_sys::Date::new_0(), "getTime")
        .dyn_into::<js_sys::Function>()
        .ok()?;
    js_sys::Reflect::apply(&get_time, v, &js_sys::Array::new())
        .ok()?
        .as_f64()
}

/// The JSON text `to_wire` wrote as UTF-8 text in the wasm's memory, each string value holding a
/// lone surrogate marked as one (`unwritable::marked`), or `None` when it is more than `max` bytes as
/// UTF-8 (one of more than `max` UTF-16 units is not copied at all).
pub fn text_within(s: &js_sys::JsString, max: usize) -> Option<String> {
    if s.length() as usize > max {
        return None;
    }
    let text = s.as_string().filter(|t| t.len() <= max)?;
    Some(match svc_core::unwritable::marked(&text) {
        std::borrow::Cow::Owned(marked) => marked,
        std::borrow::Cow::Borrowed(_) => text,
    })
}

/// A JS string as the Unicode text it is, or the message of one holding a lone surrogate (`name`: what it is).
pub fn unicode_text(s: &js_sys::JsString, name: &str) -> Result<String, String> {
    match s.is_valid_utf16() {
        true => Ok(s.as_string().unwrap_or_default()),
        false => Err(svc_core::unwritable::refused(name)),
    }
}

/// An `SvcError` of the core's error.
pub fn to_js_error(e: &Error) -> JsValue {
    let members = crate::json_to_js(&e.to_json());
    SvcError::new(&get(&members, "kind"), &get(&members, "message"), &members).into()
}

pub fn get(obj: &JsValue, key: &str) -> JsValue {
    try_get(obj, key).unwrap_or(JsValue::UNDEFINED)
}

thread_local! {
    /// The JS strings of the member names the core reads and writes, each made once (making one
    /// decodes it in JS, which costs more than a lookup here).
    static NAMES: std::cell::RefCell<Vec<(String, JsValue)>> = Default::default();
}

/// The JS string of a member name the core uses (a few dozen names: a list is enough).
pub fn name(key: &str) -> JsValue {
    NAMES.with(|names| {
        let mut names = names.borrow_mut();
        if let Some((_, v)) = names.iter().find(|(k, _)| k == key) {
            return v.clone();
        }
        let v = JsValue::from_str(key);
        names.push((key.to_string(), v.clone()));
        v
    })
}

/// `obj[key]`, or what reading it threw.
pub fn try_get(obj: &JsValue, key: &str) -> Result<JsValue, JsValue> {
    js_sys::Reflect::get(obj, &name(key))
}

/// `obj[name](...args)`, or what reading or calling it threw (a TypeError when it is no function).
pub fn call_method(obj: &JsValue, name: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let f = try_get(obj, name)?;
    let Some(f) = f.dyn_ref::<js_sys::Function>() else {
        return Err(js_sys::TypeError::new(&format!("{name} is not a function")).into());
    };
    f.apply(obj, &args.iter().collect::<js_sys::Array>())
}
