//! The OAuth refresh-token grant: its request, its answer read and every failure classified, the refresh budget, and when a token is renewed.

use crate::access::AccessToken;
use crate::secret::Secret;
use svc_core::error::{Error, ErrorKind};
use svc_json::Json;

/// Where the grant is asked, below the accounts server's URL.
pub const TOKEN_PATH: &str = "/oauth/v2/token";
/// The accounts server's window for its refresh limit.
pub const WINDOW_MS: i64 = 600_000;
/// The accounts server's limit: access tokens per refresh token in any window.
pub const MAX_REFRESHES: u32 = 10;
/// A token is renewed this long before it expires, plus up to `JITTER_MS`, never more than half its life.
const MARGIN_MS: i64 = 60_000;
const JITTER_MS: f64 = 30_000.0;
/// A token's life as the answer gives it is read within these bounds.
const LIFE_MIN_MS: i64 = 1_000;
/// (A day: the fleet's state holds no time further ahead, `fleet::HORIZON_MS`.)
pub const LIFE_MAX_MS: i64 = svc_core::calendar::DAY_MS;
/// A token's life when the answer does not say (the service's).
const LIFE_DEFAULT_MS: i64 = 3_600_000;

/// A credential of the grant.
#[derive(Clone, Debug, PartialEq)]
pub struct Grant {
    pub client_id: String,
    client_secret: Secret,
    refresh_token: Secret,
    /// The accounts server, normalized (`https://accounts.svc.eu`).
    pub accounts_url: String,
    /// The most refreshes in a window (`oauth.maxRefreshes`).
    pub max_refreshes: u32,
}

/// Which request of the accounts server an answer is read for: what its errors call it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The refresh-token grant.
    Refresh,
    /// A grant code (a redirect's, a self-client's) exchanged for a refresh token.
    Exchange,
    /// The device flow's poll, once the user approved.
    Device,
}

impl Step {
    fn name(self) -> &'static str {
        match self {
            Step::Refresh => "the token refresh",
            Step::Exchange => "the grant code exchange",
            Step::Device => "the device login",
        }
    }
}

/// What a grant gave: the access token, and the refresh token a code or a device login gives.
#[derive(Clone, Debug, PartialEq)]
pub struct Granted {
    pub access: AccessToken,
    pub refresh_token: Option<Secret>,
}

/// Why a grant failed: its error, and whether asking again can help (`false`: the accounts server
/// said `invalid_code` or `invalid_client`, and the credential is stopped).
#[derive(Clone, Debug, PartialEq)]
pub struct Refused {
    pub error: Error,
    pub retry: bool,
}

impl Grant {
    /// The credential as `oauth` gives it; `accounts_url` already resolved from the region.
    pub fn new(
        client_id: &str,
        client_secret: &str,
        refresh_token: &str,
        accounts_url: &str,
        max_refreshes: u32,
    ) -> Result<Grant, Error> {
        for (name, value) in [
            ("clientId", client_id),
            ("clientSecret", client_secret),
            ("refreshToken", refresh_token),
        ] {
            if value.is_empty() || value.len() > 4096 || value.chars().any(char::is_control) {
                return Err(Error::config(format!(
                    "oauth.{name} must be a non-empty string of at most 4096 characters without control characters"
                )));
            }
        }
        let accounts_url = svc_core::family::normalize_api_domain(accounts_url)
            .map_err(|e| Error::config(e.message.replacen("apiDomain", "oauth.accountsUrl", 1)))?;
        if max_refreshes == 0 {
            return Err(Error::config("oauth.maxRefreshes must be at least 1"));
        }
        Ok(Grant {
            client_id: client_id.to_string(),
            client_secret: client_secret.into(),
            refresh_token: refresh_token.into(),
            accounts_url,
            max_refreshes,
        })
    }

