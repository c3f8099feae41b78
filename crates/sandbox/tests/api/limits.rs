//! Rate limits per organization: per minute, in flight, per day; answered with 429 and Retry-After,
//! and the organization's day stated in the X-Rate-Limit headers.

use crate::client::{expect, Sandbox};
use std::sync::{Arc, Barrier};
use std::thread;
use svc_core::clock::now_ms;

fn figure(r: &sandbox::http::ClientResponse, name: &str) -> u64 {
    r.header(name)
        .unwrap_or_else(|| panic!("no {name}"))
        .parse()
        .unwrap()
}

#[test]
fn a_per_minute_429_has_retry_after_and_the_day_headers() {
    let s = Sandbox::start(&["--rate-per-minute", "3"]);
    let mut remaining = Vec::new();
    for _ in 0..3 {
        let r = s.call("billing", "GET", "/plans", None);
        expect(&r, 200, 0);
        assert_eq!(
            r.header("x-rate-limit-limit"),
            Some("1000"),
            "the free plan's day"
        );
        remaining.push(figure(&r, "x-rate-limit-remaining"));
    }
    assert_eq!(remaining, [999, 998, 997]);
    let r = s.call("billing", "GET", "/plans", None);
    expect(&r, 429, 1429);
    let retry = figure(&r, "retry-after");
    assert!((1..=60).contains(&retry), "{retry}");
    assert_eq!(r.header("x-rate-limit-limit"), Some("1000"));
    assert_eq!(
        r.header("x-rate-limit-remaining"),
        Some("997"),
        "a refused call is not counted"
    );
    let watch = serde_json::json!({"watch": [{"channel_id": 1, "events": ["Leads.all"], "notify_url": "http://127.0.0.1:9/x"}]});
    expect(
        &s.call("crm", "PATCH", "/actions/watch", Some(watch)),
        200,
        0,
    );
    let other = s.call("books", "GET", "/organizations", None);
    assert!(
        other.header("x-rate-limit-limit").is_some(),
        "every answer carries the headers"
    );
    let c = s.counters();
    assert_eq!(c["operations"]["listPlans"]["statuses"]["429"], 1);
    assert_eq!(c["operations"]["listPlans"]["applied"], 3);
}

#[test]
fn the_headers_state_the_organizations_day() {
    let s = Sandbox::start(&["--daily-quota", "7500"]);
    let day_ms = svc_core::calendar::DAY_MS;
    for left in [7499, 7498, 7497] {
        let before = now_ms();
        let r = s.call("billing", "GET", "/plans", None);
        let after = now_ms();
        expect(&r, 200, 0);
        assert_eq!(r.header("x-rate-limit-limit"), Some("7500"));
        assert_eq!(figure(&r, "x-rate-limit-remaining"), left);
        let reset = figure(&r, "x-rate-limit-reset");
        let until_s = |ms: i64| ((day_ms - ms.rem_euclid(day_ms)) as u64).div_ceil(1000);
        if before.div_euclid(day_ms) == after.div_euclid(day_ms) {
            assert!(
                (until_s(after)..=until_s(before)).contains(&reset),
                "{reset} s to UTC midnight, not {}",
                until_s(after)
            );
        }
    }
}

#[test]
fn others_spent_is_taken_from_the_day_and_its_quota() {
    let s = Sandbox::start(&["--daily-quota", "10", "--others-spent", "7"]);
    let first = s.call("billing", "GET", "/plans", None);
    expect(&first, 200, 0);
    assert_eq!(first.header("x-rate-limit-limit"), Some("10"));
    assert_eq!(figure(&first, "x-rate-limit-remaining"), 2, "10 - 7 - 1");
    for left in [1, 0] {
        let r = s.call("billing", "GET", "/plans", None);
        expect(&r, 200, 0);
        assert_eq!(figure(&r, "x-rate-limit-remaining"), left);
    }
    let r = s.call("billing", "GET", "/plans", None);
    expect(&r, 429, 1431);
    assert_eq!(figure(&r, "x-rate-limit-remaining"), 0);
    assert_eq!(
        figure(&r, "retry-after"),
        figure(&r, "x-rate-limit-reset"),
        "the daily 429 waits for the day's end"
    );
    let c = s.counters();
    assert_eq!(
        c["operations"]["listPlans"]["applied"], 3,
        "limit - othersSpent calls"
    );
}

