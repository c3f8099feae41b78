//! Transports sharing one fleet store on virtual time: the limits across holders, dead holders' leases, one token for all, an unreachable store.

use super::*;

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
        store_timeout_ms: 3_000,
        fallback_share: fallback,
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
    .with_tokens(vec![token("t1"), token("t2")]);
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
            auth("t1"),
            auth("t1"),
            auth("t1"),
            auth("t1"),
            auth("t2"),
            auth("t2")
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
    assert_eq!(e.kind, ErrorKind::Network);
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
    assert_eq!(error(out[1].clone().unwrap()).kind, ErrorKind::Aborted);
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
        result: Ok(Some("t1".into())),
    }]);
    let t = fleet(&w, "h", Credential::Function, None);
    let c = get("https://api.example.com/things");
    let out = run(&w, (0..3).map(|_| send_at(&w, 0, &t, &c)).collect());
    assert!(out.into_iter().all(|o| o.unwrap().is_ok()));
    assert_eq!(w.token_calls.get(), 1);
}
