//! Rate limits per organization: requests per minute, calls in flight, and the daily quota.

use std::collections::{BTreeMap, HashMap, VecDeque};

/// A real minute.
pub const MINUTE_MS: i64 = 60_000;

/// The limits in force; `enforce: false` only counts.
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    pub per_minute: u32,
    pub in_flight: u32,
    /// Calls a day per organization; `NO_QUOTA`: none.
    pub daily: u32,
    /// Calls of today's quota the organization's other integrations have already spent.
    pub others_spent: u32,
    pub enforce: bool,
    /// The length of the rate window in ms: `MINUTE_MS`, or shorter for tests on a scaled clock,
    /// whose seconds (in `Retry-After` and `X-Rate-Limit-Reset`) are then a sixtieth of it, and
    /// whose day is 1440 of its minutes.
    pub minute_ms: i64,
}

/// `Policy::daily` of an organization without a daily quota.
pub const NO_QUOTA: u32 = u32::MAX;

#[derive(Default)]
struct Usage {
    /// Arrival times (ms) of the admitted requests of the last minute.
    window: VecDeque<i64>,
    in_flight: u32,
    peak: u32,
    day: i64,
    today: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    PerMinute,
    InFlight,
    Daily,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused {
    pub why: Refusal,
    pub retry_after_s: u64,
}

/// What the `X-Rate-Limit-*` headers say: the organization's day, as the service states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// The daily limit in force.
    pub limit: u32,
    /// Calls left today, for every integration of the organization.
    pub remaining: u32,
    /// Seconds until the day ends (UTC midnight; scaled seconds on a scaled clock).
    pub reset_s: u64,
}

pub struct Limiter {
    pub policy: Policy,
    usage: HashMap<String, Usage>,
}

impl Policy {
    /// `ms` of the rate window in its own seconds (a sixtieth of `minute_ms`), rounded up.
    fn window_s(&self, ms: i64) -> u64 {
        ((ms.max(0) * 60) as u64).div_ceil(self.minute_ms as u64)
    }

    /// The length of a day in ms: 1440 minutes of `minute_ms`.
    pub fn day_ms(&self) -> i64 {
        self.minute_ms * 1440
    }

    /// The number of the day at `now_ms`, counted from the epoch in (scaled) days.
    pub fn day(&self, now_ms: i64) -> i64 {
        now_ms.div_euclid(self.day_ms())
    }

    /// Seconds (scaled on a scaled clock) until the day of `now_ms` ends.
    pub fn until_next_day_s(&self, now_ms: i64) -> u64 {
        self.window_s(self.day_ms() - now_ms.rem_euclid(self.day_ms()))
    }

    /// Calls spent today: the organization's `today` here and its other integrations'.
    fn spent(&self, today: u32) -> u64 {
        u64::from(today) + u64::from(self.others_spent)
    }

    /// The day's headers after `today` counted calls; `None` without a daily quota.
    fn day_status(&self, today: u32, now_ms: i64) -> Option<Status> {
        (self.daily != NO_QUOTA).then(|| Status {
            limit: self.daily,
            remaining: u64::from(self.daily).saturating_sub(self.spent(today)) as u32,
            reset_s: self.until_next_day_s(now_ms),
        })
    }
}

impl Limiter {
    pub fn new(policy: Policy) -> Limiter {
        Limiter {
            policy,
            usage: HashMap::new(),
        }
    }

    fn usage(&mut self, key: &str, now_ms: i64) -> &mut Usage {
        let minute = self.policy.minute_ms;
        let day = self.policy.day(now_ms);
        let u = self.usage.entry(key.to_string()).or_default();
        while u.window.front().is_some_and(|t| now_ms - t >= minute) {
            u.window.pop_front();
        }
        if u.day != day {
            u.day = day;
            u.today = 0;
        }
        u
    }

