//! The token a client keeps: one refresh for a cold start, `expiresAt` honoured, the OAuth grant, its budget and its refusals.

use super::*;
use crate::oauth::{Grant, TOKEN_PATH, WINDOW_MS};

const ACCOUNTS: &str = "https://accounts.example.com";
const BASE: &str = "https://www.svcapis.com";
const SECRET: &str = "client-s3cret";
const REFRESH: &str = "refresh-t0ken";

fn grant(max: u32) -> Credential {
    Credential::OAuth(Grant::new("client", SECRET, REFRESH, ACCOUNTS, max).unwrap())
}

fn oauth(w: &Rc<World>, max: u32) -> Transport<Sim> {
    transport(w, grant(max), None).follow_grant_domain(BASE.into())
}

fn minted(token: &str, secs: u64) -> Step {
    json(
        200,
        &format!(
            r#"{{"access_token":"{token}","expires_in":{secs},"api_domain":"https://www.svcapis.eu","token_type":"Bearer"}}"#
        ),
    )
}

/// The accounts server answers the grants in turn with `steps`, then with a test failure.
fn accounts(w: &Rc<World>, steps: Vec<Step>) {
    let mut steps = std::collections::VecDeque::from(steps);
    *w.accounts.borrow_mut() = Some(Box::new(move |_, form| {
        assert!(
            form.starts_with("grant_type=refresh_token&client_id=client&"),
            "{form}"
        );
        steps
            .pop_front()
            .expect("a scripted answer for every grant")
    }));
}

fn grants(w: &World) -> usize {
    w.seen
        .borrow()
        .iter()
        .filter(|s| s.url.ends_with(TOKEN_PATH))
        .count()
}

fn api_calls(w: &World) -> Vec<(String, Option<String>)> {
    w.seen
        .borrow()
        .iter()
        .filter(|s| !s.url.ends_with(TOKEN_PATH))
        .map(|s| (s.url.clone(), s.authorization.clone()))
        .collect()
}

