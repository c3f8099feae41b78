//! One deadline per call: every wait ends at it, a wait longer than what is left fails at once,
//! a long Retry-After or a spent quota blocks fast and visibly, and the queue is bounded.

use super::*;

fn with_deadline(c: Call<'_, Sim>, deadline_ms: u32) -> Call<'_, Sim> {
    Call {
        options: Options {
            deadline_ms,
            ..c.options
        },
        ..c
    }
}

fn with_timeout(c: Call<'_, Sim>, timeout_ms: u32) -> Call<'_, Sim> {
    Call {
        options: Options {
            timeout_ms,
            ..c.options
        },
        ..c
    }
}

#[test]
fn a_token_function_that_never_settles_ends_at_the_deadline() {
    let w = World::new(vec![ok()]).with_tokens(vec![TokenStep {
        after: 10 * DAY_MS as u64,
        result: Ok(Some("late".into())),
    }]);
    let t = transport(&w, Credential::Function, None);
    let start = w.now();
    let c = with_deadline(get("https://api.example.com/a"), 5_000);
    let e = error(block_on(&w, t.send(&c)));
    assert_eq!(e.kind(), ErrorKind::Timeout);
    assert!(e.message.contains("deadline of 5000 ms"), "{}", e.message);
    assert_eq!(w.now() - start, 5_000);
    assert!(w.seen.borrow().is_empty(), "nothing was sent");
}

#[test]
fn an_attempt_without_its_own_timeout_ends_at_the_deadline() {
    let w = World::new(vec![Step::Hang]);
    let t = static_token(&w);
    let c = with_timeout(with_deadline(get("https://api.example.com/a"), 7_000), 0);
    let start = w.now();
    assert_eq!(error(block_on(&w, t.send(&c))).kind(), ErrorKind::Timeout);
    assert_eq!(w.now() - start, 7_000);
    assert_eq!(w.cancelled.get(), 1, "the request was let go");
}

#[test]
fn a_retry_wait_longer_than_what_is_left_ends_the_call_at_once_with_the_answer() {
    let w = World::new(vec![
        json(503, r#"{"code":1000,"message":"busy"}"#).header("Retry-After", "30"),
        ok(),
    ]);
    let t = static_token(&w);
    let start = w.now();
    let c = with_deadline(get("https://api.example.com/a"), 10_000);
    let e = error(block_on(&w, t.send(&c)));
    assert_eq!((e.kind(), e.status()), (ErrorKind::Api, Some(503)));
    assert_eq!(e.retry_after_ms(), Some(30_000));
    assert_eq!(w.now(), start, "no wait");
    assert_eq!(w.seen.borrow().len(), 1);
}

#[test]
fn a_long_retry_after_blocks_every_later_call_at_once_and_visibly() {
    let w = World::new(vec![
        json(429, r#"{"code":1070,"message":"quota"}"#).header("Retry-After", "81633"),
        ok(),
    ]);
    let t = transport(&w, Credential::Static(TOKEN.into()), limits(100, 5, 1_000));
    let first = error(block_on(&w, t.send(&get("https://api.example.com/a"))));
    assert_eq!(first.kind(), ErrorKind::RateLimited);
    assert_eq!(first.retry_after_ms(), Some(81_633_000));
    let start = w.now();
    for url in ["https://api.example.com/b", "https://api.example.com/c"] {
        let e = error(block_on(&w, t.send(&get(url))));
        assert_eq!(e.kind(), ErrorKind::RateLimited, "{}", e.message);
        assert_eq!(e.retry_after_ms(), Some(81_633_000));
        assert!(e.message.contains("22.6 h"), "{}", e.message);
    }
    assert_eq!(w.now(), start, "they failed at once, with no deadline set");
    assert_eq!(w.seen.borrow().len(), 1, "nothing more was sent");
    let state = t.rate_limit_state().unwrap();
    assert_eq!(state.blocked_until, Some(start + 81_633_000));
    assert_eq!(state.queued, 0);
}

#[test]
fn a_retry_after_to_the_next_day_is_the_days_quota_spent() {
    let w = World::new(vec![json(429, "{}")]);
    let to_midnight = (DAY_MS - w.now()) / 1000 + 1;
    w.script.borrow_mut()[0] = json(429, r#"{"code":1070,"message":"quota"}"#)
        .header("Retry-After", &to_midnight.to_string());
    let t = transport(&w, Credential::Static(TOKEN.into()), limits(100, 5, 1_000));
    assert_eq!(t.rate_limit_state().unwrap().remaining_today, 1_000);
    let e = error(block_on(&w, t.send(&get("https://api.example.com/a"))));
    assert_eq!(e.kind(), ErrorKind::RateLimited);
    let state = t.rate_limit_state().unwrap();
    assert_eq!(state.remaining_today, 0, "the service's count, not ours");
    assert_eq!(state.blocked_until, Some(w.now() + to_midnight * 1000));
    let e = error(block_on(&w, t.send(&get("https://api.example.com/b"))));
    assert_eq!(e.kind(), ErrorKind::RateLimited);
    assert!(
        e.message.contains("day of 1000 requests is spent"),
        "{}",
        e.message
    );
}

#[test]
fn a_queue_wait_longer_than_what_is_left_fails_at_once_with_its_length() {
    let w = World::new(vec![ok(), ok()]);
    let t = transport(&w, Credential::Static(TOKEN.into()), limits(1, 5, 1_000));
    assert!(block_on(&w, t.send(&get("https://api.example.com/a"))).is_ok());
    let start = w.now();
    let c = with_deadline(get("https://api.example.com/b"), 10_000);
    let e = error(block_on(&w, t.send(&c)));
    assert_eq!(e.kind(), ErrorKind::RateLimited);
    assert_eq!(e.retry_after_ms(), Some(60_000));
    assert!(e.message.contains("left of its deadline"), "{}", e.message);
    assert_eq!(w.now(), start);
    assert_eq!(t.rate_limit_state().unwrap().queued, 0, "out of the queue");
    let c = with_deadline(get("https://api.example.com/c"), 120_000);
    assert!(
        block_on(&w, t.send(&c)).is_ok(),
        "a call with time enough waits"
    );
}

#[test]
fn a_call_waiting_for_a_slot_ends_at_the_deadline_and_leaves_the_queue() {
    let w = World::new(vec![Step::Hang, ok()]);
    let t = transport(&w, Credential::Static(TOKEN.into()), limits(100, 1, 1_000));
    let hung = get("https://api.example.com/hung");
    let waiting = with_deadline(get("https://api.example.com/b"), 3_000);
    let out = run(
        &w,
        vec![send_at(&w, 0, &t, &hung), send_at(&w, 1, &t, &waiting)],
    );
    let e = out[1].clone().unwrap().unwrap_err().error;
    assert_eq!(e.kind(), ErrorKind::Timeout);
    assert!(e.message.contains("deadline of 3000 ms"), "{}", e.message);
    assert_eq!(t.rate_limit_state().unwrap().queued, 0);
}

#[test]
fn the_queue_is_bounded_and_a_call_over_it_fails_at_once() {
    let w = World::new(vec![Step::Hang, Step::Hang, Step::Hang]);
    let limiting = Limiting::Local(limits(100, 1, 1_000).unwrap());
    let t = Transport::new(
        Sim(w.clone()),
        Credential::Static(TOKEN.into()),
        limiting,
        2,
    );
    let timed = |c: Call<'static, Sim>| Call {
        options: Options {
            timeout_ms: 1_000,
            max_retries: 0,
            ..c.options
        },
        ..c
    };
    let calls: Vec<_> = ["a", "b", "c", "d"]
        .iter()
        .map(|u| {
            timed(get(Box::leak(
                format!("https://api.example.com/{u}").into_boxed_str(),
            )))
        })
        .collect();
    let out = run(&w, calls.iter().map(|c| send_at(&w, 0, &t, c)).collect());
    let over = out[3].clone().unwrap().unwrap_err().error;
    assert_eq!(over.kind(), ErrorKind::RateLimited);
    assert!(
        over.message.contains("rateLimit.maxQueued"),
        "{}",
        over.message
    );
    assert!(over.retry_after_ms().is_some());
    for queued in &out[1..3] {
        let e = queued.clone().unwrap().unwrap_err().error;
        assert_eq!(e.kind(), ErrorKind::Timeout, "b and c waited their turn");
    }
    assert_eq!(w.seen.borrow().len(), 3);
}

#[test]
fn a_timeout_signal_ends_the_call_as_a_timeout() {
    let w = World::new(vec![Step::Hang]);
    let t = static_token(&w);
    let signal = Signal::default();
    let c = Call {
        signal: Some(&signal),
        ..get("https://api.example.com/a")
    };
    let out = run(
        &w,
        vec![
            send_at(&w, 0, &t, &c),
            abort_at(&w, 500, &signal, Some("TimeoutError: signal timed out")),
        ],
    );
    let e = out[0].clone().unwrap().unwrap_err().error;
    assert_eq!(e.kind(), ErrorKind::Timeout);
    assert_eq!(
        w.seen.borrow().len(),
        1,
        "not retried after the caller's timeout"
    );
}

#[test]
fn a_retry_after_of_years_holds_for_a_day() {
    let w = World::new(vec![json(429, r#"{"code":1070,"message":"later"}"#)
        .header("Retry-After", "99999999999999999999999")]);
    let t = transport(&w, Credential::Static(TOKEN.into()), limits(100, 5, 1_000));
    let e = error(block_on(&w, t.send(&get("https://api.example.com/a"))));
    assert_eq!(e.kind(), ErrorKind::RateLimited);
    assert_eq!(e.retry_after_ms(), Some(DAY_MS as u64));
    let until = t.rate_limit_state().unwrap().blocked_until.unwrap();
    assert_eq!(until, w.now() + DAY_MS);
}

#[test]
fn a_call_with_a_deadline_and_a_timeout_sets_one_timer() {
    let w = World::new(vec![ok().after(100)]);
    let t = static_token(&w);
    let c = with_deadline(get("https://api.example.com/a"), 600_000);
    assert_eq!(block_on(&w, t.send(&c)), Ok(envelope(c.url)));
    assert_eq!(
        *w.sleeps.borrow(),
        [u64::from(TIMEOUT)],
        "the attempt's timeout, which comes first, serves the deadline too"
    );
}

#[test]
fn a_timeout_before_the_deadline_fails_the_attempt_and_the_timer_is_set_again_for_the_deadline() {
    let w = World::new(vec![Step::Hang, Step::Hang]);
    let t = static_token(&w);
    let c = with_timeout(
        with_deadline(get("https://api.example.com/a"), 1_500),
        1_000,
    );
    let start = w.now();
    let e = error(block_on(&w, t.send(&c)));
    assert_eq!(e.kind(), ErrorKind::Timeout);
    assert!(e.message.contains("deadline of 1500 ms"), "{}", e.message);
    assert_eq!(
        w.now() - start,
        1_500,
        "the deadline, not the second attempt's timeout"
    );
    assert_eq!(w.seen.borrow().len(), 2);
    assert_eq!(w.cancelled.get(), 2, "both hung requests were let go");
}

/// Issue 47: the day the service states wins over the plan's: a plan of 2 a day against a service
/// stating 7500 sends its third call, and says once that the figures differ; a spent day waits
/// for a reset that comes before the deadline, and fails at once, unsent, for one after it.
#[test]
fn the_day_the_service_states_wins_and_a_spent_one_waits_only_within_the_deadline() {
    let stated = |remaining: u32, reset: u64| {
        ok().header("x-rate-limit-limit", "7500")
            .header("x-rate-limit-remaining", &remaining.to_string())
            .header("x-rate-limit-reset", &reset.to_string())
    };
    let w = World::new(vec![
        stated(7000, 3600),
        stated(6999, 3600),
        stated(6998, 3600),
    ]);
    let t = transport(&w, Credential::Static(TOKEN.into()), limits(100, 5, 2));
    for path in ["a", "b", "c"] {
        let url = format!("https://api.example.com/{path}");
        assert!(block_on(&w, t.send(&get(&url))).is_ok(), "{path}");
    }
    let state = t.rate_limit_state().unwrap();
    assert_eq!(
        (
            state.daily_quota,
            state.remaining_today,
            state.plan_daily_quota
        ),
        (7500, 6998, 2)
    );
    let told: Vec<_> = w
        .notes
        .borrow()
        .iter()
        .filter(|n| n.contains("states a day of 7500"))
        .cloned()
        .collect();
    assert_eq!(told.len(), 1, "{told:?}");

    let w = World::new(vec![stated(1, 30), stated(0, 29), ok()]);
    let t = transport(&w, Credential::Static(TOKEN.into()), limits(100, 5, 1000));
    let c = get("https://api.example.com/a");
    let c = Call {
        options: Options {
            deadline_ms: 60_000,
            ..c.options
        },
        ..c
    };
    assert!(block_on(&w, t.send(&c)).is_ok());
    assert!(block_on(&w, t.send(&c)).is_ok());
    let before = w.now();
    assert!(
        block_on(&w, t.send(&c)).is_ok(),
        "the day renews within the deadline"
    );
    assert!(w.now() - before >= 29_000, "it waited for the reset");

    let w = World::new(vec![stated(1, 30_000), stated(0, 29_999), ok()]);
    let t = transport(&w, Credential::Static(TOKEN.into()), limits(100, 5, 1000));
    assert!(block_on(&w, t.send(&c)).is_ok());
    assert!(block_on(&w, t.send(&c)).is_ok());
    let before = w.now();
    let e = error(block_on(&w, t.send(&c)));
    assert_eq!(e.kind(), ErrorKind::RateLimited, "{}", e.message);
    assert!(e.retry_after_ms().is_some_and(|ms| ms > 29_000_000));
    assert_eq!(w.now(), before, "at once");
    assert_eq!(w.seen.borrow().len(), 2, "nothing sent");
}

/// Issue 47: a background sync of 1,000 calls against a day of 1,000 with the default reserve of
/// a tenth stops at 900, each refusal at once with the wait until the day renews; an interactive
/// call still goes. The same in a fleet, the reserve being of the fleet's day.
#[test]
fn a_background_sync_leaves_the_reserve_of_the_day_to_interactive_calls() {
    for fleet in [false, true] {
        let w = World::new((0..1_001).map(|_| ok()).collect());
        let limits = limits(1_000_000, 10, 1_000).unwrap();
        let t = match fleet {
            false => Transport::new(
                Sim(w.clone()),
                Credential::Static(TOKEN.into()),
                Limiting::Local(limits),
                1_000,
            ),
            true => Transport::new(
                Sim(w.clone()),
                Credential::Static(TOKEN.into()),
                Limiting::Fleet(FleetOptions {
                    limits,
                    holder: "h".into(),
                    lease_ms: 10_000,
                    store_timeout_ms: 5_000,
                    fallback_share: None,
                    token_key: "token/test".into(),
                }),
                1_000,
            ),
        };
        let c = get("https://api.example.com/sync");
        let sync = Call {
            options: Options {
                background: true,
                ..c.options
            },
            ..c
        };
        let mut sent = 0;
        let refused = loop {
            match block_on(&w, t.send(&sync)) {
                Ok(_) => sent += 1,
                Err(f) => break f.error,
            }
        };
        assert_eq!(sent, 900, "fleet {fleet}");
        assert_eq!(refused.kind(), ErrorKind::RateLimited);
        assert!(
            refused.message.contains("last 100 calls"),
            "{}",
            refused.message
        );
        assert!(refused.retry_after_ms().is_some_and(|ms| ms > 0));
        assert!(
            block_on(&w, t.send(&c)).is_ok(),
            "an interactive call still goes"
        );
        assert_eq!(w.seen.borrow().len(), 901);
    }
}
