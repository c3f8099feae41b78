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
            r#"{{"access_token":"{token}","expires_in":{secs},"api_domain":"https://api.eu.example.com","token_type":"Bearer"}}"#
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
        result: Ok(Some(Issued {
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
            "https://api.eu.example.com/books/v3/things?organization_id=1"
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
    accounts(&w, vec![json(200, &echo)]);
    let t = oauth(&w, 10);
    let c = get("https://www.svcapis.com/books/v3/a");
    let e = error(block_on(&w, t.send(&c)));
    let shown = format!("{e:?} {}", e.to_json());
    assert!(
        !shown.contains(SECRET) && !shown.contains(REFRESH),
        "{shown}"
    );

    let w = World::new(vec![]);
    accounts(
        &w,
        vec![fail(
            &format!("refused {SECRET} {REFRESH}"),
            Some("ECONNRESET"),
        )],
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
