//! svc-sdk/cloudflare's steps: `SvcLimiter`'s fetch and alarm on its Durable Object's storage, and
//! `durableObjectStore`'s step POSTed to the organization's `SvcLimiter`. Their state lives in JS (the
//! object's storage and `alarmAt`), so a restart of the core loses none of it.

use super::js::{call_method, get, object, resolved};
use super::{settle, tasks};
use wasm_bindgen::prelude::*;

/// The storage key of the fleet's state text.
const KEY: &str = "fleet";

/// What a storage method or a fetch gave once settled; a throw or a rejection is its error.
async fn called(obj: &JsValue, name: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let got = call_method(obj, name, args)?;
    settle::promise(&resolved(&got)).await
}

/// Why a step was not taken: its text is not a step (answered 400), or the storage failed (500).
enum Failed {
    NotAStep(String),
    Storage(JsValue),
}

impl From<JsValue> for Failed {
    fn from(e: JsValue) -> Failed {
        Failed::Storage(e)
    }
}

/// One step (`request`: `fleet::Request` as text) on the state in `limiter.ctx.storage`, atomic:
/// between the load and the put only storage is awaited, so the object's input gate holds every
/// other request and alarm until the step's writes are in its storage. The alarm is set when the
/// next end of a lease or claim changes (`limiter.alarmAt`). Gives the reply text.
async fn step(limiter: &JsValue, request: &str) -> Result<String, Failed> {
    let storage = get(&get(limiter, "ctx"), "storage");
    let state = called(&storage, "get", &[KEY.into()]).await?.as_string();
    let applied = crate::fleet::apply(state.as_deref(), None, js_sys::Date::now() as i64, request)
        .map_err(|e| Failed::NotAStep(e.message))?;
    if let Some(state) = applied.state {
        called(&storage, "put", &[KEY.into(), state.into()]).await?;
    }
    if let Some(wake) = applied.wake_at.map(|t| JsValue::from_f64(t as f64)) {
        if get(limiter, "alarmAt") != wake {
            called(&storage, "setAlarm", std::slice::from_ref(&wake)).await?;
            js_sys::Reflect::set(limiter, &"alarmAt".into(), &wake)?;
        }
    }
    Ok(applied.reply)
}

/// One operation of `durableObjectConnectionStore` on this object's storage: `{ op, key, value? }`
/// (get, set, delete) as JSON; its answer `{ "value": text | null }`.
async fn connection_op(limiter: &JsValue, request: &str) -> Result<String, Failed> {
    use svc_json::Obj;
    let not_one = || Failed::NotAStep("the request is not a connection store operation".into());
    let v = svc_json::parse(request).map_err(|_| not_one())?;
    let o: &Obj = v.as_object().ok_or_else(not_one)?;
    let op: &str = o.field("op").map_err(|_| not_one())?;
    let key: &str = o.field("key").map_err(|_| not_one())?;
    let storage = get(&get(limiter, "ctx"), "storage");
    let key = JsValue::from_str(&format!("connection:{key}"));
    let value = match op {
        "get" => called(&storage, "get", &[key]).await?.as_string(),
        "set" => {
            let value: &str = o.field("value").map_err(|_| not_one())?;
            called(&storage, "put", &[key, value.into()]).await?;
            None
        }
        "delete" => {
            called(&storage, "delete", &[key]).await?;
            None
        }
        _ => return Err(not_one()),
    };
    let mut out = String::from("{\"value\":");
    match value {
        Some(v) => svc_json::write::string(&mut out, &v),
        None => out.push_str("null"),
    }
    out.push('}');
    Ok(out)
}

/// `SvcLimiter.fetch(request)`: the step POSTed as the request's text (or, at `/connection`, a
/// connection store's operation); its reply (200), or why not as text: 400 when the text is not a
/// step, 500 when the storage failed.
#[wasm_bindgen(js_name = __limiterFetch, skip_typescript)]
pub fn limiter_fetch(limiter: JsValue, request: JsValue) -> js_sys::Promise {
    tasks::spawn(async move {
        let connection = get(&request, "url")
            .as_string()
            .is_some_and(|u| u.ends_with("/connection"));
        let stepped = match called(&request, "text", &[]).await {
            Ok(text) if connection => {
                connection_op(&limiter, &text.as_string().unwrap_or_default()).await
            }
            Ok(text) => step(&limiter, &text.as_string().unwrap_or_default()).await,
            Err(e) => Err(Failed::Storage(e)),
        };
        let text = "text/plain; charset=utf-8";
        let (status, body, kind) = match stepped {
            Ok(reply) => (200, reply, "application/json"),
            Err(Failed::NotAStep(message)) => (400, message, text),
            Err(Failed::Storage(e)) => (500, super::message_of(&e), text),
        };
        let headers = web_sys::Headers::new()?;
        headers.set("content-type", kind)?;
        let init = web_sys::ResponseInit::new();
        init.set_status(status);
        init.set_headers(&headers);
        web_sys::Response::new_with_opt_str_and_init(Some(&body), &init).map(Into::into)
    })
}

