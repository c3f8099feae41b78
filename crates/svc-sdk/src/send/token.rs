//! The token of a call: where it comes from, the token function's answer checked, and the single-flight refresh.

use super::attempt::{abort, aborted};
use super::race::{race, First};
use super::{Failure, Platform};
use crate::access::AccessToken;
use crate::oauth::Refused;
use crate::secret::Secret;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Wake, Waker};
use svc_core::error::{Error, ErrorKind};

/// Where the token comes from.
#[derive(Clone, Debug)]
pub enum Credential {
    /// No token: a proxy adds it.
    None,
    /// A string, checked when the client was made.
    Static(Secret),
    /// The user's function (`Platform::token`), called when there is no token to use.
    Function,
    /// The OAuth refresh-token grant, run by the client (`super::grant`); a server's only.
    #[cfg(feature = "server")]
    OAuth(crate::oauth::Grant),
}

/// Why a token is asked for, as the token function is told (`ctx.reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// There is none yet.
    Initial,
    /// The last one is near its `expiresAt`.
    Expired,
    /// The service refused the last one (a 401): a new one, not the cached one.
    Rejected,
}

impl Reason {
    pub fn name(self) -> &'static str {
        match self {
            Reason::Initial => "initial",
            Reason::Expired => "expired",
            Reason::Rejected => "rejected",
        }
    }
}

/// How a call of the token function failed.
#[derive(Clone, Debug, PartialEq)]
pub enum TokenFailure {
    /// It threw instead of returning.
    Threw,
    /// Its promise rejected.
    Rejected,
    /// It rejected with an SDK error: one of kind `unauthorized` or `aborted` is passed on as it
    /// is, any other reads as a rejection.
    Error(Error),
    /// It gave a token of this many characters, more than `request::TOKEN_MAX`.
    TooLong(usize),
    /// It gave an `expiresAt` that is not a time (`NaN`, an Invalid Date, a string).
    NoTime,
    /// The accounts server refused the grant, or its answer could not be read.
    Grant(Refused),
    /// Every call that waited for it left (aborted, or past its deadline) before it ended.
    Abandoned,
}

/// What a call of the token function gave: a token, something else (`None`), or a failure.
pub type TokenResult = Result<Option<AccessToken>, TokenFailure>;

/// A token future, kept to be shared by the calls that wait for the same refresh.
pub(super) type Running = Pin<Box<dyn Future<Output = TokenResult>>>;

fn token_error(why: &str) -> Failure {
    Error::new(
        ErrorKind::Unauthorized,
        format!("the accessToken function {why}"),
    )
    .into()
}

/// Waits for a token (or the abort of the call), then checks it: a non-empty string.
pub(super) async fn checked<P: Platform>(
    got: impl Future<Output = TokenResult>,
    p: &P,
    signal: Option<&P::Signal>,
) -> Result<AccessToken, Failure> {
    let got = match race(abort(p, signal), got).await {
        First::A(()) => return Err(aborted(p, signal)),
        First::B(got) => got,
    };
    match got {
        Ok(Some(issued)) if !issued.token.is_empty() => Ok(issued),
        Ok(_) => Err(token_error(
            "must return a non-empty string or { token, expiresAt } (or a promise of one)",
        )),
        Err(TokenFailure::Threw) => Err(token_error("threw an error")),
        Err(TokenFailure::NoTime) => Err(Error::config(
            "the accessToken function returned an expiresAt that is not a time: give ms since the epoch (a finite number) or a valid Date, or leave it out for a token that does not expire",
        )
        .into()),
        Err(TokenFailure::TooLong(n)) => Err(Error::config(format!(
            "the access token the accessToken function returned is {n} characters long, more than the {} a request header can carry to the service",
            svc_core::request::TOKEN_MAX
        ))
        .into()),
        Err(TokenFailure::Error(e))
            if matches!(e.kind(), ErrorKind::Unauthorized | ErrorKind::Aborted) =>
        {
            Err(e.into())
        }
        Err(TokenFailure::Grant(r)) => Err(r.error.into()),
        Err(_) => Err(token_error("rejected")),
    }
}

