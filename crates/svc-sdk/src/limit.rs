//! The client-side rate limiter as a pure state machine: requests per minute, calls in flight,
//! the daily quota, first in first out, with the clock injected (milliseconds).
//!
//! A call holds its place in the minute window from its start until a minute after its answer:
//! the service counts a request when it arrives, some time between the two, so counting from the
//! answer keeps any minute of the service's count within the limit, whatever the latency.

use std::collections::VecDeque;
use svc_core::calendar::DAY_MS;
pub use svc_core::plans::{Limits, DEFAULT_PLAN, PER_MINUTE, PLANS, PLAN_TS};
use svc_json::{expect, Json, Obj};

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const PLAN_SECTION: &str = PLAN_TS;

pub const MINUTE_MS: i64 = 60_000;

/// The longest a service's back-off holds: a Retry-After of more than a day is taken as a day.
pub const MOST_BACK_OFF_MS: i64 = DAY_MS;

/// A call's lane: a background call (a sync job) may not spend the share of the organization's
/// day kept for interactive ones (`rateLimit.reserve`, in thousandths).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Lane {
    pub background: bool,
    pub reserve_per_mille: u32,
}

impl Lane {
    /// The calls of a day of `daily` that a background call leaves to interactive ones.
    pub fn kept(&self, daily: u32) -> u32 {
        let kept = (u64::from(daily) * u64::from(self.reserve_per_mille.min(1000))).div_ceil(1000);
        u32::try_from(kept).unwrap_or(daily)
    }

    /// The lane as `Serialize` wrote it.
    pub(crate) fn from_obj(o: &Obj) -> Result<Lane, String> {
        Ok(Lane {
            background: o.field("background")?,
            reserve_per_mille: o.field("reservePerMille")?,
        })
    }
}

/// What a waiting call should do now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admit {
    /// Start now; the call holds a slot until `finish`, and its place in the window a minute longer.
    Go,
    /// Ask again after at most this many ms, or when a slot is freed (`None`: only then).
    Wait(Option<i64>),
    /// The daily quota is spent; it renews at this time (ms since the epoch).
    QuotaSpent { until: i64 },
    /// A background call would spend the day's share kept for interactive calls, until then.
    Reserved { until: i64, kept: u32 },
}

/// The figures of the limits that every limiter keeps, in one process or shared by a fleet
/// (`crate::fleet`): the answers of the last minute, the day's count, the server's back-off and
/// headers. The calls in flight are counted by the owner (a number here, leases in a fleet), so
/// the window, quota and back-off arithmetic is written once, here.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Window {
    /// When the answers of the finished calls of the last minute came, oldest first.
    answered: VecDeque<i64>,
    /// The UTC day (days since the epoch) that `day_count` counts.
    day: i64,
    day_count: u32,
    /// The server said no more requests until then (a 429's Retry-After).
    blocked_until: i64,
    /// The organization's day as the service last stated it, which wins over the plan's quota.
    #[serde(skip_serializing_if = "Option::is_none")]
    stated: Option<Stated>,
}

/// The organization's day as the service states it on its answers (`X-Rate-Limit-Limit`,
/// `-Remaining`, `-Reset`): the calls it allows, those left when it said so (for every
/// integration of the organization), the calls started here since, and when it renews.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Stated {
    limit: u32,
    remaining: u32,
    since: u32,
    reset_at: i64,
}

impl Stated {
    fn from_obj(o: &Obj) -> Result<Stated, String> {
        Ok(Stated {
            limit: o.field("limit")?,
            remaining: o.field("remaining")?,
            since: o.field("since")?,
            reset_at: o.field("resetAt")?,
        })
    }

    fn left(&self) -> u32 {
        self.remaining.saturating_sub(self.since)
    }
}

/// How an answer's `X-Rate-Limit-*` figures are read: the service's known quirks, none trusted
/// into a lock-out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DayFigures {
    /// The day is as stated.
    Taken,
    /// No limit, or no remaining: the plan's table (or the day already stated) holds.
    Missing,
    /// A limit of 0: no day allows nothing; the figures are not taken.
    ZeroLimit,
    /// Nothing left on the first answer that states the day, though the call was served: not a
    /// lock-out until a later answer says so too.
    ZeroFirst,
    /// More left than the limit, or a reset more than a day away.
    Absurd,
}

