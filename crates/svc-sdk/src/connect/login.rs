//! The device flow's polling over the platform's fetch: no faster than the server allows, another data center followed (only one of the table's), every secret out of a failure.

use super::device::{self, Code, Poll};
use super::servers::Servers;
use super::DEVICE_TOKEN_PATH;
use crate::oauth::Granted;
use crate::secret::Secret;
use crate::send::{accounts_post, Failure, Platform};
use svc_core::error::{Error, ErrorKind};

/// Who polls, and where it starts.
pub struct Login<'a> {
    pub client_id: &'a str,
    pub secret: &'a Secret,
    pub servers: &'a Servers,
    /// The accounts server the code came from.
    pub accounts: String,
    /// Each poll's wait for an answer (0: a minute).
    pub timeout_ms: u32,
}

/// Polls until the user approved (the grant, and the accounts server that gave it), declined, or
/// the code expired.
pub async fn poll<P: Platform>(
    p: &P,
    login: Login<'_>,
    code: &Code,
) -> Result<(Granted, String), Failure> {
    let (mut interval, mut device_code, mut accounts) =
        (code.interval_ms, code.device_code.clone(), login.accounts);
    loop {
        let now = p.now_ms();
        if now >= code.expires_at {
            return Err(Error::new(
                ErrorKind::Unauthorized,
                "the device login's code expired before the user approved it: start again",
            )
            .into());
        }
        p.sleep(u64::try_from(interval.min(code.expires_at - now)).unwrap_or(0))
            .await;
        let secrets = [device_code.expose(), login.secret.expose()];
        let url = format!("{accounts}{DEVICE_TOKEN_PATH}");
        let form = device::poll_form(login.client_id, login.secret, &device_code);
        let (status, body) = accounts_post(p, &url, form, login.timeout_ms, "the device login")
            .await
            .map_err(|f| f.without_secrets(secrets))?;
        let poll = device::read_poll(status, &body, p.now_ms())
            .map_err(|e| Failure::from(e).without_secrets(secrets))?;
        match poll {
            Poll::Pending => {}
            Poll::SlowDown => interval += device::SLOW_DOWN_MS,
            Poll::Granted(granted) => return Ok((granted, accounts)),
            Poll::OtherDc {
                accounts_server,
                location,
                device_code: next,
            } => {
                let region = match (&accounts_server, &location) {
                    (Some(url), _) => login.servers.region_of(url),
                    (None, Some(loc)) => login.servers.of_region(loc).map(|_| loc.as_str()),
                    (None, None) => None,
                };
                let Some(other) = region.and_then(|r| login.servers.of_region(r)) else {
                    return Err(Error::new(
                        ErrorKind::Verification,
                        "the accounts server sent the device login to an accounts server that is not a data center's (accountsServers): nothing was sent to it",
                    )
                    .into());
                };
                accounts = other.to_string();
                device_code = next.unwrap_or(device_code);
            }
        }
    }
}
