//! The connection steps' tests: consent URL, state, redirect checks, seals, records, the device flow's answers.

use super::authorize::{self, Pending};
use super::device::{self, Poll};
use super::record::{Record, Status};
use super::redirect::Redirect;
use super::seal::Sealer;
use super::servers::Servers;
use crate::secret::Secret;
use svc_core::error::ErrorKind;

fn servers() -> Servers {
    Servers::new(&[("eu".into(), "http://127.0.0.1:9001".into())]).unwrap()
}

#[test]
fn the_consent_url_asks_for_offline_access_and_consent() {
    let url = authorize::url(
        "https://accounts.svc.com",
        "1000.C",
        &[
            "SvcBooks.invoices.READ".into(),
            "SvcBooks.contacts.ALL".into(),
        ],
        "https://app.example.com/cb?x=1",
        "st",
    );
    assert_eq!(
        url,
        "https://accounts.svc.com/oauth/v2/auth?response_type=code&client_id=1000.C&scope=SvcBooks.invoices.READ%2CSvcBooks.contacts.ALL&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb%3Fx%3D1&access_type=offline&prompt=consent&state=st"
    );
}

#[test]
fn a_state_is_43_url_safe_characters_and_its_key_is_a_hash() {
    let s = authorize::state(&[7; 32]);
    assert_eq!(s.len(), 43);
    assert!(s
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    assert!(!super::state_key(&s).contains(&s));
    assert_ne!(
        super::state_key(&s),
        super::state_key(&authorize::state(&[8; 32]))
    );
}

#[test]
fn scopes_come_from_operations_or_are_given() {
    let ops = ["listInvoices".to_string(), "createContact".to_string()];
    let s = authorize::scopes(Some(&ops), None).unwrap();
    assert!(s.len() == 2 && s.iter().all(|x| x.starts_with("Svc")));
    assert_eq!(
        authorize::scopes(None, None).unwrap_err().kind(),
        ErrorKind::Config
    );
    let bad = ["nope".to_string()];
    assert!(authorize::scopes(Some(&bad), None)
        .unwrap_err()
        .message
        .contains("unknown operation"));
    let given = ["a b".to_string()];
    assert!(authorize::scopes(None, Some(&given)).is_err());
}

#[test]
fn a_pending_state_round_trips_and_a_lying_store_reads_as_none() {
    let p = Pending::new("c-1", vec!["S.a.READ".into()], "us", 1_000);
    assert_eq!(p.expires_at, 601_000);
    assert_eq!(Pending::from_json(&p.to_json()), Some(p));
    assert_eq!(Pending::from_json("{\"connectionId\":1}"), None);
    assert_eq!(Pending::from_json("not json"), None);
}

#[test]
fn a_redirect_names_its_code_and_data_center() {
    let r = Redirect::parse("https://app/cb?code=1000.abc&location=eu&accounts-server=http%3A%2F%2F127.0.0.1%3A9001&state=s1").unwrap();
    assert_eq!(r.code, Some(Secret::from("1000.abc")));
    assert_eq!(
        r.accounts(&servers(), "us").unwrap(),
        ("eu", "http://127.0.0.1:9001")
    );
    let none = Redirect::parse("?code=c&state=s1").unwrap();
    assert_eq!(
        none.accounts(&servers(), "us").unwrap(),
        ("us", "https://accounts.svc.com")
    );
    let declined = Redirect::parse("?error=access_denied&state=s1").unwrap();
    assert_eq!(declined.error.as_deref(), Some("access_denied"));
}

#[test]
fn a_foreign_accounts_server_or_no_state_is_verification() {
    let r = Redirect::parse("?code=c&state=s&accounts-server=https%3A%2F%2Fevil.example").unwrap();
    let e = r.accounts(&servers(), "us").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Verification);
    assert!(!e.message.contains("evil"));
    assert_eq!(
        Redirect::parse("?code=c").unwrap_err().kind(),
        ErrorKind::Verification
    );
    let lookalike = Redirect::parse(
        "?code=c&state=s&accounts-server=https%3A%2F%2Faccounts.svc.com.evil.example",
    )
    .unwrap();
    assert!(lookalike.accounts(&servers(), "us").is_err());
}