    /// The credential's name that no one can read a secret from: SHA-256 of its accounts server,
    /// client id, client secret and refresh token, each after its length (so that no two
    /// credentials give the same text), 128 bits of it in hex. What a process and a fleet store key
    /// the credential's token by.
    #[cfg(feature = "server")]
    pub fn fingerprint(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut hash = Sha256::new();
        for part in [
            &self.accounts_url,
            &self.client_id,
            self.client_secret.expose(),
            self.refresh_token.expose(),
        ] {
            hash.update((part.len() as u64).to_be_bytes());
            hash.update(part.as_bytes());
        }
        let digest = hash.finalize();
        digest[..16].iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Where the grant is posted.
    pub fn url(&self) -> String {
        format!("{}{TOKEN_PATH}", self.accounts_url)
    }

    /// The grant's form body (`application/x-www-form-urlencoded`).
    pub fn form(&self) -> String {
        let mut out = String::from("grant_type=refresh_token");
        for (name, value) in [
            ("client_id", self.client_id.as_str()),
            ("client_secret", self.client_secret.expose()),
            ("refresh_token", self.refresh_token.expose()),
        ] {
            out.push('&');
            out.push_str(name);
            out.push('=');
            svc_core::request::percent_encode(value, &mut out);
        }
        out
    }

    /// The texts no error, record or store may show: the client secret and the refresh token.
    pub fn secrets(&self) -> [&str; 2] {
        [self.client_secret.expose(), self.refresh_token.expose()]
    }

    /// `error` with every spelling of the secrets put out of its texts.
    pub fn redact(&self, error: Error) -> Error {
        let mut error = error;
        for secret in self.secrets() {
            error = error.without_secret(Some(secret));
        }
        error
    }

    /// Reads the accounts server's answer to the grant, at `now`.
    pub fn read(&self, status: u16, body: &[u8], now: i64) -> Result<AccessToken, Refused> {
        read(status, body, now, Step::Refresh)
            .map(|g| g.access)
            .map_err(|r| Refused {
                error: self.redact(r.error),
                ..r
            })
    }
}

fn refused(kind: ErrorKind, retry: bool, message: String) -> Refused {
    Refused {
        error: Error::new(kind, message),
        retry,
    }
}

/// The answer read: a token, or what its `error` (at HTTP 200, as the accounts server answers
/// them) or its status says. The body is never quoted: a server may echo the secrets in it.
pub fn read(status: u16, body: &[u8], now: i64, step: Step) -> Result<Granted, Refused> {
    let server = "the accounts server";
    let what = step.name();
    if status != 200 {
        // Only an `error` the accounts server names stops a credential: a status of its own (a
        // load balancer's 408, a 404, a 403) may pass, and is asked again within the budget.
        let kind = match status {
            429 => ErrorKind::RateLimited,
            _ => ErrorKind::Api,
        };
        let message = format!("{server} answered {what} with HTTP {status}");
        let mut r = refused(kind, true, message);
        r.error = r.error.with_status(status);
        return Err(r);
    }
    let not_json = || {
        refused(
            ErrorKind::Decode,
            true,
            format!("{server}'s answer to {what} is not the JSON object of a token"),
        )
    };
    let text = std::str::from_utf8(body).map_err(|_| not_json())?;
    let answer = svc_json::parse(text).map_err(|_| not_json())?;
    let Some(o) = answer.as_object() else {
        return Err(not_json());
    };
    if let Some(e) = o.get("error") {
        return Err(error_of(e.as_str(), step));
    }
    let token = match o.get("access_token").and_then(Json::as_str) {
        Some(t) if !t.is_empty() && t.len() <= svc_core::request::TOKEN_MAX => t,
        Some(t) if !t.is_empty() => {
            return Err(refused(
                ErrorKind::Decode,
                true,
                format!("{server} gave an access token longer than the {} characters a request header can carry", svc_core::request::TOKEN_MAX),
            ))
        }
        _ => {
            return Err(refused(
                ErrorKind::Decode,
                true,
                format!("{server}'s answer to {what} has no access_token"),
            ))
        }
    };
    if svc_core::request::authorization(token).is_err() {
        return Err(refused(
            ErrorKind::Decode,
            true,
            format!("{server} gave an access token that a request header cannot carry"),
        ));
    }
    let domain = match o.get("api_domain").and_then(Json::as_str) {
        None => None,
        Some(d) => Some(svc_core::family::granted_api_domain(d).ok_or_else(|| {
            refused(
                ErrorKind::Decode,
                true,
                format!("{server} gave an api_domain that is not a data center's API domain (regions) nor a loopback origin"),
            )
        })?),
    };
    let refresh_token = refresh_token_of(o, step)?;
    Ok(Granted {
        access: AccessToken {
            token: token.into(),
            expires_at: Some(now.saturating_add(life_ms(o))),
            domain,
        },
        refresh_token,
    })
}

/// The refresh token a code exchange or a device login gives (a refresh gives none).
fn refresh_token_of(o: &svc_json::Obj<'_>, step: Step) -> Result<Option<Secret>, Refused> {
    match (step, o.get("refresh_token").and_then(Json::as_str)) {
        (Step::Refresh, _) => Ok(None),
        (_, Some(t)) if !t.is_empty() && t.len() <= 4096 && !t.chars().any(char::is_control) => {
            Ok(Some(Secret::from(t)))
        }
        _ => Err(refused(
            ErrorKind::Decode,
            true,
            format!("the accounts server's answer to {} has no refresh_token: the authorization must ask for access_type=offline and prompt=consent", step.name()),
        )),
    }
}

/// How long the token lives: `expires_in` in seconds, or in ms where `expires_in_sec` (seconds) is
/// beside it (older answers); the service's hour when neither is a number.
fn life_ms(o: &svc_json::Obj<'_>) -> i64 {
    let secs = |v: f64| v * 1000.0;
    let ms = match (
        o.get("expires_in_sec").and_then(Json::as_f64),
        o.get("expires_in").and_then(Json::as_f64),
    ) {
        (Some(s), _) => secs(s),
        (None, Some(s)) => secs(s),
        (None, None) => LIFE_DEFAULT_MS as f64,
    };
    if ms.is_nan() {
        return LIFE_DEFAULT_MS;
    }
    (ms as i64).clamp(LIFE_MIN_MS, LIFE_MAX_MS)
}

/// What an `error` of the accounts server means, and what the user should do.
fn error_of(code: Option<&str>, step: Step) -> Refused {
    let what = step.name();
    match code {
        Some("invalid_code") if step != Step::Refresh => refused(
            ErrorKind::Unauthorized,
            false,
            format!("the accounts server does not accept the code of {what} (invalid_code): a code is accepted once, within about a minute, by the client and data center it was given for; ask the user to authorize again"),
        ),
        Some("Access Denied") => refused(
            ErrorKind::RateLimited,
            true,
            format!("the accounts server refused the token refresh (Access Denied): more than {MAX_REFRESHES} access tokens were asked for this refresh token within 10 minutes; it accepts a refresh again once the window has passed"),
        ),
        Some("invalid_code") => {
            let mut r = refused(
                ErrorKind::Unauthorized,
                false,
                "the accounts server does not accept the refresh token (invalid_code): it was revoked, replaced (a user keeps at most 20), or belongs to another data center; authorize again to get a new one and pass it as oauth.refreshToken".into(),
            );
            r.error = r.error.with_reauthorize();
            r
        }
        Some("invalid_client") => refused(
            ErrorKind::Unauthorized,
            false,
            "the accounts server does not know this client (invalid_client): check oauth.clientId and oauth.clientSecret, and that oauth.accountsUrl (or region) is the data center where the client was registered (accountsServers)".into(),
        ),
        other => {
            let named = other.filter(|o| {
                o.len() <= 40
                    && o.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b' ')
            });
            let code = named.map_or("an error".into(), svc_core::echo::quoted);
            let mut r = refused(
                ErrorKind::Api,
                true,
                format!("the accounts server refused {what} with {code}, which may pass: it is asked again within oauth.maxRefreshes"),
            );
            r.error = r.error.with_status(200);
            r
        }
    }
}

