//! Security properties of the pure core: the token stays out of errors, no header value can carry
//! a line break, path values cannot change the path, plain http only for loopback hosts, and the
//! webhook token refused however near it comes.

use serde_json::{json, Value};
use svc_core::catalog::{find, operations, Method};
use svc_core::family::Family;
use svc_core::request::{authorization, build, build_raw, percent_encode, Target};
use svc_core::route::{Found, Router};
use svc_sdk::webhook::watch_notification_text;
use svc_sdk::ErrorKind;

const SECRET: &str = "s3cr3t-7f3a9c1e";

fn target() -> Target {
    Target::new(Some("eu"), None, Some("10234695"), None).unwrap()
}

/// Everything an error shows: Display, Debug and the JSON the JS `SvcError` is made from.
fn shown(e: &svc_sdk::Error) -> String {
    format!("{e} {e:?} {}", e.to_json())
}

#[test]
fn the_token_never_reaches_an_error() {
    for bad in [
        "\r\n",
        "\n",
        "\r",
        "\0",
        "\t",
        "\u{7f}",
        "\u{85}",
        "\r\nX-Evil: 1",
    ] {
        for token in [format!("{SECRET}{bad}"), format!("{bad}{SECRET}")] {
            let e = authorization(&token).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Config);
            assert!(!shown(&e).contains(SECRET), "{:?}", shown(&e));
        }
    }
    let e = authorization("").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Config);
    // A good token goes into the Authorization header value and nowhere else.
    assert_eq!(
        authorization(SECRET).unwrap(),
        format!("Svc-oauthtoken {SECRET}")
    );
}

#[test]
fn webhook_errors_name_neither_token() {
    let body = |token: &str| {
        format!(
            r#"{{"module":"Deals","operation":"update","channel_id":1000000068001,"token":"{token}"}}"#
        )
    };
    let given = "given-0a1b2c3d4e";
    let e = watch_notification_text(&body(given), Some(SECRET)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Verification);
    assert!(!shown(&e).contains(SECRET) && !shown(&e).contains(given));
    let e = watch_notification_text(r#"{"module":1}"#, Some(SECRET)).unwrap_err();
    assert!(!shown(&e).contains(SECRET));
    assert!(watch_notification_text(&body(SECRET), Some(SECRET)).is_ok());
}

#[test]
fn header_values_with_line_breaks_are_refused() {
    for bad in ["\r", "\n", "\r\n", "\0"] {
        let value = format!("v{bad}X-Evil: 1");
        assert!(authorization(&value).is_err(), "token {value:?}");
        let e = Target::new(None, None, Some(&value), None).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Config);
        let op = find("updateExpenseByUniqueField").unwrap();
        for param in ["x_unique_identifier_key", "x_unique_identifier_value"] {
            let e = build(op, &target(), &[], &json!({ param: value, "amount": 1 })).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Validation, "{param} {value:?}");
            assert_eq!(e.issues()[0].path_string(), param);
        }
        let e = build(op, &target(), &[], &json!({ "x_upsert": value })).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Validation);
    }
    // Every header of every operation's request, for params that pass, is free of line breaks.
    let op = find("updateExpenseByUniqueField").unwrap();
    let p = build(
        op,
        &target(),
        &[],
        &json!({"x_unique_identifier_key": "cf_k", "x_unique_identifier_value": "a b", "x_upsert": true}),
    )
    .unwrap();
    assert!(p
        .headers
        .contains(&("X-Unique-Identifier-Value".into(), "a b".into())));
    let invoice = Target::new(None, None, Some("1"), None).unwrap();
    for op in operations() {
        let path: Vec<&str> = op.path_params().map(|_| "1").collect();
        if let Ok(p) = build(op, &invoice, &path, &Value::Null) {
            for (k, v) in &p.headers {
                assert!(!k.contains(['\r', '\n']) && !v.contains(['\r', '\n', '\0']));
            }
        }
    }
}

const NASTY: &[&str] = &[
    "a/b",
    "../x",
    "../../admin",
    "...",
    "?q=1",
    "#frag",
    "%",
    "%2F",
    "%2e%2e",
    ".%2e",
    "a\r\nb",
    "\\..\\x",
    "é/😀",
    ";x=1",
    " ",
    "a b+c&d=e",
    "//",
];

