//! The retry policy as a pure function: what to do after an attempt, and how long to wait.

use svc_core::calendar::{days_from_civil, parse_date, DAY_SECS, MONTH_ABBREVIATIONS};
use svc_core::catalog::Method;

/// How an attempt ended, as far as retrying is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// An HTTP answer with its status and, for 429/503, the parsed Retry-After in ms.
    Status(u16, Option<u64>),
    Timeout,
    Network,
}

/// A Retry-After longer than this surfaces as a `rate_limited` error instead of a wait.
pub const MAX_RETRY_AFTER_MS: u64 = 60_000;
/// The back-off's first wait before jitter: the n-th retry waits `BASE_MS * 2^n`, up to `CAP_MS`,
/// half of it fixed and half jittered. How many retries: `maxRetries` (`surface::MAX_RETRIES`).
pub const BASE_MS: u64 = 500;
/// The longest back-off wait before jitter.
pub const CAP_MS: u64 = 8_000;

/// How a call is retried: at most `max_retries` times, with exponential back-off and jitter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    pub max_retries: u32,
    pub base_ms: u64,
    pub cap_ms: u64,
}

impl Policy {
    pub const fn new(max_retries: u32) -> Policy {
        Policy {
            max_retries,
            base_ms: BASE_MS,
            cap_ms: CAP_MS,
        }
    }

    /// The wait before retry number `retries + 1`, or `None` when the outcome is final.
    /// `jitter` is a number in [0, 1) from an injected source.
    pub fn next_delay(
        &self,
        method: Method,
        retries: u32,
        outcome: Outcome,
        jitter: f64,
    ) -> Option<u64> {
        if retries >= self.max_retries {
            return None;
        }
        let retryable = match outcome {
            Outcome::Status(429, _) => true,
            Outcome::Status(s, _) if s >= 500 => method.is_idempotent(),
            Outcome::Status(..) => false,
            Outcome::Timeout | Outcome::Network => method.is_idempotent(),
        };
        if !retryable {
            return None;
        }
        if let Outcome::Status(_, Some(after)) = outcome {
            return (after <= MAX_RETRY_AFTER_MS).then_some(after);
        }
        let exp = self
            .base_ms
            .saturating_mul(1u64 << retries.min(20))
            .min(self.cap_ms);
        let jitter = jitter.clamp(0.0, 1.0);
        Some(exp / 2 + ((exp / 2) as f64 * jitter) as u64)
    }
}

/// Whether a 404 to a retried DELETE means the delete already happened: an earlier attempt that
/// may have reached the server (no answer, a timeout, a 5xx) deleted the record, so the retry finds
/// nothing. The record is gone either way, which is what the caller asked for.
pub fn delete_already_done(method: Method, status: u16, earlier_uncertain: bool) -> bool {
    method == Method::Delete && status == 404 && earlier_uncertain
}

/// Milliseconds to wait from a Retry-After value as RFC 9110 (section 10.2.3) defines it:
/// delay-seconds (`1*DIGIT`) or an HTTP-date; anything else (`1e3`, `0.5`, `-1`) is no value.
pub fn parse_retry_after(value: &str, now_ms: i64) -> Option<u64> {
    let v = value.trim_matches([' ', '\t']);
    if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
        let secs = v.parse::<u64>().unwrap_or(u64::MAX);
        return Some(secs.saturating_mul(1000));
    }
    let at = parse_http_date(v)?;
    Some(at.saturating_mul(1000).saturating_sub(now_ms).max(0) as u64)
}

