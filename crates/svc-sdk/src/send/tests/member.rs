//! Transports sharing one fleet store on virtual time, each a member of the fleet: the limits across holders, dead holders' leases, one token for all, an unreachable store.

use super::sim::Service;
use super::*;
use crate::fleet::{Acquire, Outcome, TokenClaim};

const LEASE: u32 = 10_000;

fn fleet(
    w: &Rc<World>,
    holder: &str,
    credential: Credential,
    fallback: Option<f64>,
) -> Transport<Sim> {
    let options = FleetOptions {
        limits: limits(5, 2, 1000).unwrap(),
        holder: holder.into(),
        lease_ms: LEASE,
        store_timeout_ms: STORE_TIMEOUT as u32,
        fallback_share: fallback,
        token_key: "token/test".into(),
    };
    Transport::new(Sim(w.clone()), credential, Limiting::Fleet(options), 1_000)
}

fn holders(w: &Rc<World>, n: usize) -> Vec<Transport<Sim>> {
    (0..n)
        .map(|i| fleet(w, &format!("h{i}"), Credential::Static(TOKEN.into()), None))
        .collect()
}

/// The starts of the attempts, in virtual ms.
fn starts(w: &World) -> Vec<i64> {
    w.seen.borrow().iter().map(|s| s.at).collect()
}

#[test]
fn holders_sharing_a_store_keep_one_minute_window_and_one_in_flight_limit() {
    let w = World::new((0..12).map(|_| ok().after(400)).collect());
    let ts = holders(&w, 3);
    let c = get("https://api.example.com/things");
    let tasks = (0..12).map(|i| send_at(&w, 0, &ts[i % 3], &c)).collect();
    let out = run(&w, tasks);
    assert!(out.into_iter().all(|o| o.unwrap().is_ok()));
    let at = starts(&w);
    assert_eq!(at.len(), 12);
    for &t in &at {
        let in_flight = at.iter().filter(|&&s| s <= t && t < s + 400).count();
        assert!(in_flight <= 2, "{in_flight} in flight at {t}: {at:?}");
        let in_minute = at.iter().filter(|&&s| s >= t && s < t + 60_000).count();
        assert!(
            in_minute <= 5,
            "{in_minute} started within a minute of {t}: {at:?}"
        );
    }
    // Nothing waits longer than the window asks: the 12th starts in the third minute.
    assert!(at[11] - at[0] < 3 * 60_000, "{at:?}");
    let state = ts[0].rate_limit_state().unwrap();
    assert_eq!((state.in_flight, state.queued), (0, 0));
}

#[test]
fn a_holder_that_dies_mid_call_loses_its_slot_when_its_lease_ends() {
    let w = World::new(vec![Step::Hang, Step::Hang, ok()]);
    let ts = holders(&w, 2);
    let c = get("https://api.example.com/things");
    let dead = ts[0].send(&c);
    let dead_too = ts[0].send(&c);
    let dies = async {
        // The holder's calls run for a second, then it is gone: its futures dropped unfinished,
        // nothing released, its leases no longer renewed.
        race(race(dead, dead_too), sleep(&w, 1_000)).await;
    };
    block_on(&w, dies);
    let begun = w.now();
    let out = block_on(&w, ts[1].send(&c));
    assert_eq!(out, Ok(envelope(c.url)));
    let waited = w.now() - begun;
    assert!(
        waited >= i64::from(LEASE) - 1_000 && waited <= i64::from(LEASE),
        "waited {waited} ms"
    );
}

