//! The tests of the rules of the inventory operations' params (the rules are declared with their types
//! in `crate::model::inventory`; the image upload's params are its file, `upload!` in the table).

use crate::catalog::find;
use crate::family::Family;
use crate::issue::IssueCode;
use crate::model::inventory as m;
use crate::schema::Params;
use crate::validate::tests::support::{edge, expect_all, issues};
use serde_json::{json, Value};

fn package() -> Value {
    json!({
        "salesorder_id": 4815000000044822u64,
        "package_number": "PA-00001",
        "date": "2015-05-28",
        "custom_fields": [{"customfield_id": "46000000012845", "value": "Normal"}],
        "line_items": [{"so_line_item_id": 4815000000044828u64, "quantity": 2}],
        "notes": "handle with care"
    })
}

fn package_update() -> Value {
    json!({
        "package_number": "PA-00001",
        "date": "2015-05-29",
        "line_items": [{"line_item_id": "4815000000044897", "so_line_item_id": 4815000000044828u64, "quantity": 1.5}],
        "notes": "split"
    })
}

fn package_query() -> Value {
    json!({
        "status": "Shipped",
        "sort_column": "shipment_date",
        "date_after": "2015-01-01",
        "date_before": "2015-12-31",
        "shipment_date_after": "2015-02-01",
        "shipment_date_before": "2015-11-30",
        "page": 1,
        "per_page": 200
    })
}

fn composite_item() -> Value {
    let mut v = json!({
        "name": "Laptop bundle",
        "description": "bundle",
        "is_combo_product": true,
        "vendor_id": 4815000000044080u64,
        "purchase_rate": 900,
        "purchase_description": "bundle",
        "initial_stock": 10,
        "initial_stock_rate": 900.5,
        "tax_id": "4815000000044043",
        "sku": "LB-1",
        "isbn": "111111111113",
        "ean": 111111111112u64,
        "part_number": "111111111114",
        "reorder_level": 5,
        "unit": "qty",
        "upc": 111111111111u64,
        "item_type": "inventory",
        "product_type": "goods",
        "rate": 1200,
        "account_id": 4815000000000388u64,
        "purchase_account_id": 4815000000035003u64,
        "inventory_account_id": 4815000000035001u64,
        "hsn_or_sac": 80540
    });
    v["mapped_items"] = json!([{"quantity": 1, "item_id": 4815000000044100u64, "line_item_id": "4815000000044210"}]);
    v["custom_fields"] =
        json!([{"custom_field_id": "46000000012845", "value": "x", "index": 1, "label": "L"}]);
    v["item_tax_preferences"] =
        json!([{"tax_id": "4815000000044043", "tax_specification": "inter"}]);
    v
}

fn composite_query() -> Value {
    json!({"status": "Lowstock", "sort_column": "reorder_level", "page": 1, "per_page": 200})
}

#[test]
fn the_documented_examples_pass_their_rows() {
    let examples = [
        ("createPackage", package()),
        ("listPackages", package_query()),
        ("getPackage", json!({})),
        ("updatePackage", package_update()),
        ("createCompositeItem", composite_item()),
        ("listCompositeItems", composite_query()),
        ("updateCompositeItem", composite_item()),
        (
            "uploadCompositeItemImage",
            json!({"image": {"name": "bundle.png", "data": []}}),
        ),
    ];
    for (id, example) in &examples {
        let op = find(id).unwrap();
        assert_eq!(op.family, Family::Inventory, "{id}");
        assert_eq!(issues(op.params, example), vec![], "{id}");
    }
}

#[test]
fn every_rule_set_names_an_inventory_operation_of_the_catalog() {
    for op in crate::catalog::operations()
        .iter()
        .filter(|op| op.family == Family::Inventory)
    {
        let (id, schema) = (op.id, op.params);
        for query_param in op.query {
            assert!(
                schema.field(query_param).is_some(),
                "{id}: {query_param} is validated with the params"
            );
        }
    }
}

#[test]
fn composite_items_require_nothing() {
    assert!(issues(m::CompositeItemInput::SCHEMA, &json!({})).is_empty());
    assert!(issues(m::CompositeItemInput::SCHEMA, &json!({})).is_empty());
}

