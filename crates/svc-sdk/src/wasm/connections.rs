//! The JS `createConnections`: each customer's consent, redirect, record and client, over the connect steps, the platform's fetch and the user's store.

use super::client::{transport_of, Client};
use super::js::{get, to_js_error};
use super::options::{self, Options};
use super::platform::{Js, Watchers};
use super::settle;
use crate::connect::authorize::{self, Pending, STATE_BYTES};
use crate::connect::device::{self, Poll};
use crate::connect::record::{Record, Status};
use crate::connect::redirect::Redirect;
use crate::connect::seal::{Sealer, NONCE_BYTES};
use crate::connect::servers::Servers;
use crate::connect::{self, form};
use crate::error::{Error, ErrorKind};
use crate::oauth::{self, Grant, Granted, Step};
use crate::secret::Secret;
use crate::send::{accounts_post, Failure, Platform, Transport};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
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

/// What every method of a `createConnections` object shares.
pub struct Inner {
    client_id: String,
    client_secret: Secret,
    redirect_uri: String,
    scopes: Vec<String>,
    region: String,
    servers: Servers,
    sealer: Sealer,
    store: JsValue,
    on_reauthorize: Option<js_sys::Function>,
    /// The clients' defaults, checked.
    defaults: JsValue,
    platform: Js,
    timeout_ms: u32,
    /// The records read, by connection id, and when.
    kept: RefCell<HashMap<String, (Rc<Record>, i64)>>,
    /// The states whose redirect is being handled in this process: a second one is refused.
    taking: RefCell<HashSet<String>>,
    /// The grants whose revocation `onReauthorize` was told of (connection id and sealed token).
    told: RefCell<HashSet<(String, String)>>,
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
                crate::echo::quoted(&region)
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
        let link = Link {
            inner: self.inner.clone(),
            id,
            opts: opts.clone(),
            ready: RefCell::default(),
        };
        Ok(Client::connected(opts, Rc::new(link)))
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

impl Inner {
    fn scopes_for(&self, options: &JsValue) -> Result<Vec<String>, JsValue> {
        if options.is_undefined() {
            return Ok(self.scopes.clone());
        }
        let operations = text_list(&get(options, "operations"), "operations")?;
        let scopes = text_list(&get(options, "scopes"), "scopes")?;
        match (&operations, &scopes) {
            (None, None) => Ok(self.scopes.clone()),
            _ => authorize::scopes(operations.as_deref(), scopes.as_deref())
                .map_err(|e| to_js_error(&e)),
        }
    }

    /// Calls the store's `name`, within the store timeout; a throw, a rejection or no answer is a network error.
    async fn store_call(&self, name: &str, args: &[JsValue]) -> Result<JsValue, Failure> {
        let broke = |why: String| {
            Failure::from(Error::new(
                ErrorKind::Network,
                format!("the connection store's {name}() failed: {why}"),
            ))
        };
        let method: js_sys::Function = get(&self.store, name).unchecked_into();
        let args: js_sys::Array = args.iter().collect();
        let called = method
            .apply(&self.store, &args)
            .map_err(|e| broke(super::message_of(&e)))?;
        let answer = settle::promise(&super::js::resolved(&called));
        let timer = self.platform.sleep(STORE_TIMEOUT_MS);
        match crate::send::race::race(answer, timer).await {
            crate::send::race::First::A(Ok(v)) => Ok(v),
            crate::send::race::First::A(Err(e)) => Err(broke(super::message_of(&e))),
            crate::send::race::First::B(()) => {
                Err(broke(format!("no answer within {STORE_TIMEOUT_MS} ms")))
            }
        }
    }

    async fn get_text(&self, key: &str) -> Result<Option<String>, Failure> {
        let v = self.store_call("get", &[key.into()]).await?;
        if v.is_null() || v.is_undefined() {
            return Ok(None);
        }
        match v.as_string() {
            Some(s) if s.len() <= 64 * 1024 => Ok(Some(s)),
            _ => Err(Error::new(
                ErrorKind::Decode,
                "the connection store's get() gave something other than a string or null",
            )
            .into()),
        }
    }

    async fn set(&self, key: &str, value: String) -> Result<(), Failure> {
        self.store_call("set", &[key.into(), value.into()])
            .await
            .map(|_| ())
    }

