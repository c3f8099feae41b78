//! Tests of the expense rules, mileage and receipts included.

use super::examples::example;
use super::support::{allowed, assert_ok, assert_one, run, set};
use crate::issue::IssueCode;
use crate::model::books as m;
use crate::schema::Params;
use crate::validate::tests::support::{edge, expect_all};
use serde_json::{json, Value};

edge! {
    expense_date_valid_passes / expense_date_impossible_fails:
        *m::ExpenseInput::SCHEMA, example("createExpense"), ["date"],
        "2013-11-30" => "2013-11-31", InvalidFormat { "format": "date" };
    expense_gst_treatment_consumer_passes / expense_gst_treatment_unlisted_fails:
        *m::ExpenseInput::SCHEMA, example("createExpense"), ["gst_treatment"],
        "consumer" => "business_sez", InvalidValue { "allowed": ["business_gst", "business_none", "overseas", "consumer"] };
    expense_tax_treatment_non_kenya_passes / expense_tax_treatment_mexican_fails:
        *m::ExpenseInput::SCHEMA, example("createExpense"), ["tax_treatment"],
        "non_kenya" => "non_mexico", InvalidValue { "allowed": allowed(m::ExpenseTaxTreatment::VALUES) };
    expense_vat_treatment_overseas_passes / expense_vat_treatment_unlisted_fails:
        *m::ExpenseInput::SCHEMA, example("createExpense"), ["vat_treatment"],
        "overseas" => "eu", InvalidValue { "allowed": allowed(m::VatTreatment::VALUES) };
    expense_product_type_capital_goods_passes / expense_product_type_unlisted_fails:
        *m::ExpenseInput::SCHEMA, example("createExpense"), ["product_type"],
        "capital_goods" => "services", InvalidValue { "allowed": allowed(m::ExpenseProductType::VALUES) };
    expense_line_product_type_digital_service_passes / expense_line_product_type_unlisted_fails:
        *m::ExpenseInput::SCHEMA, example("createExpense"), ["line_items", 0, "product_type"],
        "digital_service" => "software", InvalidValue { "allowed": allowed(m::ExpenseProductType::VALUES) };
    expense_line_description_of_2000_passes / expense_line_description_of_2001_fails:
        *m::ExpenseInput::SCHEMA, example("createExpense"), ["line_items", 0, "description"],
        ("d".repeat(2000)) => ("d".repeat(2001)), TooLong { "maximum": 2000 };
    mileage_type_odometer_passes / mileage_type_unlisted_fails:
        *m::ExpenseInput::SCHEMA, example("createExpense"), ["mileage_type"],
        "odometer" => "gps", InvalidValue { "allowed": ["non_mileage", "odometer", "manual"] };
    mileage_unit_mile_passes / mileage_unit_unlisted_fails:
        *m::ExpenseInput::SCHEMA, example("createExpense"), ["mileage_unit"], "mile" => "miles",
        InvalidValue { "allowed": ["km", "mile"] };
    vehicle_type_motorcycle_passes / vehicle_type_unlisted_fails:
        *m::ExpenseInput::SCHEMA, example("createExpense"), ["vehicle_type"],
        "motorcycle" => "truck", InvalidValue { "allowed": ["car", "van", "motorcycle", "bike"] };
    fuel_type_lpg_passes / fuel_type_unlisted_fails:
        *m::ExpenseInput::SCHEMA, example("createExpense"), ["fuel_type"], "lpg" => "electric",
        InvalidValue { "allowed": ["petrol", "lpg", "diesel"] };
    engine_capacity_range_more_than_2000cc_passes / engine_capacity_range_unlisted_fails:
        *m::ExpenseUniqueFieldUpdateInput::SCHEMA, example("updateExpenseByUniqueField"), ["engine_capacity_range"],
        "more_than_2000cc" => "2000cc", InvalidValue { "allowed": allowed(m::EngineCapacityRange::VALUES) };
    unique_key_given_passes / unique_key_missing_fails:
        *m::ExpenseUniqueFieldUpdateInput::SCHEMA, example("updateExpenseByUniqueField"), ["x_unique_identifier_key"],
        "cf_unique_cf" => null, Required {};
    unique_value_given_passes / unique_value_missing_fails:
        *m::ExpenseUniqueFieldUpdateInput::SCHEMA, example("updateExpenseByUniqueField"), ["x_unique_identifier_value"],
        "INV-7" => "", Required {};
    upsert_boolean_passes / upsert_word_fails:
        *m::ExpenseUniqueFieldUpdateInput::SCHEMA, example("updateExpenseByUniqueField"), ["x_upsert"],
        "false" => "yes", InvalidType { "expected": "boolean" };
    unique_update_date_valid_passes / unique_update_date_impossible_fails:
        *m::ExpenseUniqueFieldUpdateInput::SCHEMA, example("updateExpenseByUniqueField"), ["date"],
        "2024-02-29" => "2024-02-30", InvalidFormat { "format": "date" };
}

