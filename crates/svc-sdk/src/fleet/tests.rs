//! The fleet's steps on a virtual clock, the state kept as text between every two steps.

use super::*;
use crate::limit::{Admit, Limiter};
use svc_core::calendar::DAY_MS;

fn limits(per_minute: u32, max_concurrent: u32, daily: u32) -> Limits {
    Limits {
        per_minute,
        max_concurrent,
        daily,
    }
}

/// The state as a store keeps it: every step runs on the state read back from the text the last
/// one left, and raises the version by one exactly when it changed something.
struct Store {
    text: String,
}

impl Store {
    fn new(limits: Limits) -> Store {
        Store {
            text: Fleet::new(limits).to_json(),
        }
    }

    fn run<R>(&mut self, step: impl FnOnce(&mut Fleet) -> R) -> R {
        let before = Fleet::from_json(&self.text).unwrap();
        assert_eq!(before.to_json(), self.text, "the text reads back as it was");
        let mut f = before.clone();
        let out = step(&mut f);
        let mut unchanged = f.clone();
        unchanged.version = before.version;
        if unchanged == before {
            assert_eq!(f.version(), before.version(), "no change, no new version");
        } else {
            assert_eq!(
                f.version(),
                before.version() + 1,
                "a change is a new version"
            );
        }
        self.text = f.to_json();
        assert_eq!(
            Fleet::from_json(&self.text).unwrap(),
            f,
            "a round trip keeps it"
        );
        out
    }

    fn state(&mut self, now: i64) -> State {
        self.run(|f| f.state_of(now))
    }
}

const LEASE: i64 = 30_000;

fn granted(a: Acquire) -> u64 {
    match a {
        Acquire::Granted { lease, .. } => lease,
        other => panic!("expected a grant, got {other:?}"),
    }
}

#[test]
fn the_json_shape() {
    let mut s = Store::new(limits(100, 5, 1000));
    let day = 20_000 * DAY_MS;
    let a = granted(s.run(|f| f.acquire("a", limits(100, 5, 1000), day, LEASE)));
    s.run(|f| f.acquire("b", limits(100, 5, 1000), day + 1, LEASE));
    s.run(|f| f.release(a, day + 500));
    s.run(|f| f.observe(Some(100), Some(98), Some(60), day + 500));
    let Some(TokenClaim::Refresh { claim, .. }) =
        Some(s.run(|f| f.token_claim("a", day + 600, 10_000, None)))
    else {
        panic!("the first claim refreshes")
    };
    s.run(|f| f.token_store(claim, Stored::of("tok", Some(day + 3_600_000)), day + 700));
    s.run(|f| f.token_claim("b", day + 800, 10_000, None));
    assert_eq!(
        s.text,
        r#"{"version":6,"limits":{"perMinute":100,"maxConcurrent":5,"daily":1000},"window":{"answered":[1728000000500],"day":20000,"dayCount":2,"blockedUntil":0,"stated":{"limit":100,"remaining":98,"since":0,"resetAt":1728000060500}},"leases":[{"id":2,"holder":"b","until":1728000030001}],"token":{"token":"tok","expiresAt":1728003600000},"nextId":4}"#
    );
    let f = Fleet::from_json(&s.text).unwrap();
    assert!(
        !format!("{f:?}").contains("tok\""),
        "Debug never shows the token"
    );
    assert!(Fleet::from_json("{}").is_err());
    assert!(Fleet::from_json("not json").is_err());
}

/// A tiny deterministic generator for the schedules.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

