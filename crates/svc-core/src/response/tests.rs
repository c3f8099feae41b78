//! Tests of response decoding: envelopes, each shape, errors and their advice, pages.

use super::*;
use crate::error::{Error, ErrorKind};

fn context(page: Option<u64>, has_more_page: bool) -> Option<PageContext> {
    Some(PageContext {
        page,
        has_more_page,
    })
}

#[test]
fn the_next_page_follows_has_more_page_and_stops_on_an_empty_page() {
    assert_eq!(next_page(1, context(Some(1), true), 200), Ok(Some(2)));
    assert_eq!(next_page(7, context(Some(7), true), 1), Ok(Some(8)));
    assert_eq!(next_page(1, context(Some(1), false), 200), Ok(None));
    assert_eq!(next_page(3, context(Some(3), true), 0), Ok(None));
    assert_eq!(next_page(1, None, 200), Ok(None));
    assert_eq!(next_page(2, context(None, false), 5), Ok(None));
}

#[test]
fn no_page_follows_the_last_page_a_call_can_ask_for() {
    let last = u32::MAX as u64;
    assert_eq!(
        next_page(last - 1, context(Some(last - 1), true), 1),
        Ok(Some(last))
    );
    assert_eq!(next_page(last, context(Some(last), false), 1), Ok(None));
    let e = next_page(last, context(Some(last), true), 1).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Decode);
    assert_eq!(
        e.message,
        "the service says more pages follow page 4294967295, the last page a call can ask for (page is at most 4294967295), so the iteration ends here"
    );
}

#[test]
fn pages_that_do_not_advance_end_the_iteration_with_a_decode_error() {
    for (asked, answered) in [(2, 1), (5, 3), (4, 4 + 1)] {
        let e = next_page(asked, context(Some(answered), true), 10).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Decode);
        assert_eq!(
            e.message,
            format!("page {asked} was asked for and the service answered page {answered}: the pages do not advance, so the iteration ends here")
        );
    }
    assert_eq!(
        next_page(2, context(Some(1), false), 10)
            .unwrap_err()
            .kind(),
        ErrorKind::Decode,
        "a repeated last page is refused too"
    );
    let e = next_page(1, context(None, true), 10).unwrap_err();
    assert!(e.message.contains("without saying which page"), "{e}");
    // A server answering page 1 whatever it is asked: the second page is refused.
    let mut asked = 1;
    let mut pages = 0;
    let end = loop {
        match next_page(asked, context(Some(1), true), 10) {
            Ok(Some(next)) => (asked, pages) = (next, pages + 1),
            other => break other,
        }
    };
    assert_eq!((pages, end.unwrap_err().kind()), (1, ErrorKind::Decode));
}

#[test]
fn a_page_context_is_an_object_with_a_positive_page_and_a_boolean_has_more_page() {
    let read = |v: Value| PageContext::read(&v);
    assert_eq!(
        read(json!({"page": 2, "per_page": 1, "has_more_page": true})),
        Ok(PageContext {
            page: Some(2),
            has_more_page: true
        })
    );
    assert_eq!(
        read(json!({})),
        Ok(PageContext {
            page: None,
            has_more_page: false
        })
    );
    assert_eq!(read(json!({"page": 3.0})).unwrap().page, Some(3));
    for (bad, why) in [
        (json!("p"), "`page_context` is a string, not an object"),
        (
            json!([{"page": 1}, {"page": 2}]),
            "`page_context` is an array, not an object",
        ),
        (json!(null), "`page_context` is null, not an object"),
        (
            json!({"page": 0}),
            "`page_context.page` is 0, not a positive integer",
        ),
        (
            json!({"page": -1}),
            "`page_context.page` is -1, not a positive integer",
        ),
        (
            json!({"page": 1.5}),
            "`page_context.page` is 1.5, not a positive integer",
        ),
        (
            json!({"page": "2"}),
            "`page_context.page` is a string, not a positive integer",
        ),
        (
            json!({"page": 1e300}),
            "`page_context.page` is 1e+300, not a positive integer",
        ),
        (
            json!({"has_more_page": "true"}),
            "`page_context.has_more_page` is a string, not a boolean",
        ),
        (
            json!({"has_more_page": 1}),
            "`page_context.has_more_page` is a number, not a boolean",
        ),
    ] {
        assert_eq!(read(bad.clone()), Err(why.to_string()), "{bad}");
    }
}
use crate::catalog::find;
use serde_json::{json, Value};

