//! The send loop against the scripted platform: retries, timeouts, aborts, the limiter, the token and its refresh.

use super::*;
use crate::access::AccessToken;
use crate::limit::Limits;
use race::{race, First};
use sim::{
    block_on, fail, json, ok, run, sleep, token, Raw, Signal, Sim, Step, Task, TokenStep, World,
};
use std::cell::Cell;
use std::rc::Rc;
use svc_core::calendar::DAY_MS;
use svc_core::catalog::{Method, Shape};
use svc_core::error::{Error, ErrorKind};
use svc_core::headers::Headers;
use svc_core::request::AUTHORIZATION_SCHEME;

const TOKEN: &str = "s3cr3t-Tok3n";
/// The timeout of the calls: long enough never to fire unless an attempt hangs.
const TIMEOUT: u32 = 30_000;
static NO_BODY: String = String::new();

type Out = Result<Reply<Raw>, Failure>;

fn options() -> Options {
    Options {
        timeout_ms: TIMEOUT,
        deadline_ms: 0,
        max_retries: 2,
        max_response_bytes: 1 << 20,
        raw: false,
        background: false,
    }
}

fn call<'a>(method: Method, url: &'a str) -> Call<'a, Sim> {
    Call {
        method,
        url,
        headers: &[],
        body: &NO_BODY,
        shape: Shape::Empty,
        operation: Some("listThings"),
        options: options(),
        signal: None,
    }
}

fn get(url: &str) -> Call<'_, Sim> {
    call(Method::Get, url)
}

fn transport(w: &Rc<World>, credential: Credential, limits: Option<Limits>) -> Transport<Sim> {
    let limiting = limits.map_or(Limiting::Off, Limiting::Local);
    Transport::new(Sim(w.clone()), credential, limiting, 1_000)
}

fn static_token(w: &Rc<World>) -> Transport<Sim> {
    transport(w, Credential::Static(TOKEN.into()), None)
}

fn limits(per_minute: u32, max_concurrent: u32, daily: u32) -> Option<Limits> {
    Some(Limits {
        per_minute,
        max_concurrent,
        daily,
    })
}

/// A call sent from `at` ms on (0: at once), as a task of `run`.
fn send_at<'a>(
    w: &Rc<World>,
    at: u64,
    t: &'a Transport<Sim>,
    c: &'a Call<'a, Sim>,
) -> Task<'a, Option<Out>> {
    let start = sleep(w, at);
    Box::pin(async move {
        start.await;
        Some(t.send(c).await)
    })
}

/// Fires `signal` at `at` ms, as a task of `run`.
fn abort_at<'a>(
    w: &Rc<World>,
    at: u64,
    signal: &'a Signal,
    reason: Option<&'a str>,
) -> Task<'a, Option<Out>> {
    let start = sleep(w, at);
    Box::pin(async move {
        start.await;
        signal.abort(reason);
        None
    })
}

fn error(out: Out) -> Error {
    out.expect_err("the call fails").error
}

/// The result of the sim's `ok()` answer to a call of `url`.
fn envelope(url: &str) -> Reply<Raw> {
    json_reply(url, r#"{"code":0,"message":"success"}"#)
}

/// A JSON result as a JSON answer to a call of `url` gives it.
fn json_reply(url: &str, text: &str) -> Reply<Raw> {
    let content_type = ("content-type".into(), "application/json".into());
    Reply::Json {
        text: text.into(),
        head: Answer {
            status: 200,
            url: url.into(),
            headers: Headers(vec![content_type]),
            raw: (),
        },
    }
}

/// The waits asked for, without the timeouts of the attempts.
fn waits(w: &World) -> Vec<u64> {
    w.sleeps
        .borrow()
        .iter()
        .copied()
        .filter(|ms| *ms != u64::from(TIMEOUT))
        .collect()
}

/// The Authorization header value of a token.
fn auth(token: &str) -> String {
    format!("{AUTHORIZATION_SCHEME} {token}")
}

fn authorizations(w: &World) -> Vec<String> {
    w.seen
        .borrow()
        .iter()
        .map(|s| s.authorization.clone().unwrap_or_default())
        .collect()
}

#[test]
fn success_on_the_first_try() {
    let w = World::new(vec![json(
        200,
        r#"{"code":0,"item":{"item_id":460000000012345678,"name":"x"}}"#,
    )]);
    let t = static_token(&w);
    let headers = vec![("Accept".to_string(), "application/json".to_string())];
    let body = r#"{"name":"x"}"#.to_string();
    let c = Call {
        headers: &headers,
        body: &body,
        shape: Shape::Key(&["item"]),
        ..call(Method::Post, "https://api.example.com/items")
    };
    let start = w.now();
    let out = block_on(&w, t.send(&c));
    assert_eq!(
        out,
        Ok(json_reply(
            "https://api.example.com/items",
            r#"{"item_id":"460000000012345678","name":"x"}"#
        ))
    );
    let seen = w.seen.borrow();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        (seen[0].method, seen[0].url.as_str()),
        ("POST", "https://api.example.com/items")
    );
    assert_eq!(seen[0].authorization, Some(auth("s3cr3t-Tok3n")));
    assert_eq!(seen[0].headers, headers);
    assert_eq!(seen[0].body, body);
    assert_eq!(w.now(), start, "no time passed");
    assert!(waits(&w).is_empty());
}

