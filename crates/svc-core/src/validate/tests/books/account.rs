//! Tests of the chart of accounts rules: accounts, their lists and transactions.

use super::examples::example;
use super::support::{allowed, assert_ok, assert_one, run, set};
use crate::issue::{Issue, IssueCode};
use crate::model::books as m;
use crate::schema::Params;
use crate::validate::tests::support::edge;
use serde_json::json;

edge! {
    account_type_accounts_payable_passes / account_type_unlisted_fails:
        *m::AccountInput::SCHEMA, example("createAccount"), ["account_type"],
        "accounts_payable" => "asset", InvalidValue { "allowed": allowed(m::AccountType::VALUES) };
    update_account_type_equity_passes / update_account_type_unlisted_fails:
        *m::AccountInput::SCHEMA, example("updateAccount"), ["account_type"],
        "equity" => "Equity", InvalidValue { "allowed": allowed(m::AccountType::VALUES) };
    account_filter_inactive_passes / account_filter_unlisted_fails:
        *m::AccountListQuery::SCHEMA, example("listAccounts"), ["filter_by"],
        "AccountType.Inactive" => "AccountType.Deleted", InvalidValue { "allowed": allowed(m::AccountFilter::VALUES) };
    account_sort_by_type_passes / account_sort_unlisted_fails:
        *m::AccountListQuery::SCHEMA, example("listAccounts"), ["sort_column"],
        "account_type" => "balance", InvalidValue { "allowed": ["account_name", "account_type"] };
    page_of_1_passes / page_of_0_fails:
        *m::AccountListQuery::SCHEMA, example("listAccounts"), ["page"], 1 => 0,
        OutOfRange { "minimum": 1, "maximum": 4294967295u64 };
    per_page_of_1_passes / per_page_of_0_fails:
        *m::AccountListQuery::SCHEMA, example("listAccounts"), ["per_page"], 1 => 0,
        OutOfRange { "minimum": 1, "maximum": 4294967295u64 };
    page_whole_number_passes / page_fraction_fails:
        *m::AccountListQuery::SCHEMA, example("listAccounts"), ["page"], 2 => 1.5,
        InvalidType { "expected": "integer" };
}

#[test]
fn every_list_pages_from_1() {
    for op in [
        "listAccounts",
        "listAccountTransactions",
        "listJournals",
        "listFixedAssets",
        "getFixedAssetHistory",
        "listFixedAssetTypes",
        "listVendorCredits",
        "listVendorCreditRefunds",
        "listAllVendorCreditRefunds",
        "listExpenses",
    ] {
        for name in ["page", "per_page"] {
            assert_ok(op, &set(example(op), &format!("/{name}"), json!(1)));
            let details = json!({ "minimum": 1, "maximum": 4294967295u64 });
            assert_one(
                op,
                &set(example(op), &format!("/{name}"), json!(0)),
                IssueCode::OutOfRange,
                &format!("/{name}"),
                details,
            );
        }
    }
}

#[test]
fn blank_list_filters_count_as_not_given() {
    assert_ok(
        "listAccounts",
        &json!({ "filter_by": "", "sort_column": "" }),
    );
    assert_ok(
        "listFixedAssets",
        &json!({ "filter_by": "", "sort_column": " ", "sort_order": "" }),
    );
    assert_ok("listVendorCredits", &json!({ "status": "" }));
    assert_ok(
        "listAccountTransactions",
        &json!({ "date": "", "amount": "", "filter_by": "", "sort_column": "" }),
    );
    assert_ok(
        "listJournals",
        &json!({ "date": "", "customer_id": "", "vendor_id": "", "filter_by": "" }),
    );
    assert_ok("listAllVendorCreditRefunds", &json!({ "sort_column": "" }));
}

#[test]
fn descriptions_have_no_500_limit_where_no_field_note_sets_one() {
    let long = json!("d".repeat(2001));
    assert_ok(
        "createAccount",
        &set(example("createAccount"), "/description", long.clone()),
    );
    assert_ok(
        "createFixedAsset",
        &set(example("createFixedAsset"), "/description", long.clone()),
    );
    assert_ok(
        "createExpense",
        &set(example("createExpense"), "/description", long.clone()),
    );
    assert_ok(
        "createVendorCreditRefund",
        &set(example("createVendorCreditRefund"), "/description", long),
    );
}

#[test]
fn account_body_reports_every_issue() {
    let issues = run(
        "createAccount",
        &json!({ "account_type": "asset", "show_on_dashboard": "no", "custom_fields": [{ "customfield_id": true }] }),
    );
    let got: Vec<String> = issues.iter().map(Issue::path_string).collect();
    assert_eq!(
        got,
        [
            "account_type",
            "show_on_dashboard",
            "custom_fields[0].customfield_id"
        ]
    );
}
