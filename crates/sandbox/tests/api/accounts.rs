//! The accounts server over HTTP: its tokens are what the API takes, until they expire or are revoked.

use crate::client::Sandbox;
use sandbox::accounts::{DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, DEMO_REFRESH_TOKEN};
use sandbox::http::ClientResponse;

const FORM: (&str, &str) = ("Content-Type", "application/x-www-form-urlencoded");

fn text(r: &ClientResponse) -> &str {
    std::str::from_utf8(&r.body).unwrap()
}

fn refresh(s: &Sandbox) -> ClientResponse {
    let form = format!(
        "grant_type=refresh_token&client_id={DEMO_CLIENT_ID}&client_secret={DEMO_CLIENT_SECRET}&refresh_token={DEMO_REFRESH_TOKEN}"
    );
    s.raw("POST", "/oauth/v2/token", &[FORM], form.as_bytes())
}

fn access_token(s: &Sandbox) -> String {
    let r = refresh(s);
    assert_eq!(r.status, 200, "{}", text(&r));
    let v = svc_json::parse(text(&r)).unwrap();
    v["access_token"].as_str().unwrap().to_string()
}

fn status_of(s: &Sandbox, token: &str) -> u16 {
    s.call_as(token, "books", "GET", "/chartofaccounts", None)
        .status
}

#[test]
fn the_api_takes_minted_tokens_until_the_cap_or_a_revocation_ends_them() {
    let s = Sandbox::start(&["--no-rate-limit", "--oauth-live-token-cap", "2"]);
    let first = access_token(&s);
    let r = refresh(&s);
    let api_domain = format!("\"api_domain\":\"{}\"", s.server.url());
    assert!(text(&r).contains(&api_domain), "{}", text(&r));
    assert_eq!(status_of(&s, &first), 200);
    let _third = access_token(&s);
    assert_eq!(status_of(&s, &first), 401, "the cap revoked the oldest");
    let last = access_token(&s);
    let revoke = format!("/__sandbox/accounts/access-tokens/{last}/revoke");
    assert_eq!(s.raw("POST", &revoke, &[], b"").status, 200);
    assert_eq!(status_of(&s, &last), 401);
    assert_eq!(
        status_of(&s, "dev-token"),
        200,
        "static tokens are as before"
    );
    let counters = s.raw("GET", "/__sandbox/accounts", &[], b"");
    let v = svc_json::parse(text(&counters)).unwrap();
    assert_eq!(v["refreshes"]["granted"].as_u64(), Some(4));
    assert_eq!(v["revoked_by_cap"].as_u64(), Some(2));
    assert_eq!(v["api_401"]["revoked"].as_u64(), Some(2));
    assert_eq!(
        v["refresh_tokens"][DEMO_REFRESH_TOKEN]["live_tokens"].as_u64(),
        Some(1)
    );
    assert_eq!(
        s.raw("POST", "/__sandbox/reset-counters", &[], b"").status,
        200
    );
    let v = s.raw("GET", "/__sandbox/accounts", &[], b"");
    assert!(text(&v).contains("\"granted\":0"), "{}", text(&v));
}

#[test]
fn an_expired_token_is_401_and_echoed_when_asked() {
    let s = Sandbox::start(&[
        "--no-rate-limit",
        "--oauth-token-lifetime-ms",
        "1",
        "--oauth-echo-secrets",
    ]);
    let token = access_token(&s);
    std::thread::sleep(std::time::Duration::from_millis(5));
    let r = s.call_as(&token, "books", "GET", "/chartofaccounts", None);
    assert_eq!(r.status, 401);
    assert!(
        text(&r).contains(&format!("received {token} ")),
        "{}",
        text(&r)
    );
    let v = s.raw("GET", "/__sandbox/accounts", &[], b"");
    assert!(
        text(&v).contains("\"api_401\":{\"expired\":1,"),
        "{}",
        text(&v)
    );
}
