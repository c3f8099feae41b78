//! The client-side rate limiter as a pure state machine: requests per minute, calls in flight,
//! the daily quota, first in first out, with the clock injected (milliseconds).
//!
//! A call holds its place in the minute window from its start until a minute after its answer:
//! the service counts a request when it arrives, some time between the two, so counting from the
//! answer keeps any minute of the service's count within the limit, whatever the latency.

use crate::calendar::DAY_MS;
use std::collections::VecDeque;

pub const MINUTE_MS: i64 = 60_000;

/// The limits of a plan, or as configured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub per_minute: u32,
    pub max_concurrent: u32,
    pub daily: u32,
}

/// Requests per minute, on every plan.
const PER_MINUTE: u32 = 100;

/// The service's plans, cheapest first, with their documented calls in flight and daily quota.
const PLAN_LIMITS: [(&str, u32, u32); 6] = [
    ("free", 5, 1000),
    ("standard", 10, 2000),
    ("professional", 10, 5000),
    ("premium", 10, 10_000),
    ("elite", 10, 10_000),
    ("ultimate", 10, 10_000),
];

/// The service's plans, cheapest first.
pub const PLANS: [&str; PLAN_LIMITS.len()] = {
    let mut names = [""; PLAN_LIMITS.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = PLAN_LIMITS[i].0;
        i += 1;
    }
    names
};

/// The plan a client assumes when it is given none.
pub const DEFAULT_PLAN: &str = PLANS[0];

/// The TypeScript type `ServicePlan`, written from [`PLANS`].
pub const PLAN_TS: &str = crate::family::ts_string_union!(
    "One of the service's plans; it sets the limiter's default limits.",
    "ServicePlan",
    PLANS
);

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const PLAN_SECTION: &str = PLAN_TS;

impl Limits {
    /// The documented limits of a plan; a name that is not a plan gets the highest plan's.
    pub fn for_plan(plan: &str) -> Limits {
        let highest = &PLAN_LIMITS[PLAN_LIMITS.len() - 1];
        let (_, max_concurrent, daily) = PLAN_LIMITS
            .iter()
            .find(|(name, ..)| *name == plan)
            .unwrap_or(highest);
        Limits {
            per_minute: PER_MINUTE,
            max_concurrent: *max_concurrent,
            daily: *daily,
        }
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
}

/// One organization's limiter.
#[derive(Debug)]
pub struct Limiter {
    limits: Limits,
    /// When the answers of the finished calls of the last minute came, oldest first.
    answered: VecDeque<i64>,
    in_flight: u32,
    day: i64,
    day_count: u32,
    queue: VecDeque<u64>,
    next_ticket: u64,
    /// The server said no more requests until then (from X-Rate-Limit-Remaining: 0).
    blocked_until: i64,
    server_limit: Option<u32>,
    server_remaining: Option<u32>,
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
    pub daily_quota: u32,
    pub remaining_today: u32,
    pub queued: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_limit: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_remaining: Option<u32>,
}

impl Limiter {
    pub fn new(limits: Limits) -> Limiter {
        Limiter {
            limits,
            answered: VecDeque::new(),
            in_flight: 0,
            day: i64::MIN,
            day_count: 0,
            queue: VecDeque::new(),
            next_ticket: 0,
            blocked_until: 0,
            server_limit: None,
            server_remaining: None,
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

    /// The ticket at the head of the queue.
    pub fn head(&self) -> Option<u64> {
        self.queue.front().copied()
    }

    /// Leaves the queue without starting (an aborted wait).
    pub fn cancel(&mut self, ticket: u64) {
        self.queue.retain(|t| *t != ticket);
    }

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

    /// Whether the call holding `ticket` may start now. Only the head of the queue ever starts.
    pub fn poll(&mut self, ticket: u64, now: i64) -> Admit {
        self.roll(now);
        if self.day_count >= self.limits.daily {
            self.cancel(ticket);
            return Admit::QuotaSpent {
                until: (self.day + 1) * DAY_MS,
            };
        }
        if self.queue.front() != Some(&ticket) {
            return Admit::Wait(None);
        }
        if now < self.blocked_until {
            return Admit::Wait(Some(self.blocked_until - now));
        }
        if self.in_window() >= self.limits.per_minute {
            return Admit::Wait(
                self.answered
                    .front()
                    .map(|oldest| (oldest + MINUTE_MS - now).max(1)),
            );
        }
        if self.in_flight >= self.limits.max_concurrent {
            return Admit::Wait(None);
        }
        self.queue.pop_front();
        self.in_flight += 1;
        self.day_count += 1;
        Admit::Go
    }

    /// A started call has ended (answered, failed or aborted) at `now`.
    pub fn finish(&mut self, now: i64) {
        self.in_flight = self.in_flight.saturating_sub(1);
        let at = self.answered.back().map_or(now, |last| now.max(*last));
        self.answered.push_back(at);
    }

    /// Places taken in the minute window: the calls in flight and those answered in the last minute.
    fn in_window(&self) -> u32 {
        self.in_flight + self.answered.len() as u32
    }

    /// Adopts the server's X-Rate-Limit-Limit / -Remaining / -Reset (seconds until reset).
    pub fn observe(
        &mut self,
        limit: Option<u32>,
        remaining: Option<u32>,
        reset_secs: Option<u64>,
        now: i64,
    ) {
        if limit.is_some() {
            self.server_limit = limit;
        }
        if remaining.is_some() {
            self.server_remaining = remaining;
        }
        if remaining == Some(0) {
            let wait = reset_secs
                .map(|s| s.min(3_600) as i64 * 1000)
                .unwrap_or(MINUTE_MS);
            self.blocked_until = self.blocked_until.max(now + wait);
        }
    }

    /// The server answered 429: hold everything until `now + wait_ms`.
    pub fn back_off(&mut self, wait_ms: i64, now: i64) {
        self.blocked_until = self.blocked_until.max(now + wait_ms);
    }

    pub fn state(&mut self, now: i64) -> State {
        self.roll(now);
        State {
            requests_per_minute: self.limits.per_minute,
            remaining_this_minute: self.limits.per_minute.saturating_sub(self.in_window()),
            in_flight: self.in_flight,
            max_concurrent: self.limits.max_concurrent,
            daily_quota: self.limits.daily,
            remaining_today: self.limits.daily.saturating_sub(self.day_count),
            queued: self.queue.len() as u32,
            server_limit: self.server_limit,
            server_remaining: self.server_remaining,
        }
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
        assert_eq!(l.state(day + 5).queued, 0, "a spent call leaves the queue");
        let t = l.enqueue();
        assert_eq!(l.poll(t, day + DAY_MS), Admit::Go);
    }

    #[test]
    fn server_headers_and_429_hold_the_queue() {
        let mut l = limiter(100, 10, 1000);
        l.observe(Some(100), Some(0), Some(7), 1_000);
        let t = l.enqueue();
        assert_eq!(l.poll(t, 1_000), Admit::Wait(Some(7_000)));
        assert_eq!(l.poll(t, 8_000), Admit::Go);
        let s = l.state(8_000);
        assert_eq!((s.server_limit, s.server_remaining), (Some(100), Some(0)));
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
