//! Wire types of the inventory family: packages and composite items.

use crate::format::Format;
use crate::model::billing::NumberOrText;
use crate::model::common::{value_set, wire, Id, JsonNumber, PageNumber};

// ---- packages ----

wire! {
    /// A billing or shipping address of a package.
    response PackageAddress {
        address?: String,
        city?: String,
        state?: String,
        country?: String,
        zip?: String,
        phone?: String,
        fax?: String,
    }
}

wire! {
    response PackageContactPerson {
        contact_person_id?: Id,
    }
}

wire! {
    /// A custom field pair of a package body.
    request PackageCustomFieldInput {
        customfield_id?: Id,
        value?: String,
    }
}

wire! {
    response PackageCustomField {
        customfield_id?: Id,
        #[tsify(type = "unknown")]
        value?: serde_json::Value,
    }
}

wire! {
    /// A custom field of a package line.
    response PackageItemCustomField {
        customfield_id?: Id,
        data_type?: String,
        index?: JsonNumber,
        is_active?: bool,
        label?: String,
        placeholder?: String,
        show_in_all_pdf?: bool,
        show_on_pdf?: bool,
        #[tsify(type = "unknown")]
        value?: serde_json::Value,
    }
}

wire! {
    /// A line of a package response.
    response PackageLine {
        line_item_id?: Id,
        so_line_item_id?: Id,
        item_id?: Id,
        name?: String,
        description?: String,
        sku?: String,
        unit?: String,
        quantity?: JsonNumber,
        is_invoiced?: bool,
        item_order?: JsonNumber,
        item_custom_fields?: Vec<PackageItemCustomField>,
    }
}

wire! {
    /// A package as returned by create, get, update and the list.
    response Package {
        package_id: Id,
        package_number?: String,
        /// A date `yyyy-mm-dd`.
        date?: String,
        salesorder_id?: Id,
        salesorder_number?: String,
        customer_id?: Id,
        customer_name?: String,
        email?: String,
        phone?: String,
        mobile?: String,
        notes?: String,
        is_emailed?: bool,
        created_time?: String,
        last_modified_time?: String,
        total_quantity?: JsonNumber,
        template_id?: Id,
        template_name?: String,
        template_type?: String,
        billing_address?: PackageAddress,
        shipping_address?: PackageAddress,
        contact_persons?: Vec<PackageContactPerson>,
        custom_fields?: Vec<PackageCustomField>,
        line_items?: Vec<PackageLine>,
    }
}

wire! {
    /// A line of a package create body.
    request PackageLineInput {
        so_line_item_id?: Id,
        quantity?: JsonNumber,
    }
}

wire! {
    /// A line of a package update body: create's line plus the package line's own id.
    request PackageLineUpdateInput {
        line_item_id?: Id,
        so_line_item_id?: Id,
        quantity?: JsonNumber,
    }
}

wire! {
    /// Params of package create: the body, and `salesorder_id`, which travels in the query.
    request PackageInput {
        salesorder_id: Id,
        package_number?: String,
        /// A date `yyyy-mm-dd`.
        date?: String [Format(Format::Date)],
        custom_fields?: Vec<PackageCustomFieldInput>,
        line_items?: Vec<PackageLineInput>,
        notes?: String,
    }
}

wire! {
    /// Update body of a package.
    request PackageUpdateInput {
        package_number?: String,
        /// A date `yyyy-mm-dd`.
        date?: String [Format(Format::Date)],
        custom_fields?: Vec<PackageCustomFieldInput>,
        line_items?: Vec<PackageLineUpdateInput>,
        notes?: String,
    }
}

value_set! {
    /// Status filter of the package list (`All` disables it).
    PackageStatusFilter {
        All = "All",
        NotShipped = "NotShipped",
        Shipped = "Shipped",
        Delivered = "Delivered",
    }
}

value_set! {
    /// Sort column of the package list.
    PackageSortColumn {
        TrackingNumber = "tracking_number",
        SalesorderNumber = "salesorder_number",
        PackageNumber = "package_number",
        Date = "date",
        CreatedTime = "created_time",
        LastModifiedTime = "last_modified_time",
        CustomerName = "customer_name",
        CustomerId = "customer_id",
        ShipmentDate = "shipment_date",
        Quantity = "quantity",
        DeliveryMethod = "delivery_method",
    }
}

