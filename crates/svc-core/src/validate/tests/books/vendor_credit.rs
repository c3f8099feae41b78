//! Tests of the vendor credit and refund rules, and of the books list queries.

use super::examples::example;
use super::support::{allowed, assert_ok, assert_one, run, set};
use crate::issue::IssueCode;
use crate::model::books as m;
use crate::schema::Params;
use crate::validate::tests::support::{edge, expect_all};
use serde_json::json;

edge! {
    vendor_credit_update_date_valid_passes / vendor_credit_update_date_impossible_fails:
        *m::VendorCreditInput::SCHEMA, example("updateVendorCredit"), ["date"],
        "2014-08-28" => "2014-02-30", InvalidFormat { "format": "date" };
    bill_amount_applied_number_passes / bill_amount_applied_string_fails:
        *m::VendorCreditBillsInput::SCHEMA, example("applyVendorCreditToBills"), ["bills", 0, "amount_applied"],
        10 => "10", InvalidType { "expected": "number" };
    bill_id_given_passes / bill_id_empty_fails:
        *m::VendorCreditBillsInput::SCHEMA, example("applyVendorCreditToBills"), ["bills", 0, "bill_id"],
        "460000000057075" => "", InvalidType { "expected": "id (string or integer)" };
    vendor_credit_comment_text_passes / vendor_credit_comment_number_fails:
        *m::VendorCreditCommentInput::SCHEMA, example("addVendorCreditComment"), ["description"],
        "Credits applied to Bill 1" => 1, InvalidType { "expected": "string" };
    vendor_credit_accept_text_passes / vendor_credit_accept_number_fails:
        *m::VendorCreditGetQuery::SCHEMA, example("getVendorCredit"), ["accept"],
        "json" => 1, InvalidType { "expected": "string" };
}

edge! {
    vendor_credit_date_valid_passes / vendor_credit_date_impossible_fails:
        *m::VendorCreditInput::SCHEMA, example("createVendorCredit"), ["date"],
        "2014-08-28" => "2014-02-30", InvalidFormat { "format": "date" };
    vendor_credit_gst_treatment_overseas_passes / vendor_credit_gst_treatment_unlisted_fails:
        *m::VendorCreditInput::SCHEMA, example("createVendorCredit"), ["gst_treatment"],
        "overseas" => "foreign", InvalidValue { "allowed": ["business_gst", "business_none", "overseas", "consumer"] };
    vendor_credit_tax_treatment_non_mexico_passes / vendor_credit_tax_treatment_unlisted_fails:
        *m::VendorCreditInput::SCHEMA, example("createVendorCredit"), ["tax_treatment"],
        "non_mexico" => "mexico", InvalidValue { "allowed": allowed(m::VendorCreditTaxTreatment::VALUES) };
    tax_treatment_code_ksa_passes / tax_treatment_code_unlisted_fails:
        *m::VendorCreditInput::SCHEMA, example("createVendorCredit"), ["line_items", 0, "tax_treatment_code"],
        "ksa_reimbursed_expense" => "ksa_others", InvalidValue { "allowed": allowed(m::TaxTreatmentCode::VALUES) };
    line_item_name_of_100_passes / line_item_name_of_101_fails:
        *m::VendorCreditInput::SCHEMA, example("createVendorCredit"), ["line_items", 0, "name"],
        ("n".repeat(100)) => ("n".repeat(101)), TooLong { "maximum": 100 };
    line_item_description_of_2000_passes / line_item_description_of_2001_fails:
        *m::VendorCreditInput::SCHEMA, example("createVendorCredit"), ["line_items", 0, "description"],
        ("d".repeat(2000)) => ("d".repeat(2001)), TooLong { "maximum": 2000 };
    serial_numbers_of_strings_pass / serial_numbers_with_a_number_fail:
        *m::VendorCreditInput::SCHEMA, example("createVendorCredit"), ["line_items", 0, "serial_numbers"],
        ["SN-1"] => ["SN-1", 2], InvalidType { "expected": "string" } at ["line_items", 0, "serial_numbers", 1];
    vendor_credit_status_void_passes / vendor_credit_status_unlisted_fails:
        *m::VendorCreditListQuery::SCHEMA, example("listVendorCredits"), ["status"], "void" => "paid",
        InvalidValue { "allowed": ["open", "closed", "void", "draft"] };
    refund_date_valid_passes / refund_date_impossible_fails:
        *m::VendorCreditRefundInput::SCHEMA, example("createVendorCreditRefund"), ["date"],
        "2014-08-30" => "2014-08-32", InvalidFormat { "format": "date" };
    refund_update_date_valid_passes / refund_update_date_with_slashes_fails:
        *m::VendorCreditRefundInput::SCHEMA, example("updateVendorCreditRefund"), ["date"],
        "2014-08-28" => "2014/08/28", InvalidFormat { "format": "date" };
    refund_amount_number_passes / refund_amount_string_fails:
        *m::VendorCreditRefundInput::SCHEMA, example("createVendorCreditRefund"), ["amount"],
        13.5 => "13", InvalidType { "expected": "number" };
    all_refunds_sort_by_reference_passes / all_refunds_sort_unlisted_fails:
        *m::AllVendorCreditRefundsQuery::SCHEMA, example("listAllVendorCreditRefunds"), ["sort_column"],
        "reference_number" => "amount", InvalidValue { "allowed": allowed(m::VendorCreditRefundSortColumn::VALUES) };
}

