//! Decoding and declaration tests of the inventory wire types.

use super::*;
use crate::model::common::{Id, PageNumber};
use crate::model::invoice::tests::same_json;
use serde_json::{json, Value};
use tsify::Tsify;

fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(v: Value) -> T {
    let t: T = serde_json::from_value(v.clone()).unwrap();
    let back = serde_json::to_value(&t).unwrap();
    assert!(
        same_json(&back, &v),
        "the round trip keeps every field\n{back}\n{v}"
    );
    t
}

/// The vendor publishes no inventory examples; this package follows the documents, with the
/// numeric identifiers they describe (one beyond 2^53).
fn documented_package() -> Value {
    serde_json::from_str(
        r#"{
        "package_id": 4815000000044895,
        "package_number": "PA-00001",
        "date": "2015-05-28",
        "salesorder_id": 4815000000044822,
        "salesorder_number": "SO-00001",
        "customer_id": 18446744073709551615,
        "customer_name": "Bowman Furniture",
        "email": "b@example.com",
        "phone": "+1-925-921-9201",
        "mobile": "+1-4054439562",
        "notes": "handle with care",
        "is_emailed": false,
        "created_time": "2015-05-28T00:00:00-0700",
        "last_modified_time": "2015-05-28T00:00:00-0700",
        "total_quantity": 2,
        "template_id": 4815000000017003,
        "template_name": "Standard Template",
        "template_type": "standard",
        "billing_address": {"address": "4900 Hopyard Rd", "city": "Pleasanton", "state": "CA", "country": "U.S.A", "zip": "94588", "phone": "", "fax": ""},
        "shipping_address": {"address": "4900 Hopyard Rd", "city": "Pleasanton", "state": "CA", "country": "U.S.A", "zip": "94588", "fax": ""},
        "contact_persons": [{"contact_person_id": 4815000000044080}],
        "custom_fields": [{"customfield_id": "46000000012845", "value": "Normal"}],
        "line_items": [{
            "line_item_id": 4815000000044897,
            "so_line_item_id": 4815000000044828,
            "item_id": 4815000000044100,
            "name": "Laptop-white/15inch/dell",
            "description": "",
            "sku": "L-1",
            "unit": "qty",
            "quantity": 2,
            "is_invoiced": true,
            "item_order": 0,
            "item_custom_fields": [{
                "customfield_id": "46000000012845", "data_type": "text", "index": 1, "is_active": true,
                "label": "Label", "placeholder": "cf_label", "show_in_all_pdf": true, "show_on_pdf": true,
                "value": "Normal"
            }]
        }],
        "shipment_order": {"shipment_id": 1}
    }"#,
    )
    .unwrap()
}

#[test]
fn a_documented_package_decodes_with_string_ids_and_keeps_unknown_fields() {
    let p: Package = round_trip(documented_package());
    assert_eq!(p.customer_id, Some(Id::from("18446744073709551615")));
    let line = &p.line_items.as_ref().unwrap()[0];
    assert_eq!(line.so_line_item_id, Some(Id::from("4815000000044828")));
    assert_eq!(
        line.item_custom_fields.as_ref().unwrap()[0].show_on_pdf,
        Some(true)
    );
    assert!(p.extra.contains_key("shipment_order"));
    assert_eq!(
        serde_json::to_value(&p).unwrap()["package_id"],
        json!("4815000000044895")
    );
}

