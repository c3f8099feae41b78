//! What every method of a `createConnections` object shares: its options, the store reached within its timeout, the records kept a while, the accounts server reached through the platform's fetch.

use super::{text_list, FRESH_MS, KEPT_MAX, STORE_TIMEOUT_MS};
use crate::connect;
use crate::connect::authorize;
use crate::connect::record::Record;
use crate::connect::seal::Sealer;
use crate::connect::servers::Servers;
use crate::oauth::{self, Grant};
use crate::secret::Secret;
use crate::send::{accounts_post, Failure, Platform};
use crate::wasm::js::{get, to_js_error};
use crate::wasm::platform::Js;
use crate::wasm::settle;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use svc_core::error::{Error, ErrorKind};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// What every method of a `createConnections` object shares.
pub struct Inner {
    pub(super) client_id: String,
    pub(super) client_secret: Secret,
    pub(super) redirect_uri: String,
    pub(super) scopes: Vec<String>,
    pub(super) region: String,
    pub(super) servers: Servers,
    pub(super) sealer: Sealer,
    pub(super) store: JsValue,
    pub(super) on_reauthorize: Option<js_sys::Function>,
    /// The clients' defaults, checked.
    pub(super) defaults: JsValue,
    pub(super) platform: Js,
    pub(super) timeout_ms: u32,
    /// The records read, by connection id, and when.
    pub(super) kept: RefCell<HashMap<String, (Rc<Record>, i64)>>,
    /// The states whose redirect is being handled in this process: a second one is refused.
    pub(super) taking: RefCell<HashSet<String>>,
    /// The grants whose revocation `onReauthorize` was told of (connection id and sealed token).
    pub(super) told: RefCell<HashSet<(String, String)>>,
}

impl Inner {
    pub(super) fn scopes_for(&self, options: &JsValue) -> Result<Vec<String>, JsValue> {
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
    pub(super) async fn store_call(
        &self,
        name: &str,
        args: &[JsValue],
    ) -> Result<JsValue, Failure> {
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
            .map_err(|e| broke(crate::wasm::message_of(&e)))?;
        let answer = settle::promise(&crate::wasm::js::resolved(&called));
        let timer = self.platform.sleep(STORE_TIMEOUT_MS);
        match crate::send::race::race(answer, timer).await {
            crate::send::race::First::A(Ok(v)) => Ok(v),
            crate::send::race::First::A(Err(e)) => Err(broke(crate::wasm::message_of(&e))),
            crate::send::race::First::B(()) => {
                Err(broke(format!("no answer within {STORE_TIMEOUT_MS} ms")))
            }
        }
    }

    pub(super) async fn get_text(&self, key: &str) -> Result<Option<String>, Failure> {
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

    pub(super) async fn set(&self, key: &str, value: String) -> Result<(), Failure> {
        self.store_call("set", &[key.into(), value.into()])
            .await
            .map(|_| ())
    }

    pub(super) async fn delete(&self, key: &str) -> Result<(), Failure> {
        self.store_call("delete", &[key.into()]).await.map(|_| ())
    }

    /// The connection's record from the store (`None`: not known).
    pub(super) async fn read(&self, id: &str) -> Result<Option<Record>, Failure> {
        let Some(text) = self.get_text(&connect::record_key(id)).await? else {
            return Ok(None);
        };
        match Record::from_json(&text).filter(|r| r.connection_id == id) {
            Some(r) => Ok(Some(r)),
            None => Err(Error::new(
                ErrorKind::Decode,
                format!(
                    "the connection store holds a record of connection {} that is not one",
                    svc_core::echo::quoted(id)
                ),
            )
            .into()),
        }
    }

    /// The record, as read within `FRESH_MS`, else read again.
    pub(super) async fn current(&self, id: &str) -> Result<Rc<Record>, Failure> {
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
                    svc_core::echo::quoted(id)
                ),
            )
            .into());
        };
        Ok(self.keep(record))
    }

    pub(super) fn keep(&self, record: Record) -> Rc<Record> {
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
    pub(super) fn grant(&self, record: &Record) -> Result<Grant, Failure> {
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
    pub(super) async fn post(
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

    pub(super) fn redacted(&self, f: Failure, secrets: &[&str]) -> Failure {
        f.without_secrets(secrets.iter().copied().chain([self.client_secret.expose()]))
    }
}