/// The client's refresh: how many were started, and the last one.
#[derive(Default)]
pub(super) struct Refresh {
    generation: Cell<u64>,
    current: RefCell<Option<Rc<Shared>>>,
}

impl Refresh {
    /// Whether `join(generation)` would wait for the refresh already started: one newer than that
    /// token that has not failed (a failed one, or one that gave no token, is not handed to a
    /// caller that comes after it: the next call asks again).
    pub fn shares(&self, generation: u64) -> bool {
        let current = self.current.borrow();
        let failed = current.as_ref().is_some_and(|s| match &*s.state.borrow() {
            Step::Done(Ok(Some(t))) => t.token.is_empty(),
            Step::Done(_) => true,
            Step::Running(_) => false,
        });
        self.generation.get() > generation && current.is_some() && !failed
    }

    /// After a 401 to a token of `generation`: the refresh in flight if it is newer than that
    /// token, else a new one (`start` calls the token function). Every call that saw a 401 with a
    /// token of the same generation shares one call of the function.
    pub fn join(&self, generation: u64, start: impl FnOnce() -> Running) -> Joined {
        let share = self.shares(generation);
        let mut current = self.current.borrow_mut();
        let shared = match &*current {
            Some(s) if share => s.clone(),
            _ => {
                let s = Rc::new(Shared {
                    state: RefCell::new(Step::Running(start())),
                    wakers: Arc::default(),
                });
                self.generation.set(self.generation.get() + 1);
                *current = Some(s.clone());
                s
            }
        };
        Joined(shared, self.generation.get())
    }
}

/// One call of the token function, polled by whichever waiting call runs, its result kept for all.
struct Shared {
    state: RefCell<Step>,
    wakers: Arc<Wakers>,
}

enum Step {
    Running(Running),
    Done(TokenResult),
}

/// The wakers of every call waiting for a refresh: each is woken when it ends, whoever polled it.
#[derive(Default)]
struct Wakers(Mutex<Vec<Waker>>);

impl Wake for Wakers {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        let all = std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()));
        for w in all {
            w.wake();
        }
    }
}

/// A call's wait for a shared refresh, and the generation of the token it gives.
pub(super) struct Joined(Rc<Shared>, pub u64);

impl Drop for Joined {
    /// The last call waiting for a refresh left: nobody polls it any more, so it is let go of (a
    /// fetch of the grant aborted) and counts as failed, and the next call starts a refresh of its
    /// own instead of the stale one's outcome.
    fn drop(&mut self) {
        let others = Rc::strong_count(&self.0) - 1;
        if others <= 1 {
            if let Ok(mut state) = self.0.state.try_borrow_mut() {
                if matches!(*state, Step::Running(_)) {
                    *state = Step::Done(Err(TokenFailure::Abandoned));
                }
            }
        }
    }
}

impl Future for Joined {
    type Output = TokenResult;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<TokenResult> {
        let shared = &self.0;
        let mut state = shared.state.borrow_mut();
        let running = match &mut *state {
            Step::Running(running) => running,
            Step::Done(done) => return Poll::Ready(done.clone()),
        };
        {
            let mut wakers = shared.wakers.0.lock().unwrap_or_else(|e| e.into_inner());
            if !wakers.iter().any(|w| w.will_wake(cx.waker())) {
                wakers.push(cx.waker().clone());
            }
        }
        let waker = Waker::from(shared.wakers.clone());
        match running.as_mut().poll(&mut Context::from_waker(&waker)) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(done) => {
                *state = Step::Done(done.clone());
                drop(state);
                shared.wakers.wake_by_ref();
                Poll::Ready(done)
            }
        }
    }
}
