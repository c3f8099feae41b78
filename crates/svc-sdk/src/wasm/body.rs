//! Bodies as the runtime streams them: an answer read whole within its limit, a proxied request's
//! body, a multipart body's entries, and a proxied answer passed on chunk by chunk, redacted and
//! given up when the service stalls.

use super::js::{self, call_method, get, to_js_error, try_get};
use super::settle;
use crate::proxy::BodyWait;
use crate::send::race::{race, First};
use std::cell::RefCell;
use svc_core::error::{Error, ErrorKind};
use svc_core::numbered::Numbered;
use svc_core::redact::Redactor;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// `Number(text)`: what JS makes of a Content-Length.
    #[wasm_bindgen(js_name = Number)]
    fn number(text: &str) -> f64;
}

/// One read of a stream's reader: whether the stream is done, and the chunk.
async fn next(reader: &JsValue) -> Result<(bool, js_sys::Uint8Array), JsValue> {
    let read = call_method(reader, "read", &[])?;
    let got = settle::promise(&js::resolved(&read)).await?;
    let done = try_get(&got, "done")?.is_truthy();
    let value = try_get(&got, "value")?;
    let chunk = match value.dyn_into::<js_sys::Uint8Array>() {
        Ok(bytes) => bytes,
        Err(other) => js_sys::Uint8Array::new(&other),
    };
    Ok((done, chunk))
}

/// Why a stream was not read whole (it is let go in each case).
pub enum Unread {
    /// More than `max` bytes came.
    TooLarge,
    /// It sent nothing for its idle time, or did not end by its deadline: the 408 that says which.
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    Late(Error),
    /// Reading it threw.
    Failed(JsValue),
}

/// Every byte of a stream, or `None` (the stream let go) once more than `max` bytes came. The
/// chunks stay in JS until the last one came: a body above `max` never enters the core.
pub async fn read_stream(stream: &JsValue, max: usize) -> Result<Option<Vec<u8>>, JsValue> {
    match read_within(stream, max, BodyWait::default()).await {
        Ok(bytes) => Ok(Some(bytes)),
        Err(Unread::Failed(e)) => Err(e),
        Err(Unread::TooLarge | Unread::Late(_)) => Ok(None),
    }
}

/// Every byte of a stream as `read_stream` reads it, within `wait`: a stream that stalls or
/// outlasts its deadline is cancelled, and its error says which (a proxied request's body, whose
/// sender may never finish it).
pub async fn read_within(stream: &JsValue, max: usize, wait: BodyWait) -> Result<Vec<u8>, Unread> {
    let reader = call_method(stream, "getReader", &[]).map_err(Unread::Failed)?;
    let cancel = || {
        if let Ok(cancelled) = call_method(&reader, "cancel", &[]) {
            js::ignore(&cancelled);
        }
    };
    let (mut chunks, mut total) = (Vec::new(), 0);
    loop {
        let began = js_sys::Date::now() as i64;
        let read = match wait.next(began) {
            None => next(&reader).await,
            Some(ms) => match race(next(&reader), settle::timer(ms as f64)).await {
                First::A(read) => read,
                First::B(_) => {
                    cancel();
                    return Err(Unread::Late(wait.missed(began)));
                }
            },
        };
        let (done, chunk) = read.map_err(Unread::Failed)?;
        if done {
            break;
        }
        total += chunk.length() as usize;
        if total > max {
            cancel();
            return Err(Unread::TooLarge);
        }
        chunks.push(chunk);
    }
    let mut out = vec![0; total];
    let mut at = 0;
    for chunk in chunks {
        let end = at + chunk.length() as usize;
        chunk.copy_to(&mut out[at..end]);
        at = end;
    }
    Ok(out)
}

/// Every byte of an answer's body, or `None` once it is known to be above `max` bytes. `declared`
/// is the Content-Length when it counts the body's bytes (not for a compressed body): then the
/// body is read whole, else its bytes are counted as they stream.
pub async fn read_answer(
    response: &JsValue,
    declared: Option<String>,
    max: usize,
) -> Result<Option<Vec<u8>>, JsValue> {
    let body = try_get(response, "body")?;
    let length = declared.map_or(f64::NAN, |d| number(&d));
    if length > max as f64 {
        js::discard(response);
        return Ok(None);
    }
    // Not a count (NaN): the bytes are counted as they stream.
    if length.is_nan() && body.is_truthy() && get(&body, "getReader").is_function() {
        return read_stream(&body, max).await;
    }
    let buffer = call_method(response, "arrayBuffer", &[])?;
    let bytes = js_sys::Uint8Array::new(&settle::promise(&js::resolved(&buffer)).await?);
    Ok((bytes.length() as usize <= max).then(|| bytes.to_vec()))
}

