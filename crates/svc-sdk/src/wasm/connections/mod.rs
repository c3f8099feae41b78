//! The JS `createConnections`: each customer's consent, redirect, record and client, over the connect steps, the platform's fetch and the user's store.

mod grants;
mod inner;
mod link;

use super::client::Client;
use super::js::{get, to_js_error};
use super::options::{self, Options};
use super::platform::{Js, Watchers};
use crate::connect;
use crate::connect::authorize::{self, Pending, STATE_BYTES};
use crate::connect::seal::Sealer;
use crate::connect::servers::Servers;
use crate::send::{Failure, Platform};
use inner::Inner;
use link::Link;
use std::cell::RefCell;
use std::rc::Rc;
use svc_core::error::Error;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The members of createConnections' options that are its own; the others are its clients' defaults.
const OWN: [&str; 10] = [
    "clientId",
    "clientSecret",
    "redirectUri",
    "operations",
    "scopes",
    "store",
    "encryptionKey",
    "region",
    "accountsServers",
    "onReauthorize",
];
/// How long a connection's record read from the store is used before it is read again.
const FRESH_MS: i64 = 30_000;
/// The most connections whose record a process keeps at once.
const KEPT_MAX: usize = 10_000;
/// The wait for the store when the clients' defaults name none.
const STORE_TIMEOUT_MS: u64 = crate::surface::STORE_TIMEOUT_MS as u64;

fn config(message: impl Into<String>) -> JsValue {
    to_js_error(&Error::config(message))
}

fn failed(f: Failure) -> JsValue {
    to_js_error(&f.error)
}

/// `n` random bytes from the runtime's `crypto.getRandomValues`.
fn random<const N: usize>() -> Result<[u8; N], Error> {
    let crypto = get(&js_sys::global(), "crypto");
    let bytes = js_sys::Uint8Array::new_with_length(N as u32);
    super::js::call_method(&crypto, "getRandomValues", &[bytes.clone().into()]).map_err(|_| {
        Error::config("connections need crypto.getRandomValues, which this runtime lacks")
    })?;
    let mut out = [0u8; N];
    bytes.copy_to(&mut out);
    Ok(out)
}

/// The JS object `createConnections` gives (its methods wrapped by the glue).
#[wasm_bindgen(js_name = __Connections, skip_typescript)]
pub struct Connections {
    inner: Rc<Inner>,
}

fn text_list(v: &JsValue, name: &str) -> Result<Option<Vec<String>>, JsValue> {
    if v.is_undefined() {
        return Ok(None);
    }
    let bad = || config(format!("{name} must be an array of strings"));
    if !super::js::is_array(v) {
        return Err(bad());
    }
    let array: &js_sys::Array = v.unchecked_ref();
    array
        .iter()
        .map(|x| x.as_string().ok_or_else(bad))
        .collect::<Result<_, _>>()
        .map(Some)
}

fn required(options: &JsValue, name: &str) -> Result<String, JsValue> {
    match get(options, name).as_string() {
        Some(s) if !s.is_empty() && s.len() <= 4096 && !s.chars().any(char::is_control) => Ok(s),
        _ => Err(config(format!(
            "createConnections needs {name}: a non-empty string of at most 4096 characters without control characters"
        ))),
    }
}

/// `accountsServers`: region to URL overrides.
fn overrides(v: &JsValue) -> Result<Vec<(String, String)>, JsValue> {
    if v.is_undefined() {
        return Ok(Vec::new());
    }
    if !v.is_object() {
        return Err(config("accountsServers must be an object of region: URL"));
    }
    let entries = js_sys::Object::entries(v.unchecked_ref());
    entries
        .iter()
        .map(|pair| {
            let pair: js_sys::Array = pair.unchecked_into();
            match (pair.get(0).as_string(), pair.get(1).as_string()) {
                (Some(r), Some(u)) => Ok((r, u)),
                _ => Err(config("accountsServers must be an object of region: URL")),
            }
        })
        .collect()
}

/// The store: an object with get, set and delete; and `memoryConnectionStore()`'s own sealing key, if it is one.
fn store_of(v: &JsValue) -> Result<(JsValue, Option<String>), JsValue> {
    let has = |name: &str| get(v, name).is_function();
    if !v.is_object() || !has("get") || !has("set") || !has("delete") {
        return Err(config(
            "createConnections needs store: a ConnectionStore ({ get, set, delete }: memoryConnectionStore(), redisConnectionStore(), durableObjectConnectionStore() or your own)",
        ));
    }
    let mark = js_sys::Reflect::get(
        v,
        &js_sys::Symbol::for_("svc-sdk.memoryConnectionStore").into(),
    )
    .unwrap_or(JsValue::UNDEFINED);
    Ok((v.clone(), mark.as_string()))
}