/// What the limits say of one more start at a time, before any queue order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    Go,
    /// The daily quota is spent until then (the next UTC day).
    QuotaSpent {
        until: i64,
    },
    /// What is left of the day is the share kept for interactive calls (`kept` of them), until
    /// then: a background call's refusal.
    Reserved {
        until: i64,
        kept: u32,
    },
    /// The server's back-off holds until then.
    BackOff {
        until: i64,
    },
    /// Every place of the minute window is taken: the oldest answered place frees at `until`;
    /// `None` when every place is held by a call in flight (a minute after the next answer).
    WindowFull {
        until: Option<i64>,
    },
    /// Every slot is in flight.
    Busy,
}

impl Window {
    pub(crate) fn new() -> Window {
        Window {
            answered: VecDeque::new(),
            day: 0,
            day_count: 0,
            blocked_until: 0,
            stated: None,
        }
    }

    /// The window as `Serialize` wrote it.
    pub(crate) fn from_obj(o: &Obj) -> Result<Window, String> {
        let answered: &[Json] = o.field("answered")?;
        Ok(Window {
            answered: answered
                .iter()
                .map(|t| expect(t, "`answered` member"))
                .collect::<Result<_, _>>()?,
            day: o.field("day")?,
            day_count: o.field("dayCount")?,
            blocked_until: o.field("blockedUntil")?,
            stated: o.optional("stated")?.map(Stated::from_obj).transpose()?,
        })
    }

    /// The day the service stated, while it has not renewed.
    fn current(&self, now: i64) -> Option<&Stated> {
        self.stated.as_ref().filter(|s| s.reset_at > now)
    }

    /// The day's quota in force at `now`: the stated one, else the plan's.
    fn daily(&self, limits: &Limits, now: i64) -> u32 {
        self.current(now).map_or(limits.daily, |s| s.limit)
    }

    /// The calls left today at `now`: the stated remaining less the calls started since, else
    /// the plan's quota less this day's count.
    fn left_today(&self, limits: &Limits, now: i64) -> u32 {
        match self.current(now) {
            Some(s) => s.left(),
            None => limits.daily.saturating_sub(self.day_count),
        }
    }

    /// When the day renews: the stated reset, else the next UTC day.
    fn day_ends(&self, now: i64) -> i64 {
        self.current(now)
            .map_or((self.day + 1) * DAY_MS, |s| s.reset_at)
    }

    /// Drops the answers older than a minute and starts a new day's count at a new UTC day.
    fn roll(&mut self, now: i64) {
        while self.answered.front().is_some_and(|t| now - t >= MINUTE_MS) {
            self.answered.pop_front();
        }
        let day = now.div_euclid(DAY_MS);
        if day != self.day {
            self.day = day;
            self.day_count = 0;
        }
    }

    /// Whether one more call of `lane` may start at `now`, with `in_flight` calls started and not
    /// answered.
    pub(crate) fn verdict(
        &mut self,
        in_flight: u32,
        limits: &Limits,
        now: i64,
        lane: Lane,
    ) -> Verdict {
        self.roll(now);
        let left = self.left_today(limits, now);
        if left == 0 {
            return Verdict::QuotaSpent {
                until: self.day_ends(now).max(self.blocked_until),
            };
        }
        let kept = lane.kept(self.daily(limits, now));
        if lane.background && left <= kept {
            return Verdict::Reserved {
                until: self.day_ends(now),
                kept,
            };
        }
        if now < self.blocked_until {
            return Verdict::BackOff {
                until: self.blocked_until,
            };
        }
        if in_flight.saturating_add(self.answered.len() as u32) >= limits.per_minute {
            return Verdict::WindowFull {
                until: self
                    .answered
                    .front()
                    .map(|oldest| (oldest + MINUTE_MS).max(now + 1)),
            };
        }
        if in_flight >= limits.max_concurrent {
            return Verdict::Busy;
        }
        Verdict::Go
    }