wire! {
    /// Query of the package list. The documents name the values of the status filter and the sort,
    /// not their parameters; `status` and `sort_column` are assumed.
    request PackageListQuery {
        status?: PackageStatusFilter,
        sort_column?: PackageSortColumn,
        /// Dates `yyyy-mm-dd`.
        date_after?: String [Format(Format::Date)],
        date_before?: String [Format(Format::Date)],
        shipment_date_after?: String [Format(Format::Date)],
        shipment_date_before?: String [Format(Format::Date)],
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

// ---- composite items ----

value_set! {
    CompositeItemStatus {
        Active = "active",
        Inactive = "inactive",
    }
}

value_set! {
    /// A composite item's item type: always `inventory`.
    CompositeItemType {
        Inventory = "inventory",
    }
}

value_set! {
    /// A composite item's product type: `goods`.
    CompositeProductType {
        Goods = "goods",
    }
}

value_set! {
    CompositeTaxSpecification {
        Intra = "intra",
        Inter = "inter",
    }
}

wire! {
    /// An item mapped into a composite item create or update body.
    request MappedItemInput {
        quantity?: JsonNumber,
        item_id?: Id,
        line_item_id?: Id,
    }
}

wire! {
    /// An item mapped into a composite item response.
    response MappedItem {
        line_item_id?: Id,
        item_id?: Id,
        name?: String,
        rate?: JsonNumber,
        purchase_rate?: JsonNumber,
        sku?: String,
        image_id?: Id,
        image_name?: String,
        purchase_description?: String,
        image_type?: String,
        unit?: String,
        is_combo_product?: bool,
        description?: String,
        quantity?: JsonNumber,
        stock_on_hand?: JsonNumber,
        available_stock?: JsonNumber,
        actual_available_stock?: JsonNumber,
    }
}

wire! {
    request CompositeItemTaxPreferenceInput {
        tax_id?: Id,
        tax_specification?: CompositeTaxSpecification,
    }
}

wire! {
    response CompositeItemTaxPreference {
        tax_id?: Id,
        #[tsify(type = "CompositeTaxSpecification")]
        tax_specification?: String,
    }
}

wire! {
    request CompositeItemCustomFieldInput {
        custom_field_id?: Id,
        value?: String,
        index?: JsonNumber,
        label?: String,
    }
}

wire! {
    response CompositeItemCustomField {
        custom_field_id?: Id,
        #[tsify(type = "unknown")]
        value?: serde_json::Value,
        index?: JsonNumber,
        label?: String,
    }
}

wire! {
    /// Create and update body of a composite item.
    request CompositeItemInput {
        name?: String,
        mapped_items?: Vec<MappedItemInput>,
        description?: String,
        is_combo_product?: bool,
        vendor_id?: Id,
        purchase_rate?: JsonNumber,
        purchase_description?: String,
        initial_stock?: JsonNumber,
        initial_stock_rate?: JsonNumber,
        tax_id?: Id,
        sku?: String,
        isbn?: NumberOrText,
        ean?: NumberOrText,
        part_number?: String,
        reorder_level?: JsonNumber,
        unit?: String,
        upc?: NumberOrText,
        item_type?: CompositeItemType,
        product_type?: CompositeProductType,
        /// Listed among a composite item's values (`active`, `inactive`), not among the create body's.
        status?: CompositeItemStatus,
        rate?: JsonNumber,
        custom_fields?: Vec<CompositeItemCustomFieldInput>,
        account_id?: Id,
        purchase_account_id?: Id,
        inventory_account_id?: Id,
        item_tax_preferences?: Vec<CompositeItemTaxPreferenceInput>,
        hsn_or_sac?: NumberOrText,
    }
}

wire! {
    /// A composite item as returned by create, update and the list.
    response CompositeItem {
        composite_item_id: Id,
        name?: String,
        unit?: String,
        tax_id?: Id,
        tax_name?: String,
        tax_percentage?: JsonNumber,
        tax_type?: String,
        description?: String,
        purchase_account_id?: Id,
        purchase_account_name?: String,
        account_id?: Id,
        account_name?: String,
        inventory_account_id?: Id,
        inventory_account_name?: String,
        #[tsify(type = "CompositeItemStatus")]
        status?: String,
        source?: String,
        is_combo_product?: bool,
        #[tsify(type = "CompositeItemType")]
        item_type?: String,
        #[tsify(type = "CompositeProductType")]
        product_type?: String,
        is_taxable?: bool,
        rate?: JsonNumber,
        pricebook_rate?: JsonNumber,
        purchase_rate?: JsonNumber,
        reorder_level?: JsonNumber,
        initial_stock?: JsonNumber,
        initial_stock_rate?: JsonNumber,
        vendor_id?: Id,
        vendor_name?: String,
        stock_on_hand?: JsonNumber,
        asset_value?: JsonNumber,
        available_stock?: JsonNumber,
        actual_available_stock?: JsonNumber,
        sku?: String,
        #[tsify(type = "number | string")]
        upc?: serde_json::Value,
        #[tsify(type = "number | string")]
        ean?: serde_json::Value,
        #[tsify(type = "number | string")]
        isbn?: serde_json::Value,
        part_number?: String,
        image_id?: Id,
        image_name?: String,
        purchase_description?: String,
        custom_fields?: Vec<CompositeItemCustomField>,
        mapped_items?: Vec<MappedItem>,
        item_tax_preferences?: Vec<CompositeItemTaxPreference>,
        #[tsify(type = "number | string")]
        hsn_or_sac?: serde_json::Value,
        created_time?: String,
        last_modified_time?: String,
    }
}

value_set! {
    /// Status filter of the composite item list.
    CompositeItemStatusFilter {
        All = "Status.All",
        Active = "Status.Active",
        Inactive = "Inactive",
        Lowstock = "Lowstock",
    }
}

value_set! {
    /// Sort column of the composite item list.
    CompositeItemSortColumn {
        Name = "name",
        Sku = "sku",
        Rate = "rate",
        TaxName = "tax_name",
        PurchaseRate = "purchase_rate",
        CreatedTime = "created_time",
        LastModifiedTime = "last_modified_time",
        ReorderLevel = "reorder_level",
    }
}

wire! {
    /// Query of the composite item list; `status` and `sort_column` are assumed names, as for packages.
    request CompositeItemListQuery {
        status?: CompositeItemStatusFilter,
        sort_column?: CompositeItemSortColumn,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        assert_eq!(c.upc, Some(json!(111111111111u64)));
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
        assert!(
            PackageStatusFilter::DECL.contains(r#""All" | "NotShipped" | "Shipped" | "Delivered""#)
        );
        assert!(
            CompositeItemInput::DECL.contains("item_type?: CompositeItemType"),
            "{}",
            CompositeItemInput::DECL
        );
        assert!(!CompositeItemInput::DECL.contains("Record<string, unknown>"));
        assert!(CompositeItemTaxPreference::DECL
            .contains("tax_specification?: CompositeTaxSpecification"));
        assert!(Package::DECL.contains("Record<string, unknown>"));
    }
}