    /// Admits a request (it is then in flight until `finish`) or says why not, with the day's
    /// headers after it (`None` without a daily quota).
    pub fn admit(&mut self, key: &str, now_ms: i64) -> (Result<(), Refused>, Option<Status>) {
        let p = self.policy;
        let u = self.usage(key, now_ms);
        u.peak = u.peak.max(u.in_flight + 1);
        let refusal = if !p.enforce {
            None
        } else if u.in_flight >= p.in_flight {
            Some(Refused {
                why: Refusal::InFlight,
                retry_after_s: 1,
            })
        } else if u.window.len() >= p.per_minute as usize {
            let oldest = u.window.front().copied().unwrap_or(now_ms);
            Some(Refused {
                why: Refusal::PerMinute,
                retry_after_s: p.window_s(oldest + p.minute_ms - now_ms).max(1),
            })
        } else if p.spent(u.today) >= u64::from(p.daily) {
            Some(Refused {
                why: Refusal::Daily,
                retry_after_s: p.until_next_day_s(now_ms),
            })
        } else {
            None
        };
        if refusal.is_none() {
            u.window.push_back(now_ms);
            u.today += 1;
            u.in_flight += 1;
        }
        let status = p.day_status(u.today, now_ms);
        (refusal.map_or(Ok(()), Err), status)
    }

    /// Ends an admitted request.
    pub fn finish(&mut self, key: &str) {
        if let Some(u) = self.usage.get_mut(key) {
            u.in_flight = u.in_flight.saturating_sub(1);
        }
    }

    /// The day's headers of a key without counting a request (`None` without a daily quota).
    pub fn status(&self, key: &str, now_ms: i64) -> Option<Status> {
        let p = &self.policy;
        let today = self
            .usage
            .get(key)
            .filter(|u| u.day == p.day(now_ms))
            .map_or(0, |u| u.today);
        p.day_status(today, now_ms)
    }

    /// The most requests seen in flight at once, per key.
    pub fn peaks(&self) -> BTreeMap<String, u32> {
        self.usage
            .iter()
            .map(|(k, u)| (k.clone(), u.peak))
            .collect()
    }

    pub fn in_flight(&self) -> BTreeMap<String, u32> {
        self.usage
            .iter()
            .map(|(k, u)| (k.clone(), u.in_flight))
            .collect()
    }

