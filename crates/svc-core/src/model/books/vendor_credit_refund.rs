//! Wire types of vendor credit refunds and the transactions they import.

use crate::model::common::{value_set, wire, Id, IsoDate, JsonNumber, PageNumber};

value_set! {
    /// Sort column of the list of all vendor credit refunds.
    blank VendorCreditRefundSortColumn {
        VendorName = "vendor_name",
        VendorCreditNumber = "vendor_credit_number",
        Balance = "balance",
        Total = "total",
        Date = "date",
        CreatedTime = "created_time",
        LastModifiedTime = "last_modified_time",
        ReferenceNumber = "reference_number",
    }
}

wire! {
    /// Body of `createVendorCreditRefund` and `updateVendorCreditRefund`.
    request VendorCreditRefundInput {
        date?: IsoDate,
        refund_mode?: String,
        reference_number?: String,
        amount?: JsonNumber,
        exchange_rate?: JsonNumber,
        account_id?: Id,
        description?: String,
    }
}

wire! {
    response ImportedTransaction {
        imported_transaction_id?: Id,
        date?: String,
        amount?: JsonNumber,
        payee?: String,
        description?: String,
        reference_number?: String,
        status?: String,
        account_id?: Id,
    }
}

wire! {
    response VendorCreditRefund {
        vendor_credit_refund_id: Id,
        vendor_credit_id?: Id,
        date?: String,
        refund_mode?: String,
        reference_number?: String,
        amount?: JsonNumber,
        exchange_rate?: JsonNumber,
        account_id?: Id,
        account_name?: String,
        description?: String,
        amount_bcy?: JsonNumber,
        amount_fcy?: JsonNumber,
        filed_in_vat_return_id?: Id,
        filed_in_vat_return_name?: String,
        filed_in_vat_return_type?: String,
        imported_transactions?: Vec<ImportedTransaction>,
    }
}

wire! {
    /// An entry of `listVendorCreditRefunds` and `listAllVendorCreditRefunds`.
    response VendorCreditRefundListEntry {
        vendor_credit_refund_id: Id,
        vendor_credit_id?: Id,
        vendor_credit_number?: String,
        customer_name?: String,
        date?: String,
        refund_mode?: String,
        reference_number?: String,
        amount?: JsonNumber,
        description?: String,
        amount_bcy?: JsonNumber,
        amount_fcy?: JsonNumber,
    }
}

wire! {
    /// Query of `listVendorCreditRefunds`.
    request VendorCreditRefundListQuery {
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

wire! {
    /// Query of `listAllVendorCreditRefunds`.
    request AllVendorCreditRefundsQuery {
        sort_column?: VendorCreditRefundSortColumn,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}