#[test]
fn a_scaled_clock_scales_the_day() {
    // A minute of 60 ms: a day of 86.4 s whose seconds are milliseconds.
    let s = Sandbox::start(&["--minute-ms", "60", "--daily-quota", "1"]);
    let day_ms = 60 * 1440;
    let until = |ms: i64| (day_ms - ms.rem_euclid(day_ms)) as u64;
    let before = now_ms();
    let r = s.call("billing", "GET", "/plans", None);
    let second = s.call("billing", "GET", "/plans", None);
    let after = now_ms();
    if before.div_euclid(day_ms) != after.div_euclid(day_ms) {
        return; // a scaled midnight passed between the calls
    }
    expect(&r, 200, 0);
    assert_eq!(figure(&r, "x-rate-limit-remaining"), 0);
    let reset = figure(&r, "x-rate-limit-reset");
    assert!((until(after)..=until(before)).contains(&reset), "{reset}");
    expect(&second, 429, 1431);
    let retry = figure(&second, "retry-after");
    assert!((until(after)..=until(before)).contains(&retry), "{retry}");
}

#[test]
fn no_daily_quota_states_no_day() {
    let s = Sandbox::start(&["--daily-quota", "none", "--rate-per-minute", "1"]);
    let r = s.call("billing", "GET", "/plans", None);
    expect(&r, 200, 0);
    assert!(r.header("x-rate-limit-limit").is_none());
    assert!(r.header("x-rate-limit-remaining").is_none());
    assert!(r.header("x-rate-limit-reset").is_none());
    let r = s.call("billing", "GET", "/plans", None);
    expect(&r, 429, 1429);
    assert!(
        r.header("retry-after").is_some(),
        "the minute is still enforced"
    );
}

#[test]
fn calls_in_flight_are_limited_by_plan_and_the_peak_is_counted() {
    let s = Arc::new(Sandbox::start(&["--faults", "slow=1", "--slow-ms", "700"]));
    let barrier = Arc::new(Barrier::new(7));
    let handles: Vec<_> = (0..7)
        .map(|_| {
            let (s, barrier) = (s.clone(), barrier.clone());
            thread::spawn(move || {
                barrier.wait();
                let r = s.call("billing", "GET", "/plans", None);
                (
                    r.status,
                    r.json()["code"].as_i64(),
                    r.header("retry-after").map(String::from),
                )
            })
        })
        .collect();
    let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let refused: Vec<_> = results.iter().filter(|r| r.0 == 429).collect();
    assert_eq!(
        results.iter().filter(|r| r.0 == 200).count() + refused.len(),
        7,
        "{results:?}"
    );
    assert!(
        !refused.is_empty(),
        "the free plan allows 5 in flight: {results:?}"
    );
    assert!(
        refused
            .iter()
            .all(|r| r.1 == Some(1430) && r.2.as_deref() == Some("1")),
        "{results:?}"
    );
    let c = s.counters();
    assert!(c["peak_in_flight"][s.org()].as_u64().unwrap() >= 6, "{c}");
    assert_eq!(c["in_flight"][s.org()], 0);
}

#[test]
fn the_daily_quota() {
    let s = Sandbox::start(&["--daily-quota", "2"]);
    expect(&s.call("billing", "GET", "/plans", None), 200, 0);
    expect(&s.call("billing", "GET", "/plans", None), 200, 0);
    let r = s.call("billing", "GET", "/plans", None);
    expect(&r, 429, 1431);
    let retry = figure(&r, "retry-after");
    assert!((1..=86_400).contains(&retry));
    assert_eq!(figure(&r, "x-rate-limit-limit"), 2);
    assert_eq!(figure(&r, "x-rate-limit-remaining"), 0);
}

#[test]
fn no_rate_limit_means_no_429_and_no_headers() {
    let s = Sandbox::start(&["--no-rate-limit", "--rate-per-minute", "1"]);
    for _ in 0..5 {
        let r = s.call("billing", "GET", "/plans", None);
        expect(&r, 200, 0);
        assert!(r.header("x-rate-limit-limit").is_none());
    }
}
