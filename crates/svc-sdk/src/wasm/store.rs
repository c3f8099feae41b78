//! A fleet store in JS as the send loop reaches it: one that runs steps itself (`step`), or one that loads and compare-and-sets the state's text (`load`, `save`) around `fleet::apply`.

use super::js::get;
use super::settle;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// How often a compare-and-set store is asked again when another holder saved first.
const CAS_TRIES: u32 = 64;

/// What `rateLimit.store` must be, for the config error of anything else.
pub const USAGE: &str =
    "rateLimit.store must be a store from redisStore() or durableObjectStore(): \
an object with step(key, request), or with load(key) and save(key, expected, version, text)";

/// The user's store and the key of the organization's state in it.
#[derive(Clone)]
pub struct Store {
    object: JsValue,
    key: String,
    runs_steps: bool,
}

impl Store {
    /// `object` if it has the shape of a store; else `None`.
    pub fn new(object: JsValue, key: String) -> Option<Store> {
        let has = |name: &str| get(&object, name).is_function();
        let runs_steps = has("step");
        (runs_steps || (has("load") && has("save"))).then_some(Store {
            object,
            key,
            runs_steps,
        })
    }

    /// Runs one step (`fleet::Request` as text) on the organization's state, or on the state under
    /// `key` (a credential's token): the reply's text, or why the store failed.
    pub async fn step(&self, key: Option<String>, request: String) -> Result<String, String> {
        let key = key.unwrap_or_else(|| self.key.clone());
        if self.runs_steps {
            let got = self.call("step", &[key.into(), request.into()]).await?;
            return got
                .as_string()
                .ok_or_else(|| "the store's step() did not give a text".to_string());
        }
        for _ in 0..CAS_TRIES {
            let loaded = self.call("load", &[key.clone().into()]).await?;
            let text = get(&loaded, "text").as_string();
            let now = get(&loaded, "now")
                .as_f64()
                .filter(|n| n.is_finite())
                .ok_or("the store's load() did not give { text, now }")?;
            let version = get(&loaded, "version").as_f64();
            let version = version.filter(|v| v.fract() == 0.0 && *v >= 0.0 && *v < 2f64.powi(53));
            let applied = crate::fleet::apply(
                text.as_deref(),
                version.map(|v| v as u64),
                now as i64,
                &request,
            )
            .map_err(|e| e.message)?;
            let Some(state) = applied.state else {
                return Ok(applied.reply);
            };
            let args = [
                key.clone().into(),
                (applied.expected as f64).into(),
                (applied.version as f64).into(),
                state.into(),
            ];
            if self.call("save", &args).await?.is_truthy() {
                return Ok(applied.reply);
            }
        }
        Err(format!(
            "the shared state changed under every one of {CAS_TRIES} tries"
        ))
    }

    /// Calls the store's method `name` and waits for its result; a throw or a rejection is its message.
    async fn call(&self, name: &str, args: &[JsValue]) -> Result<JsValue, String> {
        let method: js_sys::Function = get(&self.object, name).unchecked_into();
        let args: js_sys::Array = args.iter().collect();
        let called = method.apply(&self.object, &args).map_err(|e| message(&e))?;
        settle::promise(&super::js::resolved(&called))
            .await
            .map_err(|e| message(&e))
    }
}

/// The message of what a store threw: an Error's, else the value as text.
fn message(e: &JsValue) -> String {
    get(e, "message")
        .as_string()
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the store failed".into())
}

/// `svc-sdk/redis`'s Lua scripts on the key of a state: the state's text, the server's TIME
/// (seconds, microseconds) and the version kept beside the text; a save of the text if the version is still the one loaded,
/// the key living two days past its last change (`KEEP_MS`).
const LOAD: &str =
    "local t = redis.call('TIME') return { redis.call('HGET', KEYS[1], 's') or false, t[1], t[2], redis.call('HGET', KEYS[1], 'v') or false }";
const SAVE: &str = "if (redis.call('HGET', KEYS[1], 'v') or '0') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 's', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1";
const KEEP_MS: &str = "172800000";