#[test]
fn an_override_must_name_a_region() {
    let e = Servers::new(&[("mars".into(), "https://x".into())]).unwrap_err();
    assert!(e.message.contains("not a region"));
}

#[test]
fn a_seal_opens_only_with_its_key_and_connection() {
    let key = Sealer::from_base64("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=").unwrap();
    let secret = Secret::from("1000.refresh.token");
    let a = key.seal("c-1", &secret, [1; 12]);
    let b = key.seal("c-1", &secret, [2; 12]);
    assert_ne!(a, b, "a fresh nonce per seal");
    assert!(!a.contains("refresh"));
    assert_eq!(key.open("c-1", &a).unwrap(), secret);
    let moved = key.open("c-2", &a).unwrap_err();
    assert!(moved.message.contains("another connection"));
    let other = Sealer::from_bytes(&[9; 32]).unwrap();
    assert!(other.open("c-1", &a).is_err());
    let mut tampered = a.clone();
    tampered.pop();
    assert!(key.open("c-1", &tampered).is_err());
    assert!(Sealer::from_base64("c2hvcnQ=")
        .unwrap_err()
        .message
        .contains("32 bytes"));
    assert_eq!(format!("{key:?}"), "Sealer(<redacted>)");
}

#[test]
fn a_record_round_trips_and_shows_no_token() {
    let r = Record {
        connection_id: "c-1".into(),
        region: "eu".into(),
        accounts_url: "https://accounts.svc.eu".into(),
        api_domain: Some("https://www.svcapis.eu".into()),
        scopes: vec!["S.a.READ".into()],
        status: Status::Reauthorize,
        connected_at: 5,
        sealed: "v1.sealed".into(),
    };
    assert_eq!(Record::from_json(&r.to_json()), Some(r.clone()));
    assert!(!r.public_json().contains("v1.sealed"));
    assert!(r.public_json().contains("\"status\":\"reauthorize\""));
    assert_eq!(Record::from_json("{}"), None);
}

#[test]
fn a_device_code_and_its_polls_are_read() {
    let body = br#"{"device_code":"dc","user_code":"ABCD-EFGH","verification_url":"https://accounts.svc.com/oauth/v3/device","expires_in":300,"interval":5}"#;
    let c = device::read_code(200, body, 0).unwrap();
    assert_eq!(
        (c.user_code.as_str(), c.expires_at, c.interval_ms),
        ("ABCD-EFGH", 300_000, 5_000)
    );
    assert_eq!(
        device::read_poll(200, br#"{"error":"authorization_pending"}"#, 0).unwrap(),
        Poll::Pending
    );
    assert_eq!(
        device::read_poll(200, br#"{"error":"slow_down"}"#, 0).unwrap(),
        Poll::SlowDown
    );
    let other = device::read_poll(
        200,
        br#"{"error":"other_dc","accounts-server":"https://accounts.svc.eu"}"#,
        0,
    )
    .unwrap();
    assert!(matches!(
        other,
        Poll::OtherDc {
            accounts_server: Some(_),
            ..
        }
    ));
    let granted = device::read_poll(
        200,
        br#"{"access_token":"1000.access","refresh_token":"r","expires_in":3600}"#,
        0,
    )
    .unwrap();
    assert!(matches!(granted, Poll::Granted(g) if g.refresh_token == Some("r".into())));
    let no_refresh = device::read_poll(200, br#"{"access_token":"1000.access"}"#, 0).unwrap_err();
    assert!(no_refresh.message.contains("prompt=consent"));
    assert_eq!(
        device::read_poll(200, br#"{"error":"access_denied"}"#, 0)
            .unwrap_err()
            .kind(),
        ErrorKind::Unauthorized
    );
}
