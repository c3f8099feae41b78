//! A member of a fleet: one client's side of the fleet store (`crate::fleet` holds the shared state and its steps), its calls in line for the store, slots as leases kept alive while a call runs, the shared token, and an unreachable store.
//!
//! Every wait on the store is bounded by `store_timeout_ms`, counted for each call from when it
//! began to wait or from when the store last answered this process, whichever is later: a call
//! in line behind another that waits for an unreachable store fails with it, not one timeout
//! later. The call's signal ends any of its waits at once, a step in flight included (the call's
//! deadline ends them all, `Transport::send`). Every wait a reply asks for is at least a ms and at
//! most what a bounded state allows (`crate::fleet::HORIZON_MS`).

use super::attempt::{abort, aborted, pause};
use super::keeper::Source;
use super::queue::{self, Queue, Slot};
use super::race::{race, First};
use super::token::{self, Reason};
use super::{Deadline, Failure, Platform};
use crate::access::AccessToken;
use crate::fleet::{Acquire, Outcome, Reply, Request, Seen, Stored, TokenClaim, HORIZON_MS};
use crate::limit::{Lane, Limits, State, MINUTE_MS};
use crate::oauth::Budget;
use crate::retry::MAX_RETRY_AFTER_MS;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::convert::Infallible;
use std::future::{poll_fn, Future};
use std::task::{Poll, Waker};
use svc_core::error::{Error, ErrorKind};

/// Whether a wait is for another holder's release (its length only a bound, not the wait).
fn on_release(outcome: &Outcome) -> bool {
    matches!(
        outcome,
        Outcome::Acquire(Acquire::Wait {
            on_release: true,
            ..
        })
    )
}

/// The longest wait between two asks while another holder may free a slot or store the token
/// (a store tells no one of a change): the delay a release can add before the next call starts.
const POLL_MS: u64 = 50;
/// The longest wait for one step's reply before the store counts as unreachable.
const STEP_MS: u64 = 5_000;
/// Why a step failed that got no reply in time.
const NO_REPLY: &str = "it did not reply";
/// How often a call drops an unusable token the store gives before it fails: a store that keeps it.
const POISONED_MAX: u32 = 2;
/// The first pause before a step is tried again on an unreachable store; doubled up to a second.
const RETRY_MS: u64 = 100;
/// The longest wait a reply can ask for: a back-off or a lease ends within `HORIZON_MS`, and a
/// full window frees a minute after that.
const WAIT_MAX_MS: i64 = HORIZON_MS + MINUTE_MS;

/// How a client shares its organization's limits through a store.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub limits: Limits,
    /// This client's name in the shared state (random per client).
    pub holder: String,
    /// How long a slot or a token claim holds unless renewed: what a dead holder keeps.
    pub lease_ms: u32,
    /// How long a call waits for an unreachable store before it fails.
    pub store_timeout_ms: u32,
    /// While the store is unreachable, keep to this share of the limits in this process
    /// instead of waiting and failing.
    pub fallback_share: Option<f64>,
    /// The store's key of the credential's token (`token/` and the credential's fingerprint or
    /// name): its state apart from the organization's, so that a holder is handed only a token of
    /// its own credential.
    pub token_key: String,
}

/// A transport's side of its fleet: a member of it.
pub(super) struct Member {
    options: Options,
    line: Line,
    /// The calls of this process asking for the token: one at a time, so that the process's
    /// calls share one refresh (the store grants the claim to the holder, not to a call).
    token_line: Line,
    /// The fleet's figures as the last reply told them.
    last: Cell<Option<State>>,
    /// When the store last answered a step of this process.
    answered_at: Cell<i64>,
    /// Since when the store has not answered this process: the start of the first step that
    /// failed since its last reply (not before that reply). `None` while it answers.
    down_since: Cell<Option<i64>>,
    /// What the store held that could not be used and was replaced, until a call tells of it.
    repaired: RefCell<Option<String>>,
    fallback: Option<Queue>,
}

/// A call's slot: a lease in the store, or a place in the fallback limiter.
pub(super) enum Held<'a, P: Platform> {
    Lease(u64),
    Local(Slot<'a, P>, &'a Queue),
}

