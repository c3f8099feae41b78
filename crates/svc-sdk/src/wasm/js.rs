//! The client's side of JS: the values it hands over (prepared requests, hook views, answers, an
//! upload's files and form), the runtime's environment, and the imports of `runtime.js` (the
//! callbacks into the core that must be JS functions), over the binding's (`svc_validate::js`).

pub use svc_validate::js::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(module = "/src/wasm/js/runtime.js")]
extern "C" {
    /// Settles wait `id` of the core (`settle::settle`) when the promise settles.
    pub fn watch(promise: &js_sys::Promise, id: u32);
    /// The stream of a proxied body, each chunk pulled from `body::pass_on(id)`; `reader` is the
    /// answer's, let go when the stream fails or is cancelled.
    #[wasm_bindgen(js_name = passedOn)]
    pub fn passed_on(id: u32, reader: &JsValue) -> web_sys::ReadableStream;
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setTimeout)]
    pub fn set_timeout(f: &js_sys::Function, ms: f64) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    pub fn clear_timeout(handle: &JsValue);
    /// A `Headers`, or what a `fetch` option gave in its place.
    type Pairs;
    #[wasm_bindgen(method, js_name = forEach, catch)]
    fn for_each(this: &Pairs, f: &mut dyn FnMut(JsValue, JsValue)) -> Result<(), JsValue>;
    #[wasm_bindgen(js_namespace = Object, js_name = entries, catch)]
    fn object_entries(v: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_namespace = Object, js_name = fromEntries, catch)]
    fn object_from_entries(v: &JsValue) -> Result<JsValue, JsValue>;
}

/// An object of these members, in this order.
pub fn object(members: &[(&str, JsValue)]) -> js_sys::Object {
    let out = js_sys::Object::new();
    for (k, v) in members {
        let _ = js_sys::Reflect::set(&out, &name(k), v);
    }
    out
}

/// A plain copy of an object's own members (as `{ ...v }`), or what reading them threw.
pub fn copied(v: &JsValue) -> Result<JsValue, JsValue> {
    object_from_entries(&object_entries(v)?)
}

/// An answer's headers, names in lower case (fetch joins a repeated header's values); none when
/// they cannot be read. A `Headers` crosses as one JSON text of its pairs; what a `fetch` option
/// gave in its place, if it is no iterable, through its `forEach`.
pub fn header_pairs(response: &JsValue) -> Vec<(String, String)> {
    let read = || -> Result<String, JsValue> {
        let headers = try_get(response, "headers")?;
        let pairs = match js_sys::Reflect::get(&headers, &js_sys::Symbol::iterator())?.is_function()
        {
            true => members(&headers)?,
            false => {
                let pairs = js_sys::Array::new();
                let add = &mut |value: JsValue, name: JsValue| {
                    pairs.push(&js_sys::Array::of2(&name, &value));
                };
                headers.unchecked_ref::<Pairs>().for_each(add)?;
                pairs
            }
        };
        Ok(js_sys::JSON::stringify(&pairs)?
            .as_string()
            .unwrap_or_default())
    };
    let text = read().unwrap_or_default();
    let Ok(svc_json::Json::Arr(pairs)) = svc_json::parse(&text) else {
        return Vec::new();
    };
    let pair = |p: &svc_json::Json| match p {
        svc_json::Json::Arr(nv) => match (nv.first()?.as_str(), nv.get(1)?.as_str()) {
            (Some(name), Some(value)) => Some((name.to_ascii_lowercase(), value.to_string())),
            _ => None,
        },
        _ => None,
    };
    pairs.iter().filter_map(pair).collect()
}

/// An object of headers, for the runtime.
pub fn headers_object(pairs: &[(String, String)]) -> js_sys::Object {
    let out = js_sys::Object::new();
    for (k, v) in pairs {
        let _ = js_sys::Reflect::set(&out, &JsValue::from_str(k), &JsValue::from_str(v));
    }
    out
}