    async fn delete(&self, key: &str) -> Result<(), Failure> {
        self.store_call("delete", &[key.into()]).await.map(|_| ())
    }

    /// The connection's record from the store (`None`: not known).
    async fn read(&self, id: &str) -> Result<Option<Record>, Failure> {
        let Some(text) = self.get_text(&connect::record_key(id)).await? else {
            return Ok(None);
        };
        match Record::from_json(&text).filter(|r| r.connection_id == id) {
            Some(r) => Ok(Some(r)),
            None => Err(Error::new(
                ErrorKind::Decode,
                format!(
                    "the connection store holds a record of connection {} that is not one",
                    crate::echo::quoted(id)
                ),
            )
            .into()),
        }
    }

    /// The record, as read within `FRESH_MS`, else read again.
    async fn current(&self, id: &str) -> Result<Rc<Record>, Failure> {
        let now = self.platform.now_ms();
        if let Some((r, at)) = self.kept.borrow().get(id) {
            if now - at < FRESH_MS {
                return Ok(r.clone());
            }
        }
        let Some(record) = self.read(id).await? else {
            return Err(Error::new(
                ErrorKind::Unauthorized,
                format!(
                    "connection {} is not known: send its user to connections.authorizeUrl first",
                    crate::echo::quoted(id)
                ),
            )
            .into());
        };
        Ok(self.keep(record))
    }

    fn keep(&self, record: Record) -> Rc<Record> {
        let now = self.platform.now_ms();
        let mut kept = self.kept.borrow_mut();
        if kept.len() >= KEPT_MAX {
            kept.retain(|_, (_, at)| now - *at < FRESH_MS);
        }
        if kept.len() >= KEPT_MAX {
            kept.clear();
        }
        let record = Rc::new(record);
        kept.insert(record.connection_id.clone(), (record.clone(), now));
        record
    }

    /// The grant of `record`: its refresh token opened.
    fn grant(&self, record: &Record) -> Result<Grant, Failure> {
        let refresh = self
            .sealer
            .open(&record.connection_id, record.sealed.expose())?;
        Grant::new(
            &self.client_id,
            self.client_secret.expose(),
            refresh.expose(),
            &record.accounts_url,
            oauth::MAX_REFRESHES,
        )
        .map_err(Failure::from)
    }

    /// Posts `form` to the accounts server at `url`; every secret sent is out of any failure.
    async fn post(
        &self,
        url: &str,
        form: String,
        what: &str,
        secrets: &[&str],
    ) -> Result<(u16, Vec<u8>), Failure> {
        accounts_post(&self.platform, url, form, self.timeout_ms, what)
            .await
            .map_err(|f| self.redacted(f, secrets))
    }

    fn redacted(&self, f: Failure, secrets: &[&str]) -> Failure {
        let all = secrets.iter().copied().chain([self.client_secret.expose()]);
        all.fold(f, |f, s| f.finish(Some(s), None))
    }

    async fn redirected(&self, url: &str) -> Result<Record, Failure> {
        let redirect = Redirect::parse(url)?;
        let key = connect::state_key(&redirect.state);
        if !self.taking.borrow_mut().insert(key.clone()) {
            return Err(used_state().into());
        }
        let taken = self.take_state(&key).await;
        self.taking.borrow_mut().remove(&key);
        let pending = taken?;
        if let Some(e) = &redirect.error {
            let e = if e == "access_denied" {
                "declined the authorization (access_denied)".to_string()
            } else {
                "'s authorization ended with an error".into()
            };
            return Err(Error::new(
                ErrorKind::Unauthorized,
                format!(
                    "the user {e}: connection {} was not made",
                    crate::echo::quoted(&pending.connection_id)
                ),
            )
            .into());
        }
        let (region, accounts) = redirect.accounts(&self.servers, &pending.region)?;
        let Some(code) = &redirect.code else {
            return Err(Error::new(ErrorKind::Verification, "the redirect carries no code").into());
        };
        let exchange = form(&[
            ("grant_type", "authorization_code"),
            ("client_id", &self.client_id),
            ("client_secret", self.client_secret.expose()),
            ("redirect_uri", &self.redirect_uri),
            ("code", code.expose()),
        ]);
        let token_url = format!("{accounts}{}", oauth::TOKEN_PATH);
        let what = "the grant code exchange";
        let (status, body) = self
            .post(&token_url, exchange, what, &[code.expose()])
            .await?;
        let granted = oauth::read(status, &body, self.platform.now_ms(), Step::Exchange)
            .map_err(|r| self.redacted(r.error.into(), &[code.expose()]))?;
        let (region, accounts) = (region.to_string(), accounts.to_string());
        self.connected(
            &pending.connection_id,
            &region,
            &accounts,
            pending.scopes,
            granted,
        )
        .await
    }