fn sealer(options: &JsValue, memory: Option<String>) -> Result<Sealer, JsValue> {
    match get(options, "encryptionKey") {
        v if v.is_undefined() && memory.is_some() => {
            Sealer::from_base64(&memory.unwrap_or_default()).map_err(|e| to_js_error(&e))
        }
        v if v.is_undefined() => Err(config(
            "createConnections needs encryptionKey (32 bytes in base64: openssl rand -base64 32) to seal refresh tokens at rest; only memoryConnectionStore() may go without",
        )),
        v => match v.as_string() {
            Some(k) => Sealer::from_base64(&k).map_err(|e| to_js_error(&e)),
            None => Err(config("encryptionKey must be a string: 32 bytes in base64")),
        },
    }
}

/// The clients' defaults: every member but createConnections' own, checked as a connection client's options.
fn defaults(options: &JsValue) -> Result<(JsValue, Options), JsValue> {
    let copy = js_sys::Object::new();
    for pair in js_sys::Object::entries(options.unchecked_ref()).iter() {
        let pair: js_sys::Array = pair.unchecked_into();
        let name = pair.get(0).as_string().unwrap_or_default();
        if !OWN.contains(&name.as_str()) {
            js_sys::Reflect::set(&copy, &name.into(), &pair.get(1))?;
        }
    }
    let copy: JsValue = copy.into();
    let opts = options::read_connection(&copy)?;
    Ok((copy, opts))
}

#[wasm_bindgen(js_class = __Connections)]
impl Connections {
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Connections, JsValue> {
        if super::js::in_page() {
            return Err(config("connections hold the client secret and refresh tokens: create them on your server or in an edge worker, not in a page"));
        }
        if !options.is_object() {
            return Err(config("createConnections(options) needs an options object"));
        }
        let (defaults, opts) = defaults(&options)?;
        let operations = text_list(&get(&options, "operations"), "operations")?;
        let scopes = text_list(&get(&options, "scopes"), "scopes")?;
        let scopes = authorize::scopes(operations.as_deref(), scopes.as_deref())
            .map_err(|e| to_js_error(&e))?;
        let region = get(&options, "region")
            .as_string()
            .unwrap_or_else(|| "us".into());
        let servers = Servers::new(&overrides(&get(&options, "accountsServers"))?)
            .map_err(|e| to_js_error(&e))?;
        if servers.of_region(&region).is_none() {
            return Err(config(format!(
                "region {} is not a region",
                svc_core::echo::quoted(&region)
            )));
        }
        let redirect_uri = required(&options, "redirectUri")?;
        if !(redirect_uri.starts_with("https://") || redirect_uri.starts_with("http://")) {
            return Err(config(
                "redirectUri must be an absolute http(s) URL, as registered with the client",
            ));
        }
        let (store, memory) = store_of(&get(&options, "store"))?;
        let on_reauthorize = match get(&options, "onReauthorize") {
            v if v.is_undefined() => None,
            v if v.is_function() => Some(v.unchecked_into()),
            _ => return Err(config("onReauthorize must be a function")),
        };
        let platform = Js {
            fetch: opts.fetch.clone(),
            token: None,
            store: None,
            watch: Watchers {
                level: opts.level,
                logger: opts.logger.clone(),
                on_request: None,
                on_response: None,
            },
        };
        let inner = Inner {
            client_id: required(&options, "clientId")?,
            client_secret: required(&options, "clientSecret")?.into(),
            redirect_uri,
            scopes,
            region,
            servers,
            sealer: sealer(&options, memory)?,
            store,
            on_reauthorize,
            defaults,
            platform,
            timeout_ms: opts.timeout_ms,
            kept: RefCell::default(),
            taking: RefCell::default(),
            told: RefCell::default(),
        };
        Ok(Connections {
            inner: Rc::new(inner),
        })
    }

