//! Tests of request building: URLs, placement, bodies, raw calls, the token and added headers.

use super::*;
use crate::catalog::find;
use crate::catalog::Method;
use crate::family::Family;
use crate::family::OrgPlacement;
use serde_json::json;
use serde_json::Map;

fn target(org: Option<&str>) -> Target {
    Target::new(Some("eu"), None, org, None).unwrap()
}

#[test]
fn path_parameters_can_never_change_the_path() {
    let op = find("getTask").unwrap();
    for (id, enc) in [
        ("../x", "..%2Fx"),
        ("a/b?c#d", "a%2Fb%3Fc%23d"),
        ("...", "..."),
        ("%2e%2e", "%252e%252e"),
        ("100%", "100%25"),
        ("é", "%C3%A9"),
        ("a\r\nb", "a%0D%0Ab"),
    ] {
        let p = build(op, &target(Some("1")), &["p", id], &json!({})).unwrap();
        assert_eq!(
            p.url,
            format!("https://www.svcapis.eu/billing/v1/projects/p/tasks/{enc}")
        );
    }
}

#[test]
fn dot_segments_are_refused() {
    for dots in [".", ".."] {
        let e = build(
            find("getTask").unwrap(),
            &target(Some("1")),
            &["p", dots],
            &json!({}),
        )
        .unwrap_err();
        assert_eq!(e.issues()[0].code(), crate::issue::IssueCode::InvalidFormat);
        assert_eq!(e.issues()[0].path_string(), "task_id");
    }
}

/// A header as the options give it.
fn pair(k: &str, v: &str) -> (String, String) {
    (k.to_string(), v.to_string())
}

/// Every family's organization header, in any case, whichever family the call is of, is refused.
fn org_headers_are_refused() {
    let org_headers: Vec<&str> = Family::ALL
        .iter()
        .filter_map(|f| match f.org_placement() {
            OrgPlacement::Header(h) => Some(h),
            _ => None,
        })
        .collect();
    assert_eq!(org_headers.len(), 2);
    for name in org_headers {
        for name in [
            name.to_string(),
            name.to_ascii_lowercase(),
            name.to_ascii_uppercase(),
        ] {
            let e = extra_headers(&[pair("X-Trace-Id", "1"), pair(&name, "2")]).unwrap_err();
            assert_eq!(e.kind(), crate::error::ErrorKind::Config);
            assert!(e.message.contains("is set by the client"), "{name}");
        }
    }
}

/// The forbidden request headers, and a method override naming a method fetch refuses, are refused.
fn forbidden_headers_are_refused() {
    for name in [
        "Transfer-Encoding",
        "upgrade",
        "EXPECT",
        "content-length",
        "Host",
        "connection",
        "keep-alive",
        "te",
        "trailer",
        "cookie",
        "Cookie2",
        "set-cookie",
        "origin",
        "referer",
        "date",
        "dnt",
        "via",
        "accept-charset",
        "accept-encoding",
        "access-control-request-headers",
        "access-control-request-method",
        "Proxy-Authorization",
        "proxy-x",
        "Sec-Fetch-Mode",
        "sec-x",
    ] {
        let e = extra_headers(&[pair("X-Trace-Id", "1"), pair(name, "1")]).unwrap_err();
        assert_eq!(e.kind(), crate::error::ErrorKind::Config);
        assert!(e.message.contains(&format!("\"{name}\"")), "{}", e.message);
        assert!(e.message.contains("forbidden request header"), "{name}");
    }
    for (name, value) in [
        ("X-HTTP-Method", "TRACE"),
        ("x-http-method-override", "get, connect"),
        ("X-Method-Override", "track"),
    ] {
        assert!(
            extra_headers(&[pair(name, value)]).is_err(),
            "{name}: {value}"
        );
        assert!(extra_headers(&[pair(name, "PATCH")]).is_ok(), "{name}");
    }
}