    /// The state's pending authorization, taken from the store (deleted before it is used).
    async fn take_state(&self, key: &str) -> Result<Pending, Failure> {
        let text = self.get_text(key).await?;
        let pending = text
            .as_deref()
            .and_then(Pending::from_json)
            .ok_or_else(used_state)?;
        self.delete(key).await?;
        if pending.expires_at <= self.platform.now_ms() {
            return Err(used_state().into());
        }
        Ok(pending)
    }

    /// A new grant for connection `id`: its record kept (the refresh token sealed), and the grant it replaces revoked.
    async fn connected(
        &self,
        id: &str,
        region: &str,
        accounts: &str,
        scopes: Vec<String>,
        granted: Granted,
    ) -> Result<Record, Failure> {
        let Some(refresh) = granted.refresh_token else {
            return Err(Error::new(
                ErrorKind::Decode,
                "the accounts server gave no refresh token",
            )
            .into());
        };
        let nonce = random::<NONCE_BYTES>()?;
        let record = Record {
            connection_id: id.to_string(),
            region: region.to_string(),
            accounts_url: accounts.to_string(),
            api_domain: granted.access.domain.clone(),
            scopes,
            status: Status::Active,
            connected_at: self.platform.now_ms(),
            sealed: self.sealer.seal(id, &refresh, nonce).into(),
        };
        let old = self.read(id).await.ok().flatten();
        self.set(&connect::record_key(id), record.to_json()).await?;
        self.keep(record.clone());
        if let Some(old) = old {
            if let Ok(g) = self.grant(&old) {
                let _ = self.revoke_at(&old.accounts_url, &g).await;
            }
        }
        Ok(record)
    }

    async fn revoke_at(&self, accounts: &str, grant: &Grant) -> Result<(), Failure> {
        let [_, refresh] = grant.secrets();
        let mut url = format!("{accounts}{}?token=", connect::REVOKE_PATH);
        crate::request::percent_encode(refresh, &mut url);
        let (status, _) = self
            .post(&url, String::new(), "the revocation", &[refresh])
            .await?;
        if status != 200 {
            let e = Error::new(
                ErrorKind::Api,
                format!("the accounts server answered the revocation with HTTP {status}"),
            );
            return Err(e.with_status(status).into());
        }
        Ok(())
    }

    async fn revoke(&self, id: &str) -> Result<(), Failure> {
        let Some(record) = self.read(id).await? else {
            return Ok(());
        };
        if let Ok(grant) = self.grant(&record) {
            self.revoke_at(&record.accounts_url, &grant).await?;
        }
        self.delete(&connect::record_key(id)).await?;
        self.kept.borrow_mut().remove(id);
        Ok(())
    }

    /// After a call failed because the connection's grant was revoked: its record says so, once,
    /// and onReauthorize is told; `false` when the record holds another grant by now (a reconnect).
    async fn reauthorize(&self, id: &str, sealed: &Secret) -> bool {
        self.kept.borrow_mut().remove(id);
        let Ok(Some(mut record)) = self.read(id).await else {
            return true;
        };
        if record.sealed != *sealed {
            return false;
        }
        if record.status != Status::Reauthorize {
            record.status = Status::Reauthorize;
            let _ = self.set(&connect::record_key(id), record.to_json()).await;
        }
        self.keep(record);
        let first = self
            .told
            .borrow_mut()
            .insert((id.to_string(), sealed.expose().to_string()));
        if let (true, Some(f)) = (first, &self.on_reauthorize) {
            let _ = f.call1(&JsValue::UNDEFINED, &JsValue::from_str(id));
        }
        true
    }

    async fn device_code(
        &self,
        accounts: &str,
        scopes: &[String],
    ) -> Result<device::Code, Failure> {
        let url = format!("{accounts}{}", connect::DEVICE_CODE_PATH);
        let form = device::code_form(&self.client_id, scopes);
        let (status, body) = self.post(&url, form, "the device login", &[]).await?;
        Ok(device::read_code(status, &body, self.platform.now_ms())?)
    }