impl Member {
    pub fn new(options: Options) -> Member {
        let fallback = options.fallback_share.map(|share| {
            let l = options.limits;
            let part = |n: u32| ((f64::from(n) * share).floor() as u32).max(1);
            let limits = Limits {
                per_minute: part(l.per_minute),
                max_concurrent: part(l.max_concurrent),
                daily: part(l.daily),
            };
            Queue::new(limits, u32::MAX)
        });
        Member {
            options,
            line: Line::default(),
            token_line: Line::default(),
            last: Cell::new(None),
            answered_at: Cell::new(i64::MIN),
            down_since: Cell::new(None),
            repaired: RefCell::new(None),
            fallback,
        }
    }

    /// The fleet's figures as last seen, with this process's calls waiting for a slot.
    pub fn state(&self, now: i64) -> State {
        let mut state = match (self.last.get(), &self.fallback) {
            (Some(s), _) => s,
            (None, Some(q)) => q.state(now),
            (None, None) => crate::fleet::Fleet::new(self.options.limits).state_of(now),
        };
        state.queued = self.line.len();
        state
    }

    /// Why the store's state was replaced since a call last told of it, if it was.
    pub fn take_repaired(&self) -> Option<String> {
        self.repaired.take()
    }

    fn lease_ms(&self) -> i64 {
        i64::from(self.options.lease_ms)
    }

    /// One step, its reply read, given `most` ms; `Err` with why when the store did not answer in
    /// time. Tells `down_since` and `answered_at` what it saw.
    async fn step<P: Platform>(
        &self,
        p: &P,
        request: &Request,
        most: u64,
    ) -> Result<Reply, String> {
        let began = p.now_ms();
        let key = request
            .is_token()
            .then_some(self.options.token_key.as_str());
        let request = request.to_json();
        let text = match race(p.store_step(key, request), p.sleep(most)).await {
            First::A(got) => got,
            First::B(()) => Err(NO_REPLY.into()),
        };
        let reply = text.and_then(|t| Reply::from_json(&t).map_err(|e| e.message));
        match &reply {
            Ok(reply) => {
                self.down_since.set(None);
                self.answered_at.set(p.now_ms());
                if key.is_none() {
                    self.last.set(Some(reply.state));
                }
                if let Some(why) = &reply.repaired {
                    self.repaired.replace(Some(why.clone()));
                }
            }
            Err(_) if self.down_since.get().is_none() => {
                self.down_since.set(Some(began.max(self.answered_at.get())));
            }
            Err(_) => {}
        }
        reply
    }

    /// A step that no call waits on (renewing, releasing, dropping a token or a claim): one try of
    /// `store_timeout_ms` at most; a store that does not answer lets the lease or claim end.
    async fn step_once<P: Platform>(&self, p: &P, request: &Request) -> Result<Reply, String> {
        let most = STEP_MS.min(u64::from(self.options.store_timeout_ms));
        self.step(p, request, most).await
    }

    /// A step for a call that began to wait for the store at `since`, tried again while the store
    /// does not answer, until it has not answered for `store_timeout_ms` of the call's wait
    /// (counted from `since`, or from the start of the outage if later: the first step of this
    /// process, or of this call, that failed); then a `network` error that says nothing was sent.
    /// `Err(fallback)` at the first failure instead when the process has a fallback limiter. An
    /// abort ends the wait, a step in flight included: what the store does with that step later
    /// is no call's (a slot it grants ends with its lease).
    async fn ask<P: Platform>(
        &self,
        p: &P,
        request: &Request,
        signal: Option<&P::Signal>,
        since: i64,
    ) -> Result<Result<Reply, &Queue>, Failure> {
        let limit = i64::from(self.options.store_timeout_ms);
        let mut failed_at: Option<i64> = None;
        // The ms left of the call's wait; `None` once it is spent on a store that does not answer
        // (a store not known to be down gets one try).
        let left = |now: i64, failed_at: Option<i64>| {
            let outage = match (self.down_since.get(), failed_at) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let from = since.max(outage.unwrap_or(now)).min(now);
            let left = from.saturating_add(limit) - now;
            (left > 0 || outage.is_none()).then_some(left.max(0) as u64)
        };
        let mut pause_ms = RETRY_MS;
        let mut why = String::from("it has not answered this process's earlier steps");
        loop {
            let began = p.now_ms();
            let Some(ms) = left(began, failed_at) else {
                return match &self.fallback {
                    Some(q) => Ok(Err(q)),
                    None => Err(unreachable(limit, &why)),
                };
            };
            match race(abort(p, signal), self.step(p, request, STEP_MS.min(ms))).await {
                First::A(()) => return Err(aborted(p, signal)),
                First::B(Ok(reply)) => return Ok(Ok(reply)),
                First::B(Err(e)) => why = e,
            }
            failed_at.get_or_insert(began);
            if let Some(q) = &self.fallback {
                return Ok(Err(q));
            }
            if let Some(ms) = left(p.now_ms(), failed_at) {
                pause(p, signal, pause_ms.min(ms)).await?;
                pause_ms = (pause_ms * 2).min(1_000);
            }
        }
    }