#[test]
fn every_package_issue_is_reported() {
    let p = json!({
        "date": "28-05-2015",
        "line_items": [{"so_line_item_id": true, "quantity": "2"}, {"quantity": 1}, {"so_line_item_id": "", "quantity": null}],
        "custom_fields": {"customfield_id": "1"}
    });
    expect_all(
        &issues(m::PackageInput::SCHEMA, &p),
        &[
            ("salesorder_id", IssueCode::Required),
            ("date", IssueCode::InvalidFormat),
            ("custom_fields", IssueCode::InvalidType),
            ("line_items[0].so_line_item_id", IssueCode::InvalidType),
            ("line_items[0].quantity", IssueCode::InvalidType),
            ("line_items[2].so_line_item_id", IssueCode::InvalidType),
        ],
    );
}

#[test]
fn every_composite_item_issue_is_reported() {
    let p = json!({
        "item_type": "service",
        "product_type": "services",
        "mapped_items": [{"quantity": "1"}],
        "item_tax_preferences": [{"tax_specification": "both"}],
        "rate": "1200"
    });
    let found = issues(m::CompositeItemInput::SCHEMA, &p);
    expect_all(
        &found,
        &[
            ("mapped_items[0].quantity", IssueCode::InvalidType),
            ("item_type", IssueCode::InvalidValue),
            ("product_type", IssueCode::InvalidValue),
            ("rate", IssueCode::InvalidType),
            (
                "item_tax_preferences[0].tax_specification",
                IssueCode::InvalidValue,
            ),
        ],
    );
    assert_eq!(
        json!(found[4].path),
        json!(["item_tax_preferences", 0, "tax_specification"])
    );
}