#[test]
fn the_fleet_calls_the_token_function_once_and_once_more_after_a_401() {
    let w = World::new(vec![
        ok(),
        ok(),
        ok(),
        json(401, r#"{"code":57,"message":"bad token"}"#),
        ok(),
        ok(),
    ])
    .with_tokens(vec![token("token-t1"), token("token-t2")]);
    let ts: Vec<_> = (0..3)
        .map(|i| fleet(&w, &format!("h{i}"), Credential::Function, None))
        .collect();
    let c = get("https://api.example.com/things");
    let out = run(&w, (0..3).map(|i| send_at(&w, 0, &ts[i], &c)).collect());
    assert!(out.into_iter().all(|o| o.unwrap().is_ok()));
    assert_eq!(w.token_calls.get(), 1);
    // The 401 drops t1 for everyone; the next call of another holder uses t2 unasked.
    assert_eq!(block_on(&w, ts[0].send(&c)), Ok(envelope(c.url)));
    assert_eq!(block_on(&w, ts[2].send(&c)), Ok(envelope(c.url)));
    assert_eq!(w.token_calls.get(), 2);
    assert_eq!(
        authorizations(&w),
        [
            auth("token-t1"),
            auth("token-t1"),
            auth("token-t1"),
            auth("token-t1"),
            auth("token-t2"),
            auth("token-t2")
        ]
    );
}

#[test]
fn an_unreachable_store_sends_nothing_and_fails_the_call_after_its_wait() {
    let w = World::new(vec![ok()]);
    let t = &holders(&w, 1)[0];
    w.store_down.set(true);
    let begun = w.now();
    let e = error(block_on(&w, t.send(&get("https://api.example.com/things"))));
    assert_eq!(e.kind(), ErrorKind::Network);
    assert!(
        e.message.contains("rate-limit store could not be reached"),
        "{}",
        e.message
    );
    assert!(e.message.contains("not sent"), "{}", e.message);
    assert!(w.now() - begun >= 3_000);
    assert!(w.seen.borrow().is_empty());
    // Back up: the next call goes.
    w.store_down.set(false);
    assert_eq!(
        block_on(&w, t.send(&get("https://api.example.com/things"))),
        Ok(envelope("https://api.example.com/things"))
    );
}

#[test]
fn with_a_fallback_an_unreachable_store_leaves_the_process_its_share() {
    let w = World::new((0..3).map(|_| ok()).collect());
    let t = fleet(&w, "h", Credential::Static(TOKEN.into()), Some(0.5));
    w.store_down.set(true);
    let c = get("https://api.example.com/things");
    let out = run(&w, (0..3).map(|_| send_at(&w, 0, &t, &c)).collect());
    assert!(out.into_iter().all(|o| o.unwrap().is_ok()));
    // Half of 5 a minute is 2: the third call waits for the minute.
    let at = starts(&w);
    assert!(at[1] - at[0] < 10, "{at:?}");
    assert!(at[2] - at[0] >= 60_000, "{at:?}");
}

#[test]
fn a_call_aborted_while_waiting_for_the_fleet_leaves_its_line() {
    let w = World::new(vec![Step::Hang, Step::Hang, ok()]);
    let ts = holders(&w, 1);
    let t = &ts[0];
    let c = get("https://api.example.com/things");
    let signal = Signal::default();
    let waiting = Call {
        signal: Some(&signal),
        ..get("https://api.example.com/things")
    };
    let hung = async {
        race(race(t.send(&c), t.send(&c)), async {
            sleep(&w, 100).await;
            assert_eq!(t.rate_limit_state().unwrap().in_flight, 2);
            signal.abort(None);
            sleep(&w, 100).await;
            assert_eq!(t.rate_limit_state().unwrap().queued, 0);
        })
        .await;
    };
    let out = run(
        &w,
        vec![
            Box::pin(async {
                hung.await;
                None
            }),
            send_at(&w, 50, t, &waiting),
        ],
    );
    assert_eq!(error(out[1].clone().unwrap()).kind(), ErrorKind::Aborted);
    assert_eq!(w.seen.borrow().len(), 2);
}

#[test]
fn a_long_call_renews_its_lease_and_keeps_its_slot() {
    let w = World::new(vec![ok().after(25_000), ok().after(25_000), ok()]);
    let ts = holders(&w, 2);
    let c = get("https://api.example.com/things");
    let out = run(
        &w,
        vec![
            send_at(&w, 0, &ts[0], &c),
            send_at(&w, 0, &ts[0], &c),
            send_at(&w, 10, &ts[1], &c),
        ],
    );
    assert!(out.into_iter().all(|o| o.unwrap().is_ok()));
    let at = starts(&w);
    assert!(
        at[2] - at[0] >= 25_000,
        "the third started while two held their slots: {at:?}"
    );
}

#[test]
fn the_calls_of_one_holder_share_its_refresh() {
    let w = World::new(vec![ok(), ok(), ok()]).with_tokens(vec![TokenStep {
        after: 500,
        result: Ok(Some("token-t1".into())),
    }]);
    let t = fleet(&w, "h", Credential::Function, None);
    let c = get("https://api.example.com/things");
    let out = run(&w, (0..3).map(|_| send_at(&w, 0, &t, &c)).collect());
    assert!(out.into_iter().all(|o| o.unwrap().is_ok()));
    assert_eq!(w.token_calls.get(), 1);
}

/// The store's timeout of `fleet`'s transports.
const STORE_TIMEOUT: i64 = 3_000;

/// A call sent from `at` ms on, as a task of `run` that also gives how long it took.
fn timed<'a>(
    w: &'a Rc<World>,
    at: u64,
    t: &'a Transport<Sim>,
    c: &'a Call<'a, Sim>,
) -> Task<'a, Option<(i64, Out)>> {
    let start = sleep(w, at);
    Box::pin(async move {
        start.await;
        let from = w.now();
        let out = t.send(c).await;
        Some((w.now() - from, out))
    })
}