    /// Waits for a slot of the fleet: its place in this process's line, then asks the store until
    /// it grants one. An unreachable store sends the call to the fallback limiter if there is
    /// one, else fails it after `store_timeout_ms`.
    pub async fn admit<'a, P: Platform>(
        &'a self,
        p: &'a P,
        signal: Option<&P::Signal>,
        deadline: Deadline,
        lane: Lane,
        waits: impl FnOnce(Option<u64>, &str),
    ) -> Result<Held<'a, P>, Failure> {
        let mut waits = Some(waits);
        let since = p.now_ms();
        let place = self.line.wait_turn(p, signal).await?;
        let acquire = Request::Acquire {
            holder: self.options.holder.clone(),
            limits: self.options.limits,
            lease_ms: self.lease_ms(),
            lane,
        };
        loop {
            let reply = match self.ask(p, &acquire, signal, since).await? {
                Ok(reply) => reply,
                Err(q) => {
                    drop(place);
                    let tell = |ms: Option<u64>, why: &str| {
                        if let Some(tell) = waits.take() {
                            tell(ms, why);
                        }
                    };
                    let slot = queue::admit(q, p, signal, deadline, lane, tell).await?;
                    return Ok(Held::Local(slot, q));
                }
            };
            let wait = match reply.outcome {
                Outcome::Acquire(Acquire::Granted { lease, .. }) => return Ok(Held::Lease(lease)),
                Outcome::Acquire(Acquire::Wait { until, on_release }) => {
                    let ms = wait_ms(until, reply.now);
                    if on_release {
                        ms.min(POLL_MS)
                    } else {
                        ms
                    }
                }
                Outcome::Acquire(Acquire::Reserved { until, kept }) => {
                    return Err(queue::reserved(kept, until.saturating_sub(reply.now)));
                }
                Outcome::Acquire(Acquire::QuotaSpent { until }) => {
                    let ms = until.saturating_sub(reply.now).clamp(0, HORIZON_MS);
                    if !queue::day_waits(deadline, p.now_ms(), ms) {
                        return Err(queue::quota_spent(reply.state.daily_quota, ms));
                    }
                    pause(p, signal, ms as u64).await?;
                    continue;
                }
                other => return Err(unexpected(&other)),
            };
            let now = p.now_ms();
            let long = !on_release(&reply.outcome) && wait as u64 > MAX_RETRY_AFTER_MS;
            if long || !deadline.holds(now, wait as u64) {
                let why = reply.state.holding();
                return Err(deadline.cannot_wait(now, wait as u64, MAX_RETRY_AFTER_MS, &why));
            }
            if let Some(tell) = waits.take() {
                tell(Some(wait), &reply.state.holding());
            }
            pause(p, signal, wait).await?;
        }
    }

    /// Keeps `lease` alive while its call runs: renews it every half lease. Never ends.
    pub async fn keep<P: Platform>(&self, p: &P, lease: u64) -> Infallible {
        let every = u64::from(self.options.lease_ms / 2).max(1);
        loop {
            p.sleep(every).await;
            let renew = Request::Renew {
                lease,
                lease_ms: self.lease_ms(),
            };
            let _ = self.step_once(p, &renew).await;
        }
    }

    /// The call holding `lease` got its answer (or none): its slot frees, and what the answer
    /// said of the limits is the fleet's. A store that cannot be told lets the lease end.
    pub async fn release<P: Platform>(&self, p: &P, lease: u64, seen: Seen) {
        let _ = self.step_once(p, &Request::Release { lease, seen }).await;
    }

    /// The fleet's token: the stored one, or this holder's refresh when no one else's is under
    /// way (the token function or the grant run once for the fleet), or the wait for another's,
    /// or for the grant's budget (failing at once when that passes the deadline).
    pub async fn token<P: Platform>(
        &self,
        p: &P,
        source: &Source<'_>,
        signal: Option<&P::Signal>,
        deadline: Deadline,
    ) -> Result<AccessToken, Failure> {
        let since = p.now_ms();
        let _place = self.token_line.wait_turn(p, signal).await?;
        let claim = Request::TokenClaim {
            holder: self.options.holder.clone(),
            lease_ms: self.lease_ms(),
            budget: source.budget,
        };
        let mut poisoned = 0;
        loop {
            let Ok(reply) = self.ask(p, &claim, signal, since).await? else {
                if source.budget.is_some() {
                    // No store, no fleet-wide budget: a grant here could pass the accounts
                    // server's limit for the whole fleet.
                    return Err(Error::new(
                        ErrorKind::Network,
                        "the fleet store did not answer, and a token refresh without it could pass the accounts server's limit for the fleet",
                    )
                    .into());
                }
                let got = token::checked((source.start)(Reason::Initial), p, signal).await?;
                return Ok(got);
            };
            let wait = match reply.outcome {
                Outcome::Token(TokenClaim::Use { token, domain }) => {
                    if let Some(issued) = usable(token.expose(), domain.as_deref()) {
                        return Ok(issued);
                    }
                    poisoned += 1;
                    self.drop_unusable(p, token.expose(), signal, since, poisoned)
                        .await?
                }
                Outcome::Token(TokenClaim::Wait {
                    until,
                    budget: true,
                }) => {
                    let ms = wait_ms(until, reply.now);
                    let now = p.now_ms();
                    if !deadline.holds(now, ms) {
                        let max = source.budget.unwrap_or(crate::oauth::MAX_REFRESHES);
                        let at = now.saturating_add(i64::try_from(ms).unwrap_or(i64::MAX));
                        return Err(Budget::spent(max, at, now).into());
                    }
                    ms
                }
                Outcome::Token(TokenClaim::Wait { until, .. }) => {
                    wait_ms(until, reply.now).min(POLL_MS)
                }
                Outcome::Token(TokenClaim::Refresh { claim, reason, .. }) => {
                    let reason = match reason.as_str() {
                        "expired" => Reason::Expired,
                        "rejected" => Reason::Rejected,
                        _ => Reason::Initial,
                    };
                    return self.refresh(p, source, signal, claim, reason).await;
                }
                other => return Err(unexpected(&other)),
            };
            pause(p, signal, wait).await?;
        }
    }

    /// A token the store gave that a grant could not have given, for the `poisoned`th time in a
    /// call: dropped for the fleet (a refresh is claimed in its place after the wait it gives),
    /// or, when the store keeps giving it, the call's failure.
    async fn drop_unusable<P: Platform>(
        &self,
        p: &P,
        token: &str,
        signal: Option<&P::Signal>,
        since: i64,
        poisoned: u32,
    ) -> Result<u64, Failure> {
        if poisoned > POISONED_MAX {
            return Err(Error::decode(
                "the fleet store gives, again and again, a token or an API domain that a grant could not have given, and does not drop it: the call was not sent",
            )
            .into());
        }
        let invalidate = Request::TokenInvalidate {
            token: token.into(),
        };
        let _ = self.ask(p, &invalidate, signal, since).await?;
        self.repaired.replace(Some(
            "it held a token or an API domain that a grant could not have given; it was dropped"
                .into(),
        ));
        Ok(POLL_MS)
    }

    /// Runs the refresh under `claim` and stores what it gave for the fleet.
    async fn refresh<P: Platform>(
        &self,
        p: &P,
        source: &Source<'_>,
        signal: Option<&P::Signal>,
        claim: u64,
        reason: Reason,
    ) -> Result<AccessToken, Failure> {
        let started = p.now_ms();
        let issued = match token::checked((source.start)(reason), p, signal).await {
            Ok(issued) => {
                let ms = u64::try_from(p.now_ms() - started).unwrap_or(0);
                (source.refreshed)(reason, ms);
                issued
            }
            Err(f) => {
                let denied = source.budget.is_some() && f.error.kind() == ErrorKind::RateLimited;
                let abandon = Request::TokenAbandon { claim, denied };
                let _ = self.step_once(p, &abandon).await;
                return Err(f);
            }
        };
        let now = p.now_ms();
        let renew_at = issued
            .expires_at
            .map(|at| crate::oauth::renew_at(now, at, p.random()));
        let store = Request::TokenStore {
            claim,
            stored: Stored {
                access: issued.clone(),
                renew_at,
            },
        };
        // Refused (the claim ended and another holder's token is stored), or the store did not
        // answer (the claim ends with its lease): this one still works.
        let _ = self.ask(p, &store, signal, now).await;
        Ok(issued)
    }

    /// A 401 to a call that carried `token`: the fleet drops it, once for everyone.
    pub async fn invalidate<P: Platform>(&self, p: &P, token: &str) {
        let invalidate = Request::TokenInvalidate {
            token: token.into(),
        };
        let _ = self.step_once(p, &invalidate).await;
    }
}

