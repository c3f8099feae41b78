//! The OAuth grant's rules against their cases: the form, the answer read and classified, the budget, the renewal.

use super::*;

fn grant() -> Grant {
    Grant::new(
        "1000.CLIENT",
        "s3cret/with+signs&more",
        "1000.refresh.token",
        "https://accounts.svc.eu",
        MAX_REFRESHES,
    )
    .unwrap()
}

fn read_text(body: &str) -> Result<crate::access::AccessToken, Refused> {
    grant().read(200, body.as_bytes(), 1_000_000)
}

#[test]
fn the_form_encodes_every_field() {
    let g = grant();
    assert_eq!(g.url(), "https://accounts.svc.eu/oauth/v2/token");
    assert_eq!(
        g.form(),
        "grant_type=refresh_token&client_id=1000.CLIENT&client_secret=s3cret%2Fwith%2Bsigns%26more&refresh_token=1000.refresh.token"
    );
}

#[test]
fn debug_never_shows_the_secrets() {
    let shown = format!("{:?}", grant());
    assert!(
        !shown.contains("s3cret") && !shown.contains("refresh.token"),
        "{shown}"
    );
}

#[test]
fn a_credential_is_checked() {
    let bad = |id: &str, url: &str, max: u32| Grant::new(id, "s", "r", url, max).unwrap_err();
    assert!(bad("", "https://accounts.svc.com", 10)
        .message
        .contains("oauth.clientId"));
    assert!(bad("a\nb", "https://accounts.svc.com", 10)
        .message
        .contains("control"));
    let e = bad("a", "http://accounts.example.com", 10);
    assert!(e.message.contains("oauth.accountsUrl"), "{}", e.message);
    assert!(bad("a", "https://accounts.svc.com", 0)
        .message
        .contains("maxRefreshes"));
    assert!(Grant::new("a", "s", "r", "http://127.0.0.1:9/", 1).is_ok());
}

