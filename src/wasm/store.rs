//! A fleet store in JS as the send loop reaches it: one that runs steps itself (`step`), or one that loads and compare-and-sets the state's text (`load`, `save`) around `fleet::apply`.

use super::js::get;
use super::settle;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The default of `rateLimit.storeTimeoutMs`, and how long `redisStore().close()` waits for Redis.
pub const STORE_TIMEOUT_MS: u32 = 10_000;

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

    /// Runs one step (`fleet::Request` as text): the reply's text, or why the store failed.
    pub async fn step(&self, request: String) -> Result<String, String> {
        if self.runs_steps {
            let got = self
                .call("step", &[self.key.clone().into(), request.into()])
                .await?;
            return got
                .as_string()
                .ok_or_else(|| "the store's step() did not give a text".to_string());
        }
        for _ in 0..CAS_TRIES {
            let loaded = self.call("load", &[self.key.clone().into()]).await?;
            let text = get(&loaded, "text").as_string();
            let now = get(&loaded, "now")
                .as_f64()
                .filter(|n| n.is_finite())
                .ok_or("the store's load() did not give { text, now }")?;
            let applied = crate::fleet::apply(text.as_deref(), now as i64, &request)
                .map_err(|e| e.message)?;
            let Some(state) = applied.state else {
                return Ok(applied.reply);
            };
            let args = [
                self.key.clone().into(),
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

/// One step on a fleet's shared state (`fleet::apply`) for a store that runs steps itself
/// (`SvcLimiter`): `state` as the store kept it (null: none yet), `now` its clock in ms since the
/// epoch, `request` the holder's text; gives `fleet::Applied` as an object.
#[wasm_bindgen(js_name = __fleetApply, skip_typescript)]
pub fn fleet_apply(state: Option<String>, now: f64, request: &str) -> Result<JsValue, JsValue> {
    let applied = crate::fleet::apply(state.as_deref(), now as i64, request)
        .map_err(|e| super::to_js_error(&e))?;
    Ok(super::json_to_js(&crate::json::to_string(&applied)))
}

/// The text of the step that changes nothing but the leases and claims whose time is up
/// (`fleet::Request::State`): what `SvcLimiter`'s alarm runs, so that JS holds no copy of the format.
#[wasm_bindgen(js_name = __fleetSweep, skip_typescript)]
pub fn fleet_sweep() -> String {
    crate::fleet::Request::State.to_json()
}

/// `svc-sdk/redis`'s Lua scripts on the key of an organization's state: the state's text and the
/// server's TIME (seconds, microseconds); a save of the text if the version is still the one loaded,
/// the key living two days past its last change; and those two days in ms, the save's last argument.
#[wasm_bindgen(js_name = __redisScripts, skip_typescript)]
pub fn redis_scripts() -> js_sys::Array {
    const LOAD: &str = "local t = redis.call('TIME') return { redis.call('HGET', KEYS[1], 's') or false, t[1], t[2] }";
    const SAVE: &str = "if (redis.call('HGET', KEYS[1], 'v') or '0') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 's', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1";
    const KEEP_MS: &str = "172800000";
    [LOAD, SAVE, KEEP_MS]
        .into_iter()
        .map(JsValue::from_str)
        .collect()
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
        let mut most = super::settle::timer(STORE_TIMEOUT_MS.into());
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
        false => Err(super::to_js_error(&crate::error::Error::config(
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
        _ => Err(super::to_js_error(&crate::error::Error::config(
            "redisStore({ url } or { client }, prefix?) needs either a redis:// URL or a client of the redis package",
        ))),
    }
}
