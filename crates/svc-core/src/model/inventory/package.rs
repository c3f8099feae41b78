//! Wire types of packages: bodies, lines, addresses, list queries.

use crate::format::Format;
use crate::model::common::{value_set, wire, Id, JsonNumber, PageNumber};

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
        value?: svc_json::Value,
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
        value?: svc_json::Value,
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