#[test]
fn expires_in_is_seconds_unless_expires_in_sec_is_beside_it() {
    let now = 1_000_000;
    let m = read_text(r#"{"access_token":"1000.abc","expires_in":3600,"api_domain":"https://www.svcapis.eu","token_type":"Bearer"}"#).unwrap();
    assert_eq!(m.text(), "1000.abc");
    assert_eq!(m.expires_at, Some(now + 3_600_000));
    assert_eq!(m.domain.as_deref(), Some("https://www.svcapis.eu"));
    let m = read_text(r#"{"access_token":"1000.abc","expires_in":3600000,"expires_in_sec":3600}"#)
        .unwrap();
    assert_eq!(m.expires_at, Some(now + 3_600_000));
    assert_eq!(m.domain, None);
    let m = read_text(r#"{"access_token":"1000.abc"}"#).unwrap();
    assert_eq!(m.expires_at, Some(now + 3_600_000));
    let m = read_text(r#"{"access_token":"1000.abc","expires_in":-5}"#).unwrap();
    assert_eq!(
        m.expires_at,
        Some(now + 1_000),
        "a life is at least a second"
    );
    let m = read_text(r#"{"access_token":"1000.abc","expires_in":1e300}"#).unwrap();
    assert_eq!(m.expires_at, Some(now + crate::fleet::HORIZON_MS));
}

#[test]
fn each_error_at_http_200_is_classified() {
    let e = read_text(r#"{"error":"Access Denied","error_description":"You have made too many requests continuously. Please try again after some time.","status":"failure"}"#).unwrap_err();
    assert_eq!((e.error.kind(), e.retry), (ErrorKind::RateLimited, true));
    let e = read_text(r#"{"error":"invalid_code"}"#).unwrap_err();
    assert_eq!((e.error.kind(), e.retry), (ErrorKind::Unauthorized, false));
    assert!(
        e.error.message.contains("authorize again"),
        "{}",
        e.error.message
    );
    let e = read_text(r#"{"error":"invalid_client"}"#).unwrap_err();
    assert_eq!((e.error.kind(), e.retry), (ErrorKind::Unauthorized, false));
    assert!(
        e.error.message.contains("data center"),
        "{}",
        e.error.message
    );
    let e = read_text(r#"{"error":"unsupported_grant_type"}"#).unwrap_err();
    assert!(
        e.error.message.contains("\"unsupported_grant_type\""),
        "{}",
        e.error.message
    );
    for body in [
        "not json",
        "[]",
        r#"{"access_token":""}"#,
        r#"{"access_token":"a b\u0001"}"#,
    ] {
        let e = read_text(body).unwrap_err();
        assert_eq!(
            (e.error.kind(), e.retry),
            (ErrorKind::Decode, true),
            "{body}"
        );
    }
    for domain in [
        "http://evil.example.com",
        "https://evil.example.com",
        "https://www.svcapis.eu/path",
        "javascript:alert(1)",
    ] {
        let body = format!(r#"{{"access_token":"1000.abc","api_domain":"{domain}"}}"#);
        let e = read_text(&body).unwrap_err();
        assert_eq!(e.error.kind(), ErrorKind::Decode, "{domain}");
    }
    for (domain, kept) in [
        ("https://www.svcapis.eu/", "https://www.svcapis.eu"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("http://sandbox.localhost", "http://sandbox.localhost"),
    ] {
        let body = format!(r#"{{"access_token":"1000.abc","api_domain":"{domain}"}}"#);
        assert_eq!(read_text(&body).unwrap().domain.as_deref(), Some(kept));
    }
    let e = grant().read(503, b"", 0).unwrap_err();
    assert_eq!(
        (e.error.kind(), e.retry, e.error.status()),
        (ErrorKind::Api, true, Some(503))
    );
}

#[test]
fn a_fingerprint_names_one_credential_and_shows_no_secret() {
    let of = |id: &str, secret: &str, refresh: &str, url: &str| {
        Grant::new(id, secret, refresh, url, 10)
            .unwrap()
            .fingerprint()
    };
    let base = of(
        "client",
        "client-s3cret",
        "refresh-t0ken",
        "https://accounts.example.com",
    );
    assert_eq!(base.len(), 32);
    assert!(base.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(
        base,
        of(
            "client",
            "client-s3cret",
            "refresh-t0ken",
            "https://accounts.example.com/"
        )
    );
    for other in [
        of(
            "client2",
            "client-s3cret",
            "refresh-t0ken",
            "https://accounts.example.com",
        ),
        of(
            "client",
            "client-s3cret2",
            "refresh-t0ken",
            "https://accounts.example.com",
        ),
        of(
            "client",
            "client-s3cret",
            "refresh-t0ken2",
            "https://accounts.example.com",
        ),
        of(
            "client",
            "client-s3cret",
            "refresh-t0ken",
            "https://accounts.example.eu",
        ),
        of(
            "clien",
            "tclient-s3cret",
            "refresh-t0ken",
            "https://accounts.example.com",
        ),
    ] {
        assert_ne!(base, other);
    }
    assert!(!base.contains("s3cret") && !base.contains("t0ken"));
}

#[test]
fn only_invalid_code_and_invalid_client_stop_a_credential() {
    for status in [301, 302, 400, 401, 403, 404, 408, 418, 502] {
        let e = grant().read(status, b"<html>", 0).unwrap_err();
        assert_eq!(
            (e.error.kind(), e.retry, e.error.status()),
            (ErrorKind::Api, true, Some(status))
        );
    }
    let e = grant().read(429, b"", 0).unwrap_err();
    assert_eq!((e.error.kind(), e.retry), (ErrorKind::RateLimited, true));
    for body in [
        r#"{"error":"temporarily_unavailable"}"#,
        r#"{"error":"server_error"}"#,
        r#"{"error":17}"#,
        r#"{"error":null}"#,
        r#"{"error":"\u202eevil"}"#,
    ] {
        let e = read_text(body).unwrap_err();
        assert_eq!(
            (e.error.kind(), e.retry, e.error.status()),
            (ErrorKind::Api, true, Some(200)),
            "{body}"
        );
        assert!(
            e.error.message.contains("asked again"),
            "{}",
            e.error.message
        );
    }
}

#[test]
fn no_message_quotes_the_secrets_the_server_echoes() {
    let g = grant();
    let echo = r#"{"error":"s3cret/with+signs&more 1000.refresh.token","error_description":"1000.refresh.token"}"#;
    let e = g.read(200, echo.as_bytes(), 0).unwrap_err();
    let shown = format!("{} {:?}", e.error.message, e.error);
    assert!(
        !shown.contains("s3cret") && !shown.contains("refresh.token"),
        "{shown}"
    );
    let e = g.redact(Error::config(
        "oops 1000.refresh.token and s3cret\\/with+signs&more",
    ));
    assert!(
        !e.message.contains("refresh.token") && !e.message.contains("s3cret"),
        "{}",
        e.message
    );
}

#[test]
fn a_token_is_renewed_before_it_expires_never_past_half_its_life() {
    let hour = 3_600_000;
    for random in [0.0, 0.5, 0.999] {
        let at = renew_at(0, hour, random);
        assert!((hour - 90_000..=hour - 60_000).contains(&at), "{at}");
    }
    assert_eq!(renew_at(0, 10_000, 0.3), 5_000);
    assert_eq!(
        renew_at(100, 50, 0.3),
        50,
        "an expired token is renewed at once"
    );
}

#[test]
fn the_budget_allows_max_per_window_and_a_denial_blocks_a_window() {
    let mut b = Budget::default();
    for t in 0..3 {
        assert_eq!(b.free_at(3, t * 10), None);
        b.spend(t * 10);
    }
    assert_eq!(b.free_at(3, 30), Some(WINDOW_MS));
    assert_eq!(
        b.free_at(3, WINDOW_MS),
        None,
        "the first refresh left the window"
    );
    b.deny(WINDOW_MS);
    assert_eq!(b.free_at(3, WINDOW_MS + 1), Some(2 * WINDOW_MS));
    assert_eq!(b.free_at(3, 2 * WINDOW_MS), None);
    let e = Budget::spent(3, 2_500, 1_000);
    assert_eq!(
        (e.kind(), e.retry_after_ms()),
        (ErrorKind::RateLimited, Some(1_500))
    );
}
