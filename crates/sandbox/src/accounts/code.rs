//! Self-verifying grant codes, signed with the client's secret so the server of their location redeems them.

use super::mac::{hex, hmac, same, unhex};
use svc_core::request::{parse_query, percent_encode};

/// How long an authorization code can be redeemed: a minute.
pub const CODE_LIFETIME_MS: i64 = 60_000;

/// Where a grant came from: a consent's redirect, or a device approval handed to another location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Consent,
    Device,
}

/// What a code grants: to whom, which scopes, for which redirect and location, until when.
#[derive(Clone, Debug, PartialEq)]
pub struct Grant {
    pub kind: Kind,
    pub client_id: String,
    pub user: String,
    pub scopes: String,
    /// Empty for a device grant.
    pub redirect_uri: String,
    pub location: String,
    pub expires_at: i64,
    pub nonce: u64,
}

/// The part that names a code among the used ones: its MAC.
pub fn mark(code: &str) -> Option<&str> {
    code.rsplit_once('.').map(|(_, mac)| mac)
}

/// The client id a code claims (unverified: to find the secret it must be verified with).
pub fn claimed_client(code: &str) -> Option<String> {
    payload(code).and_then(|(fields, _, _)| field(&fields, "c"))
}

fn field(fields: &[(String, String)], name: &str) -> Option<String> {
    fields
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
}

/// A code's parts: its fields, the bytes the MAC covers, the MAC.
type Parts = (Vec<(String, String)>, Vec<u8>, Vec<u8>);

/// The fields, the payload's bytes and the MAC of a code's text.
fn payload(code: &str) -> Option<Parts> {
    let rest = code.strip_prefix("1000.")?;
    let (body, mac) = rest.split_once('.')?;
    let bytes = unhex(body)?;
    let text = std::str::from_utf8(&bytes).ok()?;
    Some((parse_query(text)?, bytes.clone(), unhex(mac)?))
}

impl Grant {
    /// The code of this grant, signed with `secret`.
    pub fn seal(&self, secret: &str) -> String {
        let kind = match self.kind {
            Kind::Consent => "code",
            Kind::Device => "device",
        };
        let mut text = String::new();
        for (i, (k, v)) in [
            ("k", kind),
            ("c", &self.client_id),
            ("u", &self.user),
            ("s", &self.scopes),
            ("r", &self.redirect_uri),
            ("l", &self.location),
            ("e", &self.expires_at.to_string()),
            ("n", &self.nonce.to_string()),
        ]
        .into_iter()
        .enumerate()
        {
            if i > 0 {
                text.push('&');
            }
            text.push_str(k);
            text.push('=');
            percent_encode(v, &mut text);
        }
        let mac = hmac(secret.as_bytes(), text.as_bytes());
        format!("1000.{}.{}", hex(text.as_bytes()), hex(&mac))
    }

    /// The grant of `code` when `secret` signed it; `None` for a forged, altered or malformed code.
    pub fn open(code: &str, secret: &str) -> Option<Grant> {
        let (fields, bytes, mac) = payload(code)?;
        if !same(&hmac(secret.as_bytes(), &bytes), &mac) {
            return None;
        }
        let get = |name| field(&fields, name);
        let kind = match get("k")?.as_str() {
            "code" => Kind::Consent,
            "device" => Kind::Device,
            _ => return None,
        };
        Some(Grant {
            kind,
            client_id: get("c")?,
            user: get("u")?,
            scopes: get("s")?,
            redirect_uri: get("r")?,
            location: get("l")?,
            expires_at: get("e")?.parse().ok()?,
            nonce: get("n")?.parse().ok()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grant() -> Grant {
        Grant {
            kind: Kind::Consent,
            client_id: "1000.C&1".into(),
            user: "a+b@example.com".into(),
            scopes: "SvcBooks.fullaccess.all,SvcInventory.items.READ".into(),
            redirect_uri: "http://127.0.0.1:9/cb?x=1&y=2".into(),
            location: "eu".into(),
            expires_at: 1_700_000_060_000,
            nonce: 42,
        }
    }

    #[test]
    fn a_code_opens_with_its_secret_only() {
        let code = grant().seal("s3cret");
        assert!(code.starts_with("1000."));
        assert_eq!(Grant::open(&code, "s3cret"), Some(grant()));
        assert_eq!(Grant::open(&code, "other"), None);
        assert_eq!(claimed_client(&code).as_deref(), Some("1000.C&1"));
        assert_eq!(mark(&code).map(str::len), Some(64));
    }

    #[test]
    fn an_altered_code_does_not_open() {
        let code = grant().seal("s");
        let (body, mac) = code.trim_start_matches("1000.").split_once('.').unwrap();
        let text = String::from_utf8(unhex(body).unwrap()).unwrap();
        let forged = text.replace("l=eu", "l=us");
        let forged = format!("1000.{}.{mac}", hex(forged.as_bytes()));
        assert_eq!(Grant::open(&forged, "s"), None);
        for broken in [
            "",
            "1000.",
            "1000.zz.00",
            "x.00.00",
            &code[..code.len() - 1],
        ] {
            assert_eq!(Grant::open(broken, "s"), None, "{broken}");
        }
        let device = Grant {
            kind: Kind::Device,
            ..grant()
        };
        assert_eq!(
            Grant::open(&device.seal("s"), "s").unwrap().kind,
            Kind::Device
        );
    }
}
