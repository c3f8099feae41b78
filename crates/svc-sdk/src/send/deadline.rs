//! A call's one deadline: what is left of it, and the errors of a wait that would pass it.

use super::Failure;
use svc_core::error::{Error, ErrorKind};

/// When a call must have settled (ms since the epoch), if it has a deadline (`deadlineMs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    at: Option<i64>,
    ms: u32,
}

impl Deadline {
    /// The deadline of a call started at `now` that may last `ms` (0: none).
    pub fn new(now: i64, ms: u32) -> Deadline {
        Deadline {
            at: (ms > 0).then(|| now.saturating_add(i64::from(ms))),
            ms,
        }
    }

    /// When the call must have settled (ms since the epoch); `None` without a deadline.
    pub fn at(&self) -> Option<i64> {
        self.at
    }

    /// What is left at `now`, in ms; `None` without a deadline.
    pub fn left(&self, now: i64) -> Option<u64> {
        self.at.map(|at| at.saturating_sub(now).max(0) as u64)
    }

    /// Whether a wait of `wait_ms` from `now` ends before the deadline.
    pub fn holds(&self, now: i64, wait_ms: u64) -> bool {
        self.left(now).is_none_or(|left| wait_ms < left)
    }

    /// The error of a call still pending at its deadline.
    pub fn passed(&self) -> Failure {
        Error::new(
            ErrorKind::Timeout,
            format!(
                "the call did not settle within its deadline of {} ms (deadlineMs); raise deadlineMs, per client or per call, if such a wait is expected",
                self.ms
            ),
        )
        .into()
    }

    /// The `rate_limited` error of a wait of `wait_ms` that the call cannot make: longer than
    /// what is left of its deadline at `now`, or than the longest wait a call makes (`most_ms`).
    pub fn cannot_wait(&self, now: i64, wait_ms: u64, most_ms: u64, why: &str) -> Failure {
        let limit = match self.left(now) {
            Some(left) if left <= most_ms => {
                format!("the {left} ms left of its deadline (deadlineMs)")
            }
            _ => format!("the {most_ms} ms a call waits at most"),
        };
        Error::new(
            ErrorKind::RateLimited,
            format!(
                "{why}: the call would have to wait {}, longer than {limit}; it was not sent",
                duration(wait_ms)
            ),
        )
        .with_retry_after(Some(wait_ms))
        .into()
    }
}

/// A wait in words: `850 ms`, `42 s`, `22.7 h`.
fn duration(ms: u64) -> String {
    match ms {
        0..=9_999 => format!("{ms} ms"),
        10_000..=5_999_999 => format!("{} s", ms / 1000),
        _ => {
            let tenths = ms / 360_000;
            format!("{}.{} h", tenths / 10, tenths % 10)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_deadline_holds_every_wait() {
        let d = Deadline::new(1_000, 0);
        assert_eq!(d.left(5_000), None);
        assert!(d.holds(5_000, u64::MAX));
    }

    #[test]
    fn a_wait_holds_only_when_it_ends_before_the_deadline() {
        let d = Deadline::new(1_000, 3_000);
        assert_eq!(d.left(1_500), Some(2_500));
        assert!(d.holds(1_500, 2_499));
        assert!(!d.holds(1_500, 2_500));
        assert_eq!(d.left(9_000), Some(0), "never below zero");
    }

    #[test]
    fn a_wait_that_cannot_be_made_is_rate_limited_with_its_length() {
        let d = Deadline::new(0, 60_000);
        let f = d.cannot_wait(
            0,
            81_633_000,
            60_000,
            "the service asked to wait (Retry-After)",
        );
        assert_eq!(f.error.kind(), ErrorKind::RateLimited);
        assert_eq!(f.error.retry_after_ms(), Some(81_633_000));
        assert!(f.error.message.contains("22.6 h"), "{}", f.error.message);
        let f = d.cannot_wait(50_000, 30_000, 60_000, "x");
        assert!(
            f.error
                .message
                .contains("the 10000 ms left of its deadline"),
            "{}",
            f.error.message
        );
        assert_eq!(d.passed().error.kind(), ErrorKind::Timeout);
    }
}
