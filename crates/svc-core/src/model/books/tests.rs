//! Decoding and declaration tests of the books wire types.

use super::*;
use crate::model::common::Id;
use serde_json::json;
use tsify::Tsify;

#[test]
fn ids_come_out_as_strings_with_every_digit() {
    let expense: Expense = serde_json::from_str(
        r#"{"expense_id": 10763000000140068, "project_id": 982000000567226, "taxes": [{"tax_id": 9007199254740993}]}"#,
    )
    .unwrap();
    assert_eq!(expense.expense_id, Id::from("10763000000140068"));
    let back = serde_json::to_value(&expense).unwrap();
    assert_eq!(back["project_id"], "982000000567226");
    assert_eq!(back["taxes"][0]["tax_id"], "9007199254740993");
}

#[test]
fn unknown_fields_are_kept_and_absent_ones_omitted() {
    let asset: FixedAsset =
        serde_json::from_value(json!({ "fixed_asset_id": "1", "future_field": { "a": 1 } }))
            .unwrap();
    assert_eq!(
        asset.extra["future_field"],
        svc_json::of_value(&json!({ "a": 1 }))
    );
    assert_eq!(
        serde_json::to_value(&asset).unwrap(),
        json!({ "fixed_asset_id": "1", "future_field": { "a": 1 } })
    );
}

#[test]
fn a_new_server_value_still_decodes() {
    let asset: FixedAsset = serde_json::from_value(
        json!({ "fixed_asset_id": "1", "depreciation_method": "units_of_production" }),
    )
    .unwrap();
    assert_eq!(
        asset.depreciation_method.as_deref(),
        Some("units_of_production")
    );
}

#[test]
fn value_sets_use_their_wire_names() {
    let method = serde_json::to_value(DepreciationMethod::DecliningMethod200).unwrap();
    assert_eq!(method, "200_declining_method");
    let size: IndustrySize = serde_json::from_value(json!("medium scale")).unwrap();
    assert_eq!(size, IndustrySize::MediumScale);
    assert_eq!(JournalType::VALUES, ["Cash", "Both", "cash", "both"]);
    assert!(serde_json::from_value::<MileageUnit>(json!("miles")).is_err());
}

#[test]
fn typescript_declarations_are_unions_and_optional_fields() {
    use tsify::Tsify;
    let decl = DepreciationMethod::DECL;
    assert!(decl.contains(r#""declining_method" | "straight_line" | "200_declining_method" | "150_declining_method""#), "{decl}");
    let decl = FixedAssetInput::DECL;
    assert!(decl.contains("asset_name: string;"), "{decl}");
    assert!(
        decl.contains("depreciation_method?: DepreciationMethod;"),
        "{decl}"
    );
    assert!(!decl.contains("Record<string, unknown>"), "{decl}");
    let decl = FixedAsset::DECL;
    assert!(
        decl.contains("depreciation_method?: DepreciationMethod;"),
        "{decl}"
    );
    assert!(decl.contains("Record<string, unknown>"), "{decl}");
    let decl = ExpenseUniqueFieldUpdateInput::DECL;
    assert!(decl.contains("ExpenseInput"), "{decl}");
}

#[test]
fn the_unique_field_update_is_its_headers_then_the_expense_flattened() {
    use crate::schema::Params;
    let (own, expense) = (ExpenseUniqueFieldUpdateInput::SCHEMA, ExpenseInput::SCHEMA);
    let names: Vec<_> = own.fields.iter().map(|f| f.name).collect();
    assert_eq!(
        names[..3],
        [
            "x_unique_identifier_key",
            "x_unique_identifier_value",
            "x_upsert"
        ]
    );
    assert_eq!(
        format!("{:?}", &own.fields[3..]),
        format!("{:?}", expense.fields)
    );
    assert_eq!(own.checks, expense.checks);
    assert_eq!(own.checks.len(), 2);
}

#[test]
fn a_lone_line_item_object_reads_as_a_list() {
    let credit: VendorCredit = serde_json::from_value(
        json!({ "vendor_credit_id": "1", "line_items": { "name": "Hosting" } }),
    )
    .unwrap();
    assert_eq!(
        credit.line_items.unwrap()[0].name.as_deref(),
        Some("Hosting")
    );
}

#[test]
fn the_attachment_result_is_comments_or_documents() {
    let docs: ExpenseAttachmentResult =
        serde_json::from_value(json!([{ "document_id": "9", "file_name": "a.pdf" }])).unwrap();
    assert!(
        matches!(docs, ExpenseAttachmentResult::Documents(ref d) if d[0].document_id == Id::from("9"))
    );
    let comments: ExpenseAttachmentResult =
        serde_json::from_value(json!([{ "comment_id": "7", "description": "attached" }])).unwrap();
    assert!(matches!(comments, ExpenseAttachmentResult::Comments(_)));
}

#[test]
fn a_fixed_asset_status_is_its_value_set_in_typescript_and_any_text_when_decoded() {
    assert!(FixedAsset::DECL.contains("status?: FixedAssetStatus"));
    assert!(FixedAssetListEntry::DECL.contains("status?: FixedAssetStatus"));
    let asset: FixedAsset =
        serde_json::from_value(json!({ "fixed_asset_id": "1", "status": "archived" })).unwrap();
    assert_eq!(asset.status.as_deref(), Some("archived"));
    for status in FixedAssetStatus::VALUES {
        let entry: FixedAssetListEntry =
            serde_json::from_value(json!({ "fixed_asset_id": "1", "status": status })).unwrap();
        assert_eq!(entry.status.as_deref(), Some(*status));
    }
}

#[test]
fn the_receipt_query_takes_the_vendor_preview_and_checks_nothing() {
    use crate::schema::Params;
    assert!(ExpenseReceiptQuery::DECL.contains("preview?: boolean"));
    assert!(ExpenseReceiptQuery::SCHEMA.fields.is_empty());
}
