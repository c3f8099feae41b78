//! A connection made, replaced, revoked or marked for reauthorization: the redirect's state taken once, its code exchanged, the device flow polled.

use super::inner::Inner;
use super::random;
use crate::connect::authorize::Pending;
use crate::connect::device;
use crate::connect::login::{self, Login};
use crate::connect::record::{Record, Status};
use crate::connect::redirect::Redirect;
use crate::connect::seal::NONCE_BYTES;
use crate::connect::{self, form};
use crate::oauth::{self, Grant, Granted, Step};
use crate::secret::Secret;
use crate::send::{Failure, Platform};
use svc_core::error::{Error, ErrorKind};
use wasm_bindgen::prelude::*;

impl Inner {
    pub(super) async fn redirected(&self, url: &str) -> Result<Record, Failure> {
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
                    svc_core::echo::quoted(&pending.connection_id)
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
    pub(super) async fn take_state(&self, key: &str) -> Result<Pending, Failure> {
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
    pub(super) async fn connected(
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

    pub(super) async fn revoke_at(&self, accounts: &str, grant: &Grant) -> Result<(), Failure> {
        let [_, refresh] = grant.secrets();
        let mut url = format!("{accounts}{}?token=", connect::REVOKE_PATH);
        svc_core::request::percent_encode(refresh, &mut url);
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

    pub(super) async fn revoke(&self, id: &str) -> Result<(), Failure> {
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
    pub(super) async fn reauthorize(&self, id: &str, sealed: &Secret) -> bool {
        self.kept.borrow_mut().remove(id);
        let Ok(Some(mut record)) = self.read(id).await else {
            return true;
        };
        if record.sealed != *sealed {
            return false;
        }
        // The process that marks the record tells onReauthorize: once in a fleet, whoever saw it first.
        let marks = record.status != Status::Reauthorize;
        if marks {
            record.status = Status::Reauthorize;
            let _ = self.set(&connect::record_key(id), record.to_json()).await;
        }
        self.keep(record);
        let mut told = self.told.borrow_mut();
        if told.len() >= super::KEPT_MAX {
            told.clear();
        }
        let first = told.insert((id.to_string(), sealed.expose().to_string())) && marks;
        drop(told);
        if let (true, Some(f)) = (first, &self.on_reauthorize) {
            let _ = f.call1(&JsValue::UNDEFINED, &JsValue::from_str(id));
        }
        true
    }

    pub(super) async fn device_code(
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
    pub(super) async fn device_poll(
        &self,
        id: &str,
        code: device::Code,
        accounts: String,
        scopes: Vec<String>,
    ) -> Result<Record, Failure> {
        let login = Login {
            client_id: &self.client_id,
            secret: &self.client_secret,
            servers: &self.servers,
            accounts,
            timeout_ms: self.timeout_ms,
        };
        let (granted, accounts) = login::poll(&self.platform, login, &code).await?;
        let region = self
            .servers
            .region_of(&accounts)
            .unwrap_or(&self.region)
            .to_string();
        self.connected(id, &region, &accounts, scopes, granted)
            .await
    }
}

fn used_state() -> Error {
    Error::new(
        ErrorKind::Verification,
        "the redirect's state is unknown, already used or older than 10 minutes: nothing was sent; start again at connections.authorizeUrl",
    )
}