    /// Starts the peaks again from what is in flight now.
    pub fn reset_peaks(&mut self) {
        for u in self.usage.values_mut() {
            u.peak = u.in_flight;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::DAY_MS;

    fn limiter(per_minute: u32, in_flight: u32, daily: u32) -> Limiter {
        Limiter::new(Policy {
            per_minute,
            in_flight,
            daily,
            others_spent: 0,
            enforce: true,
            minute_ms: MINUTE_MS,
        })
    }

    #[test]
    fn per_minute_is_a_sliding_window_with_retry_after() {
        let mut l = limiter(3, 10, 100);
        for t in [0, 10_000, 20_000] {
            assert!(l.admit("o", t).0.is_ok());
            l.finish("o");
        }
        let (r, s) = l.admit("o", 30_000);
        assert_eq!(
            r,
            Err(Refused {
                why: Refusal::PerMinute,
                retry_after_s: 30
            })
        );
        assert_eq!(
            s,
            Some(Status {
                limit: 100,
                remaining: 97,
                reset_s: 86_400 - 30
            }),
            "the headers state the day; the refused call is not counted"
        );
        assert!(
            l.admit("other", 30_000).0.is_ok(),
            "limits are per organization"
        );
        assert_eq!(l.status("o", 30_000), s);
        assert_eq!(
            l.status("nobody", 30_000),
            Some(Status {
                limit: 100,
                remaining: 100,
                reset_s: 86_370
            })
        );
        let (r, s) = l.admit("o", 60_000);
        assert!(r.is_ok());
        assert_eq!(s.map(|s| s.remaining), Some(96));
    }

    #[test]
    fn a_scaled_minute_is_the_window_and_its_seconds_are_a_sixtieth_of_it() {
        let mut l = Limiter::new(Policy {
            minute_ms: 12_000,
            ..limiter(3, 10, 100).policy
        });
        for t in [0, 2_000, 4_000] {
            assert!(l.admit("o", t).0.is_ok());
            l.finish("o");
        }
        let (r, s) = l.admit("o", 6_000);
        assert_eq!(
            r,
            Err(Refused {
                why: Refusal::PerMinute,
                retry_after_s: 30
            })
        );
        assert_eq!(s.unwrap().reset_s, 86_400 - 30, "6 s are 30 scaled seconds");
        assert!(l.admit("o", 12_000).0.is_ok(), "the first left the window");
    }

    #[test]
    fn a_scaled_day_is_1440_scaled_minutes() {
        let mut l = Limiter::new(Policy {
            minute_ms: 60,
            ..limiter(100, 10, 2).policy
        });
        let day = 60 * 1440;
        assert_eq!(l.policy.day_ms(), day);
        assert_eq!(l.policy.day(day * 3 + 5), 3);
        assert_eq!(l.status("o", 0).unwrap().reset_s, 86_400);
        assert_eq!(l.status("o", day - 1).unwrap().reset_s, 1);
        assert_eq!(l.status("o", day / 2).unwrap().reset_s, 43_200);
        for t in [day, day + 1_000] {
            assert!(l.admit("o", t).0.is_ok());
            l.finish("o");
        }
        let (r, s) = l.admit("o", day + day / 4);
        assert_eq!(
            r,
            Err(Refused {
                why: Refusal::Daily,
                retry_after_s: 64_800
            })
        );
        assert_eq!(s.unwrap().remaining, 0);
        assert!(l.admit("o", 2 * day).0.is_ok(), "a new scaled day");
    }

    #[test]
    fn in_flight_limit_and_peak() {
        let mut l = limiter(100, 2, 100);
        assert!(l.admit("o", 0).0.is_ok());
        assert!(l.admit("o", 0).0.is_ok());
        assert_eq!(
            l.admit("o", 0).0,
            Err(Refused {
                why: Refusal::InFlight,
                retry_after_s: 1
            })
        );
        assert_eq!(
            l.peaks()["o"],
            3,
            "the refused arrival counts toward the peak"
        );
        l.finish("o");
        assert!(l.admit("o", 1).0.is_ok());
        assert_eq!(l.in_flight()["o"], 2);
        l.finish("o");
        l.finish("o");
        l.reset_peaks();
        assert_eq!(l.peaks()["o"], 0);
    }

    #[test]
    fn daily_quota_resets_at_midnight() {
        let mut l = limiter(100, 10, 2);
        for t in [DAY_MS - 200_000, DAY_MS - 100_000] {
            assert!(l.admit("o", t).0.is_ok());
            l.finish("o");
        }
        let (r, _) = l.admit("o", DAY_MS - 1_000);
        assert_eq!(
            r,
            Err(Refused {
                why: Refusal::Daily,
                retry_after_s: 1
            })
        );
        assert_eq!(l.status("o", DAY_MS).unwrap().remaining, 2, "a new day");
        assert!(l.admit("o", DAY_MS).0.is_ok());
    }

    #[test]
    fn others_spent_is_taken_from_the_day() {
        let mut l = Limiter::new(Policy {
            others_spent: 7,
            ..limiter(100, 10, 10).policy
        });
        assert_eq!(l.status("o", 0).unwrap().remaining, 3);
        for left in [2, 1, 0] {
            let (r, s) = l.admit("o", 0);
            assert!(r.is_ok());
            assert_eq!(s.unwrap().remaining, left);
            l.finish("o");
        }
        let (r, s) = l.admit("o", 0);
        assert_eq!(r.unwrap_err().why, Refusal::Daily);
        assert_eq!(s.unwrap().remaining, 0);
        let mut spent = Limiter::new(Policy {
            others_spent: 12,
            ..l.policy
        });
        assert_eq!(spent.admit("o", 0).0.unwrap_err().why, Refusal::Daily);
    }

    #[test]
    fn no_quota_states_no_day() {
        let mut l = limiter(100, 10, NO_QUOTA);
        assert!(l.admit("o", 0).0.is_ok());
        assert_eq!(l.admit("o", 0).1, None);
        assert_eq!(l.status("o", 0), None);
    }

    #[test]
    fn not_enforced_only_counts() {
        let mut l = Limiter::new(Policy {
            per_minute: 1,
            in_flight: 1,
            daily: 1,
            others_spent: 0,
            enforce: false,
            minute_ms: MINUTE_MS,
        });
        for _ in 0..3 {
            assert!(l.admit("o", 0).0.is_ok());
        }
        assert_eq!(l.peaks()["o"], 3);
    }
}
