//! The device flow for tools without a browser: the code asked for, and each poll's answer read (pending, slow down, another data center, the grant).

use super::form;
use crate::oauth::{self, Granted, Step};
use crate::secret::Secret;
use svc_core::error::{Error, ErrorKind};
use svc_json::{Json, Obj};

/// The wait between polls when the server names none, and the least one honoured.
pub const INTERVAL_MS: i64 = 5_000;
const INTERVAL_MIN_MS: i64 = 100;
/// What `slow_down` adds to the wait.
pub const SLOW_DOWN_MS: i64 = 5_000;
/// How long a device code lives when the server does not say.
const LIFE_MS: i64 = 300_000;

/// The form that starts the flow.
pub fn code_form(client_id: &str, scopes: &[String]) -> String {
    let scope = scopes.join(",");
    form(&[
        ("client_id", client_id),
        ("scope", &scope),
        ("grant_type", "device_request"),
        ("access_type", "offline"),
        ("prompt", "consent"),
    ])
}

/// The form of a poll.
pub fn poll_form(client_id: &str, client_secret: &Secret, device_code: &Secret) -> String {
    form(&[
        ("client_id", client_id),
        ("client_secret", client_secret.expose()),
        ("grant_type", "device_token"),
        ("code", device_code.expose()),
    ])
}

/// What the user is shown, and what the tool polls with.
#[derive(Clone, Debug, PartialEq)]
pub struct Code {
    pub device_code: Secret,
    pub user_code: String,
    pub verification_url: String,
    pub expires_at: i64,
    pub interval_ms: i64,
}

fn decode(message: &str) -> Error {
    Error::new(
        ErrorKind::Decode,
        format!("the accounts server's answer to the device login {message}"),
    )
}

fn object(status: u16, body: &[u8]) -> Result<Json<'_>, Error> {
    if status != 200 {
        return Err(Error::new(
            ErrorKind::Api,
            format!("the accounts server answered the device login with HTTP {status}"),
        )
        .with_status(status));
    }
    let text = std::str::from_utf8(body).map_err(|_| decode("is not JSON"))?;
    let v = svc_json::parse(text).map_err(|_| decode("is not JSON"))?;
    v.as_object()
        .ok_or_else(|| decode("is not a JSON object"))?;
    Ok(v)
}

fn error_named(o: &Obj) -> Option<String> {
    o.get("error").map(|e| {
        e.as_str()
            .filter(|s| {
                s.len() <= 40
                    && s.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b' ')
            })
            .unwrap_or("an error")
            .to_string()
    })
}

/// The answer to `code_form`, at `now`.
pub fn read_code(status: u16, body: &[u8], now: i64) -> Result<Code, Error> {
    let v = object(status, body)?;
    let Some(o) = v.as_object() else {
        return Err(decode("is not a JSON object"));
    };
    if let Some(e) = error_named(o) {
        return Err(Error::new(
            ErrorKind::Unauthorized,
            format!("the accounts server refused to start the device login ({e}): check the client id and that the client may use the device flow"),
        ));
    }
    let text = |name: &str| {
        o.get(name)
            .and_then(Json::as_str)
            .filter(|s| !s.is_empty() && s.len() <= 4096)
    };
    let (Some(device_code), Some(user_code)) = (text("device_code"), text("user_code")) else {
        return Err(decode("has no device_code or user_code"));
    };
    let url = text("verification_url")
        .or_else(|| text("verification_uri"))
        .ok_or_else(|| decode("has no verification_url"))?;
    let secs = |name: &str, or: i64| {
        o.get(name)
            .and_then(Json::as_f64)
            .filter(|s| s.is_finite() && *s > 0.0)
            .map_or(or, |s| (s * 1000.0).min(3_600_000.0) as i64)
    };
    Ok(Code {
        device_code: device_code.into(),
        user_code: user_code.to_string(),
        verification_url: url.to_string(),
        expires_at: now + secs("expires_in", LIFE_MS),
        interval_ms: secs("interval", INTERVAL_MS).max(INTERVAL_MIN_MS),
    })
}

/// A poll's answer.
#[derive(Debug, PartialEq)]
pub enum Poll {
    /// The user has not answered yet: poll again after the interval.
    Pending,
    /// Polled too soon: wait longer.
    SlowDown,
    /// The user's data center is another: poll its accounts server (`accounts-server`, or its `location`).
    OtherDc {
        accounts_server: Option<String>,
        location: Option<String>,
        /// The device code to poll that server with, when it names one.
        device_code: Option<Secret>,
    },
    Granted(Granted),
}

/// The answer to `poll_form`, at `now`.
pub fn read_poll(status: u16, body: &[u8], now: i64) -> Result<Poll, Error> {
    if status == 200 {
        if let Ok(v) = object(status, body) {
            if let Some(o) = v.as_object() {
                match error_named(o).as_deref() {
                    Some("authorization_pending") => return Ok(Poll::Pending),
                    Some("slow_down") => return Ok(Poll::SlowDown),
                    Some("other_dc") => {
                        let text =
                            |name: &str| o.get(name).and_then(Json::as_str).map(str::to_string);
                        return Ok(Poll::OtherDc {
                            accounts_server: text("accounts-server")
                                .or_else(|| text("accounts_server")),
                            location: text("location"),
                            device_code: text("device_code")
                                .filter(|c| !c.is_empty() && c.len() <= 4096)
                                .map(Secret::from),
                        });
                    }
                    Some("access_denied") => {
                        return Err(Error::new(
                            ErrorKind::Unauthorized,
                            "the user declined the device login (access_denied)",
                        ))
                    }
                    Some("expired") | Some("expired_token") => return Err(Error::new(
                        ErrorKind::Unauthorized,
                        "the device login's code expired before the user approved it: start again",
                    )),
                    _ => {}
                }
            }
        }
    }
    oauth::read(status, body, now, Step::Device)
        .map(Poll::Granted)
        .map_err(|r| r.error)
}