/// Seconds since the epoch of an HTTP-date: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), or
/// the obsolete forms a recipient must accept (`Sunday, 06-Nov-94 08:49:37 GMT`,
/// `Sun Nov  6 08:49:37 1994`).
pub fn parse_http_date(s: &str) -> Option<i64> {
    let parts: Vec<&str> = s.split_whitespace().collect();
    let (day, month, year, time) = match parts.as_slice() {
        [_, day, month, year, time, "GMT"] if year.len() == 4 => {
            (*day, *month, year.to_string(), *time)
        }
        [_, date, time, "GMT"] => {
            let mut d = date.split('-');
            let (day, month, yy) = (d.next()?, d.next()?, d.next()?);
            if d.next().is_some() || yy.len() != 2 {
                return None;
            }
            let yy: u32 = yy.parse().ok()?;
            (
                day,
                month,
                format!("{}", if yy < 70 { 2000 + yy } else { 1900 + yy }),
                *time,
            )
        }
        [_, month, day, time, year] if year.len() == 4 => (*day, *month, year.to_string(), *time),
        _ => return None,
    };
    if !(1..=2).contains(&day.len()) || !day.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let m = MONTH_ABBREVIATIONS.iter().position(|x| *x == month)? as u32 + 1;
    let date = format!("{year:0>4}-{m:02}-{day:0>2}");
    let (y, mo, d) = parse_date(&date)?;
    let t: Vec<u32> = time
        .split(':')
        .map(|p| {
            (p.len() == 2 && p.bytes().all(|b| b.is_ascii_digit()))
                .then(|| p.parse().ok())
                .flatten()
        })
        .collect::<Option<_>>()?;
    let [h, mi, se] = t.as_slice() else {
        return None;
    };
    if *h > 23 || *mi > 59 || *se > 60 {
        return None;
    }
    Some(days_from_civil(y, mo, d) * DAY_SECS + (*h * 3600 + *mi * 60 + *se) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Method::*;

    #[test]
    fn posts_are_retried_only_after_429() {
        let p = Policy::new(2);
        assert_eq!(
            p.next_delay(Post, 0, Outcome::Status(429, Some(1000)), 0.0),
            Some(1000)
        );
        assert_eq!(p.next_delay(Post, 0, Outcome::Status(500, None), 0.0), None);
        assert_eq!(p.next_delay(Post, 0, Outcome::Status(503, None), 0.0), None);
        assert_eq!(p.next_delay(Post, 0, Outcome::Timeout, 0.0), None);
        assert_eq!(p.next_delay(Post, 0, Outcome::Network, 0.0), None);
    }

    #[test]
    fn idempotent_methods_retry_5xx_timeouts_and_network_failures() {
        let p = Policy::new(2);
        for m in [Get, Put, Delete, Patch] {
            assert!(p
                .next_delay(m, 0, Outcome::Status(502, None), 0.5)
                .is_some());
            assert!(p.next_delay(m, 1, Outcome::Timeout, 0.5).is_some());
            assert!(p.next_delay(m, 1, Outcome::Network, 0.5).is_some());
            assert_eq!(
                p.next_delay(m, 2, Outcome::Network, 0.5),
                None,
                "max retries reached"
            );
            assert_eq!(p.next_delay(m, 0, Outcome::Status(400, None), 0.5), None);
            assert_eq!(p.next_delay(m, 0, Outcome::Status(404, None), 0.5), None);
        }
        assert_eq!(
            Policy::new(0).next_delay(Get, 0, Outcome::Status(503, None), 0.0),
            None
        );
    }

    #[test]
    fn backoff_is_exponential_with_jitter_and_a_cap() {
        let p = Policy::new(10);
        let d = |r, j| p.next_delay(Get, r, Outcome::Status(500, None), j).unwrap();
        assert_eq!((d(0, 0.0), d(0, 0.999)), (250, 499));
        assert_eq!((d(1, 0.0), d(2, 0.0), d(3, 0.0)), (500, 1000, 2000));
        assert_eq!(d(4, 0.0), 4000);
        assert_eq!(d(9, 0.0), 4000);
        assert!(d(9, 0.999) < 8000);
    }

    #[test]
    fn a_404_to_a_retried_delete_is_the_delete_done() {
        assert!(delete_already_done(Delete, 404, true));
        assert!(
            !delete_already_done(Delete, 404, false),
            "a first 404 is a missing record"
        );
        assert!(!delete_already_done(Get, 404, true));
        assert!(!delete_already_done(Delete, 400, true));
    }

    #[test]
    fn retry_after_in_seconds_or_as_a_date() {
        assert_eq!(parse_retry_after("2", 0), Some(2000));
        assert_eq!(
            parse_retry_after("0.5", 0),
            None,
            "delay-seconds are digits only"
        );
        assert_eq!(parse_retry_after("1e3", 0), None);
        assert_eq!(parse_retry_after("+5", 0), None);
        assert_eq!(parse_retry_after("", 0), None);
        assert_eq!(parse_retry_after(" 7 ", 0), Some(7000));
        assert_eq!(
            parse_retry_after("99999999999999999999999", 0),
            Some(u64::MAX),
            "too many digits is a very long wait, not none"
        );
        let now = parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap() * 1000;
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:40 GMT", now),
            Some(3000)
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:30 GMT", now),
            Some(0)
        );
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(parse_retry_after("-1", now), None);
        for obsolete in ["Sunday, 06-Nov-94 08:49:40 GMT", "Sun Nov  6 08:49:40 1994"] {
            assert_eq!(parse_retry_after(obsolete, now), Some(3000), "{obsolete}");
        }
        for bad in [
            "Sun, 06 Nov 1994 08:49:40 UTC",
            "Sun, 06 Nov 94 08:49:40 GMT",
            "Sun, 06 Nov 1994 8:49:40 GMT",
            "Sun, 31 Feb 1994 08:49:40 GMT",
        ] {
            assert_eq!(parse_retry_after(bad, now), None, "{bad}");
        }
        assert_eq!(
            Policy::new(2).next_delay(Get, 0, Outcome::Status(429, Some(60_001)), 0.0),
            None
        );
    }
}
