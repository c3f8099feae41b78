//! Wire types of composite items: bodies, mapped items, tax preferences, list queries.

use crate::model::billing::NumberOrText;
use crate::model::common::{value_set, wire, Id, JsonNumber, PageNumber};

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
        value?: svc_json::Value,
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
        upc?: svc_json::Value,
        #[tsify(type = "number | string")]
        ean?: svc_json::Value,
        #[tsify(type = "number | string")]
        isbn?: svc_json::Value,
        part_number?: String,
        image_id?: Id,
        image_name?: String,
        purchase_description?: String,
        custom_fields?: Vec<CompositeItemCustomField>,
        mapped_items?: Vec<MappedItem>,
        item_tax_preferences?: Vec<CompositeItemTaxPreference>,
        #[tsify(type = "number | string")]
        hsn_or_sac?: svc_json::Value,
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