#[test]
fn path_values_cannot_change_the_path() {
    let router = Router::new(operations().iter()).unwrap();
    let mut checked = 0;
    for op in operations().iter().filter(|op| op.path_param_count() > 0) {
        let n = op.path_param_count();
        for nasty in NASTY {
            for at in 0..n {
                let values: Vec<&str> = (0..n).map(|i| if i == at { nasty } else { "1" }).collect();
                let p = build(op, &target(), &values, &Value::Null)
                    .unwrap_or_else(|e| panic!("{} {nasty:?}: {e:?}", op.id));
                let root = format!("https://www.svcapis.eu{}", op.family.root("v8"));
                let path = p.url.strip_prefix(&root).unwrap();
                let path = path.split('?').next().unwrap();
                // The template, with each value as exactly one encoded segment.
                let mut expected = String::new();
                let mut it = values.iter();
                for seg in op.path.split('/').skip(1) {
                    expected.push('/');
                    if seg.starts_with('{') {
                        percent_encode(it.next().unwrap(), &mut expected);
                    } else {
                        expected.push_str(seg);
                    }
                }
                assert_eq!(path, expected, "{} {nasty:?}", op.id);
                for c in ['#', '\r', '\n', ' ', '\\'] {
                    assert!(!p.url.contains(c), "{}", p.url);
                }
                // What the server receives routes back to the same operation and values.
                let full = format!("{}{path}", op.family.root("v8"));
                match router.find(op.method.as_str(), &full) {
                    Found::Op(found, got) => {
                        // A row whose route an earlier row holds is routed to that row.
                        assert!(found.id == op.id || !op.routed, "{}", op.id);
                        assert_eq!(found.method, op.method);
                        let got: Vec<&str> = got.iter().map(|(_, v)| v.as_str()).collect();
                        assert_eq!(got, values, "{full}");
                    }
                    other => panic!("{full}: {other:?}"),
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "{checked}");
    // `.` and `..` alone are dot segments whatever encoding is applied: refused.
    for dots in [".", ".."] {
        let e = build(
            find("getTask").unwrap(),
            &target(),
            &["p", dots],
            &Value::Null,
        )
        .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Validation);
    }
}

#[test]
fn raw_paths_may_not_climb_out_of_the_family_root() {
    let t = target();
    let q = serde_json::Map::new();
    for bad in [
        "/.",
        "/..",
        "/a/../b",
        "/%2e",
        "/%2E%2e/%2e%2E/billing/v1/plans",
        "/.%2e/x",
        "/x/%2e./y",
        "/a?b",
        "/a#b",
        "a",
        "/a\r\nb",
    ] {
        assert!(
            build_raw(Method::Get, Family::Books, bad, &t, &q, None).is_err(),
            "{bad:?} was let through"
        );
    }
    for ok in ["/...", "/a%2eb", "/%2e%2e%2e", "/a.b/c"] {
        let p = build_raw(Method::Get, Family::Books, ok, &t, &q, None).unwrap();
        assert!(p.url.starts_with("https://www.svcapis.eu/books/v3/"));
    }
}

#[test]
fn plain_http_only_for_loopback_hosts() {
    for bad in [
        "http://example.com",
        "HTTP://EXAMPLE.COM",
        "http://10.0.0.1:8787",
        "http://192.168.1.2",
        "http://127.0.0.1.evil.com",
        "http://localhost.evil.com",
        "http://[::2]",
        "http://0.0.0.0",
        "http://127.1",
        "http://evil.com#@127.0.0.1",
        "http://127.0.0.1@evil.com",
        "http://evil.com\\@127.0.0.1",
        "ws://127.0.0.1",
        "//127.0.0.1",
    ] {
        let e = Target::new(None, Some(bad), Some("1"), None).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Config, "{bad}");
    }
    for ok in [
        "http://127.0.0.1:8787",
        "http://127.255.0.9",
        "http://localhost:3000/api",
        "http://LOCALHOST",
        "http://app.localhost",
        "http://[::1]:9",
        "https://example.com",
        "https://www.svcapis.eu/",
    ] {
        assert!(Target::new(None, Some(ok), Some("1"), None).is_ok(), "{ok}");
    }
}

/// The webhook token is compared by `subtle` (`webhook::tests` checks the compare by property): a
/// token wrong anywhere, or longer or shorter, is refused through the notification path.
#[test]
fn the_webhook_token_check_refuses_every_near_miss() {
    let body = |t: &str| {
        format!(r#"{{"module":"Deals","operation":"update","channel_id":1,"token":"{t}"}}"#)
    };
    for wrong in [
        "x3cr3t-7f3a9c1e",
        "s3cr3t-7f3a9c1x",
        "s3cr3t-7f3a9c1",
        "s3cr3t-7f3a9c1ee",
    ] {
        let e = watch_notification_text(&body(wrong), Some(SECRET)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Verification, "{wrong}");
    }
}

/// Issue 46, item 4: the warning of fields an operation does not know quotes each name so that it
/// shows as what it is: bidirectional and other hidden characters as escapes, a long name cut.
#[test]
fn an_unknown_fields_name_cannot_turn_or_flood_the_warning() {
    use svc_sdk::send::note::{Event, Level, Note};
    let names = [
        "amount\u{202e}\u{2066}gnp.exe".to_string(),
        "x".repeat(10_000),
        "zero\u{200b}width\u{feff}\u{7f}".to_string(),
    ];
    let note = Note {
        operation: Some("listAccounts"),
        method: Method::Get,
        url: "https://h/books/v3/chartofaccounts?organization_id=1",
        attempt: 0,
        event: Event::UnknownFields { names: &names },
        secret: None,
    };
    let (_, line) = note.line(Some(Level::Warn)).unwrap();
    let shown = line.split_once("field?): ").unwrap().1;
    assert_eq!(
        shown,
        format!(
            r#""amount\u202e\u2066gnp.exe", "{}…", "zero\u200bwidth\ufeff\u007f""#,
            "x".repeat(64)
        )
    );
    assert!(!line.chars().any(svc_core::echo::hidden), "{line:?}");
}
