//! Wire types of a project's invoices and their list query.

use crate::model::common::{value_set, wire, Id, PageNumber};

wire! {
    /// An entry of a project's invoice list.
    response ProjectInvoice {
        invoice_id: Id,
        customer_name?: String,
        status?: String,
        invoice_number?: String,
        reference_number?: String,
        date?: String,
        due_date?: String,
        #[tsify(type = "number | string")]
        total?: svc_json::Value,
        #[tsify(type = "number | string")]
        balance?: svc_json::Value,
        created_time?: String,
    }
}

value_set! {
    /// Sort column of a project's invoice list.
    ProjectInvoiceSortColumn {
        InvoiceNumber = "invoice_number",
        Date = "date",
        Total = "total",
        Balance = "balance",
        CreatedTime = "created_time",
    }
}

wire! {
    /// Query of a project's invoice list.
    request ProjectInvoiceListQuery {
        sort_column?: ProjectInvoiceSortColumn,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}