#[test]
fn holders_together_never_exceed_the_slots_or_the_minute_window() {
    let lim = limits(12, 3, 10_000);
    // Short enough that a holder slow to answer sometimes outlives its lease.
    let lease_ms = 8_000;
    let mut s = Store::new(lim);
    let mut rng = Lcg(7);
    // The calls as the service sees them: start, end of lease, answer (at the latest the end of
    // the lease: the call's timeout is shorter than the lease).
    let mut calls: Vec<(i64, i64, Option<i64>)> = Vec::new();
    let mut held: Vec<Option<(u64, usize)>> = vec![None; 6];
    let (mut renewed, mut lost) = (0, 0);
    let mut now = 0;
    while now < 10 * MINUTE_MS {
        now += 1 + rng.next(2_000) as i64;
        let h = rng.next(6) as usize;
        match held[h] {
            None => {
                if let Acquire::Granted { lease, until } =
                    s.run(|f| f.acquire(&format!("h{h}"), lim, now, lease_ms))
                {
                    calls.push((now, until, None));
                    held[h] = Some((lease, calls.len() - 1));
                }
            }
            Some((lease, i)) => {
                let until = calls[i].1;
                // Holder 5 dies with its slot one time in two; the others renew a long call
                // one time in three, else answer.
                if h == 5 && rng.next(2) == 0 {
                    held[h] = None;
                } else if until > now && rng.next(3) == 0 {
                    calls[i].1 = s.run(|f| f.renew(lease, now, lease_ms)).unwrap();
                    renewed += 1;
                } else if until > now {
                    assert!(s.run(|f| f.release(lease, now)));
                    calls[i].2 = Some(now);
                    held[h] = None;
                } else {
                    assert!(!s.run(|f| f.release(lease, now)), "the lease ended");
                    lost += 1;
                    held[h] = None;
                }
            }
        }
        let live = calls
            .iter()
            .filter(|(start, until, end)| *start <= now && end.unwrap_or(*until) > now)
            .count();
        assert!(live <= 3, "{live} calls in flight at {now}");
        assert_eq!(s.state(now).in_flight as usize, live, "at {now}");
    }
    assert!(
        calls.len() > 60 && renewed > 5 && lost > 5,
        "the schedule exercised the limits: {} calls, {renewed} renewed, {lost} lost",
        calls.len()
    );
    // Any minute of the service's count holds at most 12 calls: those that overlap it.
    let ends: Vec<i64> = calls.iter().map(|c| c.2.unwrap_or(c.1)).collect();
    for (a, _, _) in &calls {
        for from in [*a - MINUTE_MS + 1, *a] {
            let n = calls
                .iter()
                .zip(&ends)
                .filter(|((start, _, _), end)| *start < from + MINUTE_MS && **end >= from)
                .count();
            assert!(n <= 12, "{n} calls in the minute from {from}");
        }
    }
}

#[test]
fn a_holder_that_never_releases_loses_its_slot_after_the_lease() {
    let lim = limits(5, 1, 1000);
    let mut s = Store::new(lim);
    let a = granted(s.run(|f| f.acquire("a", lim, 0, 10_000)));
    assert_eq!(
        s.run(|f| f.acquire("b", lim, 4_000, 10_000)),
        Acquire::Wait {
            until: 10_000,
            on_release: true
        },
        "b waits for the end of a's lease, or a's release"
    );
    assert_eq!(
        s.run(|f| f.acquire("b", lim, 9_999, 10_000)),
        Acquire::Wait {
            until: 10_000,
            on_release: true
        }
    );
    let b = granted(s.run(|f| f.acquire("b", lim, 10_000, 10_000)));
    let st = s.state(10_000);
    assert_eq!((st.in_flight, st.remaining_this_minute), (1, 3));
    assert!(
        !s.run(|f| f.release(a, 12_000)),
        "a's late answer frees nothing"
    );
    assert_eq!(s.run(|f| f.renew(a, 12_000, 10_000)), None);
    assert_eq!(
        s.state(12_000).remaining_this_minute,
        3,
        "and takes no second place"
    );
    assert!(s.run(|f| f.release(b, 15_000)));
    assert_eq!(
        s.state(69_999).remaining_this_minute,
        3,
        "a's place: until 70 000"
    );
    assert_eq!(s.state(70_000).remaining_this_minute, 4);
    assert_eq!(s.state(75_000).remaining_this_minute, 5);
}

#[test]
fn a_long_call_renews_its_lease() {
    let lim = limits(5, 1, 1000);
    let mut s = Store::new(lim);
    let a = granted(s.run(|f| f.acquire("a", lim, 0, 10_000)));
    assert_eq!(s.run(|f| f.renew(a, 8_000, 10_000)), Some(18_000));
    assert_eq!(
        s.run(|f| f.acquire("b", lim, 12_000, 10_000)),
        Acquire::Wait {
            until: 18_000,
            on_release: true
        }
    );
    assert!(s.run(|f| f.release(a, 17_000)));
    granted(s.run(|f| f.acquire("b", lim, 17_000, 10_000)));
}