#[test]
fn mileage_value_sets_count_a_blank_as_not_given() {
    let mut params = example("createExpense");
    for name in [
        "mileage_unit",
        "vehicle_type",
        "fuel_type",
        "engine_capacity_range",
    ] {
        params = set(params, &format!("/{name}"), json!(" "));
    }
    assert_ok("createExpense", &params);
}

#[test]
fn readings_with_odometer_pass() {
    for op in ["createExpense", "updateExpenseByUniqueField"] {
        assert_ok(op, &example(op));
        let without = set(
            set(example(op), "/mileage_type", json!("manual")),
            "/start_reading",
            json!(" "),
        );
        assert_ok(op, &set(without, "/end_reading", Value::Null));
    }
}

#[test]
fn readings_without_odometer_fail() {
    for mileage_type in [json!("manual"), json!("non_mileage"), Value::Null] {
        for reading in ["start_reading", "end_reading"] {
            let other = if reading == "start_reading" {
                "/end_reading"
            } else {
                "/start_reading"
            };
            let params = set(
                set(
                    example("createExpense"),
                    "/mileage_type",
                    mileage_type.clone(),
                ),
                other,
                Value::Null,
            );
            assert_one(
                "createExpense",
                &params,
                IssueCode::NotAllowed,
                &format!("/{reading}"),
                json!({}),
            );
        }
    }
}

#[test]
fn expense_reports_every_issue() {
    let issues = run(
        "updateExpenseByUniqueField",
        &json!({
            "x_upsert": 1, "date": "18-11-2013", "mileage_type": "manual", "start_reading": 10,
            "vehicle_type": "truck", "line_items": [{ "product_type": "x", "amount": "1" }]
        }),
    );
    expect_all(
        &issues,
        &[
            ("x_unique_identifier_key", IssueCode::Required),
            ("x_unique_identifier_value", IssueCode::Required),
            ("x_upsert", IssueCode::InvalidType),
            ("date", IssueCode::InvalidFormat),
            ("line_items[0].amount", IssueCode::InvalidType),
            ("line_items[0].product_type", IssueCode::InvalidValue),
            ("vehicle_type", IssueCode::InvalidValue),
            ("start_reading", IssueCode::NotAllowed),
        ],
    );
}

edge! {
    expense_list_amount_number_passes / expense_list_amount_string_fails:
        *m::ExpenseListQuery::SCHEMA, example("listExpenses"), ["amount"],
        112.5 => "112.5", InvalidType { "expected": "number" };
    expense_list_customer_id_digits_passes / expense_list_customer_id_fraction_fails:
        *m::ExpenseListQuery::SCHEMA, example("listExpenses"), ["customer_id"],
        "982000000567001" => 1.5, InvalidType { "expected": "id (string or integer)" };
    expense_update_date_valid_passes / expense_update_date_impossible_fails:
        *m::ExpenseInput::SCHEMA, example("updateExpense"), ["date"],
        "2013-11-18" => "2013-11-31", InvalidFormat { "format": "date" };
}

#[test]
fn expense_list_filters_may_be_blank_as_the_vendor_sends_them() {
    assert_ok(
        "listExpenses",
        &json!({ "vendor_id": "", "vendor_name": "", "reference_number": "" }),
    );
}

#[test]
fn expense_receipt_types_are_the_attachment_types_but_text_and_csv() {
    let op = crate::catalog::find("addExpenseReceipt").unwrap();
    let crate::catalog::BodyKind::Multipart { accept, many, .. } = op.body else {
        panic!("addExpenseReceipt is an upload");
    };
    assert!(!many);
    let mut types = accept.to_vec();
    types.extend(["txt", "csv"]);
    assert_eq!(types, crate::catalog::ATTACHMENT_TYPES);
}
