//! What docs/REFERENCE.md says a native Rust program can do with svc-core, done natively and from the
//! crate's public API alone: an operation found by id, its params checked, its request built (method,
//! URL, headers, JSON body, the Authorization header's value), and an answer decoded.

use svc_core::catalog::{self, Method};
use svc_core::issue::Problem;
use svc_core::request::{self, Body, Target};
use svc_core::response::{self, Decoded};
use svc_core::validate::{self, Source};
use svc_core::{clock, ErrorKind};

#[test]
fn validate_build_and_decode_natively() {
    let op = catalog::find("createTask").expect("createTask is in the table");

    // Params checked against the operation's rules: every issue in one pass.
    let bad = svc_json::parse(r#"{"task_name":""}"#).unwrap();
    let issues = validate::check(op, &bad, clock::now_ms(), Source::Json);
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert!(
        matches!(issues[0].problem, Problem::Required {}),
        "{issues:?}"
    );

    let params = svc_json::parse(r#"{"task_name":"Audit"}"#).unwrap();
    assert!(validate::check(op, &params, clock::now_ms(), Source::Json).is_empty());

    // The request: method, URL, headers and body, for any HTTP client to send.
    let target = Target::new(Some("eu"), None, Some("10234695"), None).unwrap();
    let prepared = request::build_json(op, &target, &["460000000044001"], &params).unwrap();
    assert_eq!(prepared.method, Method::Post);
    assert_eq!(
        prepared.url,
        "https://www.svcapis.eu/billing/v1/projects/460000000044001/tasks"
    );
    assert!(
        prepared.headers.contains(&(
            "X-com-svc-subscriptions-organizationid".to_string(),
            "10234695".to_string()
        )),
        "{:?}",
        prepared.headers
    );
    assert_eq!(prepared.body, Body::Json(r#"{"task_name":"Audit"}"#.into()));
    assert_eq!(
        request::authorization("dev-token").unwrap(),
        "Svc-oauthtoken dev-token"
    );

    // The answer: the resource as JSON text, every id a string (a JSON number cannot hold every id).
    let answer = br#"{"code":0,"message":"The task has been added.","task":{"task_id":9007199254740993,"task_name":"Audit"}}"#;
    let Decoded::Json(text) = response::decode(op, 201, Some("application/json"), answer).unwrap()
    else {
        panic!("a task is JSON");
    };
    assert_eq!(
        text,
        r#"{"task_id":"9007199254740993","task_name":"Audit"}"#
    );

    // An error answer is the service's error.
    let refused = response::decode(
        op,
        404,
        Some("application/json"),
        br#"{"code":1002,"message":"No such project."}"#,
    )
    .unwrap_err();
    assert_eq!(
        (refused.kind(), refused.code(), refused.status()),
        (ErrorKind::Api, Some(1002), Some(404))
    );
}