#[test]
fn a_full_window_waits_for_its_oldest_place() {
    let lim = limits(2, 10, 1000);
    let mut s = Store::new(lim);
    let a = granted(s.run(|f| f.acquire("a", lim, 0, LEASE)));
    granted(s.run(|f| f.acquire("b", lim, 0, LEASE)));
    assert_eq!(
        s.run(|f| f.acquire("c", lim, 100, LEASE)),
        Acquire::Wait {
            until: LEASE + MINUTE_MS,
            on_release: true
        },
        "both places in flight: a minute after the first lease ends, or sooner after an answer"
    );
    s.run(|f| f.release(a, 900));
    assert_eq!(
        s.run(|f| f.acquire("c", lim, 900, LEASE)),
        Acquire::Wait {
            until: 60_900,
            on_release: false
        }
    );
    granted(s.run(|f| f.acquire("c", lim, 60_900, LEASE)));
}

#[test]
fn the_daily_quota_is_the_fleets() {
    let lim = limits(100, 10, 3);
    let mut s = Store::new(lim);
    let day = 20_000 * DAY_MS;
    for (i, h) in ["a", "b", "c"].iter().enumerate() {
        let l = granted(s.run(|f| f.acquire(h, lim, day + i as i64, LEASE)));
        s.run(|f| f.release(l, day + 10));
    }
    assert_eq!(s.state(day + 10).remaining_today, 0);
    for h in ["a", "d"] {
        assert_eq!(
            s.run(|f| f.acquire(h, lim, day + 20, LEASE)),
            Acquire::QuotaSpent {
                until: day + DAY_MS
            }
        );
    }
    granted(s.run(|f| f.acquire("d", lim, day + DAY_MS, LEASE)));
    assert_eq!(s.state(day + DAY_MS).remaining_today, 2);
}

#[test]
fn headers_and_retry_after_hold_every_holder() {
    let lim = limits(100, 10, 1000);
    let mut s = Store::new(lim);
    s.run(|f| f.observe(Some(100), Some(3), Some(7), 0));
    s.run(|f| f.observe(Some(100), Some(0), Some(7), 1_000));
    for h in ["a", "b"] {
        assert_eq!(
            s.run(|f| f.acquire(h, lim, 1_000, LEASE)),
            Acquire::QuotaSpent { until: 8_000 },
            "the stated day is spent for every holder until its reset"
        );
    }
    granted(s.run(|f| f.acquire("b", lim, 8_000, LEASE)));
    let st = s.state(8_000);
    assert_eq!(
        (st.daily_quota, st.remaining_today),
        (1000, 999),
        "renewed: the plan's again"
    );
    s.run(|f| f.back_off(2_000, 9_000));
    assert_eq!(
        s.run(|f| f.acquire("c", lim, 10_000, LEASE)),
        Acquire::Wait {
            until: 11_000,
            on_release: false
        }
    );
    s.run(|f| f.back_off(500, 10_000));
    assert_eq!(
        s.run(|f| f.acquire("a", lim, 10_000, LEASE)),
        Acquire::Wait {
            until: 11_000,
            on_release: false
        },
        "a shorter back-off does not shorten a longer one"
    );
    granted(s.run(|f| f.acquire("a", lim, 11_000, LEASE)));
    s.run(|f| f.observe(Some(7_500), Some(42), Some(600), 11_000));
    let st = s.state(11_000);
    assert_eq!(
        (st.daily_quota, st.remaining_today, st.reset_at),
        (7_500, 42, 611_000)
    );
}

