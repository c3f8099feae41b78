//! The access token: its text, when it expires, the API domain its grant named, and whether it is still valid.

use crate::secret::Secret;
use serde::Serialize;

/// A token the token function, the grant or the fleet gave.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AccessToken {
    pub token: Secret,
    /// Ms since the epoch (`None`: the giver did not say).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<i64>,
    /// The grant's `api_domain`, checked as an `apiDomain` is: where calls with it go.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
}

impl AccessToken {
    pub fn new(token: impl Into<Secret>, expires_at: Option<i64>) -> AccessToken {
        AccessToken {
            token: token.into(),
            expires_at,
            domain: None,
        }
    }

    /// Still accepted by the service at `now` (a token without an expiry always is).
    pub fn valid(&self, now: i64) -> bool {
        self.expires_at.is_none_or(|at| now < at)
    }

    pub fn text(&self) -> &str {
        self.token.expose()
    }
}

impl From<&str> for AccessToken {
    fn from(token: &str) -> AccessToken {
        AccessToken::new(token, None)
    }
}

impl From<String> for AccessToken {
    fn from(token: String) -> AccessToken {
        AccessToken::new(token, None)
    }
}