    /// Bounds the times a shared state may hold beyond reason (a holder's wrong clock, a corrupted
    /// or hostile store) at the store's `now`: answers out of order are sorted, those of more than
    /// a minute ago dropped, later ones counted as answered `now`; a back-off and a stated day end
    /// by `latest`.
    pub(crate) fn bound(&mut self, now: i64, latest: i64) {
        self.answered.make_contiguous().sort_unstable();
        self.answered.retain(|t| now.saturating_sub(*t) < MINUTE_MS);
        for t in &mut self.answered {
            *t = (*t).min(now);
        }
        self.blocked_until = self.blocked_until.min(latest);
        if let Some(s) = &mut self.stated {
            s.reset_at = s.reset_at.min(latest);
        }
    }

    /// A call starts (after a `Verdict::Go`): it counts for the day, and against the stated day.
    pub(crate) fn start(&mut self) {
        self.day_count = self.day_count.saturating_add(1);
        if let Some(s) = &mut self.stated {
            s.since = s.since.saturating_add(1);
        }
    }

    /// A started call was answered at `at`: its place lasts a minute from then (from the latest
    /// answer seen, if this one comes out of clock order).
    pub(crate) fn answer(&mut self, at: i64) {
        let at = self.answered.back().map_or(at, |last| at.max(*last));
        self.answered.push_back(at);
    }

    /// Adopts the organization's day from an answer's X-Rate-Limit-Limit / -Remaining / -Reset
    /// (seconds until the day renews; without it, the next UTC day), unless they are one of the
    /// service's quirks (`DayFigures`). Within one day what is left only falls: an answer that
    /// arrives after a later one (or before the service counted the calls started here since)
    /// cannot give back calls.
    pub(crate) fn observe(
        &mut self,
        limit: Option<u32>,
        remaining: Option<u32>,
        reset_secs: Option<u64>,
        now: i64,
    ) -> DayFigures {
        self.roll(now);
        let (Some(limit), Some(remaining)) = (limit, remaining) else {
            return DayFigures::Missing;
        };
        let reset_at = match reset_secs {
            Some(s) if s > DAY_MS as u64 / 1000 => return DayFigures::Absurd,
            Some(s) => now.saturating_add(s as i64 * 1000),
            None => (self.day + 1) * DAY_MS,
        };
        if limit == 0 {
            return DayFigures::ZeroLimit;
        }
        if remaining > limit {
            return DayFigures::Absurd;
        }
        let before = self.current(now).copied();
        if remaining == 0 && before.is_none() {
            return DayFigures::ZeroFirst;
        }
        let same_day = before.filter(|b| (b.reset_at - reset_at).abs() < MINUTE_MS * 2);
        let remaining = same_day.map_or(remaining, |b| remaining.min(b.left()));
        self.stated = Some(Stated {
            limit,
            remaining,
            since: 0,
            reset_at,
        });
        DayFigures::Taken
    }

    /// Holds every start until `now + wait_ms` (a 429's Retry-After). A wait of more than a
    /// minute that reaches the next UTC day is the day's quota spent at the service (its count
    /// may not be ours: another client, another plan), so the day counts as spent.
    pub(crate) fn back_off(&mut self, wait_ms: i64, now: i64) {
        self.roll(now);
        let until = now.saturating_add(wait_ms.clamp(0, MOST_BACK_OFF_MS));
        if wait_ms > MINUTE_MS && until >= (self.day + 1) * DAY_MS {
            self.day_count = u32::MAX;
        }
        self.blocked_until = self.blocked_until.max(until);
    }

    /// The figures at `now` (`rateLimitState()`).
    pub(crate) fn state(
        &mut self,
        in_flight: u32,
        queued: u32,
        limits: &Limits,
        now: i64,
    ) -> State {
        self.roll(now);
        let in_window = in_flight.saturating_add(self.answered.len() as u32);
        let per_minute = limits.per_minute;
        State {
            requests_per_minute: per_minute,
            remaining_this_minute: per_minute.saturating_sub(in_window),
            in_flight,
            max_concurrent: limits.max_concurrent,
            daily_quota: self.daily(limits, now),
            remaining_today: self.left_today(limits, now),
            reset_at: self.day_ends(now),
            plan_daily_quota: limits.daily,
            queued,
            blocked_until: self.blocked_until(limits, now),
        }
    }

