//! Where a user is sent to consent, and the state that brings the redirect back to its connection, once, within ten minutes.

use super::{form, AUTH_PATH, STATE_TTL_MS};
use serde::Serialize;
use svc_core::error::Error;
use svc_json::Obj;

/// The random bytes of a state.
pub const STATE_BYTES: usize = 32;

/// An authorization under way, kept in the store under its state's key until the redirect comes back.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pending {
    pub connection_id: String,
    pub scopes: Vec<String>,
    /// Where authorization started (the region's accounts server).
    pub region: String,
    pub expires_at: i64,
}

impl Pending {
    pub fn new(connection_id: &str, scopes: Vec<String>, region: &str, now: i64) -> Pending {
        Pending {
            connection_id: connection_id.to_string(),
            scopes,
            region: region.to_string(),
            expires_at: now + STATE_TTL_MS,
        }
    }

    pub fn to_json(&self) -> String {
        svc_json::to_string(self)
    }

    /// As the store gave it back; a text that is not one (a store that lies) is `None`.
    pub fn from_json(text: &str) -> Option<Pending> {
        let v = svc_json::parse(text).ok()?;
        let o: &Obj = v.as_object()?;
        let scopes: &[svc_json::Json] = o.field("scopes").ok()?;
        Some(Pending {
            connection_id: o.field::<&str>("connectionId").ok()?.to_string(),
            scopes: scopes
                .iter()
                .map(|s| s.as_str().map(str::to_string))
                .collect::<Option<_>>()?,
            region: o.field::<&str>("region").ok()?.to_string(),
            expires_at: o.field("expiresAt").ok()?,
        })
    }
}

/// A state from `STATE_BYTES` random bytes: unguessable, URL-safe.
pub fn state(random: &[u8; STATE_BYTES]) -> String {
    super::base64::encode(random)
}

/// The consent URL: `{accounts}/oauth/v2/auth?response_type=code&client_id&scope&redirect_uri&access_type=offline&prompt=consent&state`.
pub fn url(
    accounts_url: &str,
    client_id: &str,
    scopes: &[String],
    redirect_uri: &str,
    state: &str,
) -> String {
    let scope = scopes.join(",");
    let query = form(&[
        ("response_type", "code"),
        ("client_id", client_id),
        ("scope", &scope),
        ("redirect_uri", redirect_uri),
        ("access_type", "offline"),
        ("prompt", "consent"),
        ("state", state),
    ]);
    format!("{accounts_url}{AUTH_PATH}?{query}")
}

/// The scopes of `operations` (the operations' ids) or `scopes` as given: at least one, each a plain name.
pub fn scopes(
    operations: Option<&[String]>,
    scopes: Option<&[String]>,
) -> Result<Vec<String>, Error> {
    let list: Vec<String> = match (operations, scopes) {
        (Some(ops), _) => svc_core::catalog::required_scopes(ops.iter().map(String::as_str))
            .map_err(|e| Error::config(format!("operations: {e}")))?
            .into_iter()
            .map(str::to_string)
            .collect(),
        (None, Some(s)) => s.to_vec(),
        (None, None) => Vec::new(),
    };
    let plain = |s: &String| {
        !s.is_empty()
            && s.len() <= 200
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b".-_".contains(&b))
    };
    if list.is_empty() || !list.iter().all(plain) {
        return Err(Error::config(
            "connections need the scopes they ask for: operations (operation ids) or scopes (names like SvcBooks.invoices.READ)",
        ));
    }
    Ok(list)
}
