//! The documented application codes, authorization, scopes, the organization, and validation.

use crate::client::{expect, id, Sandbox};
use serde_json::json;

fn project(name: &str, rate: serde_json::Value) -> serde_json::Value {
    json!({"project_name": name, "customer_id": "460000000044001", "billing_type": "fixed_cost_for_project",
           "user_id": "460000000024003", "rate": rate})
}

#[test]
fn documented_codes_1002_4031_20004_20077() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let v = expect(
        &s.call("invoice", "GET", "/settings/currencies/404", None),
        404,
        1002,
    );
    assert!(v["message"].as_str().unwrap().contains("404"));

    let nameless = json!({"customer_id": "460000000044001", "recurrence_frequency": "months"});
    expect(
        &s.call("invoice", "POST", "/recurringinvoices", Some(nameless)),
        400,
        4031,
    );
    let blank = json!({"recurrence_name": " ", "customer_id": "460000000044001", "recurrence_frequency": "months"});
    expect(
        &s.call("invoice", "POST", "/recurringinvoices", Some(blank)),
        400,
        4031,
    );

    expect(
        &s.call(
            "invoice",
            "POST",
            "/projects",
            Some(project("Negative", json!("-5"))),
        ),
        400,
        20004,
    );
    let mut budget = project("Budget", json!(5));
    budget["budget_amount"] = json!("-100");
    expect(
        &s.call("invoice", "POST", "/projects", Some(budget)),
        400,
        20004,
    );

    let kept = expect(
        &s.call(
            "invoice",
            "POST",
            "/projects",
            Some(project("Kept", json!(5))),
        ),
        201,
        0,
    );
    let kept = id(&kept["project"]["project_id"]);
    expect(
        &s.call(
            "invoice",
            "PUT",
            &format!("/projects/{kept}"),
            Some(project("Kept", json!(-1))),
        ),
        400,
        20004,
    );
    let expense = json!({"account_id": "1", "amount": 10, "project_id": kept});
    expect(&s.call("books", "POST", "/expenses", Some(expense)), 201, 0);
    let v = expect(
        &s.call("invoice", "DELETE", &format!("/projects/{kept}"), None),
        400,
        20077,
    );
    assert!(v["message"].as_str().unwrap().contains("expenses"));

    let free = expect(
        &s.call(
            "invoice",
            "POST",
            "/projects",
            Some(project("Free", json!(5))),
        ),
        201,
        0,
    );
    let free = id(&free["project"]["project_id"]);
    expect(
        &s.call("invoice", "DELETE", &format!("/projects/{free}"), None),
        200,
        0,
    );
    expect(
        &s.call("invoice", "DELETE", &format!("/projects/{free}"), None),
        404,
        1002,
    );
    assert_eq!(s.counters()["operations"]["deleteProject"]["received"], 3);
}

#[test]
fn a_currency_used_by_a_transaction_cannot_be_deleted() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let all = expect(
        &s.call("invoice", "GET", "/settings/currencies", None),
        200,
        0,
    );
    let find = |code: &str| {
        id(&all["currencies"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["currency_code"] == code)
            .unwrap()["currency_id"])
    };
    let (usd, eur) = (find("USD"), find("EUR"));
    let v = expect(
        &s.call(
            "invoice",
            "DELETE",
            &format!("/settings/currencies/{usd}"),
            None,
        ),
        400,
        1004,
    );
    assert!(v["message"].as_str().unwrap().contains("base currency"));
    let recurring = json!({"recurrence_name": "In euros", "customer_id": "460000000044001", "recurrence_frequency": "months", "currency_id": eur});
    expect(
        &s.call("invoice", "POST", "/recurringinvoices", Some(recurring)),
        201,
        0,
    );
    let v = expect(
        &s.call(
            "invoice",
            "DELETE",
            &format!("/settings/currencies/{eur}"),
            None,
        ),
        400,
        1004,
    );
    assert!(
        v["message"].as_str().unwrap().contains("recurring invoice"),
        "{v}"
    );
}

#[test]
fn tokens_are_checked_and_never_echoed() {
    let s = Sandbox::start(&[]);
    let (target, _) = s.target("books", "/organizations");
    expect(&s.raw("GET", &target, &[], b""), 401, 1401);
    expect(
        &s.raw(
            "GET",
            &target,
            &[("Authorization", "Bearer dev-token")],
            b"",
        ),
        401,
        1401,
    );
    let r = s.call_as("wrong-s3cret", "books", "GET", "/organizations", None);
    let v = expect(&r, 401, 1401);
    assert!(
        !String::from_utf8_lossy(&r.body).contains("wrong-s3cret"),
        "{v}"
    );
    expect(
        &s.raw(
            "GET",
            &target,
            &[("authorization", "svc-oauthtoken dev-token")],
            b"",
        ),
        200,
        0,
    );
}