/// `{ name, blob }` of an upload's file: a Blob, a File, or `{ name, data }` with data a Blob, a
/// buffer or text; else null.
pub fn file_of(f: &JsValue) -> JsValue {
    let blob_of = || -> Result<JsValue, JsValue> {
        let file = |blob: &JsValue| -> Result<JsValue, JsValue> {
            Ok(object(&[("name", try_get(f, "name")?), ("blob", blob.clone())]).into())
        };
        if f.is_instance_of::<web_sys::Blob>() {
            return file(f);
        }
        if !f.is_object() || !js_sys::Reflect::has(f, &"data".into())? {
            return Ok(JsValue::NULL);
        }
        let d = try_get(f, "data")?;
        if d.is_instance_of::<web_sys::Blob>() {
            return file(&d);
        }
        if !(d.is_string()
            || d.is_instance_of::<js_sys::ArrayBuffer>()
            || js_sys::ArrayBuffer::is_view(&d))
        {
            return Ok(JsValue::NULL);
        }
        let kind = try_get(f, "type")?;
        let options = match kind.is_truthy() {
            true => object(&[("type", kind)]),
            false => js_sys::Object::new(),
        };
        let parts = js_sys::Array::of1(&d);
        file(
            &web_sys::Blob::new_with_u8_array_sequence_and_options(
                &parts,
                options.unchecked_ref(),
            )?
            .into(),
        )
    };
    blob_of().unwrap_or(JsValue::NULL)
}

/// A FormData with every file (`{ name, blob }`) under `field`, or what a file that is not what it
/// seems threw.
pub fn form_data(field: &str, files: &JsValue) -> Result<JsValue, JsValue> {
    let form = web_sys::FormData::new()?;
    for f in files.unchecked_ref::<js_sys::Array>().iter() {
        let name = get(&f, "name").as_string().unwrap_or_default();
        form.append_with_blob_and_filename(field, get(&f, "blob").unchecked_ref(), &name)?;
    }
    Ok(form.into())
}

/// A Blob of these bytes.
pub fn blob(bytes: &[u8], content_type: &str) -> JsValue {
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(content_type);
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options)
        .map_or(JsValue::NULL, Into::into)
}

/// What `prepare()` gives: `{ method, url, headers, body }`.
pub fn prepared(method: &str, url: &str, headers: &[(String, String)], body: &JsValue) -> JsValue {
    let body = if body.is_undefined() {
        JsValue::NULL
    } else {
        body.clone()
    };
    let headers = headers_object(headers).into();
    object(&[
        ("method", method.into()),
        ("url", url.into()),
        ("headers", headers),
        ("body", body),
    ])
    .into()
}

/// `value` frozen, and each object it holds (a hook's or a record's headers).
pub fn frozen(value: &JsValue) -> JsValue {
    if let Some(o) = value.dyn_ref::<js_sys::Object>() {
        for v in js_sys::Object::values(o).iter() {
            if let Some(inner) = v.dyn_ref::<js_sys::Object>() {
                js_sys::Object::freeze(inner);
            }
        }
        js_sys::Object::freeze(o);
    }
    value.clone()
}

/// `{ data, response }`: a result and the answer it came in (`{ status, url, headers }` as JSON).
pub fn with_response(data: &JsValue, response: &str) -> JsValue {
    object(&[
        ("data", data.clone()),
        ("response", super::json_to_js(response)),
    ])
    .into()
}

/// Sets the cause of a network error: an Error with the code and the host, not enumerable.
pub fn with_cause(error: &JsValue, message: &str, code: Option<&str>, host: &str) {
    let cause: JsValue = js_sys::Error::new(message).into();
    if let Some(code) = code {
        let _ = js_sys::Reflect::set(&cause, &"code".into(), &code.into());
    }
    let _ = js_sys::Reflect::set(&cause, &"host".into(), &host.into());
    let t = JsValue::TRUE;
    let descriptor = object(&[
        ("value", cause),
        ("writable", t.clone()),
        ("configurable", t),
        ("enumerable", false.into()),
    ]);
    let _ = js_sys::Reflect::define_property(
        error.unchecked_ref::<js_sys::Object>(),
        &"cause".into(),
        &descriptor,
    );
}

