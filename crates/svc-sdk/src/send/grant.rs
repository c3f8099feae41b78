//! The OAuth grant over the platform's fetch: one form posted to the accounts server, its answer read within a size and a time.

use super::race::{race, First};
use super::token::{Running, TokenFailure, TokenResult};
use super::{Failure, Outgoing, Platform};
use crate::oauth::{Grant, Refused};
use svc_core::catalog::Method;
use svc_core::error::{Error, ErrorKind};

/// The largest answer of the accounts server read: a token's JSON is far smaller.
const MAX_ANSWER: usize = 64 * 1024;
/// The wait for the accounts server when the client sets no per-attempt timeout.
const DEFAULT_TIMEOUT_MS: u32 = 60_000;

/// `f` with the grant's secrets out of every text, its cause's too.
pub(super) fn without_secrets(grant: &Grant, f: Failure) -> Failure {
    f.without_secrets(grant.secrets())
}

/// One grant, owned, so that every call waiting for the refresh can share it (`token::Refresh`).
pub(super) fn start<P: Platform>(p: &P, grant: &Grant, timeout_ms: u32) -> Running {
    let (p, grant) = (p.clone(), grant.clone());
    Box::pin(async move { run(&p, &grant, timeout_ms).await })
}

/// Posts `form` to the accounts server at `url` and reads its answer, within `timeout_ms` (0: a
/// minute) and `MAX_ANSWER` bytes: its status and body, or the failure (a timeout's message says `what`).
pub async fn post<P: Platform>(
    p: &P,
    url: &str,
    form: String,
    timeout_ms: u32,
    what: &str,
) -> Result<(u16, Vec<u8>), Failure> {
    let ms = match timeout_ms {
        0 => DEFAULT_TIMEOUT_MS,
        ms => ms,
    };
    let body = P::Body::from(form);
    let headers = [(
        "content-type".to_string(),
        "application/x-www-form-urlencoded".to_string(),
    )];
    let req = Outgoing {
        method: Method::Post,
        url,
        headers: &headers,
        authorization: None,
        body: &body,
        secret: None,
        raw: false,
        timeout_ms: ms,
        upstream: crate::origin::Upstream::Accounts,
    };
    let exchange = async {
        let answer = p.fetch(req).await?;
        let status = answer.status;
        let bytes = p.read(answer.raw, MAX_ANSWER).await?;
        Ok::<_, Failure>((status, bytes))
    };
    match race(exchange, p.sleep(ms.into())).await {
        First::A(got) => got,
        First::B(()) => Err(Error::new(
            ErrorKind::Timeout,
            format!("the accounts server did not answer {what} within {ms} ms"),
        )
        .into()),
    }
}

async fn run<P: Platform>(p: &P, grant: &Grant, timeout_ms: u32) -> TokenResult {
    let url = grant.url();
    let refused = |error: Error| {
        let error = without_secrets(grant, error.into()).error;
        TokenFailure::Grant(Refused { error, retry: true })
    };
    match post(p, &url, grant.form(), timeout_ms, "the token refresh").await {
        Ok((status, bytes)) => match grant.read(status, &bytes, p.now_ms()) {
            Ok(token) => Ok(Some(token)),
            Err(r) => Err(TokenFailure::Grant(r)),
        },
        Err(f) => Err(refused(f.error)),
    }
}
