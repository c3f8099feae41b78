//! One attempt of a call: sent, raced against its abort and its timeout, its body read within
//! the limits; and what the loop reads of an answer (the limits it states, a Retry-After, the decoding).

use super::alarm::Alarm;
use super::race::{race, First};
#[cfg(feature = "server")]
use super::Deadline;
use super::{Answer, Call, Event, Failure, Options, Outgoing, Platform, ABORTED};
use crate::fleet::Seen;
use crate::retry;
use std::future::pending;
#[cfg(feature = "server")]
use std::future::Future;
use svc_core::catalog::{Method, Shape};
use svc_core::error::{Error, ErrorKind};
use svc_core::response::{self, Decoded};

/// What an attempt's answer said of the limits: its x-rate-limit-* headers (limit, remaining,
/// reset in seconds) and, for a 429, the wait its Retry-After asks for (1 s without one).
pub(super) fn seen<R>(got: &Result<Answer<R>, Failure>, now: i64) -> Seen {
    let Ok(answer) = got else {
        return Seen::default();
    };
    let num = |name: &str| answer.header(name)?.trim().parse::<u64>().ok();
    let count = |name: &str| num(name).and_then(|n| u32::try_from(n).ok());
    let back_off_ms = (answer.status == 429)
        .then(|| retry_after_ms(answer.header("retry-after"), now).map_or(1_000, saturate));
    Seen {
        limit: count("x-rate-limit-limit"),
        remaining: count("x-rate-limit-remaining"),
        reset_secs: num("x-rate-limit-reset"),
        back_off_ms,
    }
}

/// An attempt's body: read (a decoded call), or as it came (a raw call).
pub(super) enum Got<R> {
    Bytes(Vec<u8>),
    Raw(R),
}

pub(super) fn discard<P: Platform>(p: &P, got: Got<P::Raw>) {
    if let Got::Raw(raw) = got {
        p.discard(raw);
    }
}

/// One attempt raced against the call's abort and its timeout; the body is read within both.
pub(super) async fn attempt<P: Platform>(
    p: &P,
    call: &Call<'_, P>,
    n: u32,
    authorization: Option<&str>,
    secret: Option<&str>,
    alarm: &Alarm<'_, P>,
) -> Result<Answer<Got<P::Raw>>, Failure> {
    if let Some((kind, message)) = call.signal.and_then(|s| p.aborted(s)) {
        return Err(Error::new(kind, message).into());
    }
    let Options {
        timeout_ms,
        max_response_bytes,
        raw,
        ..
    } = call.options;
    let req = Outgoing {
        method: call.method,
        url: call.url,
        headers: call.headers,
        authorization,
        body: call.body,
        secret,
        raw,
        timeout_ms,
        upstream: crate::origin::Upstream::Service,
    };
    let (headers, authorized) = (call.headers, authorization.is_some());
    p.note(&call.note(
        n,
        secret,
        Event::Sending {
            headers,
            authorized,
        },
    ));
    let sent = p.now_ms();
    let since = || u64::try_from(p.now_ms() - sent).unwrap_or(0);
    let exchange = async {
        let (answer, body) = p.fetch(req).await?.with(());
        let ms = since();
        let status = answer.status;
        let headers = &answer.headers;
        let answered = Event::Answered {
            status,
            ms,
            headers,
        };
        p.note(&call.note(n, secret, answered));
        let got = if raw {
            Got::Raw(body)
        } else {
            Got::Bytes(p.read(body, max_response_bytes).await?)
        };
        Ok::<_, Failure>(answer.with(got).0)
    };
    let timeout = async {
        match timeout_ms {
            0 => pending().await,
            ms => alarm.until(sent.saturating_add(ms.into())).await,
        }
    };
    let raced = race(abort(p, call.signal), race(exchange, timeout)).await;
    let out = outcome(p, call.signal, timeout_ms, raced);
    if let Err(f) = &out {
        unanswered(p, call, n, secret, f, since());
    }
    out
}