fn ok(op: &str, body: &str) -> Value {
    match decode(
        find(op).unwrap(),
        200,
        Some("application/json"),
        body.as_bytes(),
    )
    .unwrap()
    {
        Decoded::Json(text) => serde_json::from_str(&text).unwrap(),
        Decoded::Binary => panic!("binary"),
    }
}

#[test]
fn a_401_names_the_region_or_host_and_a_403_the_scope() {
    let e = |status| Error::new(ErrorKind::Api, "no").with_status(status);
    let at = |url, status, op| advise(e(status), url, op).message;
    assert_eq!(
        at("https://www.svcapis.eu/books/v3/x", 401, None),
        "the service at eu answered 401 (no): is the token expired or revoked, or the organization in another region? Set region (or apiDomain to the api_domain of the token's answer)"
    );
    assert!(at("http://127.0.0.1:9/books/v3/x", 401, None)
        .starts_with("the service at 127.0.0.1:9 answered 401"));
    assert_eq!(
        at("https://www.svcapis.eu/books/v3/x", 401, Some("createFixedAssetType")),
        "the service at eu answered 401 (no): is the token expired or revoked, without the scope SvcBooks.fixedasset.CREATE that createFixedAssetType needs, or the organization in another region? Set region (or apiDomain to the api_domain of the token's answer)"
    );
    assert!(at("https://www.svcapis.eu.evil.example/x", 401, None)
        .starts_with("the service at www.svcapis.eu.evil.example "));
    assert_eq!(
        at(
            "https://www.svcapis.com/books/v3/x",
            403,
            Some("listAccounts")
        ),
        "no (403): listAccounts needs a token with the scope SvcBooks.accountants.READ"
    );
    assert_eq!(at("https://h/x", 404, Some("listAccounts")), "no");
}

fn err(op: &str, status: u16, body: &str) -> Error {
    decode(
        find(op).unwrap(),
        status,
        Some("application/json"),
        body.as_bytes(),
    )
    .unwrap_err()
}

#[test]
fn resource_under_a_singular_key() {
    let v = ok(
        "createFixedAsset",
        r#"{"code":0,"message":"created","fixed_asset":{"fixed_asset_id":4600000000000000123,"asset_name":"Laptop","brand_new":{"x":1}}}"#,
    );
    assert_eq!(
        v,
        json!({"fixed_asset_id":"4600000000000000123","asset_name":"Laptop","brand_new":{"x":1}})
    );
}

#[test]
fn one_element_array_under_a_singular_key() {
    let v = ok(
        "createPackage",
        r#"{"code":0,"message":"ok","package":[{"package_id":9007199254740993123}]}"#,
    );
    assert_eq!(v, json!({"package_id":"9007199254740993123"}));
    let v = ok(
        "createCurrency",
        r#"{"code":0,"message":"ok","currency":{"currency_id":"7"}}"#,
    );
    assert_eq!(v, json!({"currency_id":"7"}));
    let v = ok(
        "createCurrency",
        r#"{"code":0,"message":"ok","currency":[{"currency_id":1},{"currency_id":2}]}"#,
    );
    assert_eq!(
        v,
        json!([{"currency_id":"1"},{"currency_id":"2"}]),
        "more than one element stays an array"
    );
}

#[test]
fn fields_at_the_top_level() {
    let v = ok(
        "getAccount",
        r#"{"code":0,"message":"ok","account_id":4600000000000000001,"account_name":"Cash","closing_balance":12.5}"#,
    );
    assert_eq!(
        v,
        json!({"account_id":"4600000000000000001","account_name":"Cash","closing_balance":12.5})
    );
}

