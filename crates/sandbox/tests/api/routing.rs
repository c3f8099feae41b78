//! Routes come from the catalog: every row reaches its operation; unknown paths and methods are refused.

use crate::client::{expect, Sandbox};
use serde_json::json;
use svc_core::catalog::operations;

#[test]
fn every_catalog_row_reaches_its_operation() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    for op in operations().iter().filter(|op| op.routed) {
        let path = op
            .path
            .split('/')
            .map(|seg| match seg {
                // A custom module's name starts with `cm_`; any other first segment is no route.
                "{module_name}" => "cm_x1",
                _ if seg.starts_with('{') => "x1",
                _ => seg,
            })
            .collect::<Vec<_>>()
            .join("/");
        let body = op.method.has_body().then(|| json!({}));
        let r = s.call(op.family.name(), op.method.as_str(), &path, body);
        let code = r.json()["code"].as_i64();
        assert!(
            code != Some(1404) && r.status != 405,
            "{}: {} {:?}",
            op.id,
            r.status,
            code
        );
    }
    let counters = s.counters();
    for op in operations() {
        let received = u64::from(op.routed);
        assert_eq!(
            counters["operations"][op.id]["received"]
                .as_u64()
                .unwrap_or(0),
            received,
            "{}",
            op.id
        );
    }
}

#[test]
fn unknown_paths_are_404_and_wrong_methods_405_with_the_envelope() {
    let s = Sandbox::start(&[]);
    let r = s.call("books", "GET", "/nothing/here/at/all", None);
    let v = expect(&r, 404, 1404);
    assert!(v["message"]
        .as_str()
        .unwrap()
        .contains("/books/v3/nothing/here/at/all"));
    let r = s.call("books", "PATCH", "/fixedassettypes/1/x", None);
    expect(&r, 404, 1404);
    let r = s.call("books", "PATCH", "/settings/taxes/1", None);
    expect(&r, 405, 1405);
    assert_eq!(r.header("allow"), Some("DELETE, GET, PUT"));
    expect(&s.raw("GET", "/", &[], b""), 404, 1404);
    expect(&s.raw("GET", "/__sandbox/nothing", &[], b""), 404, 1404);
}

#[test]
fn cors_preflights_and_exposed_headers() {
    let s = Sandbox::start(&["--cors", "http://localhost:5173"]);
    let preflight = [
        ("Origin", "http://localhost:5173"),
        ("Access-Control-Request-Method", "POST"),
        (
            "Access-Control-Request-Headers",
            "authorization, content-type, x-com-svc-invoice-organizationid",
        ),
    ];
    let r = s.raw("OPTIONS", "/invoice/v3/projects", &preflight, b"");
    assert_eq!(r.status, 204);
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
    assert!(r
        .header("access-control-allow-methods")
        .unwrap()
        .contains("PATCH"));
    assert!(r
        .header("access-control-allow-headers")
        .unwrap()
        .contains("x-com-svc-invoice-organizationid"));

    let (target, _) = s.target("books", "/organizations");
    let r = s.raw(
        "GET",
        &target,
        &[
            ("Origin", "http://localhost:5173"),
            ("Authorization", "Svc-oauthtoken dev-token"),
        ],
        b"",
    );
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
    let exposed = r.header("access-control-expose-headers").unwrap();
    for h in [
        "X-Rate-Limit-Limit",
        "X-Rate-Limit-Remaining",
        "X-Rate-Limit-Reset",
        "Retry-After",
    ] {
        assert!(exposed.contains(h), "{exposed}");
    }
    let r = s.raw(
        "OPTIONS",
        "/invoice/v3/projects",
        &[
            ("Origin", "http://evil.test"),
            ("Access-Control-Request-Method", "GET"),
        ],
        b"",
    );
    assert_eq!(r.status, 204);
    assert!(r.header("access-control-allow-origin").is_none());
}

#[test]
fn counters_count_per_operation_and_method_and_reset() {
    let s = Sandbox::start(&[]);
    s.call("billing", "GET", "/plans", None);
    s.call("billing", "GET", "/plans?filter_by=Bogus", None);
    s.call(
        "billing",
        "POST",
        "/plans",
        Some(json!({"plan_code": "c1", "name": "C"})),
    );
    let c = s.counters();
    assert_eq!(c["operations"]["listPlans"]["received"], 2);
    assert_eq!(c["operations"]["listPlans"]["applied"], 1);
    assert_eq!(
        c["operations"]["listPlans"]["statuses"],
        json!({"200": 1, "400": 1})
    );
    assert_eq!(c["operations"]["createPlan"]["applied"], 1);
    assert_eq!(c["methods"]["GET"]["received"], 2);
    assert_eq!(c["methods"]["POST"]["statuses"]["201"], 1);
    assert_eq!(c["peak_in_flight"][s.org()], 1);
    assert_eq!(c["in_flight"][s.org()], 0);
    assert_eq!(
        s.raw("POST", "/__sandbox/reset-counters", &[], b"").status,
        200
    );
    assert_eq!(s.counters()["operations"], json!({}));
    assert_eq!(
        s.raw("GET", "/__sandbox/reset-counters", &[], b"").status,
        405
    );
}
