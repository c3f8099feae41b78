//! A credential's token in a process: kept until shortly before it expires, one refresh at a time, the grant's budget kept, a refused credential not tried again; one keeper per credential however many clients hold it.

use super::attempt::pause;
use super::token::{self, Joined, Reason, Refresh, Running};
use super::{Deadline, Failure, Platform};
use crate::access::AccessToken;
use crate::oauth::{self, Budget};
use crate::retry::{Outcome, Policy, MAX_RETRY_AFTER_MS};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use svc_core::catalog::Method;
use svc_core::error::{Error, ErrorKind};

/// The most credentials a process keeps the token of once no client holds them; past it, the
/// keepers no client holds are let go of, idle ones first.
const KEPT_MAX: usize = 4_096;

thread_local! {
    /// The keepers of this process, by credential key (`Transport::shared_by`): every client of one
    /// credential shares its token, its single flight, its budget and its stop.
    static KEEPERS: RefCell<HashMap<String, Rc<Keeper>>> = RefCell::default();
}

/// The keeper of the credential `key` in this process, made on first use.
pub(super) fn shared(key: &str, now: i64) -> Rc<Keeper> {
    KEEPERS.with(|all| {
        let mut all = all.borrow_mut();
        if let Some(k) = all.get(key) {
            return k.clone();
        }
        if all.len() >= KEPT_MAX {
            all.retain(|_, k| Rc::strong_count(k) > 1 || !k.idle(now));
        }
        if all.len() >= KEPT_MAX {
            all.retain(|_, k| Rc::strong_count(k) > 1);
        }
        let k = Rc::new(Keeper::default());
        all.insert(key.to_string(), k.clone());
        k
    })
}

/// A token in use: what was issued, when to renew it, and the refresh it came from.
#[derive(Clone, Debug)]
pub(super) struct Kept {
    pub issued: AccessToken,
    renew_at: Option<i64>,
    pub generation: u64,
}

impl Kept {
    fn fresh(&self, now: i64) -> bool {
        self.renew_at.is_none_or(|at| now < at)
    }

    /// Still accepted by the service, though due for renewal.
    fn valid(&self, now: i64) -> bool {
        self.issued.valid(now)
    }
}

/// How a refresh is started: the token function or the grant, and the grant's budget if any.
pub(super) struct Source<'a> {
    pub start: &'a dyn Fn(Reason) -> Running,
    /// `oauth.maxRefreshes`: the most refreshes in a window (`None`: a token function, unbudgeted).
    pub budget: Option<u32>,
    /// How often a grant that failed for a reason that may pass is asked again in one call.
    pub retries: u32,
    /// Told of each refresh this call started and got a token from: why, and in how many ms.
    pub refreshed: &'a dyn Fn(Reason, u64),
}

impl Source<'_> {
    /// The wait before asking the grant again after `f`, its `tried`th failure in this call:
    /// `None` when `f` is final (a stopped credential, an abort, a token function's failure) or
    /// the retries are spent.
    fn again(&self, f: &Failure, tried: u32, random: f64) -> Option<u64> {
        self.budget?;
        let transient = !matches!(
            f.error.kind(),
            ErrorKind::Unauthorized | ErrorKind::Aborted | ErrorKind::Config
        );
        let policy = Policy::new(self.retries);
        transient
            .then(|| policy.next_delay(Method::Get, tried, Outcome::Network, random))
            .flatten()
    }
}

/// The token of a client that keeps it in its own process.
#[derive(Default)]
pub(super) struct Keeper {
    kept: RefCell<Option<Kept>>,
    refresh: Refresh,
    budget: RefCell<Budget>,
    /// The accounts server refused the credential itself: every call fails with this.
    stopped: RefCell<Option<Error>>,
}

impl Keeper {
    /// Holds nothing worth keeping at `now`: no usable token, no refresh in the window, no stop.
    fn idle(&self, now: i64) -> bool {
        let kept = self.kept.borrow().as_ref().is_some_and(|k| k.valid(now));
        let mut budget = self.budget.borrow_mut();
        let blocked = budget.free_at(u32::MAX, now).is_some();
        !kept && !blocked && budget.started.is_empty() && !self.is_stopped()
    }

    /// The token to send: the kept one while fresh, else the refresh every waiting call shares.
    pub async fn token<P: Platform>(
        &self,
        p: &P,
        source: &Source<'_>,
        signal: Option<&P::Signal>,
        deadline: Deadline,
    ) -> Result<Kept, Failure> {
        let kept = self.kept.borrow().clone();
        let now = p.now_ms();
        match kept {
            Some(k) if k.fresh(now) => Ok(k),
            Some(k) => {
                let stale = k.valid(now).then(|| k.clone());
                self.renew(
                    p,
                    source,
                    signal,
                    deadline,
                    Reason::Expired,
                    k.generation,
                    stale,
                )
                .await
            }
            None => {
                self.renew(p, source, signal, deadline, Reason::Initial, 0, None)
                    .await
            }
        }
    }

