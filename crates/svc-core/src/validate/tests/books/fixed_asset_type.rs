//! Tests of the fixed asset type rules.

use super::examples::example;
use super::support::{allowed, assert_ok, assert_one, run, set};
use crate::issue::IssueCode;
use crate::model::books as m;
use crate::schema::Params;
use crate::validate::tests::support::edge;
use serde_json::{json, Value};

const FIXED_ASSET_TYPE_FIELDS: [&str; 9] = [
    "fixed_asset_type_name",
    "expense_account_id",
    "depreciation_account_id",
    "depreciation_method",
    "depreciation_frequency",
    "depreciation_percentage",
    "total_life",
    "salvage_value",
    "computation_type",
];

#[test]
fn fixed_asset_type_update_with_all_nine_fields_passes() {
    assert_ok("updateFixedAssetType", &example("updateFixedAssetType"));
    assert_ok("createFixedAssetType", &json!({}));
}

#[test]
fn fixed_asset_type_update_without_any_one_field_fails() {
    for name in FIXED_ASSET_TYPE_FIELDS {
        let pointer = format!("/{name}");
        let params = set(example("updateFixedAssetType"), &pointer, Value::Null);
        assert_one(
            "updateFixedAssetType",
            &params,
            IssueCode::Required,
            &pointer,
            json!({}),
        );
    }
}

edge! {
    type_depreciation_method_straight_line_passes / type_depreciation_method_unlisted_fails:
        *m::FixedAssetTypeInput::SCHEMA, example("createFixedAssetType"), ["depreciation_method"],
        "straight_line" => "linear", InvalidValue { "allowed": allowed(m::DepreciationMethod::VALUES) };
    type_depreciation_frequency_monthly_passes / type_depreciation_frequency_unlisted_fails:
        *m::FixedAssetTypeUpdateInput::SCHEMA, example("updateFixedAssetType"), ["depreciation_frequency"],
        "monthly" => "Yearly", InvalidValue { "allowed": ["yearly", "monthly"] };
    type_percentage_100_passes / type_percentage_above_100_fails:
        *m::FixedAssetTypeInput::SCHEMA, example("createFixedAssetType"), ["depreciation_percentage"],
        100 => 101, OutOfRange { "minimum": 0, "maximum": 100 };
    type_percentage_0_passes / type_percentage_negative_fails:
        *m::FixedAssetTypeUpdateInput::SCHEMA, example("updateFixedAssetType"), ["depreciation_percentage"],
        0 => (-1), OutOfRange { "minimum": 0, "maximum": 100 };
    type_computation_type_no_prorata_passes / type_computation_type_unlisted_fails:
        *m::FixedAssetTypeUpdateInput::SCHEMA, example("updateFixedAssetType"), ["computation_type"],
        "no_prorata" => "none", InvalidValue { "allowed": ["prorata_basis", "no_prorata"] };
}

#[test]
fn fixed_asset_type_reports_every_issue() {
    let issues = run(
        "updateFixedAssetType",
        &json!({ "depreciation_method": "x", "total_life": "60" }),
    );
    let required = issues
        .iter()
        .filter(|i| i.code() == IssueCode::Required)
        .count();
    let got: Vec<(String, IssueCode)> = issues
        .iter()
        .filter(|i| i.code() != IssueCode::Required)
        .map(|i| (i.path_string(), i.code()))
        .collect();
    assert_eq!(required, 7);
    assert_eq!(
        got,
        [
            ("depreciation_method".to_string(), IssueCode::InvalidValue),
            ("total_life".to_string(), IssueCode::InvalidType),
        ]
    );
}