/// What the race of an attempt's abort, its exchange and its timeout came to: a network failure
/// after the signal fired is the abort.
fn outcome<P: Platform, T>(
    p: &P,
    signal: Option<&P::Signal>,
    timeout_ms: u32,
    raced: First<(), First<Result<T, Failure>, ()>>,
) -> Result<T, Failure> {
    match raced {
        First::A(()) => Err(aborted(p, signal)),
        First::B(First::A(Err(f))) if f.error.kind() == ErrorKind::Network => {
            match signal.and_then(|s| p.aborted(s)) {
                Some((kind, message)) => Err(Error::new(kind, message).into()),
                None => Err(f),
            }
        }
        First::B(First::A(done)) => done,
        First::B(First::B(())) => Err(Error::new(
            ErrorKind::Timeout,
            format!("no answer within {timeout_ms} ms"),
        )
        .into()),
    }
}

/// Tells that an attempt got no answer (a network failure, a timeout or an abort), after `ms`.
fn unanswered<P: Platform>(
    p: &P,
    call: &Call<'_, P>,
    n: u32,
    secret: Option<&str>,
    f: &Failure,
    ms: u64,
) {
    let kind = f.error.kind();
    if matches!(
        kind,
        ErrorKind::Network | ErrorKind::Timeout | ErrorKind::Aborted
    ) {
        let error = &f.error;
        p.note(&call.note(n, secret, Event::NoAnswer { error, ms }));
    }
}

/// Resolves when the call's signal fires; never without one.
pub(super) async fn abort<P: Platform>(p: &P, signal: Option<&P::Signal>) {
    match signal {
        Some(s) => p.on_abort(s).await,
        None => pending().await,
    }
}

/// `work`, unless the call's signal fires or its `deadline` passes first: what a call waits for
/// before the loop (a connection's record in its store) settles by them too.
#[cfg(feature = "server")]
pub async fn within<P: Platform, T>(
    p: &P,
    deadline: Deadline,
    signal: Option<&P::Signal>,
    work: impl Future<Output = Result<T, Failure>>,
) -> Result<T, Failure> {
    let timer = async {
        match deadline.left(p.now_ms()) {
            Some(ms) => p.sleep(ms).await,
            None => pending().await,
        }
    };
    match race(Box::pin(work), Box::pin(race(abort(p, signal), timer))).await {
        First::A(done) => done,
        First::B(First::A(())) => Err(aborted(p, signal)),
        First::B(First::B(())) => Err(deadline.passed()),
    }
}

/// The `aborted` (or `timeout`) error of a call whose signal fired.
pub(super) fn aborted<P: Platform>(p: &P, signal: Option<&P::Signal>) -> Failure {
    let (kind, message) = signal
        .and_then(|s| p.aborted(s))
        .unwrap_or((ErrorKind::Aborted, ABORTED.to_string()));
    Error::new(kind, message).into()
}

/// Waits `ms` before a retry, or fails with `aborted` when the signal fires first.
pub(super) async fn pause<P: Platform>(
    p: &P,
    signal: Option<&P::Signal>,
    ms: u64,
) -> Result<(), Failure> {
    match race(abort(p, signal), p.sleep(ms)).await {
        First::A(()) => Err(aborted(p, signal)),
        First::B(()) => Ok(()),
    }
}

/// A wait in ms as a time offset: `i64::MAX` for any longer.
fn saturate(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

/// The wait a Retry-After asks for, a day at most (`limit::MOST_BACK_OFF_MS`).
pub(super) fn retry_after_ms(value: Option<&str>, now: i64) -> Option<u64> {
    let most = crate::limit::MOST_BACK_OFF_MS as u64;
    value.and_then(|v| retry::parse_retry_after(v, now).map(|ms| ms.min(most)))
}

/// The final answer decoded (`Client::decode`): its result, the delete an earlier attempt did,
/// or its error with the wait a 429 or 5xx asks for.
pub(super) fn decode(
    shape: Shape,
    method: Method,
    answer: &Answer<()>,
    body: &[u8],
    uncertain: bool,
    now: i64,
) -> Result<Decoded, Error> {
    let status = answer.status;
    if retry::delete_already_done(method, status, uncertain) {
        return Ok(Decoded::Json(
            r#"{"code":0,"message":"already deleted: an earlier attempt went through"}"#.into(),
        ));
    }
    let content_type = answer.header("content-type");
    response::decode_shape(shape, status, content_type, body).map_err(|mut e| {
        if status == 429 || status >= 500 {
            e = e.with_retry_after(retry_after_ms(answer.header("retry-after"), now));
        }
        if e.status().is_some() {
            e = e.with_headers(&answer.headers);
        }
        e
    })
}