#[test]
fn scopes_per_token() {
    let s = Sandbox::start(&[
        "--no-dev-token",
        "--token",
        "reader=SvcSubscriptions.plans.READ",
        "--token",
        "crm-writer=SvcCRM.notifications.WRITE",
    ]);
    expect(
        &s.call_as("reader", "billing", "GET", "/plans", None),
        200,
        0,
    );
    let v = expect(
        &s.call_as(
            "reader",
            "billing",
            "POST",
            "/plans",
            Some(json!({"name": "x"})),
        ),
        401,
        1403,
    );
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("SvcSubscriptions.plans.CREATE"),
        "{v}"
    );
    let watch = json!({"watch": [{"channel_id": 1, "events": ["Leads.all"], "notify_url": "http://127.0.0.1:9/x"}]});
    expect(
        &s.call_as(
            "crm-writer",
            "crm",
            "PATCH",
            "/actions/watch",
            Some(watch.clone()),
        ),
        200,
        0,
    );
    expect(
        &s.call_as("reader", "crm", "PATCH", "/actions/watch", Some(watch)),
        401,
        1403,
    );
    expect(&s.call("billing", "GET", "/plans", None), 401, 1401);
}

#[test]
fn the_organization_goes_where_the_family_puts_it() {
    let s = Sandbox::start(&[]);
    let auth = [("Authorization", "Svc-oauthtoken dev-token")];
    let v = expect(
        &s.raw("GET", "/books/v3/chartofaccounts", &auth, b""),
        400,
        1005,
    );
    assert!(v["message"].as_str().unwrap().contains("organization_id"));
    let v = expect(
        &s.raw(
            "GET",
            "/books/v3/chartofaccounts?organization_id=999",
            &auth,
            b"",
        ),
        400,
        1005,
    );
    assert!(v["message"].as_str().unwrap().contains("999"));
    let v = expect(&s.raw("GET", "/invoice/v3/projects", &auth, b""), 400, 1005);
    assert!(v["message"]
        .as_str()
        .unwrap()
        .contains("X-com-svc-invoice-organizationid"));
    let v = expect(&s.raw("GET", "/billing/v1/plans", &auth, b""), 400, 1005);
    assert!(v["message"]
        .as_str()
        .unwrap()
        .contains("X-com-svc-subscriptions-organizationid"));
    expect(&s.raw("GET", "/books/v3/organizations", &auth, b""), 200, 0);
    let in_query_only = format!("/invoice/v3/projects?organization_id={}", s.org());
    expect(&s.raw("GET", &in_query_only, &auth, b""), 400, 1005);
}

#[test]
fn the_client_rules_answer_1001_with_every_issue() {
    let s = Sandbox::start(&[]);
    let v = expect(
        &s.call(
            "invoice",
            "POST",
            "/projects",
            Some(json!({"project_name": 5})),
        ),
        400,
        1001,
    );
    let issues = v["issues"].as_array().unwrap();
    let paths: Vec<String> = issues
        .iter()
        .map(|i| i["path"][0].as_str().unwrap().to_string())
        .collect();
    for field in ["project_name", "customer_id", "user_id", "billing_type"] {
        assert!(paths.contains(&field.to_string()), "{field} in {v}");
    }
    assert!(issues.iter().any(|i| i["code"] == "invalid_type"));
    let v = expect(
        &s.call("books", "GET", "/fixedassets?page=0", None),
        400,
        1001,
    );
    assert_eq!(
        v["issues"][0]["code"], "out_of_range",
        "query text is read as the number the rules expect: {v}"
    );
    expect(
        &s.call("books", "GET", "/fixedassets?page=2&per_page=5", None),
        200,
        0,
    );
    let v = expect(
        &s.call("books", "POST", "/journals", Some(json!([1]))),
        400,
        1001,
    );
    assert_eq!(v["issues"][0]["code"], "invalid_type");
    let (target, _) = s.target("books", "/journals");
    expect(
        &s.raw(
            "POST",
            &target,
            &[("Authorization", "Svc-oauthtoken dev-token")],
            b"{nope",
        ),
        400,
        1400,
    );
    expect(
        &s.call("inventory", "POST", "/packages", Some(json!({}))),
        400,
        1001,
    );
}

#[test]
fn minted_tokens_work_until_revoked_and_a_revoked_token_is_401() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let minted = expect(&s.raw("POST", "/__sandbox/tokens", &[], b""), 200, 0);
    let token = minted["token"].as_str().unwrap().to_string();
    assert_eq!(minted["minted"], 1);
    expect(
        &s.call_as(&token, "books", "GET", "/chartofaccounts", None),
        200,
        0,
    );
    let second = expect(&s.raw("POST", "/__sandbox/tokens", &[], b""), 200, 0);
    assert_ne!(second["token"], minted["token"]);
    assert_eq!(second["minted"], 2);

    let revoke = format!("/__sandbox/tokens/{token}/revoke");
    expect(&s.raw("POST", &revoke, &[], b""), 200, 0);
    expect(
        &s.call_as(&token, "books", "GET", "/chartofaccounts", None),
        401,
        1401,
    );
    let other = second["token"].as_str().unwrap();
    expect(
        &s.call_as(other, "books", "GET", "/chartofaccounts", None),
        200,
        0,
    );

    expect(
        &s.raw("POST", "/__sandbox/tokens/dev-token/revoke", &[], b""),
        200,
        0,
    );
    expect(&s.call("books", "GET", "/chartofaccounts", None), 401, 1401);
    expect(&s.raw("GET", "/__sandbox/tokens", &[], b""), 405, 1405);
}