/// Every call waiting for a store that refuses, or never answers (a connection that never opens,
/// a step whose promise never settles), fails unsent within `store_timeout_ms` of its start: the
/// calls in line behind the first fail with it, a GET is not tried again (the store was), and the
/// token's wait is bounded too. Then the store answers and the same transports' calls go.
#[test]
fn every_wait_on_a_store_that_does_not_answer_ends_at_the_store_timeout() {
    for hangs in [false, true] {
        let w = World::new((0..3).map(|_| ok()).collect()).with_tokens(vec![token("token-t1")]);
        let t = fleet(&w, "h", Credential::Static(TOKEN.into()), None);
        let with_function = fleet(&w, "f", Credential::Function, None);
        w.store_down.set(!hangs);
        w.store_hangs.set(hangs);
        let c = get("https://api.example.com/things");
        let begun = w.now();
        let tasks = vec![
            timed(&w, 0, &t, &c),
            timed(&w, 0, &t, &c),
            timed(&w, 0, &t, &c),
            timed(&w, 1_000, &t, &c),
            timed(&w, 2_500, &t, &c),
            timed(&w, 0, &with_function, &c),
        ];
        for (i, out) in run(&w, tasks).into_iter().enumerate() {
            let (took, out) = out.unwrap();
            let e = error(out);
            assert_eq!(e.kind(), ErrorKind::Network, "{e:?}");
            assert!(e.message.contains("not sent"), "{}", e.message);
            assert!(
                took <= STORE_TIMEOUT + 10,
                "call {i} (store hangs: {hangs}) took {took} ms"
            );
        }
        assert!(w.now() - begun <= 2_500 + STORE_TIMEOUT + 10);
        assert!(w.seen.borrow().is_empty(), "nothing was sent");
        assert_eq!(w.token_calls.get(), 0);
        w.store_down.set(false);
        w.store_hangs.set(false);
        assert_eq!(block_on(&w, t.send(&c)), Ok(envelope(c.url)));
        assert_eq!(block_on(&w, with_function.send(&c)), Ok(envelope(c.url)));
    }
}

/// A store that stops answering while a call runs: the call's answer still comes, and the
/// release that nobody can hear waits no longer than the store's timeout.
#[test]
fn a_store_that_stops_answering_mid_call_delays_the_answer_by_its_timeout_at_most() {
    let w = World::new(vec![ok().after(500), ok()]);
    let t = &holders(&w, 1)[0];
    let c = get("https://api.example.com/things");
    let begun = w.now();
    let call = async {
        let stops = async {
            sleep(&w, 100).await;
            w.store_hangs.set(true);
            std::future::pending::<()>().await;
        };
        match race(t.send(&c), stops).await {
            First::A(out) => out,
            First::B(()) => unreachable!(),
        }
    };
    assert_eq!(block_on(&w, call), Ok(envelope(c.url)));
    let took = w.now() - begun;
    assert!(
        (500..=500 + STORE_TIMEOUT + 10).contains(&took),
        "{took} ms"
    );
}

