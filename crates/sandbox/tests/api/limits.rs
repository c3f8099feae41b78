//! Rate limits per organization: per minute, in flight, per day; answered with 429 and Retry-After.

use crate::client::{expect, Sandbox};
use std::sync::{Arc, Barrier};
use std::thread;

#[test]
fn per_minute_limit_with_headers_and_retry_after() {
    let s = Sandbox::start(&["--rate-per-minute", "3"]);
    let mut remaining = Vec::new();
    for _ in 0..3 {
        let r = s.call("billing", "GET", "/plans", None);
        expect(&r, 200, 0);
        assert_eq!(r.header("x-rate-limit-limit"), Some("3"));
        remaining.push(r.header("x-rate-limit-remaining").unwrap().to_string());
        assert!(
            r.header("x-rate-limit-reset")
                .unwrap()
                .parse::<u64>()
                .unwrap()
                <= 60
        );
    }
    assert_eq!(remaining, ["2", "1", "0"]);
    let r = s.call("billing", "GET", "/plans", None);
    expect(&r, 429, 1429);
    let retry: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert_eq!(r.header("x-rate-limit-remaining"), Some("0"));
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
    let retry: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=86_400).contains(&retry));
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