#[test]
fn extra_headers_are_checked_and_merged() {
    assert!(extra_headers(&[pair("X-Trace-Id", "abc 123"), pair("Idempotency-Key", "k")]).is_ok());
    for (bad, why) in [
        (pair("authorization", "x"), "is set by the client"),
        (pair("AUTHORIZATION", "x"), "is set by the client"),
        (pair("X-Bad Name", "1"), "is not a header name"),
        (pair("", "1"), "is not a header name"),
        (pair("X-A", "a\r\nInjected: 1"), "printable ASCII"),
        (pair("X-A", "é"), "printable ASCII"),
        (pair("X-A:", "1"), "is not a header name"),
        (pair("X-Ä", "1"), "is not a header name"),
    ] {
        let e = extra_headers(std::slice::from_ref(&bad)).unwrap_err();
        assert!(e.message.contains(why), "{bad:?}: {}", e.message);
    }
    org_headers_are_refused();
    forbidden_headers_are_refused();
    for fine in [
        "X-Host",
        "Hosts",
        "Proxy",
        "Secret",
        "Content-Language",
        "Idempotency-Key",
    ] {
        assert!(extra_headers(&[pair(fine, "1")]).is_ok(), "{fine}");
    }
    let mut headers = vec![pair("Accept", "application/json"), pair("X-A", "1")];
    merge_headers(
        &mut headers,
        &[pair("accept", "text/csv"), pair("X-B", "2")],
    );
    assert_eq!(
        headers,
        [
            pair("X-A", "1"),
            pair("accept", "text/csv"),
            pair("X-B", "2")
        ]
    );
}

#[test]
fn header_values_with_line_breaks_are_refused() {
    let op = find("updateExpenseByUniqueField").unwrap();
    for bad in ["a\r\nX-Evil: 1", "a\nb", "a\rb"] {
        let e = build(
            op,
            &target(Some("1")),
            &[],
            &json!({"x_unique_identifier_value": bad}),
        )
        .unwrap_err();
        assert_eq!(e.kind(), crate::error::ErrorKind::Validation);
        assert_eq!(e.issues()[0].path_string(), "x_unique_identifier_value");
    }
    assert!(Target::new(None, None, Some("1\r\nX: y"), None).is_err());
    assert!(authorization("tok\r\nX: y").is_err());
    assert!(!format!("{:?}", authorization("s3cr3t\nx").unwrap_err()).contains("s3cr3t"));
}

#[test]
fn a_token_too_short_or_too_long_is_refused_in_words_of_its_length() {
    let refused = |t: &str| authorization(t).unwrap_err();
    let e = refused("t");
    assert_eq!(e.kind(), crate::error::ErrorKind::Config);
    assert_eq!(
        e.message,
        "the access token is 1 character long, too short to be a token the service issued \
         (one has at least 8): is it a placeholder?"
    );
    assert!(refused("1234567")
        .message
        .contains("is 7 characters long, too short"));
    assert!(authorization("dev-token").is_ok());
    assert!(authorization(&"x".repeat(TOKEN_MIN)).is_ok());
    assert!(authorization(&"x".repeat(TOKEN_MAX)).is_ok());
    assert_eq!(
        refused(&"x".repeat(20_000)).message,
        "the access token is 20000 characters long, more than the 16384 a request header can carry to the service"
    );
}

#[test]
fn the_organization_is_required_where_the_family_sends_it() {
    let e = build(find("listPlans").unwrap(), &target(None), &[], &json!({})).unwrap_err();
    assert_eq!(e.kind(), crate::error::ErrorKind::Config);
    assert!(
        e.message.contains("organizationId is required"),
        "{}",
        e.message
    );
    assert!(build(
        find("createOrganization").unwrap(),
        &target(None),
        &[],
        &json!({})
    )
    .is_ok());
    assert!(build(
        find("updateNotificationChannels").unwrap(),
        &target(None),
        &[],
        &json!({})
    )
    .is_ok());
}

#[test]
fn behind_a_proxy_the_organization_is_left_to_it() {
    let mut t = Target::new(None, Some("http://127.0.0.1:9000/api"), None, None).unwrap();
    t.via_proxy = true;
    let p = build(find("listPlans").unwrap(), &t, &[], &json!({})).unwrap();
    assert_eq!(p.url, "http://127.0.0.1:9000/api/billing/v1/plans");
    assert!(p.headers.iter().all(|(n, _)| !n.starts_with("X-com-svc")));
}

