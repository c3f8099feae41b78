//! The integrator's day: a contact, an item, an invoice for them, emailed, paid in two parts,
//! and what is unpaid listed on the way.

use crate::client::{expect, id, value_of, Sandbox};
use serde_json::{json, Value};

fn unpaid(s: &Sandbox) -> Vec<String> {
    let v = expect(
        &s.call("books", "GET", "/invoices?status=unpaid", None),
        200,
        0,
    );
    v["invoices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| id(&i["invoice_id"]))
        .collect()
}

fn pay(s: &Sandbox, customer: &str, invoice: &str, amount: u32) -> Value {
    let payment = json!({
        "customer_id": customer, "payment_mode": "cash", "amount": amount, "date": "2024-05-02",
        "invoice_id": invoice, "amount_applied": amount,
        "invoices": [{"invoice_id": invoice, "amount_applied": amount}]
    });
    value_of(&s.call("books", "POST", "/customerpayments", Some(payment)))
}

#[test]
fn a_payment_lowers_the_balance_of_the_invoices_it_is_applied_to() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let contact = expect(
        &s.call(
            "books",
            "POST",
            "/contacts",
            Some(json!({"contact_name": "Bowman"})),
        ),
        201,
        0,
    );
    let customer = id(&contact["contact"]["contact_id"]);
    let item = expect(
        &s.call(
            "books",
            "POST",
            "/items",
            Some(json!({"name": "Desk", "rate": 100})),
        ),
        201,
        0,
    );
    let line = json!({"item_id": id(&item["item"]["item_id"]), "rate": 100, "quantity": 2});
    let body = json!({"customer_id": customer, "line_items": [line]});
    let invoice = expect(&s.call("books", "POST", "/invoices", Some(body)), 201, 0);
    let inv = id(&invoice["invoice"]["invoice_id"]);
    assert_eq!(
        (&invoice["invoice"]["total"], &invoice["invoice"]["balance"]),
        (&json!(200), &json!(200))
    );
    assert_eq!(invoice["invoice"]["status"], "draft");
    expect(
        &s.call(
            "books",
            "POST",
            &format!("/invoices/{inv}/email"),
            Some(json!({"to_mail_ids": ["bowman@example.com"]})),
        ),
        200,
        0,
    );
    let sent = expect(
        &s.call("books", "GET", &format!("/invoices/{inv}"), None),
        200,
        0,
    );
    assert_eq!(sent["invoice"]["status"], "sent");
    assert_eq!(unpaid(&s), vec![inv.clone()]);

    assert_eq!(pay(&s, &customer, &inv, 150)["code"], 0);
    let part = expect(
        &s.call("books", "GET", &format!("/invoices/{inv}"), None),
        200,
        0,
    );
    assert_eq!(part["invoice"]["balance"], 50);
    assert_eq!(part["invoice"]["status"], "partially_paid");
    assert_eq!(unpaid(&s), vec![inv.clone()]);

    assert_eq!(
        pay(&s, &customer, &inv, 80)["code"],
        1400,
        "more than the balance"
    );
    assert_eq!(
        pay(&s, &customer, "404", 1)["code"],
        1002,
        "an invoice that does not exist"
    );
    assert_eq!(pay(&s, &customer, &inv, 50)["code"], 0);
    assert!(unpaid(&s).is_empty());
    let paid = expect(
        &s.call("books", "GET", "/invoices?status=paid", None),
        200,
        0,
    );
    assert_eq!(id(&paid["invoices"][0]["invoice_id"]), inv);
}