/// Issue 47: the organization's day an answer states is written into the shared state by the
/// release that tells it, and the next acquire, of any holder, counts against it; the minute
/// stays the plan's.
#[test]
fn the_day_an_answer_states_binds_the_next_grant_of_every_holder() {
    let lim = limits(100, 5, 1000);
    let now = 20_000 * DAY_MS;
    let mut state = Fleet::new(lim).to_json();
    let acquire = |h: &str| Request::Acquire {
        holder: h.into(),
        limits: lim,
        lease_ms: LEASE,
        lane: crate::limit::Lane::default(),
    };
    let mut leases = Vec::new();
    for h in ["a", "b", "c"] {
        let got = apply_at(&mut state, now, &acquire(h));
        let Outcome::Acquire(Acquire::Granted { lease, .. }) = got.outcome else {
            panic!("{h}: {got:?}")
        };
        leases.push(lease);
    }
    let seen = Seen {
        limit: Some(7_500),
        remaining: Some(3),
        reset_secs: Some(60),
        back_off_ms: None,
    };
    let release = Request::Release {
        lease: leases[0],
        seen,
    };
    let got = apply_at(&mut state, now + 300, &release);
    assert_eq!(
        (
            got.state.daily_quota,
            got.state.remaining_today,
            got.state.requests_per_minute
        ),
        (7_500, 3, 100)
    );
    for h in ["d", "e", "f"] {
        let got = apply_at(&mut state, now + 300, &acquire(h));
        assert!(
            matches!(got.outcome, Outcome::Acquire(Acquire::Granted { .. })),
            "{got:?}"
        );
    }
    let got = apply_at(&mut state, now + 400, &acquire("g"));
    assert_eq!(
        got.outcome,
        Outcome::Acquire(Acquire::QuotaSpent {
            until: now + 300 + MINUTE_MS
        })
    );
    assert!(
        state.contains(r#""stated":{"limit":7500"#),
        "kept in the shared state: {state}"
    );
}

#[test]
fn one_of_eight_holders_refreshes_the_token_and_the_others_read_it() {
    let mut s = Store::new(limits(100, 10, 1000));
    let claims: Vec<TokenClaim> = (0..8)
        .map(|h| s.run(|f| f.token_claim(&format!("h{h}"), 1_000, 5_000, None)))
        .collect();
    let refreshers: Vec<&TokenClaim> = claims
        .iter()
        .filter(|c| matches!(c, TokenClaim::Refresh { .. }))
        .collect();
    assert_eq!(refreshers.len(), 1);
    let TokenClaim::Refresh { claim, until, .. } = *refreshers[0] else {
        unreachable!()
    };
    assert_eq!(until, 6_000);
    for c in &claims[1..] {
        assert_eq!(
            *c,
            TokenClaim::Wait {
                until: 6_000,
                budget: false
            }
        );
    }
    assert_eq!(
        s.run(|f| f.token_claim("h0", 1_500, 5_000, None)),
        TokenClaim::Refresh {
            claim,
            until: 6_000,
            reason: "initial".into()
        },
        "the refresher asking again keeps its claim"
    );
    assert!(s.run(|f| f.token_store(claim, Stored::of("t1", None), 2_000)));
    for h in 0..8 {
        assert_eq!(
            s.run(|f| f.token_claim(&format!("h{h}"), 2_500, 5_000, None)),
            TokenClaim::Use {
                token: "t1".into(),
                domain: None
            }
        );
    }
    assert!(!format!(
        "{:?}",
        TokenClaim::Use {
            token: "t1".into(),
            domain: None
        }
    )
    .contains("t1"));
}

#[test]
fn a_bad_token_is_invalidated_once() {
    let mut s = Store::new(limits(100, 10, 1000));
    let TokenClaim::Refresh { claim, .. } = s.run(|f| f.token_claim("a", 0, 5_000, None)) else {
        panic!("the first claim refreshes")
    };
    s.run(|f| f.token_store(claim, Stored::of("t1", None), 100));
    assert!(s.run(|f| f.token_invalidate("t1", 1_000)), "the first 401");
    assert!(
        !s.run(|f| f.token_invalidate("t1", 1_001)),
        "a second 401, same token"
    );
    let TokenClaim::Refresh { claim, .. } = s.run(|f| f.token_claim("b", 1_002, 5_000, None))
    else {
        panic!("b refreshes")
    };
    assert_eq!(
        s.run(|f| f.token_claim("a", 1_003, 5_000, None)),
        TokenClaim::Wait {
            until: 6_002,
            budget: false
        }
    );
    assert!(
        !s.run(|f| f.token_invalidate("t1", 1_004)),
        "a 401 with t1 during the refresh"
    );
    assert!(s.run(|f| f.token_store(claim, Stored::of("t2", None), 1_500)));
    assert!(
        !s.run(|f| f.token_invalidate("t1", 1_600)),
        "a late 401 with t1 after t2 is stored"
    );
    assert_eq!(
        s.run(|f| f.token_claim("a", 1_700, 5_000, None)),
        TokenClaim::Use {
            token: "t2".into(),
            domain: None
        }
    );
}

#[test]
fn a_dead_refreshers_claim_ends_after_its_lease() {
    let mut s = Store::new(limits(100, 10, 1000));
    let TokenClaim::Refresh { claim: dead, .. } = s.run(|f| f.token_claim("a", 0, 5_000, None))
    else {
        panic!("a refreshes")
    };
    assert_eq!(
        s.run(|f| f.token_claim("b", 4_999, 5_000, None)),
        TokenClaim::Wait {
            until: 5_000,
            budget: false
        }
    );
    let TokenClaim::Refresh { claim, until, .. } =
        s.run(|f| f.token_claim("b", 5_000, 5_000, None))
    else {
        panic!("b refreshes once a's claim ended")
    };
    assert_eq!(until, 10_000);
    assert!(
        !s.run(|f| f.token_store(dead, Stored::of("late", None), 5_100)),
        "a's late token is refused while b refreshes"
    );
    assert!(s.run(|f| f.token_store(claim, Stored::of("t1", None), 5_200)));
    assert_eq!(
        s.run(|f| f.token_claim("c", 5_300, 5_000, None)),
        TokenClaim::Use {
            token: "t1".into(),
            domain: None
        }
    );
}

#[test]
fn a_failed_refresher_abandons_and_a_late_one_is_still_taken_when_nobody_else_claimed() {
    let mut s = Store::new(limits(100, 10, 1000));
    let TokenClaim::Refresh { claim, .. } = s.run(|f| f.token_claim("a", 0, 5_000, None)) else {
        panic!("a refreshes")
    };
    s.run(|f| f.token_abandon(claim, false, 100));
    let TokenClaim::Refresh { claim, .. } = s.run(|f| f.token_claim("b", 200, 5_000, None)) else {
        panic!("b refreshes at once after a gave up")
    };
    assert!(
        !s.run(|f| f.token_store(claim, Stored::of("", None), 300)),
        "an empty token is not stored"
    );
    assert!(
        s.run(|f| f.token_store(claim, Stored::of("t1", None), 9_000)),
        "the claim ended but nobody else claimed and no token is stored"
    );
    assert!(
        !s.run(|f| f.token_store(claim, Stored::of("t2", None), 9_100)),
        "once a token is stored a stale claim stores nothing"
    );
}

#[test]
fn a_token_that_expired_is_refreshed() {
    let mut s = Store::new(limits(100, 10, 1000));
    let TokenClaim::Refresh { claim, .. } = s.run(|f| f.token_claim("a", 0, 5_000, None)) else {
        panic!("a refreshes")
    };
    assert!(s.run(|f| f.token_store(claim, Stored::of("t1", Some(1_000)), 10)));
    assert_eq!(
        s.run(|f| f.token_claim("b", 999, 5_000, None)),
        TokenClaim::Use {
            token: "t1".into(),
            domain: None
        }
    );
    assert_eq!(
        s.run(|f| f.token_claim("b", 1_000, 5_000, None)),
        TokenClaim::Refresh {
            claim: 2,
            until: 6_000,
            reason: "expired".into()
        }
    );
    assert_eq!(
        s.run(|f| f.token_claim("c", 1_000, 5_000, None)),
        TokenClaim::Wait {
            until: 6_000,
            budget: false
        }
    );
    let TokenClaim::Refresh { claim, .. } = s.run(|f| f.token_claim("z", 7_000, 5_000, None))
    else {
        panic!("b's claim ended")
    };
    assert!(
        s.run(|f| f.token_store(claim, Stored::of("t2", Some(500)), 7_100)),
        "a token already expired is stored"
    );
    assert!(matches!(
        s.run(|f| f.token_claim("c", 7_200, 5_000, None)),
        TokenClaim::Refresh { .. }
    ));
}

#[test]
fn state_of_changes_nothing() {
    let lim = limits(10, 2, 100);
    let mut s = Store::new(lim);
    granted(s.run(|f| f.acquire("a", lim, 0, 1_000)));
    let text = s.text.clone();
    let st = s.state(5_000);
    assert_eq!(s.text, text);
    assert_eq!(
        st,
        State {
            requests_per_minute: 10,
            remaining_this_minute: 9,
            in_flight: 0,
            max_concurrent: 2,
            daily_quota: 100,
            remaining_today: 99,
            reset_at: DAY_MS,
            plan_daily_quota: 100,
            queued: 0,
            blocked_until: None,
        },
        "the ended lease is out of flight and keeps its place"
    );
}

/// One holder whose calls always answer within their lease sees the in-process limiter's
/// decisions and figures: the two run the same arithmetic.
#[test]
fn one_holder_decides_as_the_in_process_limiter() {
    let lim = limits(4, 2, 9);
    let mut s = Store::new(lim);
    let mut l = Limiter::new(lim);
    let mut rng = Lcg(11);
    let mut held: Vec<u64> = Vec::new();
    let mut now = 20_000 * DAY_MS - 5 * MINUTE_MS;
    for _ in 0..400 {
        now += rng.next(9_000) as i64;
        if !held.is_empty() && rng.next(2) == 0 {
            let lease = held.remove(0);
            assert!(s.run(|f| f.release(lease, now)));
            l.finish(now);
        } else {
            let t = l.enqueue();
            let local = l.poll(t, now);
            let fleet = s.run(|f| f.acquire("a", lim, now, 10 * MINUTE_MS));
            match (local, fleet) {
                (Admit::Go, Acquire::Granted { lease, .. }) => held.push(lease),
                (Admit::QuotaSpent { until: a }, Acquire::QuotaSpent { until: b }) => {
                    l.cancel(t);
                    assert_eq!(a, b)
                }
                (Admit::Wait(Some(ms)), Acquire::Wait { until, .. }) => {
                    l.cancel(t);
                    assert_eq!(now + ms, until)
                }
                (Admit::Wait(None), Acquire::Wait { on_release, .. }) => {
                    l.cancel(t);
                    assert!(on_release)
                }
                other => panic!("at {now}: {other:?}"),
            }
        }
        assert_eq!(s.state(now), l.state(now), "at {now}");
    }
}

/// Year 3000 on the epoch clock, as a holder with a wrong clock or a hostile state may write it.
const YEAR_3000: i64 = 32_503_680_000_000;

/// A state as a store may hold it, with `window`, `leases` and `claim` as given.
fn state_text(window: &str, leases: &str, claim: &str) -> String {
    format!(
        r#"{{"version":7,"limits":{{"perMinute":3,"maxConcurrent":2,"daily":1000}},"window":{window},"leases":{leases}{claim},"nextId":9}}"#
    )
}

/// Runs `request` at `now` on `state` through its text, as a store does; the state after it.
fn apply_at(state: &mut String, now: i64, request: &Request) -> Reply {
    let applied = apply(Some(state), None, now, &request.to_json()).unwrap();
    if let Some(text) = applied.state {
        *state = text;
    }
    Reply::from_json(&applied.reply).unwrap()
}

fn acquire_request(lim: Limits) -> Request {
    Request::Acquire {
        holder: "b".into(),
        limits: lim,
        lease_ms: LEASE,
        lane: crate::limit::Lane::default(),
    }
}

#[test]
fn a_back_off_until_the_year_3000_ends_a_day_after_the_stores_clock() {
    let lim = limits(3, 2, 1000);
    let now = 20_000 * DAY_MS + 5_000;
    let window =
        format!(r#"{{"answered":[],"day":20000,"dayCount":0,"blockedUntil":{YEAR_3000}}}"#);
    let mut state = state_text(&window, "[]", "");
    let got = apply_at(&mut state, now, &acquire_request(lim));
    assert_eq!(
        got.outcome,
        Outcome::Acquire(Acquire::Wait {
            until: now + HORIZON_MS,
            on_release: false
        })
    );
    assert!(
        state.contains(&format!(r#""blockedUntil":{}"#, now + HORIZON_MS)),
        "{state}"
    );
    let got = apply_at(&mut state, now + HORIZON_MS, &acquire_request(lim));
    assert!(
        matches!(got.outcome, Outcome::Acquire(Acquire::Granted { .. })),
        "{got:?}"
    );
    let mut s = Store::new(lim);
    s.run(|f| f.back_off(i64::MAX, now));
    assert_eq!(
        s.run(|f| f.acquire("a", lim, now, LEASE)),
        Acquire::QuotaSpent {
            until: now + HORIZON_MS
        },
        "a Retry-After past the day's end is the day's quota spent, held for a day at most"
    );
}

#[test]
fn answers_in_the_future_count_as_answered_now() {
    let lim = limits(3, 2, 1000);
    let now = 20_000 * DAY_MS + 5_000;
    let window = format!(
        r#"{{"answered":[{YEAR_3000},{},{YEAR_3000}],"day":20000,"dayCount":3,"blockedUntil":0}}"#,
        now + 1
    );
    let mut state = state_text(&window, "[]", "");
    let got = apply_at(&mut state, now, &acquire_request(lim));
    assert_eq!(
        got.outcome,
        Outcome::Acquire(Acquire::Wait {
            until: now + MINUTE_MS,
            on_release: false
        }),
        "the three places free a minute from now, not in the year 3000"
    );
    assert_eq!(got.state.remaining_this_minute, 0);
    let got = apply_at(&mut state, now + MINUTE_MS, &acquire_request(lim));
    assert!(
        matches!(got.outcome, Outcome::Acquire(Acquire::Granted { .. })),
        "{got:?}"
    );
}

#[test]
fn a_lease_or_a_claim_until_10_to_the_15_ends_within_a_day() {
    let lim = limits(3, 1, 1000);
    let now = 20_000 * DAY_MS + 5_000;
    let window = r#"{"answered":[],"day":20000,"dayCount":1,"blockedUntil":0}"#;
    let far = 1_000_000_000_000_000_i64;
    let lease = format!(r#"[{{"id":3,"holder":"a","until":{far}}}]"#);
    let claim = format!(r#","claim":{{"id":4,"holder":"a","until":{far}}}"#);
    let mut state = state_text(window, &lease, &claim);
    let got = apply_at(&mut state, now, &acquire_request(lim));
    assert_eq!(
        got.outcome,
        Outcome::Acquire(Acquire::Wait {
            until: now + HORIZON_MS,
            on_release: true
        })
    );
    let claim_token = Request::TokenClaim {
        holder: "b".into(),
        lease_ms: LEASE,
        budget: None,
    };
    let got = apply_at(&mut state, now, &claim_token);
    assert_eq!(
        got.outcome,
        Outcome::Token(TokenClaim::Wait {
            until: now + HORIZON_MS,
            budget: false
        })
    );
    let applied = apply(Some(&state), None, now, &Request::State.to_json()).unwrap();
    assert_eq!(
        applied.wake_at,
        Some(now + HORIZON_MS),
        "a store's alarm within a day"
    );
    let later = now + HORIZON_MS;
    assert!(matches!(
        apply_at(&mut state, later, &acquire_request(lim)).outcome,
        Outcome::Acquire(Acquire::Granted { .. })
    ));
    assert!(matches!(
        apply_at(&mut state, later, &claim_token).outcome,
        Outcome::Token(TokenClaim::Refresh { .. })
    ));
}

/// Whatever times a state holds, every step at a sane clock answers without overflow or panic,
/// and every wait it asks for ends after now and within a day and a minute: no holder can spin
/// (ask again at once, forever) or wait for years.
#[test]
fn no_time_in_a_state_makes_a_holder_spin_or_wait_past_a_day() {
    let lim = limits(3, 2, 5);
    let now = 20_000 * DAY_MS + 5_000;
    let times = [
        i64::MIN,
        -1,
        0,
        now - MINUTE_MS - 1,
        now - 1,
        now,
        now + 1,
        YEAR_3000,
        i64::MAX,
    ];
    let mut seen = 0;
    for (i, &t) in times.iter().enumerate() {
        let u = times[(i * 5 + 3) % times.len()];
        let window = format!(
            r#"{{"answered":[{t},{u}],"day":{t},"dayCount":{},"blockedUntil":{u},"serverLimit":1,"serverRemaining":0}}"#,
            i % 7
        );
        let leases = format!(
            r#"[{{"id":18446744073709551615,"holder":"a","until":{u}}},{{"id":1,"holder":"a","until":{t}}}]"#
        );
        let claim = format!(r#","claim":{{"id":2,"holder":"a","until":{t}}}"#);
        let text = state_text(&window, &leases, &claim)
            .replace(r#""version":7"#, r#""version":18446744073709551615"#)
            .replace(r#""nextId":9"#, r#""nextId":18446744073709551615"#);
        for request in [
            acquire_request(lim),
            Request::TokenClaim {
                holder: "b".into(),
                lease_ms: i64::MAX,
                budget: None,
            },
            Request::Renew {
                lease: 1,
                lease_ms: i64::MAX,
            },
            Request::Release {
                lease: 1,
                seen: Seen {
                    back_off_ms: Some(i64::MAX),
                    reset_secs: Some(u64::MAX),
                    remaining: Some(0),
                    ..Seen::default()
                },
            },
            Request::State,
        ] {
            let mut state = text.clone();
            let got = apply_at(&mut state, now, &request);
            let until = match got.outcome {
                Outcome::Acquire(Acquire::Wait { until, .. })
                | Outcome::Token(TokenClaim::Wait { until, .. }) => Some(until),
                _ => None,
            };
            if let Some(until) = until {
                seen += 1;
                assert!(
                    until > now && until <= now + HORIZON_MS + MINUTE_MS,
                    "{request:?} on {text}: wait until {until}"
                );
            }
            let f = Fleet::from_json(&state).unwrap();
            let v: serde_json::Value = serde_json::from_str(&state).unwrap();
            let window = &v["window"];
            let answered = window["answered"].as_array().unwrap();
            assert!(
                answered.iter().all(|a| a.as_i64().unwrap() <= now),
                "{state}"
            );
            let blocked = window["blockedUntil"].as_i64().unwrap();
            let ends = f.leases.iter().chain(&f.claim).map(|l| l.until);
            assert!(
                ends.chain([blocked]).all(|e| e <= now + HORIZON_MS),
                "{state}"
            );
        }
    }
    assert!(seen >= times.len(), "the states made holders wait: {seen}");
}

#[test]
fn a_store_clock_that_is_not_a_time_is_a_decode_error() {
    for now in [-1, i64::MIN, 8_640_000_000_000_001, i64::MAX] {
        let e = apply(None, None, now, &Request::State.to_json()).unwrap_err();
        assert_eq!(e.kind(), svc_core::error::ErrorKind::Decode);
        assert!(e.message.contains("clock"), "{}", e.message);
    }
}

#[test]
fn the_core_writes_states_steps_and_replies_as_serde_json_writes_them() {
    let lim = limits(3, 2, 1000);
    let day = 20_000 * DAY_MS;
    let steps = [
        acquire_request(lim),
        Request::Renew {
            lease: 1,
            lease_ms: LEASE,
        },
        Request::Release {
            lease: 1,
            seen: Seen {
                limit: Some(100),
                remaining: Some(0),
                reset_secs: Some(60),
                back_off_ms: Some(-1),
            },
        },
        Request::Release {
            lease: 9,
            seen: Seen::default(),
        },
        Request::TokenClaim {
            holder: "b\"\n".into(),
            lease_ms: LEASE,
            budget: None,
        },
        Request::TokenStore {
            claim: 2,
            stored: Stored::of("tok\u{1}é", Some(day + 1)),
        },
        Request::TokenStore {
            claim: 3,
            stored: Stored::of("t", None),
        },
        Request::TokenAbandon {
            claim: 4,
            denied: false,
        },
        Request::TokenInvalidate { token: "t".into() },
        Request::State,
    ];
    let mut state: Option<String> = None;
    for (i, request) in steps.iter().enumerate() {
        assert_eq!(request.to_json(), serde_json::to_string(request).unwrap());
        let now = day + i as i64 * 1_000;
        let applied = apply(state.as_deref(), None, now, &request.to_json()).unwrap();
        assert_eq!(
            svc_json::to_string(&applied),
            serde_json::to_string(&applied).unwrap()
        );
        let reply = Reply::from_json(&applied.reply).unwrap();
        assert_eq!(
            svc_json::to_string(&reply),
            serde_json::to_string(&reply).unwrap()
        );
        let fleet =
            Fleet::from_json(applied.state.as_deref().or(state.as_deref()).unwrap()).unwrap();
        assert_eq!(fleet.to_json(), serde_json::to_string(&fleet).unwrap());
        if applied.state.is_some() {
            state = applied.state;
        }
    }
    let mut limiter = Limiter::new(lim);
    limiter.enqueue();
    let figures = limiter.state(day);
    assert_eq!(
        svc_json::to_string(&figures),
        serde_json::to_string(&figures).unwrap()
    );
}

#[test]
fn a_token_lives_no_longer_than_the_state_looks_ahead() {
    assert_eq!(crate::oauth::LIFE_MAX_MS, HORIZON_MS);
}

/// Issue 47: a stated day in a hostile state that renews in the year 3000 renews within a day.
#[test]
fn a_stated_day_that_renews_in_the_year_3000_renews_within_a_day() {
    let lim = limits(100, 5, 1000);
    let now = 20_000 * DAY_MS;
    let text = format!(
        r#"{{"version":1,"limits":{{"perMinute":100,"maxConcurrent":5,"daily":1000}},"window":{{"answered":[],"day":20000,"dayCount":0,"blockedUntil":0,"stated":{{"limit":7500,"remaining":0,"since":0,"resetAt":{YEAR_3000}}}}},"leases":[],"nextId":1}}"#
    );
    let mut f = Fleet::from_json(&text).unwrap();
    match f.acquire("a", lim, now, LEASE) {
        Acquire::QuotaSpent { until } => assert!(until <= now + DAY_MS, "{until}"),
        other => panic!("{other:?}"),
    }
    assert!(!f.to_json().contains(&YEAR_3000.to_string()));
}