/// A token and API domain from the store, checked as a grant's answer is: a token a header can
/// carry, a domain of a data center or of loopback (`family::granted_api_domain`).
fn usable(token: &str, domain: Option<&str>) -> Option<AccessToken> {
    svc_core::request::authorization(token).ok()?;
    let domain = match domain {
        Some(d) => Some(svc_core::family::granted_api_domain(d)?),
        None => None,
    };
    Some(AccessToken {
        token: token.into(),
        expires_at: None,
        domain,
    })
}

/// The wait a reply asks for, until `until` on the store's clock `now`: at most `WAIT_MAX_MS`; a
/// poll when the time has passed (a store that says wait but names no later time), so that
/// asking again never spins.
fn wait_ms(until: i64, now: i64) -> u64 {
    match until.saturating_sub(now) {
        ms if ms <= 0 => POLL_MS,
        ms => ms.min(WAIT_MAX_MS) as u64,
    }
}

fn unreachable(limit_ms: i64, why: &str) -> Failure {
    Error::new(
        ErrorKind::Network,
        format!(
            "the rate-limit store could not be reached within storeTimeoutMs ({limit_ms} ms): {why}; the call was not sent"
        ),
    )
    .into()
}

fn unexpected(outcome: &Outcome) -> Failure {
    let kind = match outcome {
        Outcome::Acquire(_) => "Acquire",
        Outcome::Renewed(_) => "Renewed",
        Outcome::Released(_) => "Released",
        Outcome::Token(_) => "Token",
        Outcome::Taken(_) => "Taken",
        Outcome::Done => "Done",
    };
    Error::decode(format!("the fleet store answered a step with {kind}")).into()
}