#[test]
fn vendor_credit_date_filters_take_dates() {
    for name in ["date_start", "date_end", "date_before", "date_after"] {
        let pointer = format!("/{name}");
        assert_ok(
            "listVendorCredits",
            &set(example("listVendorCredits"), &pointer, json!("2024-02-29")),
        );
        let bad = set(example("listVendorCredits"), &pointer, json!("2023-02-29"));
        assert_one(
            "listVendorCredits",
            &bad,
            IssueCode::InvalidFormat,
            &pointer,
            json!({ "format": "date" }),
        );
    }
}

#[test]
fn vendor_credit_total_filters_take_numbers() {
    for name in [
        "total_start",
        "total_end",
        "total_less_than",
        "total_less_equals",
        "total_greater_than",
        "total_greater_equals",
    ] {
        let pointer = format!("/{name}");
        assert_ok(
            "listVendorCredits",
            &set(example("listVendorCredits"), &pointer, json!(0.5)),
        );
        let bad = set(example("listVendorCredits"), &pointer, json!("100"));
        assert_one(
            "listVendorCredits",
            &bad,
            IssueCode::InvalidType,
            &pointer,
            json!({ "expected": "number" }),
        );
    }
}

#[test]
fn vendor_credit_reports_every_issue() {
    let issues = run(
        "createVendorCredit",
        &json!({
            "tax_treatment": "mexico", "date": "2014-8-28",
            "line_items": [{ "name": "n".repeat(101), "serial_numbers": "SN-1", "tax_treatment_code": "x" }]
        }),
    );
    expect_all(
        &issues,
        &[
            ("tax_treatment", IssueCode::InvalidValue),
            ("date", IssueCode::InvalidFormat),
            ("line_items[0].name", IssueCode::TooLong),
            ("line_items[0].tax_treatment_code", IssueCode::InvalidValue),
            ("line_items[0].serial_numbers", IssueCode::InvalidType),
        ],
    );
}

#[test]
fn list_queries_report_every_issue() {
    let issues = run(
        "listVendorCredits",
        &json!({ "status": "paid", "date_start": "yesterday", "total_end": "9", "page": 0, "per_page": 1.5 }),
    );
    expect_all(
        &issues,
        &[
            ("date_start", IssueCode::InvalidFormat),
            ("status", IssueCode::InvalidValue),
            ("total_end", IssueCode::InvalidType),
            ("page", IssueCode::OutOfRange),
            ("per_page", IssueCode::InvalidType),
        ],
    );
}
