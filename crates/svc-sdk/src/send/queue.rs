//! The client's limiter shared by its calls: the waiting queue, each waiting call's waker, and admission.

use super::attempt::{abort, aborted};
use super::race::{race, First};
use super::{Deadline, Failure, Platform};
use crate::fleet::Seen;
use crate::limit::{Admit, Lane, Limiter, Limits, State};
use crate::retry::MAX_RETRY_AFTER_MS;
use std::cell::RefCell;
use std::future::{pending, Future};
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use svc_core::error::{Error, ErrorKind};

/// A limiter and the wakers of the calls waiting in its queue, by ticket.
#[derive(Debug)]
pub struct Queue {
    inner: RefCell<Inner>,
}

#[derive(Debug)]
struct Inner {
    limiter: Limiter,
    waiters: Vec<(u64, Waker)>,
    /// The most calls that wait at once; one more is refused.
    max_queued: u32,
}

impl Queue {
    pub fn new(limits: Limits, max_queued: u32) -> Queue {
        Queue {
            inner: RefCell::new(Inner {
                limiter: Limiter::new(limits),
                waiters: Vec::new(),
                max_queued,
            }),
        }
    }

    /// What the limiter allows at `now` (`rateLimitState()`).
    pub fn state(&self, now: i64) -> State {
        self.inner.borrow_mut().limiter.state(now)
    }

    /// What an answer told of the limits (`super::seen`).
    pub fn observe(&self, seen: Seen, now: i64) {
        let l = &mut self.inner.borrow_mut().limiter;
        l.observe(seen.limit, seen.remaining, seen.reset_secs, now);
        if let Some(ms) = seen.back_off_ms {
            l.back_off(ms, now);
        }
    }

    /// Wakes the call at the head of the queue, if it waits, so that it asks again.
    fn wake_head(&self) {
        let waker = {
            let mut inner = self.inner.borrow_mut();
            let head = inner.limiter.head();
            let at = inner.waiters.iter().position(|(t, _)| Some(*t) == head);
            at.map(|i| inner.waiters.swap_remove(i).1)
        };
        if let Some(w) = waker {
            w.wake();
        }
    }

    fn cancel(&self, ticket: u64) {
        self.inner.borrow_mut().limiter.cancel(ticket);
        self.wake_head();
    }

    fn finish(&self, now: i64) {
        self.inner.borrow_mut().limiter.finish(now);
        self.wake_head();
    }
}

/// Waits for a slot: resolves to the slot (given back when dropped), a `rate_limited` error at
/// once when the queue is full, the daily quota spent, or the wait longer than the deadline
/// allows (or than a minute: a long Retry-After), or an `aborted` one, the call then out of the
/// queue. `waits` is told, once, when and why the call first has to wait.
pub(super) async fn admit<'a, P: Platform>(
    q: &'a Queue,
    p: &'a P,
    signal: Option<&P::Signal>,
    deadline: Deadline,
    lane: Lane,
    waits: impl FnOnce(Option<u64>, &str),
) -> Result<Slot<'a, P>, Failure> {
    let full = {
        let inner = q.inner.borrow();
        let waiting = inner.limiter.queued();
        (waiting >= inner.max_queued).then(|| (waiting, inner.limiter.limits()))
    };
    if let Some((waiting, limits)) = full {
        return Err(queue_full(waiting, limits));
    }
    let ticket = q.inner.borrow_mut().limiter.enqueue();
    let queued = Queued { q, ticket };
    let mut waits = Some(waits);
    loop {
        let now = p.now_ms();
        let decision = q.inner.borrow_mut().limiter.poll_in(ticket, now, lane);
        let wait = match decision {
            Admit::Go => {
                std::mem::forget(queued);
                q.wake_head();
                return Ok(Slot { q, p });
            }
            Admit::QuotaSpent { until } => {
                let ms = until.saturating_sub(now).max(0);
                if !day_waits(deadline, now, ms) {
                    let daily = q.state(now).daily_quota;
                    return Err(quota_spent(daily, ms));
                }
                Some(ms)
            }
            Admit::Reserved { until, kept } => {
                return Err(reserved(kept, until.saturating_sub(now)));
            }
            Admit::Wait(ms) => ms,
        };
        let renews = matches!(decision, Admit::QuotaSpent { .. });
        if let Some(ms) = wait.map(|ms| ms.max(0) as u64) {
            if !renews && (ms > MAX_RETRY_AFTER_MS || !deadline.holds(now, ms)) {
                let why = q.state(now).holding();
                return Err(deadline.cannot_wait(now, ms, MAX_RETRY_AFTER_MS, &why));
            }
        }
        if let Some(tell) = waits.take() {
            let why = q.state(now).holding();
            tell(wait.map(|ms| ms.max(0) as u64), &why);
        }
        let timer = async {
            match wait {
                Some(ms) => p.sleep(ms.max(0) as u64).await,
                None => pending().await,
            }
        };
        let woken = Woken {
            q,
            ticket,
            registered: false,
        };
        if let First::A(()) = race(abort(p, signal), race(woken, timer)).await {
            return Err(aborted(p, signal));
        }
    }
}

