//! The accounts server for connections over HTTP: consent to revocation, the device flow, a peer's code.

use crate::client::{expect, value_of, Sandbox};
use sandbox::accounts::{DEMO_CLIENT_ID, DEMO_CLIENT_SECRET};
use sandbox::http::ClientResponse;
use serde_json::Value;
use std::time::Duration;
use svc_core::request::{parse_query, percent_encode};

const FORM: (&str, &str) = ("Content-Type", "application/x-www-form-urlencoded");
const REDIRECT: &str = "http://127.0.0.1:9/callback?app=1";
const SCOPE: &str = "SvcBooks.fullaccess.all";

fn enc(s: &str) -> String {
    let mut out = String::new();
    percent_encode(s, &mut out);
    out
}

fn text(r: &ClientResponse) -> &str {
    std::str::from_utf8(&r.body).unwrap()
}

fn authorize_query(client: &str) -> String {
    format!(
        "response_type=code&client_id={}&scope={SCOPE}&redirect_uri={}&access_type=offline&prompt=consent&state=st%2F1",
        enc(client),
        enc(REDIRECT)
    )
}

/// The consent page's form posted with `choice` (`user=...&decision=...`); the redirect's query.
fn consent(s: &Sandbox, choice: &str) -> Vec<(String, String)> {
    let body = format!("{}&{choice}", authorize_query(DEMO_CLIENT_ID));
    let r = s.raw("POST", "/oauth/v2/auth", &[FORM], body.as_bytes());
    assert_eq!(r.status, 302, "{}", text(&r));
    let to = r.header("location").unwrap();
    let query = to
        .strip_prefix("http://127.0.0.1:9/callback?app=1&")
        .unwrap();
    parse_query(query).unwrap()
}

fn get<'a>(q: &'a [(String, String)], name: &str) -> &'a str {
    &q.iter().find(|(k, _)| k == name).unwrap().1
}

fn post(s: &Sandbox, path: &str, form: &str) -> Value {
    let r = s.raw("POST", path, &[FORM], form.as_bytes());
    assert_eq!(r.status, 200, "{}", text(&r));
    value_of(&r)
}

fn exchange(s: &Sandbox, code: &str) -> Value {
    let form = format!(
        "grant_type=authorization_code&client_id={DEMO_CLIENT_ID}&client_secret={DEMO_CLIENT_SECRET}&redirect_uri={}&code={}",
        enc(REDIRECT),
        enc(code)
    );
    post(s, "/oauth/v2/token", &form)
}

fn refresh(s: &Sandbox, token: &str) -> Value {
    let form = format!(
        "grant_type=refresh_token&client_id={DEMO_CLIENT_ID}&client_secret={DEMO_CLIENT_SECRET}&refresh_token={}",
        enc(token)
    );
    post(s, "/oauth/v2/token", &form)
}

fn organizations(s: &Sandbox, token: &str) -> Vec<String> {
    let auth = format!("Svc-oauthtoken {token}");
    let r = s.raw(
        "GET",
        "/books/v3/organizations",
        &[("Authorization", &auth)],
        b"",
    );
    let v = expect(&r, 200, 0);
    let list = v["organizations"].as_array().unwrap();
    list.iter()
        .map(|o| o["organization_id"].as_str().unwrap().to_string())
        .collect()
}

fn accounts_of(s: &Sandbox, token: &str, org: &str) -> ClientResponse {
    let auth = format!("Svc-oauthtoken {token}");
    let target = format!("/books/v3/chartofaccounts?organization_id={org}");
    s.raw("GET", &target, &[("Authorization", &auth)], b"")
}