fn with_deadline(c: Call<'_, Sim>, ms: u32) -> Call<'_, Sim> {
    Call {
        options: Options {
            deadline_ms: ms,
            ..c.options
        },
        ..c
    }
}

fn expiring(token: &str, at: i64) -> TokenStep {
    TokenStep {
        after: 0,
        result: Ok(Some(AccessToken {
            token: token.into(),
            expires_at: Some(at),
            domain: None,
        })),
    }
}

#[test]
fn fifty_calls_at_a_cold_start_share_one_call_of_the_token_function() {
    let w = World::new((0..50).map(|_| ok()).collect()).with_tokens(vec![TokenStep {
        after: 30,
        result: Ok(Some("token-one".into())),
    }]);
    let t = transport(&w, Credential::Function, None);
    let c = get("https://api.example.com/a");
    let out = run(&w, (0..50).map(|_| send_at(&w, 0, &t, &c)).collect());
    assert!(out.iter().all(|o| matches!(o, Some(Ok(_)))), "{:?}", out[0]);
    assert_eq!(w.token_calls.get(), 1);
    assert_eq!(*w.reasons.borrow(), [Reason::Initial]);
    assert!(authorizations(&w).iter().all(|a| *a == auth("token-one")));
}

#[test]
fn expires_at_is_honoured_in_one_process_and_the_function_told_why() {
    let w = World::new((0..3).map(|_| ok()).collect());
    let now = w.now();
    w.tokens.borrow_mut().extend([
        expiring("token-one", now + 600_000),
        expiring("token-two", now + 1_800_000),
    ]);
    let t = transport(&w, Credential::Function, None);
    let c = get("https://api.example.com/a");
    let out = run(
        &w,
        vec![
            send_at(&w, 0, &t, &c),
            send_at(&w, 500_000, &t, &c),
            send_at(&w, 560_000, &t, &c),
        ],
    );
    assert!(out.iter().all(|o| matches!(o, Some(Ok(_)))));
    assert_eq!(*w.reasons.borrow(), [Reason::Initial, Reason::Expired]);
    assert_eq!(
        authorizations(&w),
        [auth("token-one"), auth("token-one"), auth("token-two")]
    );
}

#[test]
fn fifty_calls_with_oauth_make_one_grant_and_go_to_its_api_domain() {
    let w = World::new((0..50).map(|_| ok()).collect());
    accounts(&w, vec![minted("access-1", 3600).after(20)]);
    let t = oauth(&w, 10);
    let url = format!("{BASE}/books/v3/things?organization_id=1");
    let c = get(&url);
    let out = run(&w, (0..50).map(|_| send_at(&w, 0, &t, &c)).collect());
    assert!(out.iter().all(|o| matches!(o, Some(Ok(_)))), "{out:?}");
    assert_eq!(grants(&w), 1);
    let calls = api_calls(&w);
    assert_eq!(calls.len(), 50);
    for (url, authorization) in calls {
        assert_eq!(
            url,
            "https://www.svcapis.eu/books/v3/things?organization_id=1"
        );
        assert_eq!(authorization, Some(auth("access-1")));
    }
    let form = w.seen.borrow()[0].body.clone();
    assert_eq!(
        form,
        format!("grant_type=refresh_token&client_id=client&client_secret={SECRET}&refresh_token={REFRESH}")
    );
}

#[test]
fn a_grant_token_is_renewed_once_shortly_before_it_expires() {
    let w = World::new((0..4).map(|_| ok()).collect());
    accounts(&w, vec![minted("access-1", 3600), minted("access-2", 3600)]);
    let t = oauth(&w, 10);
    let c = get("https://www.svcapis.com/books/v3/a");
    let out = run(
        &w,
        vec![
            send_at(&w, 0, &t, &c),
            send_at(&w, 3_000_000, &t, &c),
            send_at(&w, 3_590_000, &t, &c),
            send_at(&w, 3_590_000, &t, &c),
        ],
    );
    assert!(out.iter().all(|o| matches!(o, Some(Ok(_)))), "{out:?}");
    assert_eq!(grants(&w), 2);
    let auths: Vec<_> = api_calls(&w).into_iter().map(|(_, a)| a.unwrap()).collect();
    assert_eq!(
        auths,
        [
            auth("access-1"),
            auth("access-1"),
            auth("access-2"),
            auth("access-2")
        ]
    );
}

#[test]
fn a_401_drops_the_grant_token_then_one_grant_and_one_resend() {
    let unauthorized = r#"{"code":57,"message":"invalid token"}"#;
    let w = World::new(vec![ok(), json(401, unauthorized), ok(), ok()]);
    accounts(
        &w,
        vec![minted("access-1", 3600), minted("access-2", 3600).after(10)],
    );
    let t = oauth(&w, 10);
    let c = get("https://www.svcapis.com/books/v3/a");
    let out = run(
        &w,
        vec![
            send_at(&w, 0, &t, &c),
            send_at(&w, 1_000, &t, &c),
            send_at(&w, 1_005, &t, &c),
        ],
    );
    assert!(out.iter().all(|o| matches!(o, Some(Ok(_)))), "{out:?}");
    assert_eq!(grants(&w), 2, "the call during the refresh waited for it");
    let auths: Vec<_> = api_calls(&w).into_iter().map(|(_, a)| a.unwrap()).collect();
    assert_eq!(
        auths,
        [
            auth("access-1"),
            auth("access-1"),
            auth("access-2"),
            auth("access-2")
        ]
    );
}

#[test]
fn invalid_code_and_invalid_client_stop_the_credential_at_once() {
    for (code, says) in [
        ("invalid_code", "authorize again"),
        ("invalid_client", "data center"),
    ] {
        let w = World::new(vec![]);
        accounts(&w, vec![json(200, &format!(r#"{{"error":"{code}"}}"#))]);
        let t = oauth(&w, 10);
        let c = get("https://www.svcapis.com/books/v3/a");
        let out = run(&w, (0..5).map(|i| send_at(&w, i * 1_000, &t, &c)).collect());
        for o in out {
            let e = error(o.unwrap());
            assert_eq!(e.kind(), ErrorKind::Unauthorized);
            assert!(e.message.contains(says), "{}", e.message);
        }
        assert_eq!(grants(&w), 1, "{code}: no storm");
        assert!(api_calls(&w).is_empty());
    }
}

#[test]
fn access_denied_is_rate_limited_and_no_grant_is_asked_for_the_window() {
    let denied = r#"{"error":"Access Denied","error_description":"You have made too many requests continuously. Please try again after some time.","status":"failure"}"#;
    let w = World::new(vec![ok()]);
    accounts(&w, vec![json(200, denied), minted("access-1", 3600)]);
    let t = oauth(&w, 10);
    let url = "https://www.svcapis.com/books/v3/a";
    let c = with_deadline(get(url), 60_000);
    let out = run(
        &w,
        vec![
            send_at(&w, 0, &t, &c),
            send_at(&w, 1_000, &t, &c),
            send_at(&w, WINDOW_MS as u64 + 10, &t, &c),
        ],
    );
    let first = error(out[0].clone().unwrap());
    assert_eq!(first.kind(), ErrorKind::RateLimited);
    assert!(first.message.contains("Access Denied"), "{}", first.message);
    let second = error(out[1].clone().unwrap());
    assert_eq!(second.kind(), ErrorKind::RateLimited);
    assert!(second.retry_after_ms().is_some_and(|ms| ms > 500_000));
    assert!(
        matches!(out[2], Some(Ok(_))),
        "after the window: {:?}",
        out[2]
    );
    assert_eq!(grants(&w), 2);
}

#[test]
fn the_refresh_budget_is_never_passed() {
    let w = World::new((0..4).map(|_| ok()).collect());
    accounts(
        &w,
        vec![
            minted("access-1", 2),
            minted("access-2", 2),
            minted("access-3", 2),
        ],
    );
    let t = oauth(&w, 2);
    let url = "https://www.svcapis.com/books/v3/a";
    let c = with_deadline(get(url), 60_000);
    let out = run(
        &w,
        vec![
            send_at(&w, 0, &t, &c),
            send_at(&w, 1_500, &t, &c),
            send_at(&w, 3_000, &t, &c),
            send_at(&w, 4_500, &t, &c),
        ],
    );
    assert!(matches!(out[0], Some(Ok(_))) && matches!(out[1], Some(Ok(_))));
    assert!(
        matches!(out[2], Some(Ok(_))),
        "a token due for renewal, still valid, is used: {:?}",
        out[2]
    );
    let e = error(out[3].clone().unwrap());
    assert_eq!(e.kind(), ErrorKind::RateLimited);
    assert!(e.message.contains("maxRefreshes"), "{}", e.message);
    assert_eq!(grants(&w), 2);
}

#[test]
fn no_error_shows_the_secrets_the_accounts_server_echoes() {
    let echo = format!(r#"{{"error":"{SECRET} {REFRESH}","error_description":"{SECRET}"}}"#);
    let w = World::new(vec![]);
    accounts(&w, (0..3).map(|_| json(200, &echo)).collect());
    let t = oauth(&w, 10);
    let c = get("https://www.svcapis.com/books/v3/a");
    let e = error(block_on(&w, t.send(&c)));
    assert_eq!(
        grants(&w),
        3,
        "an unknown error may pass: asked again twice"
    );
    let shown = format!("{e:?} {}", e.to_json());
    assert!(
        !shown.contains(SECRET) && !shown.contains(REFRESH),
        "{shown}"
    );

    let w = World::new(vec![]);
    let refused = format!("refused {SECRET} {REFRESH}");
    accounts(
        &w,
        (0..3).map(|_| fail(&refused, Some("ECONNRESET"))).collect(),
    );
    let t = oauth(&w, 10);
    let e = error(block_on(&w, t.send(&c)));
    let shown = format!("{e:?} {}", e.to_json());
    assert_eq!(e.kind(), ErrorKind::Network);
    assert!(
        !shown.contains(SECRET) && !shown.contains(REFRESH),
        "{shown}"
    );
}

#[test]
fn a_grant_that_never_answers_ends_every_waiting_call_by_its_deadline_and_the_next_call_asks_anew()
{
    let w = World::new(vec![ok()]);
    accounts(&w, vec![Step::Hang, minted("access-1", 3600)]);
    let t = oauth(&w, 10);
    let url = "https://www.svcapis.com/books/v3/a";
    let c = with_deadline(get(url), 5_000);
    let start = w.now();
    let out = run(&w, (0..3).map(|_| send_at(&w, 0, &t, &c)).collect());
    for o in out {
        assert_eq!(error(o.unwrap()).kind(), ErrorKind::Timeout);
    }
    assert!(w.now() - start <= 5_000, "settled by the deadline");
    assert_eq!(grants(&w), 1, "the calls shared the one grant");
    assert_eq!(
        w.cancelled.get(),
        1,
        "the grant nobody waits for is let go of"
    );
    assert!(block_on(&w, t.send(&c)).is_ok(), "the next call asks anew");
    assert_eq!(grants(&w), 2);
}

/// Issue 46: any number of transports of one credential share one keeper: one grant for all.
#[test]
fn transports_of_one_credential_share_one_refresh_and_one_budget() {
    let w = World::new((0..12).map(|_| ok()).collect());
    accounts(&w, vec![minted("access-1", 3600)]);
    let ts: Vec<_> = (0..12)
        .map(|_| oauth(&w, 10).shared_by("oauth/one"))
        .collect();
    let c = get("https://www.svcapis.com/books/v3/a");
    let out = run(&w, ts.iter().map(|t| send_at(&w, 0, t, &c)).collect());
    assert!(out.into_iter().all(|o| o.unwrap().is_ok()));
    assert_eq!(grants(&w), 1, "12 clients of one credential: one grant");
    let notes = w.notes.borrow();
    let refreshed: Vec<_> = notes
        .iter()
        .filter(|n| n.contains("was refreshed"))
        .collect();
    assert_eq!(
        refreshed.len(),
        1,
        "told once, by the call that refreshed: {notes:?}"
    );
    assert!(
        refreshed[0].contains("(there was none yet)"),
        "{}",
        refreshed[0]
    );
}

/// Issue 46: the credential's stop is the credential's, and another credential's transport
/// never carries its token.
#[test]
fn a_stopped_credential_stops_its_own_clients_only() {
    let w = World::new((0..4).map(|_| ok()).collect());
    *w.accounts.borrow_mut() = Some(Box::new(|_, form: &str| {
        if form.contains("refresh_token=revoked") {
            json(200, r#"{"error":"invalid_code"}"#)
        } else {
            minted("access-good", 3600)
        }
    }));
    let credential = |refresh: &str| {
        Credential::OAuth(Grant::new("client", SECRET, refresh, ACCOUNTS, 10).unwrap())
    };
    let good = transport(&w, credential("good"), None).shared_by("oauth/good");
    let revoked = transport(&w, credential("revoked"), None).shared_by("oauth/revoked");
    let c = get("https://www.svcapis.com/books/v3/a");
    let out = run(
        &w,
        vec![
            send_at(&w, 0, &good, &c),
            send_at(&w, 10, &revoked, &c),
            send_at(&w, 20, &good, &c),
            send_at(&w, 30, &revoked, &c),
        ],
    );
    assert!(matches!(out[0], Some(Ok(_))) && matches!(out[2], Some(Ok(_))));
    for o in [&out[1], &out[3]] {
        assert_eq!(error(o.clone().unwrap()).kind(), ErrorKind::Unauthorized);
    }
    assert_eq!(
        grants(&w),
        2,
        "one grant each; the revoked one not asked again"
    );
}

/// Issue 46: a refusal that may pass (a load balancer's 408, a 404, an unknown error at 200) is
/// asked again with back-off within the call, and never stops the credential.
#[test]
fn a_refusal_that_may_pass_is_asked_again_and_never_stops_the_credential() {
    for refusal in [
        json(408, "request timeout"),
        json(404, "<html>not found</html>"),
        json(302, ""),
        json(200, r#"{"error":"temporarily_unavailable"}"#),
        json(200, r#"{"error":"server_error"}"#),
    ] {
        let w = World::new(vec![ok(), ok()]);
        accounts(&w, vec![refusal, minted("access-1", 3600)]);
        let t = oauth(&w, 10);
        let c = get("https://www.svcapis.com/books/v3/a");
        let out = block_on(&w, t.send(&c));
        assert!(out.is_ok(), "{out:?}");
        assert_eq!(grants(&w), 2);
        assert!(block_on(&w, t.send(&c)).is_ok());
    }
    // With no retries left, the call fails as what it is, and the next call asks again.
    let w = World::new(vec![ok()]);
    accounts(&w, vec![json(403, "forbidden"), minted("access-1", 3600)]);
    let t = oauth(&w, 10);
    let once = get("https://www.svcapis.com/books/v3/a");
    let once = Call {
        options: Options {
            max_retries: 0,
            ..once.options
        },
        ..once
    };
    let e = error(block_on(&w, t.send(&once)));
    assert_eq!((e.kind(), e.status()), (ErrorKind::Api, Some(403)));
    assert!(block_on(&w, t.send(&once)).is_ok());
}

/// Issue 46: a wait for the refresh budget longer than a minute fails at once, with its wait.
#[test]
fn a_spent_budget_fails_at_once_when_its_wait_passes_a_minute() {
    let w = World::new((0..3).map(|_| ok()).collect());
    accounts(&w, vec![minted("access-1", 1), minted("access-2", 1)]);
    let t = oauth(&w, 2);
    let c = get("https://www.svcapis.com/books/v3/a");
    assert!(block_on(&w, t.send(&c)).is_ok());
    let out = run(&w, vec![send_at(&w, 2_000, &t, &c)]);
    assert!(matches!(out[0], Some(Ok(_))));
    let started = w.now();
    let out = run(&w, vec![send_at(&w, 2_000, &t, &c)]);
    let e = error(out[0].clone().unwrap());
    assert_eq!(e.kind(), ErrorKind::RateLimited, "{}", e.message);
    assert!(e.retry_after_ms().is_some_and(|ms| ms > 60_000));
    assert!(w.now() - started <= 2_000 + 10, "failed at once");
}

/// Issue 46: a token function that once gives nothing (or an empty token) fails that call and is
/// asked again by the next; an expiresAt that is not a time is a config error.
#[test]
fn a_token_function_that_gives_nothing_is_asked_again_by_the_next_call() {
    let nothing = |result| TokenStep { after: 0, result };
    let w = World::new(vec![ok()]).with_tokens(vec![
        nothing(Ok(None)),
        nothing(Ok(Some("".into()))),
        nothing(Err(TokenFailure::NoTime)),
        nothing(Ok(Some("tok-fine".into()))),
    ]);
    let t = transport(&w, Credential::Function, None);
    let c = get("https://www.svcapis.com/books/v3/a");
    for kind in [
        ErrorKind::Unauthorized,
        ErrorKind::Unauthorized,
        ErrorKind::Config,
    ] {
        assert_eq!(error(block_on(&w, t.send(&c))).kind(), kind);
    }
    assert!(block_on(&w, t.send(&c)).is_ok());
    assert_eq!(w.token_calls.get(), 4);
}

/// Issue 46, as a property: transports of several credentials of one organization, in one
/// process and across a fleet store, interleaved at random times; each request carries a token
/// minted for its own credential, and each credential's refreshes stay within its own budget.
#[test]
fn interleaved_credentials_of_one_organization_each_carry_their_own_token() {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let names = ["alpha", "beta", "gamma"];
    for round in 0..20 {
        let w = World::new((0..60).map(|_| ok()).collect());
        let minted_n = Rc::new(Cell::new(0));
        let counter = minted_n.clone();
        *w.accounts.borrow_mut() = Some(Box::new(move |_, form: &str| {
            let name = form
                .rsplit("refresh_token=")
                .next()
                .unwrap_or("")
                .to_string();
            counter.set(counter.get() + 1);
            minted(&format!("access-{name}-{}", counter.get()), 30)
        }));
        let mut ts = Vec::new();
        for (i, name) in names.iter().enumerate() {
            for holder in 0..2 {
                let grant = Grant::new("client", SECRET, name, ACCOUNTS, 10).unwrap();
                let key = format!("oauth/{}", grant.fingerprint());
                let t = match (round + holder) % 2 {
                    0 => transport(&w, Credential::OAuth(grant), None),
                    _ => {
                        let options = FleetOptions {
                            limits: Limits::for_plan("premium"),
                            holder: format!("h{i}-{holder}"),
                            lease_ms: 10_000,
                            store_timeout_ms: 5_000,
                            fallback_share: None,
                            token_key: format!("token/{key}"),
                        };
                        Transport::new(
                            Sim(w.clone()),
                            Credential::OAuth(grant),
                            Limiting::Fleet(options),
                            1_000,
                        )
                    }
                };
                ts.push((name, t.shared_by(&key)));
            }
        }
        let urls: Vec<String> = names
            .iter()
            .map(|n| format!("https://www.svcapis.com/books/v3/a?as={n}"))
            .collect();
        let calls: Vec<_> = urls.iter().map(|u| get(u)).collect();
        let tasks = (0..40)
            .map(|_| {
                let (name, t) = &ts[next(ts.len() as u64) as usize];
                let at = next(90_000);
                let c = &calls[names.iter().position(|n| n == *name).unwrap_or(0)];
                send_at(&w, at, t, c)
            })
            .collect();
        let out = run(&w, tasks);
        assert!(out.into_iter().all(|o| o.unwrap().is_ok()), "round {round}");
        for (url, auth) in api_calls(&w) {
            let name = url.rsplit("as=").next().unwrap_or("");
            let auth = auth.unwrap_or_default();
            assert!(
                auth.contains(&format!("access-{name}-")),
                "round {round}: a call as {name} carried {auth}"
            );
        }
        assert!(
            minted_n.get() <= 3 * 10,
            "round {round}: {}",
            minted_n.get()
        );
    }
}