#[test]
fn wrong_path_parameter_counts_are_config_errors() {
    let e = build(
        find("getTask").unwrap(),
        &target(Some("1")),
        &["p"],
        &json!({}),
    )
    .unwrap_err();
    assert!(
        e.message
            .contains("takes 2 path parameter(s) (project_id, task_id), got 1"),
        "{}",
        e.message
    );
    let e = build(
        find("getTask").unwrap(),
        &target(Some("1")),
        &["", "t"],
        &json!({}),
    )
    .unwrap_err();
    assert_eq!(e.issues()[0].code(), crate::issue::IssueCode::Required);
}

#[test]
fn query_values_are_encoded_and_objects_refused() {
    let op = find("listProjects").unwrap();
    let p = build(
        op,
        &target(Some("1")),
        &[],
        &json!({"customer_id": "a&b=c", "page": 2, "x": true, "y": null}),
    )
    .unwrap();
    assert!(
        p.url
            .ends_with("/projects?customer_id=a%26b%3Dc&page=2&x=true"),
        "{}",
        p.url
    );
    let e = build(op, &target(Some("1")), &[], &json!({"filter_by": {"a": 1}})).unwrap_err();
    assert_eq!(e.issues()[0].code(), crate::issue::IssueCode::InvalidType);
}

#[test]
fn crm_version_and_raw_requests() {
    let t = Target::new(None, Some("http://127.0.0.1:8787/"), None, Some("v9")).unwrap();
    let p = build(
        find("updateNotificationChannels").unwrap(),
        &t,
        &[],
        &json!({"watch": []}),
    )
    .unwrap();
    assert_eq!(p.url, "http://127.0.0.1:8787/crm/v9/actions/watch");
    assert!(Target::new(None, None, None, Some("../v8")).is_err());
    let t = target(Some("42"));
    let p = build_raw(
        Method::Delete,
        Family::Invoice,
        "/projects/1",
        &t,
        &Map::new(),
        None,
    )
    .unwrap();
    assert_eq!(p.url, "https://www.svcapis.eu/invoice/v3/projects/1");
    assert!(p
        .headers
        .contains(&("X-com-svc-invoice-organizationid".into(), "42".into())));
    assert!(build_raw(Method::Get, Family::Books, "/a/../b", &t, &Map::new(), None).is_err());
    assert!(build_raw(Method::Get, Family::Books, "/a?b", &t, &Map::new(), None).is_err());
    let p = build_raw(
        Method::Get,
        Family::Books,
        "/journals",
        &t,
        &Map::new(),
        None,
    )
    .unwrap();
    assert_eq!(
        p.url,
        "https://www.svcapis.eu/books/v3/journals?organization_id=42"
    );
}

/// Every byte but A-Z a-z 0-9 - . _ ~ is escaped, in upper-case hex, each byte of a character.
#[test]
fn the_escaped_set_is_everything_but_unreserved() {
    for c in (0u8..=0x7f).map(char::from).chain(['é', '€', '😀']) {
        let mut got = String::new();
        percent_encode(c.encode_utf8(&mut [0; 4]), &mut got);
        let unreserved = c.is_ascii_alphanumeric() || "-._~".contains(c);
        let want = if unreserved {
            c.to_string()
        } else {
            c.to_string().bytes().map(|b| format!("%{b:02X}")).collect()
        };
        assert_eq!(got, want, "{c:?}");
    }
}

#[test]
fn malformed_escapes_are_refused() {
    for bad in ["%", "%4", "%zz", "%+f", "a%-1", "%ff", "%C3"] {
        assert_eq!(percent_decode(bad, true), None, "{bad}");
    }
    assert_eq!(percent_decode("a+b%2B%20", true).as_deref(), Some("a b+ "));
    assert_eq!(percent_decode("a+b", false).as_deref(), Some("a+b"));
    assert_eq!(
        percent_decode("%C3%A9%e2%82%ac", false).as_deref(),
        Some("é€")
    );
}