    /// Until when no call may start (ms since the epoch): the day's end once its quota is spent,
    /// or the end of the server's back-off; `None` when calls may start.
    fn blocked_until(&self, limits: &Limits, now: i64) -> Option<i64> {
        let quota = (self.left_today(limits, now) == 0).then(|| self.day_ends(now));
        let back_off = (self.blocked_until > now).then_some(self.blocked_until);
        quota.max(back_off)
    }
}

/// One organization's limiter in one process: the [`Window`] kept in memory, the calls in flight
/// counted, and the FIFO queue of waiting calls.
#[derive(Debug)]
pub struct Limiter {
    limits: Limits,
    window: Window,
    in_flight: u32,
    queue: VecDeque<u64>,
    next_ticket: u64,
}

/// What the limiter allows now (`client.rateLimitState()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(
    target_arch = "wasm32",
    derive(tsify::Tsify),
    tsify(rename = "RateLimitState")
)]
#[serde(rename_all = "camelCase")]
pub struct State {
    pub requests_per_minute: u32,
    pub remaining_this_minute: u32,
    pub in_flight: u32,
    pub max_concurrent: u32,
    /// The day's quota: the one the service stated (`X-Rate-Limit-Limit`), else the plan's.
    pub daily_quota: u32,
    /// The calls left today for the organization: as the service stated (`X-Rate-Limit-Remaining`,
    /// less the calls started since), else the plan's quota less this client's count.
    pub remaining_today: u32,
    /// When the day renews (ms since the epoch): as the service stated (`X-Rate-Limit-Reset`),
    /// else the next UTC day.
    pub reset_at: i64,
    /// The plan's daily quota, which the stated day replaces.
    pub plan_daily_quota: u32,
    pub queued: u32,
    /// Until when every call is refused at once (ms since the epoch), while the daily quota is
    /// spent or the service asked to wait longer than a call waits (`rate_limited`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_until: Option<i64>,
}

impl State {
    /// The limits these figures are of.
    pub fn limits(&self) -> Limits {
        Limits {
            per_minute: self.requests_per_minute,
            max_concurrent: self.max_concurrent,
            daily: self.daily_quota,
        }
    }

    /// Why a call waits at these figures, in words for a log line.
    pub fn holding(&self) -> String {
        if self.remaining_today == 0 {
            format!("the daily quota of {} requests is spent", self.daily_quota)
        } else if self.in_flight >= self.max_concurrent {
            format!(
                "{} of {} calls in flight",
                self.in_flight, self.max_concurrent
            )
        } else if self.remaining_this_minute == 0 {
            format!(
                "{} requests in the last minute, the most a minute allows",
                self.requests_per_minute
            )
        } else if self.queued > 1 {
            format!("{} calls ahead in the queue", self.queued - 1)
        } else {
            "the service asked to wait (Retry-After)".into()
        }
    }

    /// The figures as `Serialize` wrote them.
    pub(crate) fn from_obj(o: &Obj) -> Result<State, String> {
        Ok(State {
            requests_per_minute: o.field("requestsPerMinute")?,
            remaining_this_minute: o.field("remainingThisMinute")?,
            in_flight: o.field("inFlight")?,
            max_concurrent: o.field("maxConcurrent")?,
            daily_quota: o.field("dailyQuota")?,
            remaining_today: o.field("remainingToday")?,
            reset_at: o.field("resetAt")?,
            plan_daily_quota: o.field("planDailyQuota")?,
            queued: o.field("queued")?,
            blocked_until: o.optional("blockedUntil")?,
        })
    }
}