/// Whether a call waits `ms` for its day to renew: only before a deadline it has.
pub(super) fn day_waits(deadline: Deadline, now: i64, ms: i64) -> bool {
    deadline.at().is_some() && deadline.holds(now, ms.max(0) as u64)
}

/// The `rate_limited` error of a spent day of `daily` requests, which renews in `ms`.
pub(super) fn quota_spent(daily: u32, ms: i64) -> Failure {
    Error::new(
        ErrorKind::RateLimited,
        format!("the organization's day of {daily} requests is spent (every integration's calls count); it renews in {} s; the call was not sent", (ms.max(0) as u64).div_ceil(1000)),
    )
    .with_retry_after(Some(ms.max(0) as u64))
    .into()
}

/// The `rate_limited` error of a background call that would spend the `kept` calls of the day left
/// to interactive ones, which renews in `ms`.
pub(super) fn reserved(kept: u32, ms: i64) -> Failure {
    Error::new(
        ErrorKind::RateLimited,
        format!("a background call may not spend the last {kept} calls of the organization's day, kept for interactive calls (rateLimit.reserve); the day renews in {} s; the call was not sent", (ms.max(0) as u64).div_ceil(1000)),
    )
    .with_retry_after(Some(ms.max(0) as u64))
    .into()
}

/// The `rate_limited` error of a call refused because `waiting` calls already wait: its
/// `retryAfterMs` the time the queue takes to drain at the per-minute limit.
pub(super) fn queue_full(waiting: u32, limits: Limits) -> Failure {
    let drain = u64::from(waiting) * 60_000 / u64::from(limits.per_minute.max(1));
    Error::new(
        ErrorKind::RateLimited,
        format!(
            "{waiting} calls already wait in the limiter's queue, the most it holds (rateLimit.maxQueued); this call was not sent"
        ),
    )
    .with_retry_after(Some(drain))
    .into()
}

/// A place in the queue; dropped before admission (an abort), it leaves the queue.
struct Queued<'a> {
    q: &'a Queue,
    ticket: u64,
}

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        self.q.cancel(self.ticket);
    }
}

/// A started call's slot: dropped when the attempt ended, it frees the slot at that time.
pub(super) struct Slot<'a, P: Platform> {
    q: &'a Queue,
    p: &'a P,
}

impl<P: Platform> Drop for Slot<'_, P> {
    fn drop(&mut self) {
        self.q.finish(self.p.now_ms());
    }
}

/// Resolves once `wake_head` took out the waker of `ticket`: only a wake ends the wait.
struct Woken<'a> {
    q: &'a Queue,
    ticket: u64,
    registered: bool,
}

impl Future for Woken<'_> {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let ticket = self.ticket;
        let mut inner = self.q.inner.borrow_mut();
        if let Some((_, w)) = inner.waiters.iter_mut().find(|(t, _)| *t == ticket) {
            w.clone_from(cx.waker());
            return Poll::Pending;
        }
        if self.registered {
            return Poll::Ready(());
        }
        inner.waiters.push((ticket, cx.waker().clone()));
        drop(inner);
        self.registered = true;
        Poll::Pending
    }
}

impl Drop for Woken<'_> {
    fn drop(&mut self) {
        let ticket = self.ticket;
        self.q
            .inner
            .borrow_mut()
            .waiters
            .retain(|(t, _)| *t != ticket);
    }
}