/// The calls of this process waiting to ask the store, first come first served: only the first
/// asks, so a process sends one ask at a time however many calls wait.
#[derive(Default)]
struct Line {
    inner: RefCell<LineInner>,
}

#[derive(Default)]
struct LineInner {
    next: u64,
    places: VecDeque<u64>,
    wakers: Vec<(u64, Waker)>,
}

impl Line {
    fn len(&self) -> u32 {
        u32::try_from(self.inner.borrow().places.len()).unwrap_or(u32::MAX)
    }

    /// A place in line, once it is first (or the `aborted` error of the call, out of the line).
    async fn wait_turn<P: Platform>(
        &self,
        p: &P,
        signal: Option<&P::Signal>,
    ) -> Result<Place<'_>, Failure> {
        let place = self.join();
        match race(abort(p, signal), place.turn()).await {
            First::A(()) => Err(aborted(p, signal)),
            First::B(()) => Ok(place),
        }
    }

    fn join(&self) -> Place<'_> {
        let mut inner = self.inner.borrow_mut();
        inner.next += 1;
        let id = inner.next;
        inner.places.push_back(id);
        Place { line: self, id }
    }
}

/// A call's place in the line; dropped (granted, failed or aborted), it lets the next one ask.
struct Place<'a> {
    line: &'a Line,
    id: u64,
}

impl Place<'_> {
    /// Resolves when this place is first in line.
    fn turn(&self) -> impl Future<Output = ()> + '_ {
        poll_fn(move |cx| {
            let mut inner = self.line.inner.borrow_mut();
            if inner.places.front() == Some(&self.id) {
                return Poll::Ready(());
            }
            let id = self.id;
            inner.wakers.retain(|(i, _)| *i != id);
            inner.wakers.push((id, cx.waker().clone()));
            Poll::Pending
        })
    }
}

impl Drop for Place<'_> {
    fn drop(&mut self) {
        let waker = {
            let mut inner = self.line.inner.borrow_mut();
            let id = self.id;
            inner.places.retain(|p| *p != id);
            inner.wakers.retain(|(i, _)| *i != id);
            let first = inner.places.front().copied();
            let at = inner.wakers.iter().position(|(i, _)| Some(*i) == first);
            at.map(|i| inner.wakers.swap_remove(i).1)
        };
        if let Some(w) = waker {
            w.wake();
        }
    }
}