#[test]
fn a_timeout_is_retried_for_a_get_and_the_hung_attempt_dropped() {
    let w = World::new(vec![Step::Hang, ok()]);
    let t = static_token(&w);
    let c = Call {
        options: Options {
            timeout_ms: 1_000,
            ..options()
        },
        ..get("https://api.example.com/things")
    };
    let start = w.now();
    assert_eq!(block_on(&w, t.send(&c)), Ok(envelope(c.url)));
    assert_eq!(
        *w.sleeps.borrow(),
        [1_000, 250],
        "the timeout, the back-off (jitter 0); the answer came before the second timer was set"
    );
    assert_eq!(w.seen.borrow()[1].at, start + 1_250);
    assert_eq!(w.cancelled.get(), 1, "the hung fetch was dropped");
}

#[test]
fn a_timeout_of_a_post_is_final() {
    let w = World::new(vec![Step::Hang]);
    let t = static_token(&w);
    let c = Call {
        options: Options {
            timeout_ms: 1_000,
            ..options()
        },
        ..call(Method::Post, "https://api.example.com/things")
    };
    let e = error(block_on(&w, t.send(&c)));
    assert_eq!(
        (e.kind(), e.message.as_str()),
        (ErrorKind::Timeout, "no answer within 1000 ms")
    );
    assert_eq!(e.operation_id.as_deref(), Some("listThings"));
    assert_eq!(
        w.seen.borrow().len(),
        1,
        "the server may have acted: never sent again"
    );
}

#[test]
fn an_abort_before_the_start_sends_nothing() {
    let w = World::new(vec![]);
    let t = static_token(&w);
    let signal = Signal::default();
    signal.abort(Some("the user left"));
    let c = Call {
        signal: Some(&signal),
        ..get("https://api.example.com/things")
    };
    let e = error(block_on(&w, t.send(&c)));
    assert_eq!(
        (e.kind(), e.message.as_str()),
        (ErrorKind::Aborted, "the user left")
    );
    assert!(w.seen.borrow().is_empty());
}

#[test]
fn an_abort_during_an_attempt_drops_it() {
    let w = World::new(vec![Step::Hang]);
    let t = static_token(&w);
    let signal = Signal::default();
    let c = Call {
        signal: Some(&signal),
        ..get("https://api.example.com/things")
    };
    let start = w.now();
    let out = run(
        &w,
        vec![send_at(&w, 0, &t, &c), abort_at(&w, 100, &signal, None)],
    );
    let e = error(out.into_iter().next().flatten().unwrap());
    assert_eq!(
        (e.kind(), e.message.as_str()),
        (ErrorKind::Aborted, ABORTED)
    );
    assert_eq!(w.now(), start + 100);
    assert_eq!(w.cancelled.get(), 1);
}

