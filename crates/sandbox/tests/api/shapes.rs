//! The answers decode with the SDK's own decoder, shape by shape, ids beyond 2^53 kept digit for digit.

use crate::client::{expect, id, Sandbox};
use sandbox::http::ClientResponse;
use serde_json::{json, Value};
use svc_core::catalog::find;
use svc_core::response::{decode, Decoded};

fn decoded(op: &str, r: &ClientResponse) -> Value {
    match decode(
        find(op).unwrap(),
        r.status,
        r.header("content-type"),
        &r.body,
    ) {
        Ok(Decoded::Json(text)) => serde_json::from_str(&text).unwrap(),
        Ok(Decoded::Binary) => Value::Null,
        Err(e) => panic!("{op}: {e}: {}", String::from_utf8_lossy(&r.body)),
    }
}

#[test]
fn every_shape_decodes_with_the_sdk() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let r = s.call(
        "inventory",
        "POST",
        "/packages?salesorder_id=5",
        Some(json!({"line_items": [{"quantity": 1}]})),
    );
    let package = decoded("createPackage", &r);
    let package_id = package["package_id"]
        .as_str()
        .expect("the one-element array decodes to the package")
        .to_string();
    let sent = r.json()["package"][0]["package_id"]
        .as_u64()
        .expect("a JSON number on the wire");
    assert!(sent > 1 << 53);
    assert_eq!(
        package_id,
        sent.to_string(),
        "the id keeps every digit as a string"
    );
    let list = decoded(
        "listPackages",
        &s.call("inventory", "GET", "/packages", None),
    );
    assert_eq!(list["items"][0]["package_id"], json!(package_id));
    assert_eq!(list["page_context"]["has_more_page"], false);

    let accounts = expect(&s.call("books", "GET", "/chartofaccounts", None), 200, 0);
    let account_id = id(&accounts["chartofaccounts"][0]["account_id"]);
    let account = decoded(
        "getAccount",
        &s.call(
            "books",
            "GET",
            &format!("/chartofaccounts/{account_id}"),
            None,
        ),
    );
    assert_eq!(account["account_name"], "Petty Cash");
    assert!(account.get("code").is_none());

    let currency = decoded(
        "createCurrency",
        &s.call(
            "invoice",
            "POST",
            "/settings/currencies",
            Some(json!({"currency_code": "JPY"})),
        ),
    );
    let currency_id = currency["currency_id"].as_str().unwrap().to_string();
    let deleted = decoded(
        "deleteCurrency",
        &s.call(
            "invoice",
            "DELETE",
            &format!("/settings/currencies/{currency_id}"),
            None,
        ),
    );
    assert_eq!(deleted["code"], 0);

    let expense = decoded(
        "createExpense",
        &s.call(
            "books",
            "POST",
            "/expenses",
            Some(json!({"account_id": account_id, "amount": 1})),
        ),
    );
    let expense_id = expense["expense_id"].as_str().unwrap().to_string();
    assert!(expense_id.parse::<u64>().unwrap() > 1 << 53);
    let receipt = s.call(
        "books",
        "GET",
        &format!("/expenses/{expense_id}/receipt"),
        None,
    );
    assert_eq!(
        decoded("getExpenseReceipt", &receipt),
        Value::Null,
        "the receipt is binary"
    );
    let attached = s.upload(
        "books",
        &format!("/expenses/{expense_id}/attachment"),
        &[("attachment", Some("a.csv"), b"1,2")],
    );
    assert_eq!(
        decoded("addExpenseAttachment", &attached)[0]["description"],
        "Attachment a.csv added."
    );

    let watch = json!({"watch": [{"channel_id": 9, "events": ["Leads.all"], "notify_url": "http://127.0.0.1:9/x"}]});
    let watched = decoded(
        "updateNotificationChannels",
        &s.call("crm", "PATCH", "/actions/watch", Some(watch)),
    );
    assert_eq!(watched[0]["code"], "SUCCESS");
    let error = decode(
        find("getCurrency").unwrap(),
        404,
        Some("application/json"),
        &s.call("invoice", "GET", "/settings/currencies/x", None)
            .body,
    );
    assert_eq!(error.unwrap_err().code(), Some(1002));
}