#[test]
fn the_consent_page_lists_the_users_and_refuses_bad_requests_with_a_page() {
    let s = Sandbox::start(&["--no-rate-limit", "--oauth-user", "alice@acme.test"]);
    let page = s.raw(
        "GET",
        &format!("/oauth/v2/auth?{}", authorize_query(DEMO_CLIENT_ID)),
        &[],
        b"",
    );
    assert_eq!(page.status, 200);
    assert!(page
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
    for needle in [
        "alice@acme.test",
        "john.david@example.com",
        SCOPE,
        "value=\"approve\"",
        "<option value=\"us\">",
    ] {
        assert!(text(&page).contains(needle), "{needle}");
    }
    let unknown = s.raw(
        "GET",
        &format!("/oauth/v2/auth?{}", authorize_query("nope")),
        &[],
        b"",
    );
    assert_eq!((unknown.status, unknown.header("location")), (400, None));
    assert!(text(&unknown).contains("not a client registered"));
    let declined = consent(&s, "decision=decline");
    assert_eq!(
        (get(&declined, "error"), get(&declined, "state")),
        ("access_denied", "st/1")
    );
}

#[test]
fn a_code_exchanged_and_refreshed_acts_as_its_user() {
    let s = Sandbox::start(&["--no-rate-limit", "--oauth-user", "alice@acme.test"]);
    let q = consent(&s, "user=alice%40acme.test&location=us&decision=approve");
    assert_eq!((get(&q, "location"), get(&q, "state")), ("us", "st/1"));
    assert_eq!(get(&q, "accounts-server"), s.server.url());
    let granted = exchange(&s, get(&q, "code"));
    assert_eq!(granted["api_domain"].as_str(), Some(s.server.url()));
    assert_eq!(granted["token_type"].as_str(), Some("Bearer"));
    assert_eq!(
        exchange(&s, get(&q, "code"))["error"].as_str(),
        Some("invalid_code"),
        "single use"
    );

    let rt = granted["refresh_token"].as_str().unwrap();
    let at = refresh(&s, rt)["access_token"]
        .as_str()
        .unwrap()
        .to_string();
    let theirs = organizations(&s, &at);
    assert_eq!(theirs.len(), 1, "alice's own organization only");
    assert_ne!(theirs[0], s.org());
    assert!(
        organizations(&s, "dev-token").len() >= 2,
        "other tokens see every one"
    );
    expect(&accounts_of(&s, &at, &theirs[0]), 200, 0);
    let auth = format!("Svc-oauthtoken {at}");
    let twin = format!("/inventory/v1/organizations?organization_id={}", theirs[0]);
    let v = expect(
        &s.raw("GET", &twin, &[("Authorization", &auth)], b""),
        200,
        0,
    );
    assert_eq!(
        v["organizations"].as_array().map(Vec::len),
        Some(1),
        "the inventory twin too"
    );
    let create = serde_json::json!({ "name": "Second", "currency_code": "EUR", "time_zone": "Europe/Berlin", "portal_name": "secondorg" }).to_string();
    let made = s.raw(
        "POST",
        "/books/v3/organizations",
        &[
            ("Authorization", &auth),
            ("Content-Type", "application/json"),
        ],
        create.as_bytes(),
    );
    let made = expect(&made, 201, 0);
    let second = made["organization"]["organization_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        organizations(&s, &at),
        [theirs[0].clone(), second],
        "a user reaches what it creates"
    );
    let refused = expect(&accounts_of(&s, &at, s.org()), 400, 1005);
    let other = format!("/books/v3/organizations/{}", s.org());
    let auth = format!("Svc-oauthtoken {at}");
    expect(
        &s.raw("GET", &other, &[("Authorization", &auth)], b""),
        400,
        1005,
    );
    assert!(refused["message"]
        .as_str()
        .unwrap()
        .contains("not authorized"));
}

#[test]
fn revocation_ends_a_grant_and_a_new_user_is_a_new_tenant() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let q = consent(&s, "user=carol%40acme.test&decision=approve");
    let granted = exchange(&s, get(&q, "code"));
    let rt = granted["refresh_token"].as_str().unwrap();
    let at = granted["access_token"].as_str().unwrap();
    let theirs = organizations(&s, at);
    let revoked = post(&s, &format!("/oauth/v2/token/revoke?token={}", enc(rt)), "");
    assert_eq!(revoked, serde_json::json!({ "status": "success" }));
    assert_eq!(post(&s, "/oauth/v2/token/revoke", "token=unknown"), revoked);
    assert_eq!(accounts_of(&s, at, &theirs[0]).status, 401);
    assert_eq!(refresh(&s, rt)["error"].as_str(), Some("invalid_code"));

    let fresh = consent(&s, "user=&email=bob%40new.test&decision=approve");
    let bob = exchange(&s, get(&fresh, "code"));
    let orgs = organizations(&s, bob["access_token"].as_str().unwrap());
    assert_eq!(orgs.len(), 1);
    assert!(
        !theirs.contains(&orgs[0]) && orgs[0] != s.org(),
        "a new tenant"
    );

    let c = value_of(&s.raw("GET", "/__sandbox/accounts", &[], b""));
    assert_eq!(
        c["codes"],
        serde_json::json!({ "issued": 2, "redeemed": 2, "declined": 0 })
    );
    assert_eq!(c["revocations"]["by_request"].as_u64(), Some(1));
}