#[test]
fn lists_with_page_context_and_the_packagea_key() {
    let v = ok(
        "listPackages",
        r#"{"code":0,"message":"ok","packagea":[{"package_id":9007199254740993}],"page_context":{"page":1,"per_page":1,"has_more_page":true}}"#,
    );
    assert_eq!(
        v,
        json!({"items":[{"package_id":"9007199254740993"}],"page_context":{"page":1,"per_page":1,"has_more_page":true}})
    );
    let v = ok(
        "listFixedAssets",
        r#"{"code":0,"message":"ok","fixedassets":[]}"#,
    );
    assert_eq!(v, json!({"items":[]}));
    assert_eq!(
        err("listFixedAssets", 200, r#"{"code":0,"message":"ok"}"#).kind(),
        ErrorKind::Decode
    );
    assert_eq!(
        err("listFixedAssets", 200, r#"{"code":0,"fixedassets":{}}"#).kind(),
        ErrorKind::Decode
    );
}

/// Asserts that the 200 answer `body` of `op` is a `decode` error saying `message`.
fn refused(op: &str, body: &str, message: &str) {
    let e = err(op, 200, body);
    assert_eq!(
        (
            e.kind(),
            e.status(),
            e.message.as_str(),
            e.operation_id.as_deref()
        ),
        (ErrorKind::Decode, Some(200), message, Some(op)),
        "{op} {body}"
    );
}

/// The currency rows' answers whose `currency` is missing, empty or not an object.
fn refused_currencies() {
    let currency = "where `currency` (an object) was expected";
    for (op, body, got) in [
        ("getCurrency", r#"{"code":0,"currency":null}"#, "null"),
        ("getCurrency", r#"{"code":0,"currency":"USD"}"#, "a string"),
        ("getCurrency", r#"{"code":0,"currency":7}"#, "a number"),
        ("getCurrency", r#"{"code":0,"currency":true}"#, "a boolean"),
        (
            "getCurrency",
            r#"{"code":0,"currency":[{"currency_id":1}]}"#,
            "an array",
        ),
        ("createCurrency", r#"{"code":0,"currency":null}"#, "null"),
        ("createCurrency", r#"{"code":0,"currency":[]}"#, "an array"),
        ("createCurrency", r#"{"code":0,"currency":[null]}"#, "null"),
    ] {
        refused(
            op,
            body,
            &format!("the response's `currency` is {got}, {currency}"),
        );
    }
    refused(
        "getCurrency",
        r#"{"code":0,"message":"ok"}"#,
        &format!("the response has no `currency`, {currency}"),
    );
    for op in ["getCurrency", "createCurrency"] {
        refused(op, "", &format!("the response is empty, {currency}"));
        refused(op, " \n", &format!("the response is empty, {currency}"));
    }
}

/// The answers with a member of their array that is not an object.
fn refused_members() {
    let member = |key: &str, at: usize, got: &str| {
        format!("the response's `{key}[{at}]` is {got}, where each member of `{key}` (an array) must be an object")
    };
    for (op, body, key, at, got) in [
        (
            "createCurrency",
            r#"{"currency":["a","b"]}"#,
            "currency",
            0,
            "a string",
        ),
        (
            "createCurrency",
            r#"{"currency":[{},[1]]}"#,
            "currency",
            1,
            "an array",
        ),
        (
            "listFixedAssets",
            r#"{"fixedassets":[null,42,"x",[1]]}"#,
            "fixedassets",
            0,
            "null",
        ),
        (
            "listFixedAssets",
            r#"{"fixedassets":[{},42]}"#,
            "fixedassets",
            1,
            "a number",
        ),
        (
            "listFixedAssets",
            r#"{"fixedassets":[{}, "x"]}"#,
            "fixedassets",
            1,
            "a string",
        ),
        (
            "listFixedAssets",
            r#"{"fixedassets":[{},{},[1]]}"#,
            "fixedassets",
            2,
            "an array",
        ),
        (
            "listFixedAssets",
            r#"{"fixedassets":[true]}"#,
            "fixedassets",
            0,
            "a boolean",
        ),
        (
            "updateNotificationChannels",
            r#"{"watch":[{},null]}"#,
            "watch",
            1,
            "null",
        ),
        (
            "getFixedAssetForecast",
            r#"{"data":[7]}"#,
            "data",
            0,
            "a number",
        ),
    ] {
        refused(op, body, &member(key, at, got));
    }
}

#[test]
fn a_resource_that_is_null_missing_or_of_another_type_is_a_decode_error() {
    refused_currencies();
    refused_members();
    refused(
        "updateNotificationChannels",
        r#"{"watch":{"code":"SUCCESS"}}"#,
        "the response's `watch` is an object, where `watch` (an array) was expected",
    );
    refused(
        "listFixedAssets",
        r#"{"code":0,"fixedassets":null}"#,
        "the response's `fixedassets` is null, where `fixedassets` (an array) was expected",
    );
    refused(
        "listFixedAssets",
        "",
        "the response is empty, where `fixedassets` (an array) was expected",
    );
    refused(
        "getAccount",
        r#"{"code":0,"message":"ok"}"#,
        "the response has only `code` and `message`, where the resource's fields next to `code` and `message` were expected",
    );
    refused(
        "getAccount",
        "",
        "the response is empty, where the resource's fields next to `code` and `message` were expected",
    );
    for body in [r#""a string""#, "[]", "null", "7"] {
        assert_eq!(
            err("getCurrency", 200, body).kind(),
            ErrorKind::Decode,
            "{body}"
        );
        assert_eq!(
            err("deleteCurrency", 200, body).kind(),
            ErrorKind::Decode,
            "{body}"
        );
    }
}

#[test]
fn an_answer_without_a_resource_may_be_empty() {
    for status in [200, 204] {
        let op = find("deleteCurrency").unwrap();
        assert_eq!(
            decode(op, status, None, b"").unwrap(),
            Decoded::Json(r#"{"code":0,"message":""}"#.into())
        );
    }
    assert_eq!(
        ok("markAccountActive", r#"{"code":0,"message":"done"}"#),
        json!({"code":0,"message":"done"})
    );
}

#[test]
fn a_page_context_that_is_not_as_documented_is_a_decode_error() {
    for (context, why) in [
        (r#""p""#, "`page_context` is a string, not an object"),
        ("null", "`page_context` is null, not an object"),
        ("[1]", "`page_context` is an array, not an object"),
        ("[null]", "`page_context` is an array, not an object"),
        ("[]", "`page_context` is an array, not an object"),
        (r#"[{},{}]"#, "`page_context` is an array, not an object"),
        (
            r#"{"page":0}"#,
            "`page_context.page` is 0, not a positive integer",
        ),
        (
            r#"{"page":"1"}"#,
            "`page_context.page` is a string, not a positive integer",
        ),
        (
            r#"{"page":1,"has_more_page":"yes"}"#,
            "`page_context.has_more_page` is a string, not a boolean",
        ),
    ] {
        let body = format!(r#"{{"code":0,"fixedassets":[],"page_context":{context}}}"#);
        let e = err("listFixedAssets", 200, &body);
        assert_eq!(
            (e.kind(), e.message),
            (ErrorKind::Decode, format!("the response's {why}")),
            "{body}"
        );
    }
    // The vendor's examples hold it in a one-element array at times: the page gets the object.
    let v = ok(
        "listFixedAssets",
        r#"{"code":0,"fixedassets":[],"page_context":[{"page":1,"per_page":100}]}"#,
    );
    assert_eq!(
        v,
        json!({"items":[],"page_context":{"page":1,"per_page":100}})
    );
}

#[test]
fn code_and_message_only() {
    let v = ok(
        "deleteTask",
        r#"{"code":0,"message":"The task has been deleted.","extra_id":12345678901234567890}"#,
    );
    assert_eq!(
        v,
        json!({"code":0,"message":"The task has been deleted.","extra_id":"12345678901234567890"})
    );
}

#[test]
fn binary_receipt() {
    let op = find("getExpenseReceipt").unwrap();
    assert_eq!(
        decode(op, 200, Some("application/pdf"), b"%PDF-1.4").unwrap(),
        Decoded::Binary
    );
    let e = decode(
        op,
        200,
        Some("application/json"),
        br#"{"code":1002,"message":"no receipt"}"#,
    )
    .unwrap_err();
    assert_eq!((e.kind(), e.code()), (ErrorKind::Api, Some(1002)));
}

#[test]
fn errors_carry_kind_status_code_and_message() {
    let e = err(
        "createProject",
        400,
        r#"{"code":20004,"message":"The project amount cannot be negative."}"#,
    );
    assert_eq!(
        (e.kind(), e.status(), e.code()),
        (ErrorKind::Api, Some(400), Some(20004))
    );
    assert_eq!(e.message, "The project amount cannot be negative.");
    assert_eq!(e.operation_id.as_deref(), Some("createProject"));
    assert_eq!(
        err("listPlans", 401, r#"{"code":57,"message":"invalid token"}"#).kind(),
        ErrorKind::Unauthorized
    );
    let e = err("listPlans", 429, "");
    assert_eq!(
        (e.kind(), e.message.as_str()),
        (ErrorKind::RateLimited, "HTTP 429: rate limit exceeded")
    );
    let e = err(
        "getTask",
        200,
        r#"{"code":1002,"message":"Task does not exist."}"#,
    );
    assert_eq!(
        (e.kind(), e.status(), e.code()),
        (ErrorKind::Api, Some(200), Some(1002))
    );
    assert_eq!(
        err("getTask", 502, "<html>bad gateway</html>").message,
        "HTTP 502: bad gateway"
    );
    assert_eq!(err("getTask", 200, "not json").kind(), ErrorKind::Decode);
    assert_eq!(
        err("getTask", 200, r#"{"code":0,"message":"ok"}"#).kind(),
        ErrorKind::Decode
    );
}

#[test]
fn crm_success_code_is_a_word() {
    let v = ok(
        "updateNotificationChannels",
        r#"{"watch":[{"code":"SUCCESS","status":"success","message":"ok","details":{"events":[{"channel_id":1000000068001,"resource_id":5000000000000000001}]}}]}"#,
    );
    assert_eq!(v[0]["details"]["events"][0]["channel_id"], "1000000068001");
    assert_eq!(
        v[0]["details"]["events"][0]["resource_id"],
        "5000000000000000001"
    );
}

/// Every vendor response of an operation of ours decodes, every id keeping its exact digits.
#[test]
fn every_vendor_example_of_ours_decodes_losslessly() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/vendor");
    let norm = |p: &str| {
        p.split('/')
            .map(|s| if s.starts_with('{') { "{}" } else { s })
            .collect::<Vec<_>>()
            .join("/")
    };
    let mut decoded = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let fixture: Value = serde_json::from_str(&text).unwrap();
        let family = if name.starts_with("books-as-invoice") {
            crate::family::Family::Invoice
        } else if name.starts_with("books-as-billing") {
            crate::family::Family::Billing
        } else {
            crate::family::Family::Books
        };
        let Some(op) = crate::catalog::operations().iter().find(|op| {
            op.family == family
                && op.method.as_str() == fixture["method"]
                && norm(op.path) == norm(fixture["path"].as_str().unwrap())
        }) else {
            continue;
        };
        let raw = serde_json::to_string(&fixture["response_body"]).unwrap();
        let status = fixture["response_status"].as_u64().unwrap() as u16;
        let out = match decode(op, status, Some("application/json"), raw.as_bytes()) {
            Ok(Decoded::Json(t)) => t,
            Ok(Decoded::Binary) => continue,
            Err(e) => panic!("{name} ({}): {e}", op.id),
        };
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_ids_are_strings(&v, &name);
        decoded += 1;
    }
    assert!(decoded >= 46, "decoded {decoded} vendor examples");
}

fn assert_ids_are_strings(v: &Value, ctx: &str) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if crate::lossless::is_id_key(k) {
                    let ok = match x {
                        Value::Array(items) => items.iter().all(|i| i.is_string() || i.is_object()),
                        other => other.is_string() || other.is_null() || other.is_object(),
                    };
                    assert!(ok, "{ctx}: {k} = {x}");
                }
                assert_ids_are_strings(x, ctx);
            }
        }
        Value::Array(items) => items.iter().for_each(|i| assert_ids_are_strings(i, ctx)),
        _ => {}
    }
}

#[test]
fn ids_beyond_2_pow_53_in_the_expense_example_keep_their_digits() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/vendor/books__create_expense.json"
    ))
    .unwrap();
    let raw = crate::lossless::members(&text)
        .unwrap()
        .into_iter()
        .find(|m| m.key == "request_body")
        .unwrap()
        .value;
    let body = format!(r#"{{"code":0,"message":"ok","expense":{raw}}}"#);
    let out = match decode(find("createExpense").unwrap(), 200, None, body.as_bytes()).unwrap() {
        Decoded::Json(t) => t,
        _ => unreachable!(),
    };
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["line_items"][0]["line_item_id"], "10763000000140068",
        "{out}"
    );
    assert_eq!(v["account_id"], "982000000561057");
}