/// `svc-sdk/redis`'s own connection: a client of the redis package (`redis`, the module) to `url`.
/// A first connection that fails fails the step (the core asks again within storeTimeoutMs) instead
/// of holding every step until the server answers (`retry` gives false until the connection first
/// opened, then `__redisBackoff`); once open, a lost connection is reopened, and steps fail at once
/// meanwhile (disableOfflineQueue). Its errors go to a listener that does nothing, one made in JS
/// (`Function.prototype`), so that it outlives a restart of the core.
#[wasm_bindgen(js_name = __redisClient, skip_typescript)]
pub fn redis_client(redis: JsValue, url: JsValue, retry: JsValue) -> Result<JsValue, JsValue> {
    use super::js::{call_method, object};
    let socket = object(&[
        ("connectTimeout", 2000.into()),
        ("reconnectStrategy", retry),
    ]);
    let options = object(&[
        ("url", url),
        ("disableOfflineQueue", true.into()),
        ("socket", socket.into()),
    ]);
    let client = call_method(&redis, "createClient", &[options.into()])?;
    let function = js_sys::Reflect::get(&js_sys::global(), &"Function".into())?;
    let nothing = js_sys::Reflect::get(&function, &"prototype".into())?;
    call_method(&client, "on", &["error".into(), nothing])?;
    Ok(client)
}

/// How long a lost connection of `svc-sdk/redis` waits before its `attempt`th reopening, in ms.
#[wasm_bindgen(js_name = __redisBackoff, skip_typescript)]
pub fn redis_backoff(attempt: u32) -> u32 {
    50u32.saturating_mul(2u32.saturating_pow(attempt)).min(1000)
}

/// Runs one of the Lua scripts on `key` with `args` through `client` (the redis package's).
async fn eval(
    client: &JsValue,
    script: &str,
    key: &str,
    args: &[JsValue],
) -> Result<JsValue, JsValue> {
    let keys: js_sys::Array = std::iter::once(JsValue::from_str(key)).collect();
    let arguments: js_sys::Array = args.iter().collect();
    let options = super::js::object(&[("keys", keys.into()), ("arguments", arguments.into())]);
    let called = super::js::call_method(client, "eval", &[script.into(), options.into()])?;
    settle::promise(&super::js::resolved(&called)).await
}

/// `redisStore().load(key)` through `client`, connected: `{ text, now, version }`, the state's text (null:
/// none yet) and the server's clock in ms.
#[wasm_bindgen(js_name = __redisLoad, skip_typescript)]
pub fn redis_load(client: JsValue, key: String) -> js_sys::Promise {
    super::tasks::spawn(async move {
        let got = eval(&client, LOAD, &key, &[]).await?;
        let at = |i: u32| js_sys::Reflect::get_u32(&got, i).unwrap_or_default();
        let number = |v: JsValue| {
            v.as_string()
                .and_then(|t| t.parse::<f64>().ok())
                .or(v.as_f64())
        };
        let (seconds, micros) = (
            number(at(1)).unwrap_or(f64::NAN),
            number(at(2)).unwrap_or(f64::NAN),
        );
        let text = at(0);
        let text = if text.is_string() {
            text
        } else {
            JsValue::NULL
        };
        let now = JsValue::from_f64(seconds * 1000.0 + (micros / 1000.0).floor());
        let version = number(at(3)).map_or(JsValue::UNDEFINED, JsValue::from_f64);
        Ok(super::js::object(&[("text", text), ("now", now), ("version", version)]).into())
    })
}

/// `redisStore().save(key, expected, version, text)` through `client`, connected: whether the text
/// was saved (the version was still `expected`).
#[wasm_bindgen(js_name = __redisSave, skip_typescript)]
pub fn redis_save(
    client: JsValue,
    key: String,
    expected: f64,
    version: f64,
    text: String,
) -> js_sys::Promise {
    // Versions are whole numbers below 2^53 (`fleet::apply` gives them), written as the integers the
    // script compares.
    super::tasks::spawn(async move {
        let args = [
            (expected as u64).to_string().into(),
            (version as u64).to_string().into(),
            text.into(),
            KEEP_MS.into(),
        ];
        let saved = eval(&client, SAVE, &key, &args).await?;
        Ok((saved.as_f64() == Some(1.0)).into())
    })
}