/// When a token that expires at `expires_at`, got at `now`, is renewed: before it expires by a
/// margin with jitter (`random` in [0, 1)), never more than half its life.
pub fn renew_at(now: i64, expires_at: i64, random: f64) -> i64 {
    let life = expires_at.saturating_sub(now).max(0);
    let margin = MARGIN_MS + (random.clamp(0.0, 1.0) * JITTER_MS) as i64;
    expires_at - margin.min(life / 2)
}

/// The refreshes of a credential in the last window, and until when the accounts server refuses
/// them: the rule of the budget, kept per process or in the fleet's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Budget {
    /// When each refresh of the window started, oldest first.
    pub started: Vec<i64>,
    /// The accounts server said Access Denied: no refresh before this.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_until: Option<i64>,
}

/// The most refreshes a budget remembers: a state that says more is cut to these.
const KEPT: usize = 1_000;

impl Budget {
    /// As a fleet's state keeps it.
    pub fn from_obj(o: &svc_json::Obj<'_>) -> Result<Budget, String> {
        let started: &[Json] = o.field("started")?;
        Ok(Budget {
            started: started
                .iter()
                .map(|t| svc_json::expect(t, "a refresh's time"))
                .collect::<Result<_, _>>()?,
            blocked_until: o.optional("blockedUntil")?,
        })
    }

    pub fn is_empty(&self) -> bool {
        self.started.is_empty() && self.blocked_until.is_none()
    }

    /// `None`: a refresh may start at `now`; else the earliest time one may.
    pub fn free_at(&mut self, max: u32, now: i64) -> Option<i64> {
        self.started.retain(|t| *t > now - WINDOW_MS && *t <= now);
        self.started.sort_unstable();
        let cut = self.started.len().saturating_sub(KEPT);
        self.started.drain(..cut);
        if let Some(until) = self.blocked_until.filter(|u| *u > now) {
            return Some(until.min(now + WINDOW_MS));
        }
        self.blocked_until = None;
        let n = self.started.len();
        let max = usize::try_from(max).unwrap_or(usize::MAX).max(1);
        (n >= max).then(|| self.started[n - max] + WINDOW_MS)
    }

    /// A refresh starts at `now`.
    pub fn spend(&mut self, now: i64) {
        self.started.push(now);
    }

    /// The accounts server said Access Denied at `now`: nothing more for a whole window.
    pub fn deny(&mut self, now: i64) {
        self.blocked_until = Some(now + WINDOW_MS);
    }

    /// The error of a refresh that cannot start before `at`.
    pub fn spent(max: u32, at: i64, now: i64) -> Error {
        let ms = u64::try_from(at - now).unwrap_or(0);
        Error::new(
            ErrorKind::RateLimited,
            format!("the access token needs a refresh, and the refresh budget ({max} in 10 minutes, oauth.maxRefreshes) is spent or the accounts server refuses more for now: the next is possible in {} s", ms.div_ceil(1000)),
        )
        .with_retry_after(Some(ms))
    }
}

#[cfg(test)]
mod tests;
