//! Tests of the journal rules.

use super::examples::example;
use super::support::{allowed, assert_ok, run, set};
use crate::issue::IssueCode;
use crate::model::books as m;
use crate::schema::Params;
use crate::validate::tests::support::{edge, expect_all};
use serde_json::json;

edge! {
    journal_date_given_passes / journal_date_missing_fails:
        *m::JournalInput::SCHEMA, example("createJournal"), ["journal_date"],
        "2013-09-04" => null, Required {};
    journal_date_leap_day_passes / journal_date_impossible_fails:
        *m::JournalInput::SCHEMA, example("createJournal"), ["journal_date"],
        "2024-02-29" => "2023-02-29", InvalidFormat { "format": "date" };
    journal_line_debit_passes / journal_line_unlisted_side_fails:
        *m::JournalInput::SCHEMA, example("createJournal"), ["line_items", 0, "debit_or_credit"],
        "debit" => "both", InvalidValue { "allowed": ["debit", "credit"] };
    journal_line_side_given_passes / journal_line_side_missing_fails:
        *m::JournalInput::SCHEMA, example("createJournal"), ["line_items", 1, "debit_or_credit"],
        "credit" => null, Required {};
    journal_line_amount_zero_passes / journal_line_amount_string_fails:
        *m::JournalInput::SCHEMA, example("createJournal"), ["line_items", 0, "amount"],
        0 => "5000", InvalidType { "expected": "number" };
    journal_line_amount_given_passes / journal_line_amount_missing_fails:
        *m::JournalInput::SCHEMA, example("createJournal"), ["line_items", 1, "amount"],
        0.01 => null, Required {};
    journal_type_cash_passes / journal_type_unlisted_fails:
        *m::JournalInput::SCHEMA, example("createJournal"), ["journal_type"],
        "Cash" => "accrual", InvalidValue { "allowed": ["Cash", "Both", "cash", "both"] };
    journal_status_published_passes / journal_status_unlisted_fails:
        *m::JournalInput::SCHEMA, example("createJournal"), ["status"], "published" => "void",
        InvalidValue { "allowed": ["draft", "published"] };
    journal_vat_treatment_non_eu_passes / journal_vat_treatment_unlisted_fails:
        *m::JournalInput::SCHEMA, example("createJournal"), ["vat_treatment"],
        "non_eu" => "string", InvalidValue { "allowed": allowed(m::VatTreatment::VALUES) };
    journal_product_type_digital_service_passes / journal_product_type_unlisted_fails:
        *m::JournalInput::SCHEMA, example("createJournal"), ["product_type"],
        "digital_service" => "capital_goods", InvalidValue { "allowed": ["digital_service", "goods", "service"] };
    journal_line_description_of_2000_passes / journal_line_description_of_2001_fails:
        *m::JournalInput::SCHEMA, example("createJournal"), ["line_items", 0, "description"],
        ("d".repeat(2000)) => ("d".repeat(2001)), TooLong { "maximum": 2000 };
    journal_tax_exemption_type_customer_passes / journal_tax_exemption_type_unlisted_fails:
        *m::JournalInput::SCHEMA, example("createJournal"), ["tax_exemption_type"],
        "customer" => "vendor", InvalidValue { "allowed": ["customer", "item"] };
    journal_line_tax_exemption_type_item_passes / journal_line_tax_exemption_type_unlisted_fails:
        *m::JournalInput::SCHEMA, example("createJournal"), ["line_items", 0, "tax_exemption_type"],
        "item" => "string", InvalidValue { "allowed": ["customer", "item"] };
}

#[test]
fn every_listed_journal_type_passes() {
    for t in m::JournalType::VALUES {
        assert_ok(
            "createJournal",
            &set(example("createJournal"), "/journal_type", json!(t)),
        );
    }
}

#[test]
fn journal_reports_every_issue() {
    let issues = run(
        "createJournal",
        &json!({
            "journal_type": "accrual",
            "line_items": [{ "debit_or_credit": "debit" }, { "amount": "1" }, null],
            "status": "open"
        }),
    );
    expect_all(
        &issues,
        &[
            ("journal_date", IssueCode::Required),
            ("journal_type", IssueCode::InvalidValue),
            ("line_items[0].amount", IssueCode::Required),
            ("line_items[1].debit_or_credit", IssueCode::Required),
            ("line_items[1].amount", IssueCode::InvalidType),
            ("line_items[2]", IssueCode::InvalidType),
            ("status", IssueCode::InvalidValue),
        ],
    );
}
