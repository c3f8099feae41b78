//! Connections: one app's customers, each with its consent, data center and sealed refresh token; the OAuth steps of getting one, as pure functions over the texts sent and received.

pub mod authorize;
pub mod base64;
pub mod device;
pub mod login;
pub mod record;
pub mod redirect;
pub mod seal;
pub mod servers;

/// Where a user consents, below an accounts server.
pub const AUTH_PATH: &str = "/oauth/v2/auth";
/// Where a refresh token is revoked (`?token=`).
pub const REVOKE_PATH: &str = "/oauth/v2/token/revoke";
/// Where the device flow starts, and where it is polled.
pub const DEVICE_CODE_PATH: &str = "/oauth/v3/device/code";
pub const DEVICE_TOKEN_PATH: &str = "/oauth/v3/device/token";

/// How long an authorization's state is accepted.
pub const STATE_TTL_MS: i64 = 600_000;
/// The longest connection id: it names a store key and is bound into every seal.
pub const ID_MAX: usize = 200;

use svc_core::error::Error;

/// A connection id as a caller gives it: a non-empty text of at most `ID_MAX` characters without control characters.
pub fn check_id(id: &str) -> Result<(), Error> {
    if id.is_empty() || id.chars().count() > ID_MAX || id.chars().any(char::is_control) {
        return Err(Error::config(format!(
            "a connectionId must be a non-empty string of at most {ID_MAX} characters without control characters"
        )));
    }
    Ok(())
}

/// The store key of a connection's record.
pub fn record_key(id: &str) -> String {
    format!("svc-sdk/connection/{id}")
}

/// The store key of an authorization's state: a hash of it, so that the store never holds a state a redirect would be accepted with.
pub fn state_key(state: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(state.as_bytes());
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("svc-sdk/state/{hex}")
}

/// How long a store that can let keys expire keeps `key`: an authorization's state no longer than it is accepted.
pub fn keep_ms(key: &str) -> Option<i64> {
    key.starts_with("svc-sdk/state/").then_some(STATE_TTL_MS)
}

/// `pairs` as an `application/x-www-form-urlencoded` text.
pub fn form(pairs: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (i, (name, value)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        out.push_str(name);
        out.push('=');
        svc_core::request::percent_encode(value, &mut out);
    }
    out
}

#[cfg(test)]
mod tests;