/// A promise that resolves when the signal aborts (at once if it has), and the function that
/// resolves it, which is the listener to remove.
pub fn on_abort(signal: &JsValue) -> (js_sys::Promise, Option<js_sys::Function>) {
    let mut resolve = None;
    let promise = js_sys::Promise::new(&mut |yes, _| resolve = Some(yes));
    let Some(resolve) = resolve else {
        return (promise, None);
    };
    let listen = || -> Result<bool, JsValue> {
        if try_get(signal, "aborted")?.is_truthy() {
            return resolve.call0(&JsValue::UNDEFINED).map(|_| false);
        }
        let once = object(&[("once", JsValue::TRUE)]).into();
        call_method(
            signal,
            "addEventListener",
            &["abort".into(), resolve.clone().into(), once],
        )
        .map(|_| true)
    };
    match listen() {
        Ok(added) => (promise, added.then_some(resolve)),
        Err(e) => (js_sys::Promise::reject(&e), None),
    }
}

/// Lets go of an unread body.
pub fn discard(response: &JsValue) {
    if !response.is_truthy() {
        return;
    }
    let Ok(body) = try_get(response, "body") else {
        return;
    };
    if body.is_truthy() && get(&body, "cancel").is_function() {
        if let Ok(cancelled) = call_method(&body, "cancel", &[]) {
            ignore(&cancelled);
        }
    }
}

/// Lets a promise settle unobserved (a rejection is not unhandled): wait 0 is no wait's.
pub fn ignore(promise: &JsValue) {
    watch(&settled_by(promise), 0);
}

/// A new native promise that settles as `v` does: a `then` that throws, or a getter of it that
/// does, rejects it (the promise's own resolve function catches both), so `watch` never meets one.
pub fn settled_by(v: &JsValue) -> js_sys::Promise {
    js_sys::Promise::new(&mut |resolve, _| {
        let _ = resolve.call1(&JsValue::UNDEFINED, v);
    })
}

/// An environment variable, where there is an environment the SDK may read without asking (Deno:
/// only with the permission granted).
pub fn env_var(name: &str) -> Option<String> {
    env(name).flatten()
}

/// `Some` with the variable (if set) where there is an environment the SDK may read it from; `None`
/// where there is none (a page, workerd without process.env, Deno without the permission).
pub fn env(name: &str) -> Option<Option<String>> {
    let global: JsValue = js_sys::global().into();
    let read = || -> Result<Option<JsValue>, JsValue> {
        let deno = try_get(&global, "Deno")?;
        if deno.is_truthy() {
            let ask = object(&[("name", "env".into()), ("variable", name.into())]).into();
            let state = try_get(
                &call_method(&try_get(&deno, "permissions")?, "querySync", &[ask])?,
                "state",
            )?;
            return match state.as_string().as_deref() {
                Some("granted") => {
                    call_method(&try_get(&deno, "env")?, "get", &[name.into()]).map(Some)
                }
                _ => Ok(None),
            };
        }
        let env = try_get(&global, "process").and_then(|p| optional(&p, "env"))?;
        match env.is_object() {
            true => optional(&env, name).map(Some),
            false => Ok(None),
        }
    };
    read().ok()?.map(|v| v.as_string())
}

/// `v?.[key]`.
fn optional(v: &JsValue, key: &str) -> Result<JsValue, JsValue> {
    match v.is_undefined() || v.is_null() {
        true => Ok(JsValue::UNDEFINED),
        false => try_get(v, key),
    }
}

/// Whether this is a web page (a `document` in the global scope).
#[cfg(feature = "server")]
pub fn in_page() -> bool {
    try_get(&js_sys::global(), "document").is_ok_and(|d| d.is_object())
}

/// The origin of the page the SDK runs in (http or https), if there is one.
pub fn page_origin() -> Option<String> {
    let location = try_get(&js_sys::global(), "location").ok()?;
    let origin = optional(&location, "origin").ok()?.as_string()?;
    (origin.starts_with("http://") || origin.starts_with("https://")).then_some(origin)
}