#[test]
fn a_documented_composite_item_decodes() {
    let c: CompositeItem = round_trip(serde_json::from_str(
        r#"{
        "composite_item_id": 4815000000044208,
        "name": "Laptop bundle",
        "unit": "qty",
        "tax_id": 4815000000044043,
        "tax_name": "VAT",
        "tax_percentage": 12.5,
        "tax_type": "tax",
        "description": "bundle",
        "purchase_account_id": 4815000000035003,
        "purchase_account_name": "Cost of Goods Sold",
        "account_id": 4815000000000388,
        "account_name": "Sales",
        "inventory_account_id": 4815000000035001,
        "inventory_account_name": "Inventory Asset",
        "status": "active",
        "source": "user",
        "is_combo_product": true,
        "item_type": "inventory",
        "product_type": "goods",
        "is_taxable": true,
        "rate": 1200,
        "pricebook_rate": 1200,
        "purchase_rate": 900,
        "reorder_level": 5,
        "initial_stock": 10,
        "initial_stock_rate": 900,
        "vendor_id": 4815000000044080,
        "vendor_name": "Dell",
        "stock_on_hand": 10,
        "asset_value": 9000,
        "available_stock": 10,
        "actual_available_stock": 10,
        "sku": "LB-1",
        "upc": 111111111111,
        "ean": "111111111112",
        "isbn": "111111111113",
        "part_number": "111111111114",
        "image_id": 2077500000000002000,
        "image_name": "bundle.jpg",
        "purchase_description": "bundle",
        "custom_fields": [{"custom_field_id": "46000000012845", "value": "x", "index": 1, "label": "L"}],
        "mapped_items": [{
            "line_item_id": 4815000000044210, "item_id": 4815000000044100, "name": "Laptop",
            "rate": 1000, "purchase_rate": 800, "sku": "L-1", "image_id": 1, "image_name": "l.jpg",
            "purchase_description": "", "image_type": "jpg", "unit": "qty", "is_combo_product": false,
            "description": "", "quantity": 1, "stock_on_hand": 10, "available_stock": 10,
            "actual_available_stock": 10
        }],
        "item_tax_preferences": [{"tax_id": 4815000000044043, "tax_specification": "intra"}],
        "hsn_or_sac": 80540,
        "created_time": "2015-05-28T00:00:00-0700",
        "last_modified_time": "2015-05-28T00:00:00-0700"
    }"#,
    )
    .unwrap());
    assert_eq!(c.composite_item_id, Id::from("4815000000044208"));
    assert_eq!(c.upc, Some(svc_json::of_value(&json!(111111111111u64))));
    assert_eq!(c.mapped_items.unwrap()[0].quantity, Some(1.0));
}

#[test]
fn package_params_carry_salesorder_id_and_update_lines_their_own_id() {
    let create: PackageInput = serde_json::from_value(json!({
        "salesorder_id": 4815000000044822u64,
        "date": "2015-05-28",
        "line_items": [{"so_line_item_id": 4815000000044828u64, "quantity": 2}]
    }))
    .unwrap();
    assert_eq!(
        serde_json::to_value(&create).unwrap(),
        json!({"salesorder_id": "4815000000044822", "date": "2015-05-28",
               "line_items": [{"so_line_item_id": "4815000000044828", "quantity": 2.0}]})
    );
    let update: PackageUpdateInput = serde_json::from_value(
        json!({"line_items": [{"line_item_id": "1", "so_line_item_id": "2", "quantity": 1}]}),
    )
    .unwrap();
    assert_eq!(
        update.line_items.unwrap()[0].line_item_id,
        Some(Id::from("1"))
    );
}

#[test]
fn list_queries_send_their_documented_values() {
    let q = PackageListQuery {
        status: Some(PackageStatusFilter::NotShipped),
        sort_column: Some(PackageSortColumn::ShipmentDate),
        date_after: Some("2024-01-01".into()),
        date_before: None,
        shipment_date_after: None,
        shipment_date_before: None,
        page: Some(PageNumber(1)),
        per_page: None,
    };
    assert_eq!(
        serde_json::to_value(&q).unwrap(),
        json!({"status": "NotShipped", "sort_column": "shipment_date", "date_after": "2024-01-01", "page": 1})
    );
    assert_eq!(
        serde_json::to_value(CompositeItemStatusFilter::All).unwrap(),
        json!("Status.All")
    );
    assert_eq!(CompositeItemStatusFilter::Lowstock.as_str(), "Lowstock");
    assert_eq!(CompositeItemSortColumn::VALUES.len(), 8);
}

#[test]
fn typescript_declarations_use_unions() {
    assert!(PackageStatusFilter::DECL.contains(r#""All" | "NotShipped" | "Shipped" | "Delivered""#));
    assert!(
        CompositeItemInput::DECL.contains("item_type?: CompositeItemType"),
        "{}",
        CompositeItemInput::DECL
    );
    assert!(!CompositeItemInput::DECL.contains("Record<string, unknown>"));
    assert!(
        CompositeItemTaxPreference::DECL.contains("tax_specification?: CompositeTaxSpecification")
    );
    assert!(Package::DECL.contains("Record<string, unknown>"));
}
