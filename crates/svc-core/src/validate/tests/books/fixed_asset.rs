//! Tests of the fixed asset rules.

use super::examples::example;
use super::support::{allowed, assert_ok, assert_one, run, set};
use crate::issue::IssueCode;
use crate::model::books as m;
use crate::schema::Params;
use crate::validate::tests::support::{edge, expect_all};
use serde_json::{json, Value};

edge! {
    asset_name_given_passes / asset_name_missing_fails:
        *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["asset_name"],
        "Laptop" => null, Required {};
    fixed_asset_type_id_given_passes / fixed_asset_type_id_missing_fails:
        *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["fixed_asset_type_id"],
        3640355000000319008u64 => null, Required {};
    asset_account_id_given_passes / asset_account_id_missing_fails:
        *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["asset_account_id"],
        "3640355000000000367" => null, Required {};
    asset_cost_given_passes / asset_cost_missing_fails:
        *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["asset_cost"], 0 => null, Required {};
    asset_purchase_date_given_passes / asset_purchase_date_missing_fails:
        *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["asset_purchase_date"],
        "2024-12-17" => null, Required {};
    update_asset_name_given_passes / update_asset_name_missing_fails:
        *m::FixedAssetInput::SCHEMA, example("updateFixedAsset"), ["asset_name"],
        "Laptop" => null, Required {};
    asset_purchase_date_valid_passes / asset_purchase_date_impossible_fails:
        *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["asset_purchase_date"],
        "2024-12-31" => "2024-12-32", InvalidFormat { "format": "date" };
    depreciation_start_date_valid_passes / depreciation_start_date_reordered_fails:
        *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["depreciation_start_date"],
        "2025-01-01" => "01-01-2025", InvalidFormat { "format": "date" };
    warranty_expiry_date_valid_passes / warranty_expiry_date_with_time_fails:
        *m::FixedAssetInput::SCHEMA, example("updateFixedAsset"), ["warranty_expiry_date"],
        "2027-12-17" => "2027-12-17T00:00:00", InvalidFormat { "format": "date" };
    depreciation_method_150_passes / depreciation_method_unlisted_fails:
        *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["depreciation_method"],
        "150_declining_method" => "sum_of_years_digits", InvalidValue { "allowed": allowed(m::DepreciationMethod::VALUES) };
    depreciation_frequency_monthly_passes / depreciation_frequency_unlisted_fails:
        *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["depreciation_frequency"],
        "monthly" => "weekly", InvalidValue { "allowed": ["yearly", "monthly"] };
    depreciation_percentage_100_passes / depreciation_percentage_above_100_fails:
        *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["depreciation_percentage"],
        100 => 100.5, OutOfRange { "minimum": 0, "maximum": 100 };
    depreciation_percentage_0_passes / depreciation_percentage_negative_fails:
        *m::FixedAssetInput::SCHEMA, example("updateFixedAsset"), ["depreciation_percentage"],
        0 => (-0.5), OutOfRange { "minimum": 0, "maximum": 100 };
    computation_type_no_prorata_passes / computation_type_unlisted_fails:
        *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["computation_type"],
        "no_prorata" => "daily", InvalidValue { "allowed": ["prorata_basis", "no_prorata"] };
    asset_filter_fully_depreciated_passes / asset_filter_unlisted_fails:
        *m::FixedAssetListQuery::SCHEMA, example("listFixedAssets"), ["filter_by"],
        "Status.FullyDepreciated" => "Status.Broken", InvalidValue { "allowed": allowed(m::FixedAssetFilter::VALUES) };
    asset_sort_by_current_value_passes / asset_sort_unlisted_fails:
        *m::FixedAssetListQuery::SCHEMA, example("listFixedAssets"), ["sort_column"],
        "current_asset_value" => "status", InvalidValue { "allowed": allowed(m::FixedAssetSortColumn::VALUES) };
    asset_sort_order_d_passes / asset_sort_order_word_fails:
        *m::FixedAssetListQuery::SCHEMA, example("listFixedAssets"), ["sort_order"], "D" => "desc",
        InvalidValue { "allowed": ["A", "D"] };
}

#[test]
fn percentage_with_a_declining_method_passes() {
    for method in [
        "declining_method",
        "200_declining_method",
        "150_declining_method",
    ] {
        let params = set(
            example("createFixedAsset"),
            "/depreciation_method",
            json!(method),
        );
        assert_ok("createFixedAsset", &params);
    }
    let straight = set(
        example("createFixedAsset"),
        "/depreciation_method",
        json!("straight_line"),
    );
    assert_ok(
        "createFixedAsset",
        &set(straight, "/depreciation_percentage", Value::Null),
    );
}

#[test]
fn percentage_with_straight_line_fails() {
    for op in ["createFixedAsset", "updateFixedAsset"] {
        let params = set(example(op), "/depreciation_method", json!("straight_line"));
        assert_one(
            op,
            &params,
            IssueCode::NotAllowed,
            "/depreciation_percentage",
            json!({}),
        );
    }
}

edge! {
    write_off_date_passes / write_off_date_with_time_fails:
        *m::FixedAssetWriteOffInput::SCHEMA, example("writeOffFixedAsset"), ["date"],
        "2024-12-17" => "2024-12-17T10:00:00+0530", InvalidFormat { "format": "date" };
    sale_invoice_id_digits_pass / sale_invoice_id_fraction_fails:
        *m::FixedAssetSaleInput::SCHEMA, example("sellFixedAsset"), ["invoice_id"],
        "3640355000000319008" => 1.5, InvalidType { "expected": "id (string or integer)" };
    asset_comment_text_passes / asset_comment_number_fails:
        *m::FixedAssetCommentInput::SCHEMA, example("addFixedAssetComment"), ["description"],
        "Serviced" => 7, InvalidType { "expected": "string" };
}

#[test]
fn fixed_asset_reports_every_issue() {
    let issues = run(
        "createFixedAsset",
        &json!({
            "asset_name": "Laptop", "depreciation_method": "straight_line", "depreciation_percentage": 120,
            "asset_purchase_date": "2024/12/17", "tags": [{ "tag_id": false }]
        }),
    );
    expect_all(
        &issues,
        &[
            ("fixed_asset_type_id", IssueCode::Required),
            ("asset_account_id", IssueCode::Required),
            ("depreciation_percentage", IssueCode::OutOfRange),
            ("asset_cost", IssueCode::Required),
            ("asset_purchase_date", IssueCode::InvalidFormat),
            ("tags[0].tag_id", IssueCode::InvalidType),
            ("depreciation_percentage", IssueCode::NotAllowed),
        ],
    );
}