/// The `[name, value]` entries of a multipart body (a value is a string or a File).
#[cfg(feature = "server")]
pub async fn form_entries(bytes: &[u8], content_type: &str) -> Result<js_sys::Array, JsValue> {
    let init = web_sys::ResponseInit::new();
    init.set_headers(&js::object(&[("content-type", content_type.into())]));
    let body = js_sys::Uint8Array::from(bytes);
    let response = web_sys::Response::new_with_opt_buffer_source_and_init(Some(&body), &init)?;
    let form = settle::promise(&response.form_data()?).await?;
    js::members(&call_method(&form, "entries", &[])?)
}

/// A proxied answer's body being passed on: its reader, the redaction of the token, how long the
/// service may send nothing, and whether the reader is done (the redactor's tail was the last chunk).
struct Passing {
    reader: JsValue,
    redactor: Option<Redactor>,
    idle_ms: u32,
    ended: bool,
}

thread_local! {
    /// The bodies being passed on, by a number that is never 0.
    static PASSING: RefCell<Numbered<Passing>> = RefCell::default();
}

fn forget(id: u32) -> Option<Passing> {
    PASSING.with(|p| p.borrow_mut().remove(id))
}

/// A proxied answer as the Response the proxy gives back: its status, the headers it passes back
/// (`proxy::passed_back`) and its body, with every spelling of `secret` redacted, failing with a
/// timeout when the service sends nothing for `idle_ms`; what reading the answer threw.
pub fn pass_back(
    response: &JsValue,
    status: u16,
    headers: &[(String, String)],
    secret: Option<&str>,
    idle_ms: u32,
) -> Result<JsValue, JsValue> {
    let init = web_sys::ResponseInit::new();
    init.set_status(status);
    init.set_headers(&js::headers_object(headers));
    // The statuses a Response may not give a body.
    if matches!(status, 204 | 205 | 304) {
        js::discard(response);
        return web_sys::Response::new_with_opt_readable_stream_and_init(None, &init)
            .map(Into::into);
    }
    let body = try_get(response, "body")?;
    if !body.is_truthy() {
        return web_sys::Response::new_with_opt_readable_stream_and_init(None, &init)
            .map(Into::into);
    }
    let reader = call_method(&body, "getReader", &[])?;
    let passing = Passing {
        reader: reader.clone(),
        redactor: secret.filter(|s| !s.is_empty()).map(Redactor::new),
        idle_ms,
        ended: false,
    };
    let id = PASSING.with(|p| p.borrow_mut().insert(passing));
    let stream = js::passed_on(id, &reader);
    web_sys::Response::new_with_opt_readable_stream_and_init(Some(&stream), &init)
        .map(Into::into)
        .inspect_err(|_| drop(forget(id)))
}

/// The next chunk of proxied body `id`, redacted: undefined at its end, a timeout error when the
/// service sent nothing for its idle time, or what reading it threw; the body of a core since
/// restarted (`runtime.js` asks for body 0) is cut off.
#[wasm_bindgen(js_name = __passOn, skip_typescript)]
pub fn pass_on(id: u32) -> js_sys::Promise {
    super::tasks::spawn(async move {
        let result = next_chunk(id).await;
        if !matches!(&result, Ok(chunk) if !chunk.is_undefined()) {
            forget(id);
        }
        result
    })
}

/// Lets go of proxied body `id`, cancelled by who reads it (`runtime.js` cancels the reader).
#[wasm_bindgen(js_name = __passStop, skip_typescript)]
pub fn pass_stop(id: u32) {
    forget(id);
}

async fn next_chunk(id: u32) -> Result<JsValue, JsValue> {
    loop {
        let state = PASSING.with(|p| {
            p.borrow()
                .get(id)
                .map(|s| (s.reader.clone(), s.idle_ms, s.ended))
        });
        let Some((reader, idle_ms, ended)) = state else {
            let cut =
                "the SDK's core was restarted while this answer was passed on: it was cut off";
            return Err(to_js_error(&Error::new(ErrorKind::Aborted, cut)));
        };
        if ended {
            return Ok(JsValue::UNDEFINED);
        }
        let (done, chunk) = match idle_ms {
            0 => next(&reader).await?,
            ms => match race(next(&reader), settle::timer(ms.into())).await {
                First::A(read) => read?,
                First::B(_) => return Err(to_js_error(&crate::send::stalled(ms))),
            },
        };
        let out = PASSING.with(|p| {
            let mut p = p.borrow_mut();
            let s = p.get_mut(id)?;
            s.ended = done;
            Some(match (&mut s.redactor, done) {
                (Some(r), true) => r.finish(),
                (Some(r), false) => r.push(&chunk.to_vec()),
                (None, _) => chunk.to_vec(),
            })
        });
        // Cancelled meanwhile, or at the end with nothing held back.
        let Some(out) = out else {
            return Ok(JsValue::UNDEFINED);
        };
        if !out.is_empty() {
            return Ok(js_sys::Uint8Array::from(&out[..]).into());
        }
        if done {
            return Ok(JsValue::UNDEFINED);
        }
    }
}