/// A state whose times are far in the future (year 3000 back-off and answers, a lease until
/// 10^15 ms): the call asks the store a few times and waits at most a day, never in a loop of
/// immediate asks; what the store keeps afterwards is bounded.
#[test]
fn a_state_from_the_year_3000_makes_no_holder_spin() {
    const YEAR_3000: i64 = 32_503_680_000_000;
    let window = |answered: &str, blocked: i64| {
        format!(r#"{{"answered":[{answered}],"day":0,"dayCount":0,"blockedUntil":{blocked}}}"#)
    };
    let state = |window: String, leases: &str| {
        format!(
            r#"{{"version":3,"limits":{{"perMinute":5,"maxConcurrent":2,"daily":1000}},"window":{window},"leases":{leases},"nextId":9}}"#
        )
    };
    let y = YEAR_3000;
    let far = 1_000_000_000_000_000_i64;
    let cases = [
        // A back-off until the year 3000, bounded to a day: longer than a call waits, so it ends
        // at once as rate_limited with that wait.
        (state(window("", y), "[]"), Some(DAY_MS), 3),
        // Five answers in the year 3000 fill the minute: they count as answered now.
        (
            state(window(&[y; 5].map(|t| t.to_string()).join(","), 0), "[]"),
            Some(60_000),
            3,
        ),
        // Two leases until 10^15 hold both slots: the call asks every 50 ms for a release
        // (another holder's cannot be heard otherwise), no faster.
        (
            state(
                window("", 0),
                &format!(
                    r#"[{{"id":1,"holder":"x","until":{far}}},{{"id":2,"holder":"x","until":{far}}}]"#
                ),
            ),
            None,
            10_000 / 50 + 2,
        ),
    ];
    for (text, goes_after, most_steps) in cases {
        let w = World::new(vec![ok()]);
        let t = &holders(&w, 1)[0];
        *w.store.borrow_mut() = Some(text.clone());
        let c = get("https://api.example.com/things");
        let begun = w.now();
        let out = block_on(&w, async {
            match race(t.send(&c), sleep(&w, 10_000)).await {
                First::A(out) => Some(out),
                First::B(()) => None,
            }
        });
        let steps = w.store_steps.get();
        assert!(steps <= most_steps, "{steps} store steps in 10 s on {text}");
        assert!(
            waits(&w)
                .iter()
                .all(|ms| (1..=DAY_MS as u64 + 60_000).contains(ms)),
            "{:?}",
            waits(&w)
        );
        let kept = w.store.borrow().clone().unwrap();
        assert!(!kept.contains(&YEAR_3000.to_string()), "{kept}");
        assert!(!kept.contains(&far.to_string()), "{kept}");
        match goes_after {
            Some(ms) if ms as u64 > crate::retry::MAX_RETRY_AFTER_MS => {
                let e = error(out.expect("it ended at once"));
                assert_eq!(e.kind(), ErrorKind::RateLimited, "{}", e.message);
                assert!(e.retry_after_ms() <= Some(ms as u64 + 60_000), "{e:?}");
                assert!(
                    w.now() - begun <= 3 * super::sim::STORE_MS as i64,
                    "at once, after the store's reply"
                );
            }
            Some(ms) if ms <= 10_000 => {
                assert_eq!(out, Some(Ok(envelope(c.url))));
                assert!(w.now() - begun >= ms, "went after {} ms", w.now() - begun);
            }
            Some(ms) => {
                assert_eq!(out, None, "still waiting after 10 s");
                assert_eq!(block_on(&w, t.send(&c)), Ok(envelope(c.url)));
                assert!(
                    w.now() - begun <= ms + 10_000,
                    "went after {} ms",
                    w.now() - begun
                );
                assert!(w.store_steps.get() <= steps + 3);
            }
            None => assert_eq!(out, None),
        }
    }
}

/// A store that runs steps its own way and answers with times it cannot mean: a wait until a
/// time already passed is a poll (50 ms), not an ask again at once; one until `i64::MAX` waits
/// at most a day and a minute; a quota said spent until then renews within a day.
#[test]
fn a_store_replying_with_impossible_times_makes_no_holder_spin() {
    let reply = |outcome: Outcome| {
        let state = crate::fleet::Fleet::new(limits(5, 2, 1000).unwrap()).state_of(0);
        let now = 1_000_000;
        serde_json::to_string(&crate::fleet::Reply {
            now,
            state,
            outcome,
            repaired: None,
        })
        .unwrap()
    };
    let c = get("https://api.example.com/things");
    for (outcome, most_steps) in [
        (
            Acquire::Wait {
                until: 0,
                on_release: false,
            },
            10_000 / 50 + 2,
        ),
        (
            Acquire::Wait {
                until: i64::MIN,
                on_release: true,
            },
            10_000 / 50 + 2,
        ),
        (
            Acquire::Wait {
                until: i64::MAX,
                on_release: false,
            },
            1,
        ),
    ] {
        let w = World::new(vec![ok()]);
        let t = &holders(&w, 1)[0];
        *w.store_reply.borrow_mut() = Some(reply(Outcome::Acquire(outcome)));
        let out = block_on(&w, async {
            match race(t.send(&c), sleep(&w, 10_000)).await {
                First::A(out) => Some(out),
                First::B(()) => None,
            }
        });
        if most_steps == 1 {
            let e = error(out.expect("a wait past any deadline ends the call at once"));
            assert_eq!(e.kind(), ErrorKind::RateLimited, "{}", e.message);
        } else {
            assert_eq!(out, None);
        }
        let steps = w.store_steps.get();
        assert!(steps <= most_steps, "{outcome:?}: {steps} steps in 10 s");
        assert!(
            waits(&w)
                .iter()
                .all(|ms| (1..=DAY_MS as u64 + 60_000).contains(ms)),
            "{outcome:?}: {:?}",
            waits(&w)
        );
    }
    let w = World::new(vec![ok()]).with_tokens(vec![]);
    let t = fleet(&w, "f", Credential::Function, None);
    *w.store_reply.borrow_mut() = Some(reply(Outcome::Token(TokenClaim::Wait {
        until: 0,
        budget: false,
    })));
    let out = block_on(&w, async {
        match race(t.send(&c), sleep(&w, 10_000)).await {
            First::A(out) => Some(out),
            First::B(()) => None,
        }
    });
    assert_eq!(out, None);
    assert!(
        w.store_steps.get() <= 10_000 / 50 + 2,
        "{}",
        w.store_steps.get()
    );
    let w = World::new(vec![ok()]);
    let t = &holders(&w, 1)[0];
    *w.store_reply.borrow_mut() = Some(reply(Outcome::Acquire(Acquire::QuotaSpent {
        until: i64::MAX,
    })));
    let e = error(block_on(&w, t.send(&c)));
    assert_eq!(e.kind(), ErrorKind::RateLimited);
    assert_eq!(e.retry_after_ms(), Some(DAY_MS as u64));
}

/// A service that allows `per_minute` requests a minute, counted at their arrival as the sandbox
/// counts them (sandbox/src/limits.rs), and says so in every answer's X-Rate-Limit-* headers;
/// beyond it a 429 with Retry-After, counted in `refused`. The n-th answer comes after
/// `latency(n)` ms.
fn rated_service(
    per_minute: u32,
    latency: impl Fn(u64) -> u64 + 'static,
    refused: Rc<Cell<u32>>,
) -> Service {
    let mut window: std::collections::VecDeque<i64> = Default::default();
    let mut n = 0;
    Box::new(move |now| {
        n += 1;
        while window.front().is_some_and(|t| now - t >= 60_000) {
            window.pop_front();
        }
        let full = window.len() as u32 >= per_minute;
        if !full {
            window.push_back(now);
        }
        let reset = window
            .front()
            .map_or(0, |t| (t + 60_000 - now + 999) / 1000);
        let step = if full {
            refused.set(refused.get() + 1);
            json(429, r#"{"code":429,"message":"too many requests"}"#)
                .header("retry-after", &reset.max(1).to_string())
        } else {
            ok()
        };
        // The service states its day (10000 calls), not its minute.
        step.after(latency(n))
            .header("x-rate-limit-limit", "10000")
            .header("x-rate-limit-remaining", &(10_000 - n).to_string())
            .header("x-rate-limit-reset", "3600")
    })
}

/// Issues 36 and 47: four holders told a minute of 40 (`rateLimit.requestsPerMinute`) against a
/// service that allows 40 and states its day in the headers: no 429, the minute the options', the
/// day the service's.
#[test]
fn holders_keep_the_minute_they_are_told_and_the_day_the_service_states() {
    let w = World::new(vec![]);
    let refused = Rc::new(Cell::new(0));
    // Answers in 100 to 490 ms, in no order that lines them up.
    let latency = |n: u64| 100 + n * 137 % 391;
    *w.service.borrow_mut() = Some(rated_service(40, latency, refused.clone()));
    let ts: Vec<_> = (0..4)
        .map(|i| {
            let options = FleetOptions {
                limits: Limits {
                    per_minute: 40,
                    ..Limits::for_plan("free")
                },
                holder: format!("h{i}"),
                lease_ms: LEASE,
                store_timeout_ms: STORE_TIMEOUT as u32,
                fallback_share: None,
                token_key: "token/test".into(),
            };
            let credential = Credential::Static(TOKEN.into());
            Transport::new(Sim(w.clone()), credential, Limiting::Fleet(options), 1_000)
        })
        .collect();
    let c = get("https://api.example.com/things");
    let out = run(
        &w,
        (0..80).map(|i| send_at(&w, 0, &ts[i % 4], &c)).collect(),
    );
    assert!(out.into_iter().all(|o| o.unwrap().is_ok()));
    let at = starts(&w);
    assert_eq!((refused.get(), at.len()), (0, 80), "429s: {at:?}");
    for &t in &at {
        let in_minute = at.iter().filter(|&&s| s >= t && s < t + 60_000).count();
        assert!(
            in_minute <= 40,
            "{in_minute} within a minute of {t}: {at:?}"
        );
    }
    let state = ts[0].rate_limit_state().unwrap();
    assert_eq!((state.daily_quota, state.requests_per_minute), (10_000, 40));
}

/// A 429's Retry-After holds every holder of the fleet, not only the one that got it.
#[test]
fn a_429_told_to_one_holder_stops_every_holder_until_its_retry_after() {
    let too_many = json(429, r#"{"code":429,"message":"too many requests"}"#)
        .header("retry-after", "5")
        .after(100);
    let w = World::new(vec![too_many, ok(), ok()]);
    let ts = holders(&w, 2);
    let c = get("https://api.example.com/things");
    let out = run(
        &w,
        vec![send_at(&w, 0, &ts[0], &c), send_at(&w, 200, &ts[1], &c)],
    );
    assert!(out.into_iter().all(|o| o.unwrap().is_ok()));
    let at = starts(&w);
    assert_eq!(at.len(), 3);
    assert!(at[1] - at[0] >= 5_100 && at[2] - at[0] >= 5_100, "{at:?}");
}

/// A holder whose calls would wait a minute for a store that does not answer.
fn patient(w: &Rc<World>, holder: &str) -> Transport<Sim> {
    let options = FleetOptions {
        limits: limits(5, 2, 1000).unwrap(),
        holder: holder.into(),
        lease_ms: LEASE,
        store_timeout_ms: 60_000,
        fallback_share: None,
        token_key: "token/test".into(),
    };
    Transport::new(
        Sim(w.clone()),
        Credential::Function,
        Limiting::Fleet(options),
        1_000,
    )
}

/// Issue 36: a store that never answers holds no call past its signal, whether it fired before
/// the call, during a step, or as a timeout's reason; the calls in line behind it and the token's
/// wait included. When the store answers again, the same transport's calls go.
#[test]
fn a_signal_ends_every_wait_on_a_store_that_never_answers_at_once() {
    let w = World::new(vec![ok(), ok()]).with_tokens(vec![token("token-one"), token("token-one")]);
    let t = patient(&w, "h");
    let static_one = fleet(&w, "s", Credential::Static(TOKEN.into()), None);
    w.store_hangs.set(true);
    let (before, during, timed_out, behind) = (
        Signal::default(),
        Signal::default(),
        Signal::default(),
        Signal::default(),
    );
    before.abort(None);
    let with = |signal| Call {
        signal: Some(signal),
        ..get("https://api.example.com/things")
    };
    let calls = [
        with(&before),
        with(&during),
        with(&timed_out),
        with(&behind),
    ];
    let tasks = vec![
        timed(&w, 0, &t, &calls[0]),
        timed(&w, 0, &t, &calls[1]),
        timed(&w, 0, &static_one, &calls[2]),
        timed(&w, 0, &static_one, &calls[3]),
        Box::pin(async {
            sleep(&w, 100).await;
            during.abort(None);
            sleep(&w, 200).await;
            timed_out.abort(Some("TimeoutError: signal timed out"));
            behind.abort(Some("the page closed"));
            None
        }),
    ];
    let out = run(&w, tasks);
    let ended = |i: usize| {
        let (took, out) = out[i].clone().unwrap();
        (took, error(out))
    };
    let (took, e) = ended(0);
    assert_eq!((took, e.kind()), (0, ErrorKind::Aborted), "{}", e.message);
    let (took, e) = ended(1);
    assert_eq!((took, e.kind()), (100, ErrorKind::Aborted), "{}", e.message);
    let (took, e) = ended(2);
    assert_eq!((took, e.kind()), (300, ErrorKind::Timeout), "{}", e.message);
    assert_eq!(e.message, "TimeoutError: signal timed out");
    let (took, e) = ended(3);
    assert_eq!((took, e.message.as_str()), (300, "the page closed"));
    assert!(w.seen.borrow().is_empty(), "nothing was sent");
    assert_eq!(w.token_calls.get(), 0);
    let state = static_one.rate_limit_state().unwrap();
    assert_eq!(state.queued, 0, "the aborted calls left the line");
    w.store_hangs.set(false);
    let c = get("https://api.example.com/things");
    assert_eq!(block_on(&w, t.send(&c)), Ok(envelope(c.url)));
    assert_eq!(block_on(&w, static_one.send(&c)), Ok(envelope(c.url)));
}

/// Issue 36: the call's deadline ends a wait on a store that never answers, as the deadline's
/// own timeout, though `store_timeout_ms` is longer.
#[test]
fn the_deadline_ends_a_wait_on_a_store_that_never_answers() {
    let w = World::new(vec![ok()]).with_tokens(vec![token("token-one")]);
    let t = patient(&w, "h");
    w.store_hangs.set(true);
    let c = Call {
        options: Options {
            deadline_ms: 2_000,
            ..options()
        },
        ..get("https://api.example.com/things")
    };
    let begun = w.now();
    let e = error(block_on(&w, t.send(&c)));
    assert_eq!(e.kind(), ErrorKind::Timeout, "{}", e.message);
    assert!(
        e.message.contains("deadline of 2000 ms (deadlineMs)"),
        "{}",
        e.message
    );
    assert_eq!(w.now() - begun, 2_000);
    assert_eq!(w.token_calls.get(), 0);
    w.store_hangs.set(false);
    assert_eq!(block_on(&w, t.send(&get(c.url))), Ok(envelope(c.url)));
}

/// The error of a store that never answers says what happened: no reply within the store's
/// timeout, no second figure that contradicts it.
#[test]
fn the_unreachable_store_error_says_what_happened() {
    for (hangs, why) in [(true, "it did not reply"), (false, "connection refused")] {
        let w = World::new(vec![]);
        let t = &holders(&w, 1)[0];
        w.store_hangs.set(hangs);
        w.store_down.set(!hangs);
        let e = error(block_on(&w, t.send(&get("https://api.example.com/things"))));
        assert_eq!(
            e.message,
            format!("the rate-limit store could not be reached within storeTimeoutMs ({STORE_TIMEOUT} ms): {why}; the call was not sent")
        );
    }
}

/// A fleet of `n` holders, each with the OAuth grant (`max` refreshes a window), on one store.
fn grant_fleet(w: &Rc<World>, n: usize, max: u32) -> Vec<Transport<Sim>> {
    (0..n)
        .map(|i| {
            let options = FleetOptions {
                limits: limits(100, 10, 10_000).unwrap(),
                holder: format!("h{i}"),
                lease_ms: LEASE,
                store_timeout_ms: STORE_TIMEOUT as u32,
                fallback_share: None,
                token_key: "token/test".into(),
            };
            let grant = crate::oauth::Grant::new(
                "client",
                "client-s3cret",
                "refresh-t0ken",
                "https://accounts.example.com",
                max,
            )
            .unwrap();
            Transport::new(
                Sim(w.clone()),
                Credential::OAuth(grant),
                Limiting::Fleet(options),
                1_000,
            )
        })
        .collect()
}

#[test]
fn a_fleet_with_the_grant_refreshes_once_per_token_life_and_never_past_its_budget() {
    let w = World::new((0..40).map(|_| ok()).collect());
    let grants = Rc::new(Cell::new(0));
    let count = grants.clone();
    *w.accounts.borrow_mut() = Some(Box::new(move |_, _| {
        count.set(count.get() + 1);
        json(
            200,
            &format!(
                r#"{{"access_token":"access-{}","expires_in":60}}"#,
                count.get()
            ),
        )
        .after(20)
    }));
    let ts = grant_fleet(&w, 8, 2);
    let c = get("https://api.example.com/things");
    let c = Call {
        options: Options {
            deadline_ms: 60_000,
            ..c.options
        },
        ..c
    };
    let wave = |at: u64| -> Vec<_> { ts.iter().map(|t| send_at(&w, at, t, &c)).collect() };
    let out = run(&w, wave(0));
    assert!(out.into_iter().all(|o| o.unwrap().is_ok()));
    assert_eq!(grants.get(), 1, "a cold start of 8 holders: one grant");
    let out = run(&w, wave(40_000));
    assert!(out.into_iter().all(|o| o.unwrap().is_ok()));
    assert_eq!(grants.get(), 2, "renewed once, past half its life");
    // Due again at 70 s, and the budget of 2 is spent: the valid token is used.
    let out = run(&w, wave(35_000));
    assert!(out.into_iter().all(|o| o.unwrap().is_ok()));
    // Expired at 100 s: no token, no budget until 600 s, past the deadline.
    let out = run(&w, wave(40_000));
    for o in out {
        let e = error(o.unwrap());
        assert_eq!(e.kind(), ErrorKind::RateLimited, "{}", e.message);
        assert!(e.retry_after_ms().is_some());
    }
    assert_eq!(grants.get(), 2);
    let kept = w.keyed.borrow();
    let org = w.store.borrow().clone().unwrap();
    assert!(
        !org.contains("refreshes"),
        "the budget is the credential's: {org}"
    );
    let state = [org, kept["token/test"].clone()].join("\n");
    assert!(state.contains("refreshes"), "{state}");
    assert!(
        !state.contains("s3cret") && !state.contains("refresh-t0ken"),
        "{state}"
    );
}

/// Issue 46: a token the store gives that a grant could not have given (its API domain not a data
/// center's, a path, `javascript:`) is dropped and a refresh claimed; a store that keeps giving it
/// fails the call, unsent, after a bounded number of steps.
#[test]
fn a_token_with_an_api_domain_no_grant_gives_is_dropped_and_a_store_that_keeps_it_fails_the_call() {
    let poisoned = |domain: &str| {
        format!(
            r#"{{"version":3,"limits":{{"perMinute":100,"maxConcurrent":10,"daily":10000}},"window":{{"answered":[],"day":0,"dayCount":0,"blockedUntil":0}},"leases":[],"token":{{"token":"poisoned-t0ken","domain":"{domain}"}},"nextId":9}}"#
        )
    };
    for domain in [
        "http://evil.example",
        "javascript:alert(1)",
        "https://www.svcapis.eu/x",
    ] {
        let w = World::new(vec![ok()]);
        *w.accounts.borrow_mut() = Some(Box::new(|_, _| {
            json(200, r#"{"access_token":"access-1","expires_in":3600}"#)
        }));
        w.keyed
            .borrow_mut()
            .insert("token/test".into(), poisoned(domain));
        let t = &grant_fleet(&w, 1, 10)[0];
        let c = get("https://www.svcapis.com/books/v3/a");
        assert!(block_on(&w, t.send(&c)).is_ok(), "{domain}");
        let seen = w.seen.borrow();
        let call = seen
            .iter()
            .find(|s| !s.url.ends_with("/oauth/v2/token"))
            .unwrap();
        assert_eq!(
            call.authorization.as_deref(),
            Some("Svc-oauthtoken access-1")
        );
        assert!(
            call.url.starts_with("https://www.svcapis.com/"),
            "{}",
            call.url
        );
        assert!(
            w.notes
                .borrow()
                .iter()
                .any(|n| n.contains("could not have given")),
            "{:?}",
            w.notes.borrow()
        );
    }
    let w = World::new(vec![ok()]);
    let state = crate::fleet::Fleet::new(limits(100, 10, 10_000).unwrap()).state_of(0);
    let reply = serde_json::to_string(&crate::fleet::Reply {
        now: 0,
        state,
        outcome: Outcome::Token(TokenClaim::Use {
            token: "poisoned-t0ken".into(),
            domain: Some("javascript:alert(1)".into()),
        }),
        repaired: None,
    })
    .unwrap();
    *w.store_reply.borrow_mut() = Some(reply);
    let t = &grant_fleet(&w, 1, 10)[0];
    let c = get("https://www.svcapis.com/books/v3/a");
    let e = error(block_on(&w, t.send(&c)));
    assert_eq!(e.kind(), ErrorKind::Decode, "{}", e.message);
    assert!(w.store_steps.get() <= 8, "{} steps", w.store_steps.get());
    assert!(w.seen.borrow().is_empty(), "nothing sent");
}