#[test]
fn the_device_flow_pending_slow_down_approved_and_declined() {
    let s = Sandbox::start(&[
        "--no-rate-limit",
        "--oauth-device-interval-ms",
        "1000",
        "--oauth-user",
        "dev@acme.test",
    ]);
    let ask = format!(
        "grant_type=device_request&client_id={DEMO_CLIENT_ID}&scope={SCOPE}&access_type=offline"
    );
    let issued = post(&s, "/oauth/v3/device/code", &ask);
    assert_eq!(
        issued["verification_url"].as_str().unwrap(),
        format!("{}/oauth/v3/device", s.server.url())
    );
    assert_eq!(
        (issued["expires_in"].as_u64(), issued["interval"].as_f64()),
        (Some(300), Some(1.0))
    );
    let user_code = issued["user_code"].as_str().unwrap();
    let poll_form = format!(
        "grant_type=device_token&client_id={DEMO_CLIENT_ID}&client_secret={DEMO_CLIENT_SECRET}&code={}",
        enc(issued["device_code"].as_str().unwrap())
    );
    let poll = || post(&s, "/oauth/v3/device/token", &poll_form);
    assert_eq!(poll()["error"].as_str(), Some("authorization_pending"));
    assert_eq!(poll()["error"].as_str(), Some("slow_down"));
    let page = s.raw("GET", "/oauth/v3/device", &[], b"");
    assert!(text(&page).contains("name=\"user_code\"") && text(&page).contains("dev@acme.test"));
    let linked = s.raw(
        "GET",
        &format!("/oauth/v3/device?user_code={user_code}"),
        &[],
        b"",
    );
    assert!(text(&linked).contains(&format!("<strong id=\"client\">{DEMO_CLIENT_ID}</strong>")));
    let approve = format!(
        "user_code={}&user=dev%40acme.test&decision=approve",
        enc(&user_code.to_lowercase())
    );
    let done = s.raw("POST", "/oauth/v3/device", &[FORM], approve.as_bytes());
    assert_eq!(done.status, 200, "{}", text(&done));
    let again = s.raw("POST", "/oauth/v3/device", &[FORM], approve.as_bytes());
    assert_eq!(again.status, 400, "answered once");
    std::thread::sleep(Duration::from_millis(1050));
    let granted = poll();
    let at = granted["access_token"].as_str().expect("granted");
    assert!(granted["refresh_token"].is_string());
    assert_eq!(organizations(&s, at).len(), 1);

    let other = post(&s, "/oauth/v3/device/code", &ask);
    let deny = format!(
        "user_code={}&decision=decline",
        other["user_code"].as_str().unwrap()
    );
    assert_eq!(
        s.raw("POST", "/oauth/v3/device", &[FORM], deny.as_bytes())
            .status,
        200
    );
    let polled = format!(
        "grant_type=device_token&client_id={DEMO_CLIENT_ID}&client_secret={DEMO_CLIENT_SECRET}&code={}",
        enc(other["device_code"].as_str().unwrap())
    );
    assert_eq!(
        post(&s, "/oauth/v3/device/token", &polled)["error"].as_str(),
        Some("access_denied")
    );
    let c = value_of(&s.raw("GET", "/__sandbox/accounts", &[], b""));
    assert_eq!(
        c["device_codes"],
        serde_json::json!({ "issued": 2, "approved": 1, "declined": 1 })
    );
}