/// `SvcLimiter.alarm()`: the step that ends the leases and claims whose time is up, though nobody
/// asks, and sets the alarm for the next end.
#[wasm_bindgen(js_name = __limiterAlarm, skip_typescript)]
pub fn limiter_alarm(limiter: JsValue) -> js_sys::Promise {
    tasks::spawn(async move {
        js_sys::Reflect::set(&limiter, &"alarmAt".into(), &JsValue::UNDEFINED)?;
        match step(&limiter, &crate::fleet::Request::State.to_json()).await {
            Ok(_) => Ok(JsValue::UNDEFINED),
            Err(Failed::NotAStep(message)) => Err(JsValue::from_str(&message)),
            Err(Failed::Storage(e)) => Err(e),
        }
    })
}

/// `durableObjectStore(namespace).step(key, request)`: the step POSTed to the `SvcLimiter` object of
/// the organization `key`; its reply text, or an Error saying what the object answered.
#[wasm_bindgen(js_name = __durableStep, skip_typescript)]
pub fn durable_step(namespace: JsValue, key: JsValue, request: JsValue) -> js_sys::Promise {
    tasks::spawn(async move {
        let id = call_method(&namespace, "idFromName", &[key])?;
        let stub = call_method(&namespace, "get", &[id])?;
        let init = object(&[("method", "POST".into()), ("body", request)]);
        let url = JsValue::from_str("https://svc-limiter/step");
        let res = called(&stub, "fetch", &[url, init.into()]).await?;
        let text = called(&res, "text", &[]).await?;
        if get(&res, "ok").is_truthy() {
            return Ok(text);
        }
        let status = get(&res, "status").as_f64().unwrap_or(0.0) as u16;
        let text = text.as_string().unwrap_or_default();
        Err(js_sys::Error::new(&format!("SvcLimiter answered {status}: {text}")).into())
    })
}

/// `durableObjectConnectionStore(namespace)`'s `op` (get, set, delete) on `key`: POSTed to the
/// `SvcLimiter` object of that key, whose storage keeps it; get's text or null.
#[wasm_bindgen(js_name = __durableConnection, skip_typescript)]
pub fn durable_connection(
    namespace: JsValue,
    op: String,
    key: String,
    value: JsValue,
) -> js_sys::Promise {
    tasks::spawn(async move {
        let id = call_method(
            &namespace,
            "idFromName",
            &[format!("connection/{key}").into()],
        )?;
        let stub = call_method(&namespace, "get", &[id])?;
        let mut body = String::from("{\"op\":");
        svc_json::write::string(&mut body, &op);
        body.push_str(",\"key\":");
        svc_json::write::string(&mut body, &key);
        if let Some(v) = value.as_string() {
            body.push_str(",\"value\":");
            svc_json::write::string(&mut body, &v);
        }
        body.push('}');
        let init = object(&[("method", "POST".into()), ("body", body.into())]);
        let url = JsValue::from_str("https://svc-limiter/connection");
        let res = called(&stub, "fetch", &[url, init.into()]).await?;
        let text = called(&res, "text", &[])
            .await?
            .as_string()
            .unwrap_or_default();
        if !get(&res, "ok").is_truthy() {
            let status = get(&res, "status").as_f64().unwrap_or(0.0) as u16;
            return Err(
                js_sys::Error::new(&format!("SvcLimiter answered {status}: {text}")).into(),
            );
        }
        let answer = svc_json::parse(&text)
            .map_err(|_| js_sys::Error::new("SvcLimiter's answer is not JSON"))?;
        Ok(
            match answer
                .as_object()
                .and_then(|o| o.get("value"))
                .and_then(|v| v.as_str())
            {
                Some(v) => JsValue::from_str(v),
                None => JsValue::NULL,
            },
        )
    })
}