    /// After a 401 to the token of `generation`: dropped if it is still the kept one, and renewed
    /// once for every call that saw it refused.
    pub async fn rejected<P: Platform>(
        &self,
        p: &P,
        source: &Source<'_>,
        signal: Option<&P::Signal>,
        deadline: Deadline,
        generation: u64,
    ) -> Result<Kept, Failure> {
        {
            let mut kept = self.kept.borrow_mut();
            if kept.as_ref().is_some_and(|k| k.generation == generation) {
                *kept = None;
            }
        }
        self.renew(
            p,
            source,
            signal,
            deadline,
            Reason::Rejected,
            generation,
            None,
        )
        .await
    }

    /// A refresh for a token of `generation` (0: none): joined if one is under way, else started
    /// within the budget, and asked again with back-off while it fails for a reason that may pass
    /// and the call has retries and time left. `stale`, a token due for renewal that still works,
    /// is used while the budget waits and when the refresh fails for a reason that may pass.
    #[allow(clippy::too_many_arguments)]
    async fn renew<P: Platform>(
        &self,
        p: &P,
        source: &Source<'_>,
        signal: Option<&P::Signal>,
        deadline: Deadline,
        reason: Reason,
        generation: u64,
        stale: Option<Kept>,
    ) -> Result<Kept, Failure> {
        let mut tried = 0;
        loop {
            if let Some(e) = self.stopped.borrow().clone() {
                return Err(e.into());
            }
            let now = p.now_ms();
            if !self.refresh.shares(generation) {
                if let Some(max) = source.budget {
                    let free_at = self.budget.borrow_mut().free_at(max, now);
                    if let Some(at) = free_at {
                        if let Some(k) = stale {
                            return Ok(k);
                        }
                        let wait = u64::try_from(at - now).unwrap_or(0);
                        if wait > MAX_RETRY_AFTER_MS || !deadline.holds(now, wait) {
                            return Err(Budget::spent(max, at, now).into());
                        }
                        pause(p, signal, wait).await?;
                        continue;
                    }
                    self.budget.borrow_mut().spend(now);
                }
            }
            let starts = !self.refresh.shares(generation);
            let joined: Joined = self.refresh.join(generation, || (source.start)(reason));
            let made = joined.1;
            let started = p.now_ms();
            let got = token::checked(joined, p, signal).await;
            let f = match got {
                Ok(issued) => {
                    if starts {
                        let ms = u64::try_from(p.now_ms() - started).unwrap_or(0);
                        (source.refreshed)(reason, ms);
                    }
                    return Ok(self.accept(p, made, issued));
                }
                Err(f) => f,
            };
            if source.budget.is_some() {
                self.refused(p, &f);
            }
            match &stale {
                Some(k) if !self.is_stopped() && f.error.kind() != ErrorKind::Aborted => {
                    return Ok(k.clone())
                }
                _ => {}
            }
            if let (Some(max), ErrorKind::RateLimited) = (source.budget, f.error.kind()) {
                // Access Denied: the budget is blocked for its window, which the error tells.
                let at = self.budget.borrow_mut().free_at(max, p.now_ms());
                let ms = at.map(|at| u64::try_from(at - p.now_ms()).unwrap_or(0));
                return Err(Failure::from(f.error.with_retry_after(ms)));
            }
            let now = p.now_ms();
            match source.again(&f, tried, p.random()) {
                Some(ms) if deadline.holds(now, ms) => {
                    tried += 1;
                    pause(p, signal, ms).await?;
                }
                _ => return Err(f),
            }
        }
    }

    /// The token of refresh `made` is the one to use, unless a newer one already is.
    fn accept<P: Platform>(&self, p: &P, made: u64, issued: AccessToken) -> Kept {
        let mut kept = self.kept.borrow_mut();
        if let Some(k) = kept.as_ref().filter(|k| k.generation >= made) {
            return k.clone();
        }
        let now = p.now_ms();
        let renew_at = issued
            .expires_at
            .map(|at| oauth::renew_at(now, at, p.random()));
        let k = Kept {
            issued,
            renew_at,
            generation: made,
        };
        *kept = Some(k.clone());
        k
    }

    /// What a failed grant teaches: a refused credential (`unauthorized`) stops, an Access Denied
    /// (`rate_limited`) blocks a window.
    pub fn refused<P: Platform>(&self, p: &P, f: &Failure) {
        match f.error.kind() {
            ErrorKind::RateLimited => self.budget.borrow_mut().deny(p.now_ms()),
            ErrorKind::Unauthorized => *self.stopped.borrow_mut() = Some(f.error.clone()),
            _ => {}
        }
    }

    /// The error of a credential the accounts server refused for good, if it did.
    #[cfg(feature = "server")]
    pub fn check(&self) -> Result<(), Failure> {
        match self.stopped.borrow().clone() {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }

    fn is_stopped(&self) -> bool {
        self.stopped.borrow().is_some()
    }
}