#[test]
fn an_abort_during_a_retry_wait_ends_the_call() {
    let w = World::new(vec![json(503, r#"{"code":1,"message":"busy"}"#)]);
    let t = static_token(&w);
    let signal = Signal::default();
    let c = Call {
        signal: Some(&signal),
        ..get("https://api.example.com/things")
    };
    let start = w.now();
    let out = run(
        &w,
        vec![
            send_at(&w, 0, &t, &c),
            abort_at(&w, 100, &signal, Some("stop")),
        ],
    );
    let e = error(out.into_iter().next().flatten().unwrap());
    assert_eq!((e.kind(), e.message.as_str()), (ErrorKind::Aborted, "stop"));
    assert_eq!(waits(&w), [250]);
    assert_eq!(w.now(), start + 100, "the wait of 250 ms did not run out");
    assert_eq!(w.seen.borrow().len(), 1);
}

#[test]
fn an_abort_while_queued_leaves_the_queue_and_the_next_call_goes() {
    let w = World::new(vec![ok().after(500), ok()]);
    let t = transport(&w, Credential::Static(TOKEN.into()), limits(100, 1, 1_000));
    let signal = Signal::default();
    let a = get("https://api.example.com/a");
    let b = Call {
        signal: Some(&signal),
        ..get("https://api.example.com/b")
    };
    let c = get("https://api.example.com/c");
    let start = w.now();
    let out = run(
        &w,
        vec![
            send_at(&w, 0, &t, &a),
            send_at(&w, 0, &t, &b),
            send_at(&w, 0, &t, &c),
            abort_at(&w, 100, &signal, None),
        ],
    );
    let mut out = out.into_iter().flatten();
    assert_eq!(out.next(), Some(Ok(envelope(a.url))));
    assert_eq!(error(out.next().unwrap()).kind(), ErrorKind::Aborted);
    assert_eq!(out.next(), Some(Ok(envelope(c.url))));
    let seen = w.seen.borrow();
    let urls: Vec<_> = seen
        .iter()
        .map(|s| (s.url.as_str(), s.at - start))
        .collect();
    assert_eq!(
        urls,
        [
            ("https://api.example.com/a", 0),
            ("https://api.example.com/c", 500)
        ]
    );
    let state = t.rate_limit_state().unwrap();
    assert_eq!((state.queued, state.in_flight), (0, 0));
}

#[test]
fn a_429_waits_its_retry_after_and_holds_the_limiter() {
    let w = World::new(vec![
        json(429, r#"{"code":"TOO_MANY_REQUESTS","message":"slow down"}"#)
            .header("Retry-After", "2"),
        ok(),
        ok(),
    ]);
    let t = transport(&w, Credential::Static(TOKEN.into()), limits(100, 10, 1_000));
    let a = call(Method::Post, "https://api.example.com/a");
    let b = get("https://api.example.com/b");
    let start = w.now();
    let out = run(&w, vec![send_at(&w, 0, &t, &a), send_at(&w, 10, &t, &b)]);
    assert_eq!(
        out,
        [Some(Ok(envelope(a.url))), Some(Ok(envelope(b.url)))],
        "a POST is retried after a 429"
    );
    assert!(waits(&w).contains(&2_000), "the wait the server asked for");
    let at: Vec<_> = w
        .seen
        .borrow()
        .iter()
        .map(|s| (s.url.clone(), s.at - start))
        .collect();
    assert_eq!(
        at,
        [
            ("https://api.example.com/a".to_string(), 0),
            ("https://api.example.com/b".to_string(), 2_000),
            ("https://api.example.com/a".to_string(), 2_000),
        ],
        "the limiter held the other call until the wait was over; b queued first"
    );
}

#[test]
fn a_5xx_is_retried_up_to_max_retries_then_decoded_with_its_retry_after() {
    let boom = r#"{"code":9,"message":"boom"}"#;
    let w = World::new(vec![
        json(500, boom),
        json(502, boom),
        json(503, boom).header("Retry-After", "3"),
    ]);
    w.jitter.set(0.5);
    let t = static_token(&w);
    let e = error(block_on(&w, t.send(&get("https://api.example.com/things"))));
    assert_eq!(
        (e.kind(), e.message.as_str(), e.status(), e.code()),
        (ErrorKind::Api, "boom", Some(503), Some(9))
    );
    assert_eq!(e.retry_after_ms(), Some(3_000));
    assert_eq!(e.operation_id.as_deref(), Some("listThings"));
    assert_eq!(waits(&w), [375, 750], "exponential back-off with jitter");
    assert_eq!(w.seen.borrow().len(), 3);

    let w = World::new(vec![json(500, boom)]);
    let t = static_token(&w);
    let e = error(block_on(
        &w,
        t.send(&call(Method::Post, "https://api.example.com/things")),
    ));
    assert_eq!((e.status(), e.retry_after_ms()), (Some(500), None));
    assert_eq!(
        w.seen.borrow().len(),
        1,
        "a POST that reached the server is not sent again"
    );
}

#[test]
fn a_401_refreshes_the_token_once() {
    let unauthorized = r#"{"code":57,"message":"invalid token"}"#;
    let w = World::new(vec![json(401, unauthorized), ok()])
        .with_tokens(vec![token("token-t1"), token("token-t2")]);
    let t = transport(&w, Credential::Function, None);
    assert_eq!(
        block_on(&w, t.send(&get("https://api.example.com/things"))),
        Ok(envelope("https://api.example.com/things"))
    );
    assert_eq!(authorizations(&w), [auth("token-t1"), auth("token-t2")]);
    assert_eq!(w.token_calls.get(), 2);

    let w = World::new(vec![json(401, unauthorized), json(401, unauthorized)])
        .with_tokens(vec![token("token-t1"), token("token-t2")]);
    let t = transport(&w, Credential::Function, None);
    let e = error(block_on(&w, t.send(&get("https://api.example.com/things"))));
    assert_eq!((e.kind(), e.status()), (ErrorKind::Unauthorized, Some(401)));
    assert!(
        e.message
            .starts_with("the service at api.example.com answered 401 (invalid token): "),
        "{}",
        e.message
    );
    assert_eq!(w.token_calls.get(), 2, "one refresh per call");

    let w = World::new(vec![json(401, unauthorized)]);
    let e = error(block_on(
        &w,
        static_token(&w).send(&get("https://api.example.com/things")),
    ));
    assert_eq!(
        (e.kind(), w.seen.borrow().len()),
        (ErrorKind::Unauthorized, 1),
        "a string token is not refreshed"
    );
}

#[test]
fn concurrent_401s_share_one_refresh_and_a_newer_token_refreshes_again() {
    let unauthorized = r#"{"code":57,"message":"invalid token"}"#;
    let refresh = TokenStep {
        after: 50,
        result: Ok(Some("token-new".into())),
    };
    let w = World::new(vec![
        json(401, unauthorized).after(10),
        json(401, unauthorized).after(20),
        ok(),
        ok(),
    ])
    .with_tokens(vec![token("token-old"), refresh]);
    let t = transport(&w, Credential::Function, None);
    let (a, b) = (
        get("https://api.example.com/a"),
        get("https://api.example.com/b"),
    );
    let start = w.now();
    let out = run(&w, vec![send_at(&w, 0, &t, &a), send_at(&w, 0, &t, &b)]);
    assert_eq!(out, [Some(Ok(envelope(a.url))), Some(Ok(envelope(b.url)))]);
    assert_eq!(
        w.token_calls.get(),
        2,
        "one token for both, and ONE refresh"
    );
    assert_eq!(*w.reasons.borrow(), [Reason::Initial, Reason::Rejected]);
    assert_eq!(
        authorizations(&w),
        [
            auth("token-old"),
            auth("token-old"),
            auth("token-new"),
            auth("token-new")
        ]
    );
    let at: Vec<_> = w.seen.borrow().iter().map(|s| s.at - start).collect();
    assert_eq!(
        at,
        [0, 0, 60, 60],
        "b saw its 401 at 20 and joined the refresh a started at 10"
    );

    // The kept token belongs to that refresh's generation: its 401 starts another.
    w.script
        .borrow_mut()
        .extend([json(401, unauthorized), ok()]);
    w.tokens.borrow_mut().extend([token("token-newer")]);
    assert_eq!(
        block_on(&w, t.send(&get("https://api.example.com/c"))),
        Ok(envelope("https://api.example.com/c"))
    );
    assert_eq!(w.token_calls.get(), 3);
    assert_eq!(
        authorizations(&w)[4..],
        [auth("token-new"), auth("token-newer")]
    );
}

#[test]
fn a_refresh_goes_on_for_the_others_when_one_of_its_calls_is_aborted() {
    // Call 0 starts the refresh, call 1 joins it (and polls it last); either is aborted during it.
    for aborted in [0, 1] {
        let unauthorized = r#"{"code":57,"message":"invalid token"}"#;
        let refresh = TokenStep {
            after: 50,
            result: Ok(Some("token-new".into())),
        };
        let w = World::new(vec![
            json(401, unauthorized).after(5),
            json(401, unauthorized).after(5),
            ok(),
        ])
        .with_tokens(vec![token("token-old"), refresh]);
        let t = transport(&w, Credential::Function, None);
        let signal = Signal::default();
        let urls = ["https://api.example.com/0", "https://api.example.com/1"];
        let calls: Vec<_> = (0..2)
            .map(|i| Call {
                signal: (i == aborted).then_some(&signal),
                ..get(urls[i])
            })
            .collect();
        let start = w.now();
        let out = run(
            &w,
            vec![
                send_at(&w, 0, &t, &calls[0]),
                send_at(&w, 0, &t, &calls[1]),
                abort_at(&w, 20, &signal, None),
            ],
        );
        assert_eq!(
            error(out[aborted].clone().unwrap()).kind(),
            ErrorKind::Aborted
        );
        assert_eq!(out[1 - aborted], Some(Ok(envelope(urls[1 - aborted]))));
        assert_eq!(w.token_calls.get(), 2);
        let last = &w.seen.borrow()[2];
        assert_eq!(
            (last.url.as_str(), last.at - start),
            (urls[1 - aborted], 55),
            "the other call had the shared refresh"
        );
    }
}

#[test]
fn a_token_function_that_fails_or_gives_no_string() {
    let must = "the accessToken function must return a non-empty string or { token, expiresAt } (or a promise of one)";
    let cases: Vec<(TokenResult, ErrorKind, &str)> = vec![
        (Ok(Some(String::new().into())), ErrorKind::Unauthorized, must),
        (Ok(None), ErrorKind::Unauthorized, must),
        (Err(TokenFailure::Threw), ErrorKind::Unauthorized, "the accessToken function threw an error"),
        (Err(TokenFailure::Rejected), ErrorKind::Unauthorized, "the accessToken function rejected"),
        (
            Err(TokenFailure::Error(Error::new(ErrorKind::Api, "anything"))),
            ErrorKind::Unauthorized,
            "the accessToken function rejected",
        ),
        (
            Err(TokenFailure::Error(Error::new(ErrorKind::Unauthorized, "log in again"))),
            ErrorKind::Unauthorized,
            "log in again",
        ),
        (
            Err(TokenFailure::TooLong(20_000)),
            ErrorKind::Config,
            "the access token the accessToken function returned is 20000 characters long, more than the 16384 a request header can carry to the service",
        ),
        // Too short to be a token: said so, and its letters not cut out of the message.
        (
            Ok(Some("t".into())),
            ErrorKind::Config,
            "the access token is 1 character long, too short to be a token the service issued (one has at least 8): is it a placeholder?",
        ),
        (
            Ok(Some("two words".into())),
            ErrorKind::Config,
            "the access token may hold only visible ASCII characters (no spaces, no accents or other Unicode): an HTTP header cannot carry it as it is",
        ),
    ];
    for (result, kind, message) in cases {
        let w = World::new(vec![]).with_tokens(vec![TokenStep { after: 5, result }]);
        let t = transport(&w, Credential::Function, None);
        let e = error(block_on(&w, t.send(&get("https://api.example.com/things"))));
        assert_eq!((e.kind(), e.message.as_str()), (kind, message));
        assert_eq!(e.operation_id.as_deref(), Some("listThings"));
        assert!(w.seen.borrow().is_empty());
    }
}

#[test]
fn a_dropped_connection_is_retried_for_a_get_only() {
    let w = World::new(vec![fail("socket hang up", Some("ECONNRESET")), ok()]);
    let t = static_token(&w);
    assert_eq!(
        block_on(&w, t.send(&get("https://api.example.com/things"))),
        Ok(envelope("https://api.example.com/things"))
    );
    assert_eq!(w.seen.borrow().len(), 2);

    let w = World::new(vec![fail("socket hang up", Some("ECONNRESET"))]);
    let t = static_token(&w);
    let f = block_on(
        &w,
        t.send(&call(Method::Post, "https://api.example.com/things")),
    )
    .unwrap_err();
    assert_eq!(f.error.kind(), ErrorKind::Network);
    assert_eq!(
        f.error.message,
        "the request to api.example.com failed: socket hang up (ECONNRESET)"
    );
    let cause = f.error.cause().unwrap();
    assert_eq!(
        (cause.code.as_deref(), cause.host.as_str()),
        (Some("ECONNRESET"), "api.example.com")
    );
    assert_eq!(w.seen.borrow().len(), 1);
}

#[test]
fn a_delete_404_after_an_uncertain_attempt_is_the_delete_done() {
    let not_found = r#"{"code":1002,"message":"does not exist"}"#;
    let done = |url| {
        let text = r#"{"code":0,"message":"already deleted: an earlier attempt went through"}"#;
        let mut reply = json_reply(url, text);
        if let Reply::Json { head, .. } = &mut reply {
            head.status = 404;
        }
        reply
    };
    let del = || Call {
        options: Options {
            timeout_ms: 1_000,
            ..options()
        },
        ..call(Method::Delete, "https://api.example.com/things/1")
    };
    for first in [Step::Hang, fail("reset", None), json(503, "{}")] {
        let w = World::new(vec![first, json(404, not_found)]);
        assert_eq!(
            block_on(&w, static_token(&w).send(&del())),
            Ok(done("https://api.example.com/things/1"))
        );
    }
    for first in [None, Some(json(429, "{}").header("Retry-After", "1"))] {
        let w = World::new(first.into_iter().chain([json(404, not_found)]).collect());
        let e = error(block_on(&w, static_token(&w).send(&del())));
        assert_eq!(
            (e.kind(), e.status()),
            (ErrorKind::Api, Some(404)),
            "no earlier attempt could have deleted it"
        );
    }
}

#[test]
fn the_limiter_queues_calls_past_the_minute_in_fifo_order() {
    let w = World::new((0..5).map(|_| ok().after(10)).collect());
    let t = transport(&w, Credential::Static(TOKEN.into()), limits(2, 10, 1_000));
    let urls: Vec<String> = (1..=5)
        .map(|i| format!("https://api.example.com/{i}"))
        .collect();
    let calls: Vec<_> = urls.iter().map(|u| get(u)).collect();
    // Call i + 1 is enqueued at starts[i] ms: 1, 2, 4, 3, 5; the tasks are polled backwards.
    let starts = [0, 1, 3, 2, 4];
    let start = w.now();
    let tasks = (0..5)
        .rev()
        .map(|i| send_at(&w, starts[i], &t, &calls[i]))
        .collect();
    let out = run(&w, tasks);
    for (o, url) in out.iter().zip(urls.iter().rev()) {
        assert_eq!(o, &Some(Ok(envelope(url))));
    }
    let seen: Vec<_> = w
        .seen
        .borrow()
        .iter()
        .map(|s| (s.url.clone(), s.at - start))
        .collect();
    let expected = [(1, 0), (2, 1), (4, 60_010), (3, 60_011), (5, 120_020)];
    let expected: Vec<_> = expected
        .iter()
        .map(|(u, at)| (format!("https://api.example.com/{u}"), *at))
        .collect();
    assert_eq!(
        seen, expected,
        "two a minute, counted from their answers; first come, first served"
    );
}

#[test]
fn a_spent_daily_quota_is_a_rate_limited_error() {
    let w = World::new(vec![ok()]);
    let t = transport(&w, Credential::Static(TOKEN.into()), limits(100, 10, 1));
    assert_eq!(
        block_on(&w, t.send(&get("https://api.example.com/a"))),
        Ok(envelope("https://api.example.com/a"))
    );
    let e = error(block_on(&w, t.send(&get("https://api.example.com/b"))));
    assert_eq!(e.kind(), ErrorKind::RateLimited);
    assert_eq!(
        e.message,
        format!("the organization's day of 1 requests is spent (every integration's calls count); it renews in {} s; the call was not sent", (DAY_MS - w.now() + 999) / 1000)
    );
    assert_eq!(e.retry_after_ms(), Some((DAY_MS - w.now()) as u64));
    assert_eq!(e.operation_id.as_deref(), Some("listThings"));
    assert_eq!(w.seen.borrow().len(), 1);
    assert_eq!(t.rate_limit_state().unwrap().queued, 0);
}

#[test]
fn the_token_is_in_no_error() {
    let echo = format!(r#"{{"code":57,"message":"token {TOKEN} is not valid"}}"#);
    let check = |f: Failure| {
        for text in [format!("{f}"), format!("{f:?}"), f.error.to_json()] {
            assert!(!text.contains(TOKEN), "{text}");
            assert!(
                text.contains("[redacted]") || text.contains("\"kind\""),
                "{text}"
            );
        }
    };
    // A string token echoed by the server (in its headers too, in any spelling), and by a failing
    // connection (message, code, cause).
    let escaped = TOKEN.replace('3', "\\u0033");
    let w = World::new(vec![json(401, &echo)
        .header("www-authenticate", &auth(TOKEN))
        .header("x-echo", &format!(r#"{{"t":"{escaped}"}}"#))]);
    let f = block_on(&w, static_token(&w).send(&get("https://api.example.com/a"))).unwrap_err();
    let headers = f.error.headers().expect("the answer's headers");
    assert_eq!(headers.get("www-authenticate"), Some(&*auth("[redacted]")));
    assert_eq!(headers.get("x-echo"), Some(r#"{"t":"[redacted]"}"#));
    check(f);
    let what = format!("cannot send {}", auth(TOKEN));
    let w = World::new(vec![fail(&what, Some(TOKEN))]);
    let f = block_on(
        &w,
        static_token(&w).send(&call(Method::Post, "https://api.example.com/a")),
    )
    .unwrap_err();
    assert_eq!(
        f.error.cause().unwrap().message,
        format!("cannot send {}", auth("[redacted]"))
    );
    check(f);
    // A token function's token, echoed after a refresh and by a 5xx.
    let w = World::new(vec![
        json(401, r#"{"code":57,"message":"expired"}"#),
        json(500, &echo),
    ])
    .with_tokens(vec![token("token-old-one"), token(TOKEN)]);
    let t = transport(&w, Credential::Function, None);
    let c = Call {
        options: Options {
            max_retries: 0,
            ..options()
        },
        ..get("https://api.example.com/a")
    };
    check(block_on(&w, t.send(&c)).unwrap_err());
    // A token the header cannot carry, quoted by nobody.
    let bad = format!("{TOKEN} x");
    let w = World::new(vec![]).with_tokens(vec![token(&bad)]);
    let f = block_on(
        &w,
        transport(&w, Credential::Function, None).send(&get("https://api.example.com/a")),
    )
    .unwrap_err();
    assert!(!format!("{f:?}").contains(TOKEN));
    assert!(!format!("{:?}", Credential::Static(TOKEN.into())).contains(TOKEN));
}

#[test]
fn a_raw_call_gives_the_answer_unread_after_retries() {
    let w = World::new(vec![
        json(503, "busy"),
        json(200, r#"{"code":0}"#).header("x-rate-limit-remaining", "7"),
    ]);
    let t = static_token(&w);
    let c = Call {
        options: Options {
            raw: true,
            ..options()
        },
        ..get("https://api.example.com/a")
    };
    let Ok(Reply::Raw(answer)) = block_on(&w, t.send(&c)) else {
        panic!("a raw answer")
    };
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("X-Rate-Limit-Remaining"), Some("7"));
    assert_eq!(
        answer.raw,
        Raw {
            body: br#"{"code":0}"#.to_vec()
        }
    );
    assert_eq!(w.discarded.get(), 1, "the retried answer's body was let go");

    let w = World::new(vec![json(404, "{}")]);
    let Ok(Reply::Raw(answer)) = block_on(&w, static_token(&w).send(&c)) else {
        panic!("a raw answer")
    };
    assert_eq!(
        answer.status, 404,
        "a raw call hands errors back as they came"
    );
}

#[test]
fn an_answer_above_max_response_bytes_is_a_decode_error() {
    let w = World::new(vec![json(200, r#"{"code":0,"message":"0123456789"}"#)]);
    let c = Call {
        options: Options {
            max_response_bytes: 16,
            ..options()
        },
        ..get("https://api.example.com/a")
    };
    let e = error(block_on(&w, static_token(&w).send(&c)));
    assert_eq!(e.kind(), ErrorKind::Decode);
    assert_eq!(
        e.message,
        "the answer is larger than maxResponseBytes (16 bytes) and was not read; raise maxResponseBytes if such an answer is expected"
    );
    assert_eq!(w.seen.borrow().len(), 1);
}

#[test]
fn a_binary_answer_comes_with_its_content_type() {
    let pdf = Step::Answer {
        after: 0,
        status: 200,
        headers: vec![("content-type", "application/pdf".into())],
        body: b"%PDF-1.7".to_vec(),
    };
    let w = World::new(vec![pdf]);
    let c = Call {
        shape: Shape::Binary,
        ..get("https://api.example.com/a.pdf")
    };
    assert_eq!(
        block_on(&w, static_token(&w).send(&c)),
        Ok(Reply::Binary {
            bytes: b"%PDF-1.7".to_vec(),
            head: Answer {
                status: 200,
                url: c.url.into(),
                headers: Headers(vec![("content-type".into(), "application/pdf".into())]),
                raw: (),
            }
        })
    );
    let w = World::new(vec![json(200, r#"{"code":3,"message":"no such file"}"#)]);
    let e = error(block_on(&w, static_token(&w).send(&c)));
    assert_eq!(
        (e.kind(), e.message.as_str()),
        (ErrorKind::Api, "no such file")
    );
}

#[test]
fn a_proxy_client_sends_no_authorization() {
    let w = World::new(vec![ok()]);
    let t = transport(&w, Credential::None, None);
    assert_eq!(
        block_on(&w, t.send(&get("https://proxy.example.com/a"))),
        Ok(envelope("https://proxy.example.com/a"))
    );
    assert_eq!(w.seen.borrow()[0].authorization, None);
    assert_eq!(w.token_calls.get(), 0);
}

#[test]
fn a_timed_out_attempt_gives_its_slot_back() {
    let w = World::new(vec![Step::Hang, ok()]);
    let t = transport(&w, Credential::Static(TOKEN.into()), limits(100, 1, 1_000));
    let c = Call {
        options: Options {
            timeout_ms: 1_000,
            max_retries: 0,
            ..options()
        },
        ..get("https://api.example.com/a")
    };
    let d = get("https://api.example.com/b");
    let out = run(&w, vec![send_at(&w, 0, &t, &c), send_at(&w, 0, &t, &d)]);
    assert_eq!(error(out[0].clone().unwrap()).kind(), ErrorKind::Timeout);
    assert_eq!(out[1], Some(Ok(envelope(d.url))));
    let state = t.rate_limit_state().unwrap();
    assert_eq!(
        (state.in_flight, state.queued, state.remaining_this_minute),
        (0, 0, 98)
    );
}

mod deadline;
mod member;
mod sim;
mod token;

#[test]
fn the_loop_tells_each_attempt_its_answer_the_waits_and_the_end() {
    let w = World::new(vec![
        json(503, "{}").header("Retry-After", "2").after(5),
        fail("socket hang up", Some("ECONNRESET")).after(7),
        json(404, r#"{"code":1002,"message":"no such thing"}"#).after(30),
    ]);
    let t = transport(&w, Credential::Static("tok-4f2e9a".into()), None);
    let e = error(block_on(
        &w,
        t.send(&get("https://api.example.com/things?x=tok-4f2e9a")),
    ));
    assert_eq!(e.status(), Some(404));
    let url = "svc-sdk listThings GET https://api.example.com/things?x=[redacted]";
    let notes = w.notes.borrow();
    let jittered = notes[5].clone();
    assert!(
        jittered.starts_with(&format!("{url}: attempt 3 in ")),
        "{jittered}"
    );
    assert!(jittered.ends_with(" ms: the attempt got no answer; backing off"));
    assert_eq!(
        notes[..],
        [
            "sending attempt 1".to_string(),
            format!("{url}: 503 in 5 ms (attempt 1)"),
            format!("{url}: attempt 2 in 2000 ms: the service answered 503 and its Retry-After asks for the wait"),
            "sending attempt 2".into(),
            format!("{url}: no answer after 7 ms (attempt 2): the request to api.example.com failed: socket hang up (ECONNRESET)"),
            jittered.clone(),
            "sending attempt 3".into(),
            format!("{url}: 404 in 30 ms (attempt 3)"),
            format!("{url} failed: no such thing"),
        ][..]
    );
}

#[test]
fn a_call_held_by_the_limiter_tells_why_once() {
    let w = World::new(vec![ok().after(10), ok().after(10)]);
    let t = transport(&w, Credential::Static(TOKEN.into()), limits(100, 1, 1_000));
    let (a, b) = (
        get("https://api.example.com/a"),
        get("https://api.example.com/b"),
    );
    run(&w, vec![send_at(&w, 0, &t, &a), send_at(&w, 0, &t, &b)]);
    let held: Vec<_> = w
        .notes
        .borrow()
        .iter()
        .filter(|n| n.contains("waits"))
        .cloned()
        .collect();
    assert_eq!(
        held,
        ["svc-sdk listThings GET https://api.example.com/b waits for the rate limiter: 1 of 1 calls in flight"]
    );
}

#[test]
fn an_api_error_carries_the_headers_of_its_answer() {
    let w = World::new(vec![
        json(400, r#"{"code":4,"message":"bad"}"#).header("X-Request-Id", "r1")
    ]);
    let e = error(block_on(
        &w,
        static_token(&w).send(&get("https://api.example.com/a")),
    ));
    let headers = e.headers().expect("the answer's headers");
    assert_eq!(headers.get("x-request-id"), Some("r1"));
    assert_eq!(headers.get("content-type"), Some("application/json"));
}

#[test]
fn the_send_future_holds_its_steps_boxed() {
    // 3,984 bytes with the steps inline (the state of every step side by side), 344 boxed.
    let w = World::new(vec![ok()]);
    let t = static_token(&w);
    let c = get("https://api.example.com/a");
    let size = std::mem::size_of_val(&t.send(&c));
    assert!(
        size < 512,
        "the send future is {size} bytes: a step's state is inline again"
    );
}
