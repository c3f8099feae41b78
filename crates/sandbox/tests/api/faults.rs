//! Fault injection: 5xx before applying, drop after applying, slow answers, seeded sequences.

use crate::client::{expect, Sandbox};
use serde_json::json;
use std::time::Instant;

fn plan(code: &str) -> Option<serde_json::Value> {
    Some(json!({"plan_code": code, "name": code}))
}

#[test]
fn a_5xx_comes_before_anything_is_applied() {
    let s = Sandbox::start(&["--faults", "500=1"]);
    expect(&s.call("billing", "POST", "/plans", plan("a")), 500, 1000);
    let c = s.counters();
    assert_eq!(c["operations"]["createPlan"]["received"], 1);
    assert_eq!(c["operations"]["createPlan"]["applied"], 0);
    assert_eq!(c["faults"]["500"], 1);
    let s = Sandbox::start(&["--faults", "503=1"]);
    expect(&s.call("billing", "GET", "/plans", None), 503, 1000);
}

#[test]
fn a_drop_closes_the_connection_after_applying() {
    let s = Sandbox::start(&["--faults", "drop=1"]);
    let r = s.try_call_as("dev-token", "billing", "POST", "/plans", plan("dup"));
    assert!(r.is_err(), "no answer: {r:?}");
    let c = s.counters();
    assert_eq!(c["operations"]["createPlan"]["received"], 1);
    assert_eq!(
        c["operations"]["createPlan"]["applied"], 1,
        "the plan was created: a retried POST would duplicate it"
    );
    assert_eq!(
        c["operations"]["createPlan"]["statuses"],
        json!({"dropped": 1})
    );
    assert_eq!(c["in_flight"][s.org()], 0);
}

#[test]
fn injected_429_and_slow_answers() {
    let s = Sandbox::start(&["--faults", "429=1"]);
    let r = s.call("billing", "GET", "/plans", None);
    expect(&r, 429, 1429);
    assert_eq!(r.header("retry-after"), Some("1"));
    let s = Sandbox::start(&["--faults", "slow=1", "--slow-ms", "300"]);
    let started = Instant::now();
    expect(&s.call("billing", "GET", "/plans", None), 200, 0);
    assert!(started.elapsed().as_millis() >= 300);
    assert_eq!(s.counters()["faults"]["slow"], 1);
}

#[test]
fn the_seed_makes_the_sequence_repeatable() {
    let run = || {
        let s = Sandbox::start(&["--faults", "500=0.5", "--seed", "42", "--no-rate-limit"]);
        (0..24)
            .map(|_| s.call("billing", "GET", "/plans", None).status)
            .collect::<Vec<_>>()
    };
    let a = run();
    assert_eq!(a, run());
    assert!(a.contains(&500) && a.contains(&200), "{a:?}");
}