impl Limiter {
    pub fn new(limits: Limits) -> Limiter {
        Limiter {
            limits,
            window: Window::new(),
            in_flight: 0,
            queue: VecDeque::new(),
            next_ticket: 0,
        }
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// A place in the queue for a new call.
    pub fn enqueue(&mut self) -> u64 {
        let t = self.next_ticket;
        self.next_ticket += 1;
        self.queue.push_back(t);
        t
    }

    /// How many calls wait in the queue.
    pub fn queued(&self) -> u32 {
        self.queue.len() as u32
    }

    /// The ticket at the head of the queue.
    pub fn head(&self) -> Option<u64> {
        self.queue.front().copied()
    }

    /// Leaves the queue without starting (an aborted wait).
    pub fn cancel(&mut self, ticket: u64) {
        self.queue.retain(|t| *t != ticket);
    }

    /// Whether the interactive call holding `ticket` may start now.
    pub fn poll(&mut self, ticket: u64, now: i64) -> Admit {
        self.poll_in(ticket, now, Lane::default())
    }

    /// Whether the call of `lane` holding `ticket` may start now. Only the head of the queue ever
    /// starts; a spent day or a background call's reserve is told to any call.
    pub fn poll_in(&mut self, ticket: u64, now: i64, lane: Lane) -> Admit {
        let verdict = self.window.verdict(self.in_flight, &self.limits, now, lane);
        match verdict {
            Verdict::QuotaSpent { until } => return Admit::QuotaSpent { until },
            Verdict::Reserved { until, kept } => return Admit::Reserved { until, kept },
            _ => {}
        }
        if self.queue.front() != Some(&ticket) {
            return Admit::Wait(None);
        }
        match verdict {
            Verdict::Go => {
                self.queue.pop_front();
                self.in_flight += 1;
                self.window.start();
                Admit::Go
            }
            Verdict::BackOff { until } => Admit::Wait(Some(until - now)),
            Verdict::WindowFull { until } => Admit::Wait(until.map(|t| t - now)),
            Verdict::Busy => Admit::Wait(None),
            Verdict::QuotaSpent { until } => Admit::QuotaSpent { until },
            Verdict::Reserved { until, kept } => Admit::Reserved { until, kept },
        }
    }

    /// A started call has ended (answered, failed or aborted) at `now`.
    pub fn finish(&mut self, now: i64) {
        self.in_flight = self.in_flight.saturating_sub(1);
        self.window.answer(now);
    }

    /// Adopts the organization's day from an answer's X-Rate-Limit-Limit / -Remaining / -Reset.
    pub fn observe(
        &mut self,
        limit: Option<u32>,
        remaining: Option<u32>,
        reset_secs: Option<u64>,
        now: i64,
    ) -> DayFigures {
        self.window.observe(limit, remaining, reset_secs, now)
    }

    /// The server answered 429: hold everything until `now + wait_ms`.
    pub fn back_off(&mut self, wait_ms: i64, now: i64) {
        self.window.back_off(wait_ms, now);
    }

    pub fn state(&mut self, now: i64) -> State {
        let queued = self.queue.len() as u32;
        self.window.state(self.in_flight, queued, &self.limits, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter(per_minute: u32, max_concurrent: u32, daily: u32) -> Limiter {
        Limiter::new(Limits {
            per_minute,
            max_concurrent,
            daily,
        })
    }

    #[test]
    fn the_typescript_plans_are_the_plans() {
        let plans: Vec<String> = PLANS.iter().map(|p| format!("\"{p}\"")).collect();
        assert!(PLAN_TS.ends_with(&format!(
            "\nexport type ServicePlan = {};",
            plans.join(" | ")
        )));
        assert!(PLAN_TS.ends_with(
            r#"export type ServicePlan = "free" | "standard" | "professional" | "premium" | "elite" | "ultimate";"#
        ));
    }

    #[test]
    fn plans_set_the_documented_limits() {
        assert_eq!(
            Limits::for_plan("free"),
            Limits {
                per_minute: 100,
                max_concurrent: 5,
                daily: 1000
            }
        );
        assert_eq!(Limits::for_plan("standard").daily, 2000);
        assert_eq!(Limits::for_plan("professional").daily, 5000);
        for p in ["premium", "elite", "ultimate"] {
            assert_eq!(
                Limits::for_plan(p),
                Limits {
                    per_minute: 100,
                    max_concurrent: 10,
                    daily: 10_000
                }
            );
        }
    }

    #[test]
    fn the_concurrency_cap_holds_and_a_finish_frees_a_slot() {
        let mut l = limiter(100, 2, 1000);
        let t: Vec<u64> = (0..3).map(|_| l.enqueue()).collect();
        assert_eq!(l.poll(t[0], 0), Admit::Go);
        assert_eq!(l.poll(t[1], 0), Admit::Go);
        assert_eq!(l.poll(t[2], 0), Admit::Wait(None));
        l.finish(1);
        assert_eq!(l.poll(t[2], 1), Admit::Go);
        assert_eq!(l.state(1).in_flight, 2);
    }

    #[test]
    fn first_in_first_out() {
        let mut l = limiter(100, 1, 1000);
        let a = l.enqueue();
        let b = l.enqueue();
        let c = l.enqueue();
        assert_eq!(l.poll(c, 0), Admit::Wait(None), "c is not at the head");
        assert_eq!(l.poll(a, 0), Admit::Go);
        l.finish(1);
        assert_eq!(l.poll(c, 1), Admit::Wait(None), "b comes before c");
        assert_eq!(l.poll(b, 1), Admit::Go);
        l.finish(2);
        assert_eq!(l.poll(c, 2), Admit::Go);
    }

    #[test]
    fn the_minute_window_edge_by_edge() {
        let mut l = limiter(3, 10, 1000);
        for now in [0, 10, 20] {
            let t = l.enqueue();
            assert_eq!(l.poll(t, now), Admit::Go);
            l.finish(now);
        }
        let t = l.enqueue();
        assert_eq!(
            l.poll(t, 30),
            Admit::Wait(Some(59_970)),
            "the fourth waits for the first to leave the window"
        );
        assert_eq!(l.poll(t, 59_999), Admit::Wait(Some(1)));
        assert_eq!(
            l.poll(t, 60_000),
            Admit::Go,
            "exactly one minute after the first start"
        );
        assert_eq!(l.state(60_000).remaining_this_minute, 0);
        assert_eq!(l.state(60_010).remaining_this_minute, 1);
    }

    #[test]
    fn a_place_in_the_window_counts_from_the_answer() {
        let mut l = limiter(2, 10, 1000);
        let (a, b, c) = (l.enqueue(), l.enqueue(), l.enqueue());
        assert_eq!(l.poll(a, 0), Admit::Go);
        assert_eq!(l.poll(b, 0), Admit::Go);
        assert_eq!(
            l.poll(c, 100),
            Admit::Wait(None),
            "both places are held by calls in flight: no time can be known yet"
        );
        l.finish(900);
        assert_eq!(l.poll(c, 900), Admit::Wait(Some(60_000)));
        l.finish(400);
        assert_eq!(
            l.poll(c, 60_899),
            Admit::Wait(Some(1)),
            "an answer seen out of clock order counts from the later time"
        );
        assert_eq!(l.poll(c, 60_900), Admit::Go);
        assert_eq!(l.state(60_900).remaining_this_minute, 1, "c in flight");
        l.finish(61_000);
        assert_eq!(l.state(120_999).remaining_this_minute, 1, "c answered");
        assert_eq!(l.state(121_000).remaining_this_minute, 2);
    }

    #[test]
    fn the_daily_quota_ends_in_quota_spent_and_renews_next_day() {
        let mut l = limiter(100, 10, 2);
        let day = 20_000 * DAY_MS;
        for i in 0..2 {
            let t = l.enqueue();
            assert_eq!(l.poll(t, day + i), Admit::Go);
            l.finish(day + i);
        }
        let t = l.enqueue();
        assert_eq!(
            l.poll(t, day + 5),
            Admit::QuotaSpent {
                until: day + DAY_MS
            }
        );
        l.cancel(t);
        assert_eq!(
            l.state(day + 5).queued,
            0,
            "a spent call's wait leaves the queue"
        );
        let t = l.enqueue();
        assert_eq!(l.poll(t, day + DAY_MS), Admit::Go);
    }

    #[test]
    fn the_stated_day_wins_over_the_plan_up_or_down_and_renews_at_its_reset() {
        let mut l = limiter(100, 10, 1000);
        assert_eq!(
            l.observe(Some(7_500), Some(6_775), Some(34_881), 1_000),
            DayFigures::Taken
        );
        let s = l.state(1_000);
        assert_eq!(
            (
                s.daily_quota,
                s.remaining_today,
                s.reset_at,
                s.plan_daily_quota
            ),
            (7_500, 6_775, 1_000 + 34_881_000, 1_000)
        );
        for i in 0..5 {
            let t = l.enqueue();
            assert_eq!(l.poll(t, 2_000 + i), Admit::Go);
        }
        assert_eq!(
            l.state(3_000).remaining_today,
            6_770,
            "less the calls sent since"
        );
        // Another integration spent the rest: the next answer says 2 left.
        l.observe(Some(7_500), Some(2), Some(34_870), 12_000);
        for _ in 0..2 {
            let t = l.enqueue();
            assert_eq!(l.poll(t, 12_000), Admit::Go);
        }
        let t = l.enqueue();
        let reset = 12_000 + 34_870_000;
        assert_eq!(l.poll(t, 12_001), Admit::QuotaSpent { until: reset });
        l.cancel(t);
        assert_eq!(l.state(12_001).blocked_until, Some(reset));
        let t = l.enqueue();
        assert_eq!(l.poll(t, reset), Admit::Go, "the stated day renewed");
        // A stated day below the plan's binds too.
        let mut l = limiter(100, 10, 10_000);
        l.observe(Some(50), Some(1), Some(60), 0);
        let t = l.enqueue();
        assert_eq!(l.poll(t, 0), Admit::Go);
        let t = l.enqueue();
        assert_eq!(l.poll(t, 0), Admit::QuotaSpent { until: 60_000 });
        assert_eq!(l.state(0).daily_quota, 50);
    }

    #[test]
    fn the_services_quirks_are_never_trusted_into_a_lock_out() {
        let cases = [
            ((None, None, None), DayFigures::Missing),
            ((Some(7_500), None, Some(60)), DayFigures::Missing),
            ((None, Some(10), Some(60)), DayFigures::Missing),
            ((Some(0), Some(0), Some(60)), DayFigures::ZeroLimit),
            ((Some(100), Some(0), Some(60)), DayFigures::ZeroFirst),
            ((Some(100), Some(101), Some(60)), DayFigures::Absurd),
            ((Some(100), Some(50), Some(86_401)), DayFigures::Absurd),
            ((Some(100), Some(50), Some(u64::MAX)), DayFigures::Absurd),
        ];
        for ((limit, remaining, reset), quirk) in cases {
            let mut l = limiter(100, 10, 1000);
            assert_eq!(l.observe(limit, remaining, reset, 0), quirk);
            let s = l.state(0);
            assert_eq!(
                (s.daily_quota, s.remaining_today),
                (1000, 1000),
                "{quirk:?}"
            );
            let t = l.enqueue();
            assert_eq!(l.poll(t, 0), Admit::Go, "{quirk:?}");
        }
        // Zero left on a later answer of a stated day is the day spent.
        let mut l = limiter(100, 10, 1000);
        l.observe(Some(100), Some(3), Some(60), 0);
        assert_eq!(
            l.observe(Some(100), Some(0), Some(59), 1_000),
            DayFigures::Taken
        );
        let t = l.enqueue();
        assert_eq!(l.poll(t, 1_000), Admit::QuotaSpent { until: 60_000 });
        // Within a day, a late answer that says more is left cannot give back calls.
        let mut l = limiter(100, 10, 1000);
        l.observe(Some(100), Some(10), Some(60), 0);
        l.observe(Some(100), Some(40), Some(60), 10);
        assert_eq!(l.state(10).remaining_today, 10);
        // Without a reset, the day renews at the next UTC day.
        let mut l = limiter(100, 10, 1000);
        l.observe(Some(100), Some(10), None, 5);
        assert_eq!(l.state(5).reset_at, DAY_MS);
    }

    #[test]
    fn a_429_holds_the_queue_and_the_minute_stays_the_plans() {
        let mut l = limiter(100, 10, 1000);
        l.observe(Some(3), Some(2), Some(60), 0);
        assert_eq!(
            l.state(0).requests_per_minute,
            100,
            "a stated day is no minute"
        );
        l.back_off(2_000, 9_000);
        let t = l.enqueue();
        assert_eq!(l.poll(t, 10_000), Admit::Wait(Some(1_000)));
        assert_eq!(l.poll(t, 11_000), Admit::Go);
    }

    #[test]
    fn a_cancelled_wait_leaves_the_queue() {
        let mut l = limiter(100, 1, 1000);
        let a = l.enqueue();
        let b = l.enqueue();
        let c = l.enqueue();
        assert_eq!(l.poll(a, 0), Admit::Go);
        l.cancel(b);
        l.finish(1);
        assert_eq!(l.poll(c, 1), Admit::Go);
    }
}
