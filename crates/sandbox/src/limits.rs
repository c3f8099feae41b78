//! Rate limits per organization: requests per minute, calls in flight, and the daily quota.

use std::collections::{BTreeMap, HashMap, VecDeque};

/// A real minute.
pub const MINUTE_MS: i64 = 60_000;

/// The limits in force; `enforce: false` only counts.
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    pub per_minute: u32,
    pub in_flight: u32,
    pub daily: u32,
    pub enforce: bool,
    /// The length of the rate window in ms: `MINUTE_MS`, or shorter for tests on a scaled clock,
    /// whose seconds (in `Retry-After` and `X-Rate-Limit-Reset`) are then a sixtieth of it.
    pub minute_ms: i64,
}

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

/// What the `X-Rate-Limit-*` headers say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    pub limit: u32,
    pub remaining: u32,
    /// Seconds until the oldest request of the window leaves it (0 when the window is empty).
    pub reset_s: u64,
}

pub struct Limiter {
    pub policy: Policy,
    usage: HashMap<String, Usage>,
}

fn ceil_s(ms: i64) -> u64 {
    (ms.max(0) as u64).div_ceil(1000)
}

impl Policy {
    /// `ms` of the rate window in its own seconds (a sixtieth of `minute_ms`), rounded up.
    fn window_s(&self, ms: i64) -> u64 {
        ((ms.max(0) * 60) as u64).div_ceil(self.minute_ms as u64)
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
        let u = self.usage.entry(key.to_string()).or_default();
        while u.window.front().is_some_and(|t| now_ms - t >= minute) {
            u.window.pop_front();
        }
        let day = now_ms.div_euclid(crate::time::DAY_MS);
        if u.day != day {
            u.day = day;
            u.today = 0;
        }
        u
    }

    fn status_of(u: &Usage, p: &Policy, now_ms: i64) -> Status {
        // `u.window` has been pruned to the last minute by `usage`.
        Status {
            limit: p.per_minute,
            remaining: p.per_minute.saturating_sub(u.window.len() as u32),
            reset_s: u
                .window
                .front()
                .map_or(0, |t| p.window_s(t + p.minute_ms - now_ms)),
        }
    }

    /// Admits a request (it is then in flight until `finish`) or says why not.
    pub fn admit(&mut self, key: &str, now_ms: i64) -> (Result<(), Refused>, Status) {
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
        } else if u.today >= p.daily {
            Some(Refused {
                why: Refusal::Daily,
                retry_after_s: ceil_s(crate::time::until_next_day(now_ms)),
            })
        } else {
            None
        };
        if refusal.is_none() {
            u.window.push_back(now_ms);
            u.today += 1;
            u.in_flight += 1;
        }
        let status = Limiter::status_of(u, &p, now_ms);
        (refusal.map_or(Ok(()), Err), status)
    }

    /// Ends an admitted request.
    pub fn finish(&mut self, key: &str) {
        if let Some(u) = self.usage.get_mut(key) {
            u.in_flight = u.in_flight.saturating_sub(1);
        }
    }

    /// The headers' values for a key, without counting a request.
    pub fn status(&self, key: &str, now_ms: i64) -> Status {
        let p = &self.policy;
        let live: Vec<i64> = self
            .usage
            .get(key)
            .map(|u| {
                u.window
                    .iter()
                    .copied()
                    .filter(|t| now_ms - t < p.minute_ms)
                    .collect()
            })
            .unwrap_or_default();
        Status {
            limit: self.policy.per_minute,
            remaining: self.policy.per_minute.saturating_sub(live.len() as u32),
            reset_s: live
                .first()
                .map_or(0, |t| p.window_s(t + p.minute_ms - now_ms)),
        }
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

    fn limiter(per_minute: u32, in_flight: u32, daily: u32) -> Limiter {
        Limiter::new(Policy {
            per_minute,
            in_flight,
            daily,
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
            Status {
                limit: 3,
                remaining: 0,
                reset_s: 30
            }
        );
        assert!(
            l.admit("other", 30_000).0.is_ok(),
            "limits are per organization"
        );
        assert_eq!(l.status("o", 30_000), s);
        assert_eq!(
            l.status("nobody", 30_000),
            Status {
                limit: 3,
                remaining: 3,
                reset_s: 0
            }
        );
        let (r, s) = l.admit("o", 60_000);
        assert!(r.is_ok());
        assert_eq!(
            s,
            Status {
                limit: 3,
                remaining: 0,
                reset_s: 10
            }
        );
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
        assert_eq!(s.reset_s, 30);
        assert_eq!(l.status("o", 11_999).reset_s, 1);
        assert!(l.admit("o", 12_000).0.is_ok(), "the first left the window");
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
        let day = crate::time::DAY_MS;
        for t in [day - 200_000, day - 100_000] {
            assert!(l.admit("o", t).0.is_ok());
            l.finish("o");
        }
        let (r, _) = l.admit("o", day - 1_000);
        assert_eq!(
            r,
            Err(Refused {
                why: Refusal::Daily,
                retry_after_s: 1
            })
        );
        assert!(l.admit("o", day).0.is_ok());
    }

    #[test]
    fn not_enforced_only_counts() {
        let mut l = Limiter::new(Policy {
            per_minute: 1,
            in_flight: 1,
            daily: 1,
            enforce: false,
            minute_ms: MINUTE_MS,
        });
        for _ in 0..3 {
            assert!(l.admit("o", 0).0.is_ok());
        }
        assert_eq!(l.peaks()["o"], 3);
    }
}