/// `redisStore().close()` of the connection the store opened itself: `own` (its client, if made
/// yet) and `connecting` (the promise of that client once connected), settled within the default
/// `storeTimeoutMs`. A ready client quits; if Redis does not reply in time, its socket is unref'd
/// (the redis package cannot drop a socket once QUIT is sent) so that it keeps no process running.
/// One not ready is dropped once its socket is made (nor can it drop a socket being made), or when
/// the time is up: a server that accepts and never answers holds close() no longer than that.
#[wasm_bindgen(js_name = __redisClose, skip_typescript)]
pub fn redis_close(connecting: JsValue, own: JsValue) -> js_sys::Promise {
    use super::js::{call_method, ignore, resolved};
    use crate::send::race::{race, First};
    super::tasks::spawn(async move {
        let mut most = super::settle::timer(crate::surface::STORE_TIMEOUT_MS.into());
        let connected = || super::settle::promise(&resolved(&connecting));
        let mut own = own;
        if !own.is_object() && !connecting.is_undefined() {
            if let First::A(Ok(c)) = race(connected(), &mut most).await {
                own = c;
            }
        }
        if !own.is_object() {
            return Ok(JsValue::UNDEFINED);
        }
        if get(&own, "isReady").as_bool() == Some(true) {
            if let Ok(quit) = call_method(&own, "quit", &[]) {
                let quit = super::settle::promise(&resolved(&quit));
                if let First::A(Ok(_)) = race(quit, &mut most).await {
                    return Ok(JsValue::UNDEFINED);
                }
            }
        } else {
            let socket = js_sys::Promise::new(&mut |made, _| {
                let _ = call_method(&own, "once", &["connect".into(), made.into()]);
            });
            let made = race(super::settle::promise(&socket), connected());
            let _ = race(made, &mut most).await;
        }
        let _ = call_method(&own, "unref", &[]);
        if let Ok(dropped) = call_method(&own, "disconnect", &[]) {
            ignore(&dropped);
        }
        Ok(JsValue::UNDEFINED)
    })
}

/// `durableObjectStore`'s namespace, as it was given: a config error unless it has the `idFromName`
/// and `get` functions of a Durable Object namespace binding.
#[wasm_bindgen(js_name = __fleetNamespace, skip_typescript)]
pub fn fleet_namespace(namespace: JsValue) -> Result<JsValue, JsValue> {
    let usable = ["idFromName", "get"]
        .into_iter()
        .all(|k| super::js::try_get(&namespace, k).is_ok_and(|f| f.is_function()));
    match usable {
        true => Ok(namespace),
        false => Err(super::to_js_error(&svc_core::error::Error::config(
            "durableObjectStore needs a Durable Object namespace binding of SvcLimiter (env.SVC_LIMITER)",
        ))),
    }
}

/// `redisStore(options)`'s `[url, client, prefix]`: exactly one of a redis:// URL (a string) and a
/// client of the redis package, and the keys' prefix (a string, "svc-sdk:" when not given); else a config error.
#[wasm_bindgen(js_name = __redisOptions, skip_typescript)]
pub fn redis_options(options: JsValue) -> Result<js_sys::Array, JsValue> {
    let read = |k: &str| match options.is_object() {
        true => super::js::try_get(&options, k),
        false => Ok(JsValue::UNDEFINED),
    };
    let (url, client, prefix) = (read("url"), read("client"), read("prefix"));
    let prefix = prefix.map(|p| match p.is_undefined() {
        true => JsValue::from_str("svc-sdk:"),
        false => p,
    });
    match (url, client, prefix) {
        (Ok(url), Ok(client), Ok(prefix))
            if url.is_undefined() != client.is_undefined()
                && (url.is_undefined() || url.is_string())
                && prefix.is_string() =>
        {
            Ok([url, client, prefix].into_iter().collect())
        }
        _ => Err(super::to_js_error(&svc_core::error::Error::config(
            "redisStore({ url } or { client }, prefix?) needs either a redis:// URL or a client of the redis package",
        ))),
    }
}

/// `redisConnectionStore().set(key, value)` through `client`, connected, under `prefix`: an
/// authorization's state expires when it is no longer accepted, a connection's record stays.
#[wasm_bindgen(js_name = __redisConnectionSet, skip_typescript)]
pub fn redis_connection_set(
    client: JsValue,
    prefix: String,
    key: String,
    value: String,
) -> js_sys::Promise {
    super::tasks::spawn(async move {
        let mut args = vec![JsValue::from_str(&format!("{prefix}{key}")), value.into()];
        if let Some(ms) = crate::connect::keep_ms(&key) {
            args.push(super::js::object(&[("PX", (ms as f64).into())]).into());
        }
        let called = super::js::call_method(&client, "set", &args)?;
        settle::promise(&super::js::resolved(&called)).await?;
        Ok(JsValue::UNDEFINED)
    })
}