    /// Where to send the user: the consent URL, its state kept in the store for ten minutes.
    #[wasm_bindgen(js_name = authorizeUrl)]
    pub fn authorize_url(&self, id: JsValue, options: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        super::tasks::spawn(async move {
            let id = connection_id(&id)?;
            let scopes = inner.scopes_for(&options)?;
            let state = authorize::state(&random::<STATE_BYTES>().map_err(|e| to_js_error(&e))?);
            let pending = Pending::new(&id, scopes.clone(), &inner.region, inner.platform.now_ms());
            inner
                .set(&connect::state_key(&state), pending.to_json())
                .await
                .map_err(failed)?;
            let accounts = inner.servers.of_region(&inner.region).unwrap_or_default();
            Ok(authorize::url(
                accounts,
                &inner.client_id,
                &scopes,
                &inner.redirect_uri,
                &state,
            )
            .into())
        })
    }

    /// The redirect back from consent: its state taken once, its code exchanged at its data center, the connection kept.
    #[wasm_bindgen(js_name = handleRedirect)]
    pub fn handle_redirect(&self, request: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        super::tasks::spawn(async move {
            let url = url_of(&request)?;
            let record = inner.redirected(&url).await.map_err(failed)?;
            Ok(super::json_to_js(&record.public_json()))
        })
    }

    /// The connection, or null.
    pub fn get(&self, id: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        super::tasks::spawn(async move {
            let id = connection_id(&id)?;
            match inner.read(&id).await.map_err(failed)? {
                Some(r) => Ok(super::json_to_js(&r.public_json())),
                None => Ok(JsValue::NULL),
            }
        })
    }

    /// Revokes the connection's refresh token at its accounts server, then forgets it.
    pub fn revoke(&self, id: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        super::tasks::spawn(async move {
            let id = connection_id(&id)?;
            inner.revoke(&id).await.map_err(failed)?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// The device flow: `{ userCode, verificationUrl, expiresAt, done }`, `done` the connection once the user approved.
    #[wasm_bindgen(js_name = deviceLogin)]
    pub fn device_login(&self, id: JsValue, options: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        super::tasks::spawn(async move {
            let id = connection_id(&id)?;
            let scopes = inner.scopes_for(&options)?;
            let accounts = inner
                .servers
                .of_region(&inner.region)
                .unwrap_or_default()
                .to_string();
            let code = inner
                .device_code(&accounts, &scopes)
                .await
                .map_err(failed)?;
            let shown = super::js::object(&[
                ("userCode", code.user_code.clone().into()),
                ("verificationUrl", code.verification_url.clone().into()),
                ("expiresAt", (code.expires_at as f64).into()),
            ]);
            let polling = inner.clone();
            let done = super::tasks::spawn(async move {
                let record = polling
                    .device_poll(&id, code, accounts, scopes)
                    .await
                    .map_err(failed)?;
                Ok(super::json_to_js(&record.public_json()))
            });
            // A login left unawaited must not end the process with an unhandled rejection.
            crate::wasm::js::ignore(&done);
            js_sys::Reflect::set(&shown, &"done".into(), &done)?;
            Ok(shown.into())
        })
    }

    /// A client acting for the connection: its calls carry the connection's token, and no other's.
    pub fn client(&self, id: JsValue, options: JsValue) -> Result<Client, JsValue> {
        let id = connection_id(&id)?;
        let merged =
            js_sys::Object::assign(&js_sys::Object::new(), self.inner.defaults.unchecked_ref());
        if !options.is_undefined() {
            if !options.is_object() {
                return Err(config(
                    "connections.client(connectionId, options): options must be an object",
                ));
            }
            js_sys::Object::assign(&merged, options.unchecked_ref());
        }
        let opts = options::read_connection(&merged.into())?;
        let link = Link::new(self.inner.clone(), id, opts.clone());
        Ok(Client::later(opts, Rc::new(link)))
    }
}

fn connection_id(v: &JsValue) -> Result<String, JsValue> {
    let id = v
        .as_string()
        .ok_or_else(|| config("a connectionId must be a string"))?;
    connect::check_id(&id).map_err(|e| to_js_error(&e))?;
    Ok(id)
}

/// The URL of what `handleRedirect` was given: a Request's, a URL's, or a string.
fn url_of(v: &JsValue) -> Result<String, JsValue> {
    if let Some(s) = v.as_string() {
        return Ok(s);
    }
    match get(v, "url")
        .as_string()
        .or_else(|| get(v, "href").as_string())
    {
        Some(u) => Ok(u),
        None => Err(config(
            "handleRedirect takes the redirect: a Request, a URL or a string",
        )),
    }
}
