//! Decoding and declaration tests of the invoice wire types.

use super::*;
use crate::model::billing::NumberOrText;
use crate::model::common::Id;
use serde::{de::DeserializeOwned, Serialize};
use serde_json::{json, Value};
use tsify::Tsify;

fn vendor(name: &str) -> Value {
    let path =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/vendor/").to_string() + name;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap()
}

/// The resource under `key` of a vendor response: one object, or every member of an array.
fn resources(file: &str, key: &str) -> Vec<Value> {
    match vendor(file)["response_body"][key].clone() {
        Value::Array(items) => items,
        Value::Null => panic!("{file}: no {key}"),
        one => vec![one],
    }
}

/// Equal as JSON, where ids may have become strings and integers may have become floats.
pub(crate) fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::String(s), Value::Number(n)) | (Value::Number(n), Value::String(s)) => {
            *s == n.to_string()
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

pub(crate) fn decode_all<T: DeserializeOwned + Serialize>(file: &str, key: &str) -> Vec<T> {
    resources(file, key)
        .into_iter()
        .map(|v| {
            let t: T = serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{file}: {e}"));
            let back = serde_json::to_value(&t).unwrap();
            assert!(
                same_json(&back, &v),
                "{file}: the round trip keeps every field\n{back}\n{v}"
            );
            t
        })
        .collect()
}

#[test]
fn vendor_currency_responses_decode() {
    for file in [
        "books-as-invoice__create_currency.json",
        "books-as-invoice__get_currency.json",
        "books-as-invoice__update_currency.json",
    ] {
        let c: Vec<Currency> = decode_all(file, "currency");
        assert_eq!(c[0].currency_id, Id::from("982000000004012"));
        assert_eq!(c[0].price_precision, Some(2));
    }
    let list: Vec<CurrencyListEntry> =
        decode_all("books-as-invoice__list_currencies.json", "currencies");
    assert_eq!(list[0].effective_date.as_deref(), Some("2013-09-04"));
    assert_eq!(list[0].exchange_rate, Some(1.0));
}

#[test]
fn vendor_project_responses_decode() {
    for file in [
        "books-as-invoice__create_project.json",
        "books-as-invoice__update_project.json",
        "books-as-invoice__get_project.json",
    ] {
        let p: Vec<Project> = decode_all(file, "project");
        assert_eq!(p[0].billing_type.as_deref(), Some("fixed_cost_for_project"));
        assert_eq!(
            p[0].tasks.as_ref().unwrap()[0].task_id,
            Some(Id::from("460000000044009"))
        );
        assert_eq!(p[0].total_amount, Some(500.0));
    }
    let list: Vec<Project> = decode_all("books-as-invoice__list_projects.json", "projects");
    assert_eq!(list[0].total_hours.as_deref(), Some("12:26"));
}

#[test]
fn vendor_project_comment_and_invoice_responses_decode() {
    let added: Vec<ProjectComment> =
        decode_all("books-as-invoice__add_project_comment.json", "comments");
    assert_eq!(added[0].comment_id, Id::from("460000000044027"));
    let listed: Vec<ProjectComment> =
        decode_all("books-as-invoice__list_project_comments.json", "comments");
    assert_eq!(listed[0].is_current_user, Some(true));
    let invoices: Vec<ProjectInvoice> =
        decode_all("books-as-invoice__list_project_invoices.json", "invoices");
    assert_eq!(
        invoices[0].total,
        Some(svc_json::of_value(&json!("310.75")))
    );
}

#[test]
fn vendor_recurring_invoice_responses_decode() {
    for file in [
        "books-as-invoice__create_recurring_invoice.json",
        "books-as-invoice__get_recurring_invoice.json",
        "books-as-invoice__update_recurring_invoice.json",
    ] {
        let r: Vec<RecurringInvoice> = decode_all(file, "recurring_invoice");
        let line = &r[0].line_items.as_ref().unwrap()[0];
        assert_eq!(
            line.project_id,
            Some(Id::from("90300000087378")),
            "{file}: numeric ids become strings"
        );
        let gateways = r[0]
            .payment_options
            .as_ref()
            .unwrap()
            .payment_gateways
            .as_ref()
            .unwrap();
        assert_eq!(gateways[0].gateway_name.as_deref(), Some("paypal"));
        assert!(
            r[0].extra.contains_key("contact_persons_associated"),
            "{file}: unknown fields are kept"
        );
    }
}

#[test]
fn ids_beyond_2_pow_53_keep_every_digit() {
    let p: Project = serde_json::from_str(
        r#"{"project_id": 18446744073709551615, "customer_id": 9007199254740993}"#,
    )
    .unwrap();
    assert_eq!(p.project_id, Id::from("18446744073709551615"));
    assert_eq!(
        serde_json::to_value(&p).unwrap()["customer_id"],
        json!("9007199254740993")
    );
}

#[test]
fn requests_omit_absent_fields_and_send_value_sets_as_strings() {
    let input = ProjectInput {
        project_name: "Traffic flux".into(),
        customer_id: "460000000044001".into(),
        user_id: "460000000024003".into(),
        billing_type: ProjectBillingType::BasedOnTaskHours,
        currency_id: None,
        description: None,
        status: None,
        rate: Some(NumberOrText::Text("12.5".into())),
        budget_type: Some(ProjectBudgetType::HoursPerStaff),
        budget_hours: None,
        budget_amount: None,
        tasks: None,
        users: Some(vec![ProjectUserInput {
            user_id: "460000000024003".into(),
            is_current_user: None,
            user_name: None,
            email: None,
            user_role: Some(ProjectUserRole::TimesheetStaff),
            status: None,
            rate: None,
            budget_hours: None,
            total_hours: None,
            billed_hours: None,
            un_billed_hours: None,
        }]),
    };
    assert_eq!(
        serde_json::to_value(&input).unwrap(),
        json!({
            "project_name": "Traffic flux",
            "customer_id": "460000000044001",
            "user_id": "460000000024003",
            "billing_type": "based_on_task_hours",
            "rate": "12.5",
            "budget_type": "hours_per_staff",
            "users": [{"user_id": "460000000024003", "user_role": "timesheetstaff"}]
        })
    );
}

#[test]
fn vendor_request_bodies_decode_into_the_input_types() {
    let body = |file: &str| vendor(file)["request_body"].clone();
    let _: CurrencyInput =
        serde_json::from_value(body("books-as-invoice__create_currency.json")).unwrap();
    let _: ProjectCommentInput =
        serde_json::from_value(body("books-as-invoice__add_project_comment.json")).unwrap();
    let r: RecurringInvoiceInput =
        serde_json::from_value(body("books-as-invoice__create_recurring_invoice.json")).unwrap();
    assert_eq!(
        r.line_items.unwrap()[0].product_type,
        Some(InvoiceProductType::Goods)
    );
}

#[test]
fn value_sets_serialize_to_their_listed_strings() {
    for (i, v) in [
        PaymentGatewayName::Paypal,
        PaymentGatewayName::AuthorizeNet,
        PaymentGatewayName::PayflowPro,
        PaymentGatewayName::Stripe,
        PaymentGatewayName::TwoCheckout,
        PaymentGatewayName::Braintree,
    ]
    .into_iter()
    .enumerate()
    {
        assert_eq!(
            serde_json::to_value(v).unwrap(),
            json!(PaymentGatewayName::VALUES[i])
        );
        assert_eq!(v.as_str(), PaymentGatewayName::VALUES[i]);
    }
    let f: ProjectFilter = serde_json::from_value(json!("Status.Inactive")).unwrap();
    assert_eq!(f, ProjectFilter::Inactive);
}

#[test]
fn typescript_declarations_use_unions_and_keep_extra_on_responses_only() {
    assert!(
        ProjectBillingType::DECL.contains(r#""fixed_cost_for_project" | "based_on_project_hours""#)
    );
    assert!(PaymentGatewayName::DECL.contains(r#""2checkout""#));
    assert!(
        ProjectInput::DECL.contains("billing_type: ProjectBillingType"),
        "{}",
        ProjectInput::DECL
    );
    assert!(
        ProjectInput::DECL.contains("rate?: NumberOrText"),
        "{}",
        ProjectInput::DECL
    );
    assert!(!ProjectInput::DECL.contains("Record<string, unknown>"));
    assert!(
        Project::DECL.contains("Record<string, unknown>"),
        "{}",
        Project::DECL
    );
    assert!(
        Project::DECL.contains("status?: ProjectStatus"),
        "{}",
        Project::DECL
    );
}