#[test]
fn a_code_for_another_location_is_redeemed_at_its_peer() {
    let eu = Sandbox::start(&["--no-rate-limit", "--oauth-location", "eu"]);
    let peer = format!("eu={}", eu.server.url());
    let us = Sandbox::start(&["--no-rate-limit", "--oauth-peer", &peer]);
    let q = consent(&us, "user=eve%40eu.test&location=eu&decision=approve");
    assert_eq!(
        (get(&q, "location"), get(&q, "accounts-server")),
        ("eu", eu.server.url())
    );
    assert_eq!(
        exchange(&us, get(&q, "code"))["error"].as_str(),
        Some("invalid_code"),
        "not here"
    );
    let granted = exchange(&eu, get(&q, "code"));
    assert_eq!(granted["api_domain"].as_str(), Some(eu.server.url()));
    let orgs = organizations(&eu, granted["access_token"].as_str().unwrap());
    assert_eq!(orgs.len(), 1, "eve is made at eu with her own organization");
    assert_eq!(
        exchange(&eu, get(&q, "code"))["error"].as_str(),
        Some("invalid_code"),
        "once"
    );

    let ask = format!("grant_type=device_request&client_id={DEMO_CLIENT_ID}&scope={SCOPE}");
    let issued = post(&us, "/oauth/v3/device/code", &ask);
    let approve = format!(
        "user_code={}&user=eve%40eu.test&location=eu&decision=approve",
        issued["user_code"].as_str().unwrap()
    );
    assert_eq!(
        us.raw("POST", "/oauth/v3/device", &[FORM], approve.as_bytes())
            .status,
        200
    );
    let poll = |s: &Sandbox, code: &str| {
        let form = format!(
            "grant_type=device_token&client_id={DEMO_CLIENT_ID}&client_secret={DEMO_CLIENT_SECRET}&code={}",
            enc(code)
        );
        post(s, "/oauth/v3/device/token", &form)
    };
    let handed = poll(&us, issued["device_code"].as_str().unwrap());
    assert_eq!(handed["error"].as_str(), Some("other_dc"), "{handed}");
    assert_eq!(handed["accounts-server"].as_str(), Some(eu.server.url()));
    let at_eu = poll(&eu, handed["device_code"].as_str().unwrap());
    assert!(at_eu["access_token"].is_string(), "{at_eu}");
}

#[test]
fn echoed_secrets_of_the_new_endpoints() {
    let s = Sandbox::start(&["--oauth-echo-secrets"]);
    let q = consent(&s, "decision=approve");
    let code = get(&q, "code");
    exchange(&s, code);
    let refused = exchange(&s, code);
    assert_eq!(refused["error"].as_str(), Some("invalid_code"));
    assert_eq!(refused["code"].as_str(), Some(code));
    assert_eq!(refused["client_secret"].as_str(), Some(DEMO_CLIENT_SECRET));
    let form = format!(
        "grant_type=device_token&client_id={DEMO_CLIENT_ID}&client_secret=s3cret&code=1000.dc"
    );
    let v = post(&s, "/oauth/v3/device/token", &form);
    assert_eq!(
        (
            v["error"].as_str(),
            v["client_secret"].as_str(),
            v["code"].as_str()
        ),
        (Some("invalid_client"), Some("s3cret"), Some("1000.dc"))
    );
}