edge! {
    // packages
    salesorder_id_present_passes / salesorder_id_missing_fails:
        *m::PackageInput::SCHEMA, package(), ["salesorder_id"], "4815000000044822" => null, Required {};
    salesorder_id_number_passes / salesorder_id_blank_fails:
        *m::PackageInput::SCHEMA, package(), ["salesorder_id"], 4815000000044822u64 => " ", Required {};
    package_date_passes / package_date_slashes_fail:
        *m::PackageInput::SCHEMA, package(), ["date"], "2024-02-29" => "2024/02/29", InvalidFormat {"format": "date"};
    update_package_date_passes / update_package_date_invalid_day_fails:
        *m::PackageUpdateInput::SCHEMA, package_update(), ["date"], "2015-04-30" => "2015-04-31", InvalidFormat {"format": "date"};
    package_line_so_line_item_id_passes / package_line_so_line_item_id_boolean_fails:
        *m::PackageInput::SCHEMA, package(), ["line_items", 0, "so_line_item_id"], "4815000000044828" => false,
        InvalidType {"expected": "id (string or integer)"};
    package_line_quantity_number_passes / package_line_quantity_string_fails:
        *m::PackageInput::SCHEMA, package(), ["line_items", 0, "quantity"], 0.5 => "2", InvalidType {"expected": "number"};
    update_line_item_id_passes / update_line_item_id_fraction_fails:
        *m::PackageUpdateInput::SCHEMA, package_update(), ["line_items", 0, "line_item_id"], 4815000000044897u64 => 1.5,
        InvalidType {"expected": "id (string or integer)"};
    update_line_quantity_number_passes / update_line_quantity_string_fails:
        *m::PackageUpdateInput::SCHEMA, package_update(), ["line_items", 0, "quantity"], 3 => "3", InvalidType {"expected": "number"};
    package_status_listed_passes / package_status_unlisted_fails:
        *m::PackageListQuery::SCHEMA, package_query(), ["status"], "NotShipped" => "Status.Shipped",
        InvalidValue {"allowed": ["All", "NotShipped", "Shipped", "Delivered"]};
    package_sort_listed_passes / package_sort_unlisted_fails:
        *m::PackageListQuery::SCHEMA, package_query(), ["sort_column"], "delivery_method" => "status",
        InvalidValue {"allowed": ["tracking_number", "salesorder_number", "package_number", "date", "created_time",
                                  "last_modified_time", "customer_name", "customer_id", "shipment_date", "quantity",
                                  "delivery_method"]};
    package_date_after_passes / package_date_after_timestamp_fails:
        *m::PackageListQuery::SCHEMA, package_query(), ["date_after"], "2015-12-31" => "2015-12-31T00:00:00Z", InvalidFormat {"format": "date"};
    package_date_before_passes / package_date_before_short_fails:
        *m::PackageListQuery::SCHEMA, package_query(), ["date_before"], "2016-01-01" => "2016-1-1", InvalidFormat {"format": "date"};
    shipment_date_after_passes / shipment_date_after_month_13_fails:
        *m::PackageListQuery::SCHEMA, package_query(), ["shipment_date_after"], "2015-12-01" => "2015-13-01", InvalidFormat {"format": "date"};
    shipment_date_before_passes / shipment_date_before_day_32_fails:
        *m::PackageListQuery::SCHEMA, package_query(), ["shipment_date_before"], "2015-12-31" => "2015-12-32", InvalidFormat {"format": "date"};
    packages_page_1_passes / packages_page_0_fails:
        *m::PackageListQuery::SCHEMA, package_query(), ["page"], 1 => 0, OutOfRange {"minimum": 1, "maximum": 4294967295u32};
    packages_per_page_1_passes / packages_per_page_0_fails:
        *m::PackageListQuery::SCHEMA, package_query(), ["per_page"], 1 => 0, OutOfRange {"minimum": 1, "maximum": 4294967295u32};

    // composite items
    mapped_quantity_number_passes / mapped_quantity_string_fails:
        *m::CompositeItemInput::SCHEMA, composite_item(), ["mapped_items", 0, "quantity"], 2.5 => "2", InvalidType {"expected": "number"};
    update_mapped_quantity_number_passes / update_mapped_quantity_boolean_fails:
        *m::CompositeItemInput::SCHEMA, composite_item(), ["mapped_items", 0, "quantity"], 1 => true, InvalidType {"expected": "number"};
    tax_specification_listed_passes / tax_specification_unlisted_fails:
        *m::CompositeItemInput::SCHEMA, composite_item(), ["item_tax_preferences", 0, "tax_specification"], "intra" => "both",
        InvalidValue {"allowed": ["intra", "inter"]};
    composite_product_type_listed_passes / composite_product_type_unlisted_fails:
        *m::CompositeItemInput::SCHEMA, composite_item(), ["product_type"], "goods" => "services", InvalidValue {"allowed": ["goods"]};
    composite_item_type_listed_passes / composite_item_type_unlisted_fails:
        *m::CompositeItemInput::SCHEMA, composite_item(), ["item_type"], "inventory" => "sales", InvalidValue {"allowed": ["inventory"]};
    composite_status_listed_passes / composite_status_unlisted_fails:
        *m::CompositeItemInput::SCHEMA, composite_item(), ["status"], "inactive" => "Inactive", InvalidValue {"allowed": ["active", "inactive"]};
    composite_combo_boolean_passes / composite_combo_string_fails:
        *m::CompositeItemInput::SCHEMA, composite_item(), ["is_combo_product"], true => "true", InvalidType {"expected": "boolean"};
    composite_upc_string_passes / composite_upc_boolean_fails:
        *m::CompositeItemInput::SCHEMA, composite_item(), ["upc"], "0111" => true, InvalidType {"expected": "string or number"};
    composite_list_status_listed_passes / composite_list_status_unlisted_fails:
        *m::CompositeItemListQuery::SCHEMA, composite_query(), ["status"], "Status.All" => "Status.Inactive",
        InvalidValue {"allowed": ["Status.All", "Status.Active", "Inactive", "Lowstock"]};
    composite_sort_listed_passes / composite_sort_unlisted_fails:
        *m::CompositeItemListQuery::SCHEMA, composite_query(), ["sort_column"], "purchase_rate" => "stock_on_hand",
        InvalidValue {"allowed": ["name", "sku", "rate", "tax_name", "purchase_rate", "created_time",
                                  "last_modified_time", "reorder_level"]};
    composites_page_1_passes / composites_page_0_fails:
        *m::CompositeItemListQuery::SCHEMA, composite_query(), ["page"], 1 => 0, OutOfRange {"minimum": 1, "maximum": 4294967295u32};
    composites_per_page_1_passes / composites_per_page_fraction_fails:
        *m::CompositeItemListQuery::SCHEMA, composite_query(), ["per_page"], 1 => 2.5, InvalidType {"expected": "integer"};
}
