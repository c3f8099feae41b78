//! Every row's sample call (`crate::examples`) built and checked against the row, and the builder's
//! edge cases (escaping, ids beyond 2^53, params moved to the query or to headers) by hand.

use crate::catalog::*;
use crate::family::Family;
use crate::request::{build, Body, Target};

enum Expect {
    NoBody,
    Json(&'static str),
    Multipart(&'static str),
}

fn check(id: &str, path: &[&str], params: &str, url: &str, headers: &[(&str, &str)], body: Expect) {
    let op = find(id).expect("row exists");
    let target = Target::new(None, None, Some("ORG"), None).unwrap();
    let params: serde_json::Value = serde_json::from_str(params).unwrap();
    assert_eq!(
        crate::validate::validate(op, &params),
        vec![],
        "{id}: the sample is valid"
    );
    let p = build(op, &target, path, &params).unwrap();
    assert_eq!(p.method, op.method);
    assert_eq!(p.url, format!("https://www.svcapis.com{url}"));
    for (name, value) in headers {
        assert!(
            p.headers.iter().any(|(n, v)| n == name && v == value),
            "{id}: header {name}: {value} missing in {:?}",
            p.headers
        );
    }
    let org_headers = p
        .headers
        .iter()
        .filter(|(n, _)| n.starts_with("X-com-svc"))
        .count();
    assert_eq!(
        org_headers,
        headers
            .iter()
            .filter(|(n, _)| n.starts_with("X-com-svc"))
            .count(),
        "{id}"
    );
    match (body, &p.body) {
        (Expect::NoBody, Body::None) => {}
        (Expect::Json(expected), Body::Json(text)) => {
            let got: serde_json::Value = serde_json::from_str(text).unwrap();
            let want: serde_json::Value = serde_json::from_str(expected).unwrap();
            assert_eq!(got, want, "{id}");
            assert!(p
                .headers
                .iter()
                .any(|(n, v)| n == "Content-Type" && v == "application/json"));
        }
        (Expect::Multipart(field), Body::Multipart { field: got }) => assert_eq!(field, *got),
        (_, other) => panic!("{id}: unexpected body {other:?}"),
    }
}

/// The family's root below the API domain, and where its organization id goes: spelled out here
/// rather than read from `Family`, as an independent check of the builder.
fn family_shape(op: &Operation) -> (&'static str, Option<&'static str>) {
    match op.family {
        Family::Books => ("/books/v3", None),
        Family::Inventory => ("/inventory/v1", None),
        Family::Invoice => ("/invoice/v3", Some("X-com-svc-invoice-organizationid")),
        Family::Billing => (
            "/billing/v1",
            Some("X-com-svc-subscriptions-organizationid"),
        ),
        Family::Crm => ("/crm/v8", None),
    }
}

fn escaped(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn every_row_builds_its_sample_call() {
    let target = Target::new(None, None, Some("ORG"), None).unwrap();
    for op in operations() {
        let sample = crate::examples::sample(op);
        let path: Vec<&str> = sample.path.iter().map(String::as_str).collect();
        let p = build(op, &target, &path, &sample.params)
            .unwrap_or_else(|e| panic!("{}: {e:?}", op.id));
        assert_eq!(p.method, op.method, "{}", op.id);
        let (root, org_header) = family_shape(op);
        let mut values = sample.path.iter();
        let want_path: String = op
            .path
            .split('/')
            .map(|seg| match seg.starts_with('{') {
                true => escaped(values.next().unwrap()),
                false => seg.to_string(),
            })
            .collect::<Vec<_>>()
            .join("/");
        let url = p.url.strip_prefix("https://www.svcapis.com").unwrap();
        let (got_path, query) = url.split_once('?').unwrap_or((url, ""));
        assert_eq!(got_path, format!("{root}{want_path}"), "{}", op.id);
        let query = crate::request::parse_query(query).unwrap();
        let in_query = |k: &str| query.iter().any(|(n, _)| n == k);
        let org_in_query = op.org && org_header.is_none() && op.family != Family::Crm;
        assert_eq!(in_query("organization_id"), org_in_query, "{}", op.id);
        let org_headers: Vec<_> = p
            .headers
            .iter()
            .filter(|(n, _)| n.starts_with("X-com-svc"))
            .collect();
        match org_header.filter(|_| op.org) {
            Some(name) => assert_eq!(
                org_headers,
                [&(name.to_string(), "ORG".to_string())],
                "{}",
                op.id
            ),
            None => assert!(org_headers.is_empty(), "{}", op.id),
        }
        let params = sample.params.as_object().unwrap();
        for (param, header) in op.headers {
            if let Some(v) = params.get(*param) {
                let v = v.as_str().map_or_else(|| v.to_string(), String::from);
                assert!(
                    p.headers.iter().any(|(n, got)| n == header && *got == v),
                    "{}: {header}",
                    op.id
                );
            }
        }
        match (op.body, &p.body) {
            (crate::catalog::BodyKind::Query, Body::None) => {
                for (key, v) in params {
                    assert!(
                        v.is_null() || in_query(key),
                        "{}: {key} is not in {url}",
                        op.id
                    );
                }
            }
            (crate::catalog::BodyKind::Json, Body::Json(text)) => {
                let mut want = params.clone();
                for moved in op.headers.iter().map(|(p, _)| p) {
                    want.remove(*moved);
                }
                for moved in op.query {
                    if want.remove(*moved).is_some_and(|v| !v.is_null()) {
                        assert!(in_query(moved), "{}: {moved} is not in {url}", op.id);
                    }
                }
                let got: serde_json::Value = serde_json::from_str(text).unwrap();
                assert_eq!(got, serde_json::Value::Object(want), "{}", op.id);
            }
            (crate::catalog::BodyKind::Multipart { field, .. }, Body::Multipart { field: got }) => {
                assert_eq!(field, *got)
            }
            (_, other) => panic!("{}: unexpected body {other:?}", op.id),
        }
    }
}

#[test]
fn every_sample_passes_validation_but_on_the_vendor_placeholders() {
    for op in operations() {
        let sample = crate::examples::sample(op);
        let placeholders = sample.vendor.map(|f| f.placeholders()).unwrap_or_default();
        for issue in crate::validate::validate(op, &sample.params) {
            let at = crate::validate::tests::support::json_path(&issue);
            assert!(
                placeholders.contains(&at),
                "{}: {issue:?} is not at a vendor placeholder",
                op.id
            );
        }
    }
}

/// A builder edge case: the call, the URL it must go to, its extra headers and its body.
macro_rules! edge {
    ($id:ident, [$($p:expr),*], $params:expr, $url:expr, [$($h:expr),*], $body:expr) => {
        #[test]
        #[allow(non_snake_case)]
        fn $id() {
            check(stringify!($id), &[$($p),*], $params, $url, &[$($h),*], $body);
        }
    };
}

edge!(
    updateAccount,
    ["a b"],
    r#"{"account_name":"Petty"}"#,
    "/books/v3/chartofaccounts/a%20b?organization_id=ORG",
    [],
    Expect::Json(r#"{"account_name":"Petty"}"#)
);
edge!(
    updateExpenseByUniqueField,
    [],
    r#"{"x_unique_identifier_key":"cf_unique_cf","x_unique_identifier_value":"unique Value","x_upsert":true,"amount":10}"#,
    "/books/v3/expenses?organization_id=ORG",
    [
        ("X-Unique-Identifier-Key", "cf_unique_cf"),
        ("X-Unique-Identifier-Value", "unique Value"),
        ("X-Upsert", "true")
    ],
    Expect::Json(r#"{"amount":10}"#)
);
edge!(
    addExpenseAttachment,
    ["982000000030049"],
    r#"{}"#,
    "/books/v3/expenses/982000000030049/attachment?organization_id=ORG",
    [],
    Expect::Multipart("attachment")
);
edge!(
    createPackage,
    [],
    r#"{"salesorder_id":"5","date":"2024-01-02","line_items":[{"so_line_item_id":"9","quantity":1}]}"#,
    "/inventory/v1/packages?organization_id=ORG&salesorder_id=5",
    [],
    Expect::Json(r#"{"date":"2024-01-02","line_items":[{"so_line_item_id":"9","quantity":1}]}"#)
);
edge!(
    getPackage,
    ["9007199254740993"],
    r#"{}"#,
    "/inventory/v1/packages/9007199254740993?organization_id=ORG",
    [],
    Expect::NoBody
);
edge!(
    updateCompositeItem,
    ["c#1"],
    r#"{"name":"Kit"}"#,
    "/inventory/v1/compositeitems/c%231?organization_id=ORG",
    [],
    Expect::Json(r#"{"name":"Kit"}"#)
);
edge!(
    createPlan,
    [],
    r#"{"plan_code":"basic","name":"Basic","recurring_price":10,"interval":1,"interval_unit":"months"}"#,
    "/billing/v1/plans",
    [("X-com-svc-subscriptions-organizationid", "ORG")],
    Expect::Json(
        r#"{"plan_code":"basic","name":"Basic","recurring_price":10,"interval":1,"interval_unit":"months"}"#
    )
);
edge!(
    listPlans,
    [],
    r#"{"filter_by":"PlanStatus.ACTIVE"}"#,
    "/billing/v1/plans?filter_by=PlanStatus.ACTIVE",
    [("X-com-svc-subscriptions-organizationid", "ORG")],
    Expect::NoBody
);
edge!(
    updatePlan,
    ["basic plan"],
    r#"{"name":"Basic"}"#,
    "/billing/v1/plans/basic%20plan",
    [("X-com-svc-subscriptions-organizationid", "ORG")],
    Expect::Json(r#"{"name":"Basic"}"#)
);
edge!(
    updateNotificationChannels,
    [],
    r#"{"watch":[{"channel_id":1000000068001,"events":["Deals.all"],"notify_url":"https://hooks.example.com/svc"}]}"#,
    "/crm/v8/actions/watch",
    [],
    Expect::Json(
        r#"{"watch":[{"channel_id":1000000068001,"events":["Deals.all"],"notify_url":"https://hooks.example.com/svc"}]}"#
    )
);