    /// Polls until the user approved (the connection kept), declined, or the code expired.
    async fn device_poll(
        &self,
        id: &str,
        code: device::Code,
        mut accounts: String,
        scopes: Vec<String>,
    ) -> Result<Record, Failure> {
        let mut interval = code.interval_ms;
        loop {
            let now = self.platform.now_ms();
            if now >= code.expires_at {
                return Err(Error::new(
                    ErrorKind::Unauthorized,
                    "the device login's code expired before the user approved it: start again",
                )
                .into());
            }
            self.platform
                .sleep(u64::try_from(interval.min(code.expires_at - now)).unwrap_or(0))
                .await;
            let url = format!("{accounts}{}", connect::DEVICE_TOKEN_PATH);
            let form = device::poll_form(&self.client_id, &self.client_secret, &code.device_code);
            let (status, body) = self
                .post(&url, form, "the device login", &[code.device_code.expose()])
                .await?;
            let poll = device::read_poll(status, &body, self.platform.now_ms())
                .map_err(|e| self.redacted(e.into(), &[code.device_code.expose()]))?;
            match poll {
                Poll::Pending => {}
                Poll::SlowDown => interval += device::SLOW_DOWN_MS,
                Poll::OtherDc {
                    accounts_server,
                    location,
                } => {
                    let region = match (&accounts_server, &location) {
                        (Some(url), _) => self.servers.region_of(url),
                        (None, Some(loc)) => self.servers.of_region(loc).map(|_| loc.as_str()),
                        (None, None) => None,
                    };
                    let Some(url) = region.and_then(|r| self.servers.of_region(r)) else {
                        return Err(Error::new(ErrorKind::Verification, "the accounts server sent the device login to an accounts server that is not a data center's (accountsServers): nothing was sent to it").into());
                    };
                    accounts = url.to_string();
                }
                Poll::Granted(granted) => {
                    let region = self
                        .servers
                        .region_of(&accounts)
                        .unwrap_or(&self.region)
                        .to_string();
                    return self
                        .connected(id, &region, &accounts, scopes, granted)
                        .await;
                }
            }
        }
    }
}

fn used_state() -> Error {
    Error::new(
        ErrorKind::Verification,
        "the redirect's state is unknown, already used or older than 10 minutes: nothing was sent; start again at connections.authorizeUrl",
    )
}

/// A connection's client's way to its transport: made from the connection's record, made anew when the grant changes.
pub struct Link {
    inner: Rc<Inner>,
    id: String,
    opts: Options,
    /// The transport of the grant last read (its sealed refresh token).
    ready: RefCell<Option<(Rc<Transport<Js>>, Secret)>>,
}

impl Link {
    pub fn ready(&self) -> Option<Rc<Transport<Js>>> {
        self.ready.borrow().as_ref().map(|(t, _)| t.clone())
    }

    pub async fn transport(&self) -> Result<Rc<Transport<Js>>, Failure> {
        let record = self.inner.current(&self.id).await?;
        if record.status == Status::Reauthorize {
            let message = format!(
                "connection {} must be authorized again: its grant was revoked (send its user to connections.authorizeUrl)",
                crate::echo::quoted(&self.id)
            );
            return Err(Error::new(ErrorKind::Unauthorized, message)
                .with_reauthorize()
                .into());
        }
        if let Some((t, sealed)) = self.ready.borrow().as_ref() {
            if *sealed == record.sealed {
                return Ok(t.clone());
            }
        }
        let grant = self.inner.grant(&record)?;
        let mut opts = self.opts.clone();
        opts.credential = crate::send::Credential::OAuth(grant);
        let t = Rc::new(transport_of(&opts));
        *self.ready.borrow_mut() = Some((t.clone(), record.sealed.clone()));
        Ok(t)
    }

    pub async fn failed(&self, f: Failure) -> Failure {
        if !f.error.reauthorize() {
            return f;
        }
        let sealed = self.ready.borrow_mut().take().map(|(_, s)| s);
        match sealed {
            Some(sealed) if !self.inner.reauthorize(&self.id, &sealed).await => Error::new(
                ErrorKind::Unauthorized,
                format!(
                    "connection {} was authorized again while this call ran with its old grant: call again",
                    crate::echo::quoted(&self.id)
                ),
            )
            .into(),
            _ => f,
        }
    }
}
