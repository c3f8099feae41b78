//! Wire types of vendor credits: bodies, line items, comments, documents, credited bills.

use super::shared::{GstTreatment, Scalar, VatSummary, VendorCreditTaxTreatment};
use super::vendor_credit_refund::VendorCreditRefund;
use crate::model::billing::NumberOrText;
use crate::model::common::{
    value_set, wire, Id, IsoDate, JsonInteger, JsonNumber, LineDescription, PageNumber, Tag,
};
use serde::{Deserialize, Deserializer};

/// Accepts a list, or the single object some examples send in its place (vendor credit `line_items`).
fn one_or_many<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Vec<T>>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany<T> {
        Many(Vec<T>),
        One(T),
    }
    Ok(Option::<OneOrMany<T>>::deserialize(d)?.map(|v| match v {
        OneOrMany::Many(items) => items,
        OneOrMany::One(item) => vec![item],
    }))
}

value_set! {
    /// UAE, Bahrain and KSA codes of a vendor credit line.
    TaxTreatmentCode {
        UaeSameTaxGroup = "uae_same_tax_group",
        UaeReimbursedExpense = "uae_reimbursed_expense",
        UaeOthers = "uae_others",
        BahrainSameTaxGroup = "bahrain_same_tax_group",
        BahrainTransferOfConcern = "bahrain_transfer_of_concern",
        BahrainDisbursement = "bahrain_disbursement",
        BahrainHeadToBranchTransaction = "bahrain_head_to_branch_transaction",
        BahrainWarrantyRepairServices = "bahrain_warranty_repair_services",
        BahrainOthers = "bahrain_others",
        KsaReimbursedExpense = "ksa_reimbursed_expense",
    }
}

value_set! {
    blank VendorCreditStatus { Open = "open", Closed = "closed", Void = "void", Draft = "draft" }
}

wire! {
    request VendorCreditCustomFieldInput {
        custom_field_id?: Id,
        label?: String,
        value?: String,
        index?: JsonInteger,
    }
}

wire! {
    request VendorCreditDocumentInput {
        document_id?: Id,
        file_name?: String,
    }
}

wire! {
    request VendorCreditLineItemInput {
        item_id?: Id,
        line_item_id?: Id,
        sku?: String,
        account_id?: Id,
        /// At most 100 characters.
        name?: String [MaxLen(100)],
        description?: LineDescription,
        product_type?: String,
        item_order?: JsonInteger,
        quantity?: JsonNumber,
        unit?: String,
        rate?: JsonNumber,
        tax_id?: Id,
        tds_tax_id?: Id,
        tax_treatment_code?: TaxTreatmentCode,
        tax_exemption_id?: Id,
        tax_exemption_code?: String,
        reverse_charge_tax_id?: Id,
        acquisition_vat_id?: Id,
        reverse_charge_vat_id?: Id,
        hsn_or_sac?: NumberOrText,
        project_id?: Id,
        location_id?: Id,
        tags?: Vec<Tag>,
        item_custom_fields?: Vec<VendorCreditCustomFieldInput>,
        serial_numbers?: Vec<String>,
    }
}

wire! {
    /// Body of `createVendorCredit`.
    request VendorCreditInput {
        vendor_id?: Id,
        currency_id?: Id,
        vat_treatment?: String,
        vendor_credit_number?: String,
        gst_treatment?: GstTreatment,
        tax_treatment?: VendorCreditTaxTreatment,
        gst_no?: String,
        source_of_supply?: String,
        destination_of_supply?: String,
        place_of_supply?: String,
        pricebook_id?: Id,
        reference_number?: String,
        is_update_customer?: bool,
        date?: IsoDate,
        exchange_rate?: JsonNumber,
        is_inclusive_tax?: bool,
        location_id?: Id,
        line_items?: Vec<VendorCreditLineItemInput>,
        notes?: String,
        documents?: Vec<VendorCreditDocumentInput>,
        custom_fields?: Vec<VendorCreditCustomFieldInput>,
        tags?: Vec<Tag>,
    }
}

wire! {
    response VendorCreditCustomField {
        custom_field_id?: Id,
        label?: String,
        value?: String,
        index?: JsonInteger,
    }
}

wire! {
    response VendorCreditDocument {
        document_id?: Id,
        file_name?: String,
    }
}

wire! {
    response VendorCreditLineItem {
        item_id?: Id,
        line_item_id?: Id,
        sku?: String,
        account_id?: Id,
        account_name?: String,
        name?: String,
        description?: String,
        product_type?: String,
        item_order?: JsonInteger,
        quantity?: JsonNumber,
        unit?: String,
        bcy_rate?: JsonNumber,
        rate?: JsonNumber,
        tax_id?: Id,
        tds_tax_id?: Id,
        #[tsify(type = "TaxTreatmentCode")]
        tax_treatment_code?: String,
        tax_exemption_id?: Id,
        tax_exemption_code?: String,
        tax_name?: String,
        tax_type?: String,
        #[tsify(type = "number | string")]
        tax_percentage?: Scalar,
        reverse_charge_tax_id?: Id,
        reverse_charge_tax_name?: String,
        #[tsify(type = "number | string")]
        reverse_charge_tax_percentage?: Scalar,
        #[tsify(type = "number | string")]
        reverse_charge_tax_amount?: Scalar,
        acquisition_vat_id?: Id,
        acquisition_vat_name?: String,
        #[tsify(type = "number | string")]
        acquisition_vat_percentage?: Scalar,
        #[tsify(type = "number | string")]
        acquisition_vat_amount?: Scalar,
        reverse_charge_vat_id?: Id,
        reverse_charge_vat_name?: String,
        #[tsify(type = "number | string")]
        reverse_charge_vat_percentage?: Scalar,
        #[tsify(type = "number | string")]
        reverse_charge_vat_amount?: Scalar,
        project_id?: Id,
        project_name?: String,
        item_total?: JsonNumber,
        item_total_inclusive_of_tax?: JsonNumber,
        #[tsify(type = "string | number")]
        hsn_or_sac?: Scalar,
        location_id?: Id,
        location_name?: String,
        #[tsify(type = "number | string")]
        stock_on_hand?: Scalar,
        tags?: Vec<Tag>,
        item_custom_fields?: Vec<VendorCreditCustomField>,
        serial_numbers?: Vec<String>,
    }
}

wire! {
    response VendorCreditComment {
        comment_id?: Id,
        vendor_credit_id?: Id,
        description?: String,
        commented_by_id?: Id,
        commented_by?: String,
        comment_type?: String,
        date?: String,
        date_description?: String,
        time?: String,
        operation_type?: String,
        transaction_id?: Id,
        transaction_type?: String,
    }
}

wire! {
    /// A bill this vendor credit was applied to (`listVendorCreditBills`, the credit's `bills_credited`).
    response BillCredited {
        vendor_credit_id?: Id,
        bill_id?: Id,
        vendor_credit_bill_id?: Id,
        date?: String,
        bill_number?: String,
        amount?: JsonNumber,
    }
}

wire! {
    response VendorCredit {
        vendor_credit_id: Id,
        vendor_credit_number?: String,
        date?: String,
        source_of_supply?: String,
        destination_of_supply?: String,
        place_of_supply?: String,
        gst_no?: String,
        #[tsify(type = "GstTreatment")]
        gst_treatment?: String,
        #[tsify(type = "VendorCreditTaxTreatment")]
        tax_treatment?: String,
        pricebook_id?: Id,
        is_reverse_charge_applied?: bool,
        #[tsify(type = "VendorCreditStatus")]
        status?: String,
        reference_number?: String,
        vendor_id?: Id,
        vendor_name?: String,
        currency_id?: Id,
        currency_code?: String,
        exchange_rate?: JsonNumber,
        price_precision?: JsonInteger,
        vat_treatment?: String,
        filed_in_vat_return_id?: Id,
        filed_in_vat_return_name?: String,
        filed_in_vat_return_type?: String,
        is_inclusive_tax?: bool,
        location_id?: Id,
        location_name?: String,
        tags?: Vec<Tag>,
        #[serde(deserialize_with = "one_or_many")]
        line_items?: Vec<VendorCreditLineItem>,
        acquisition_vat_summary?: Vec<VatSummary>,
        acquisition_vat_total?: JsonNumber,
        reverse_charge_vat_summary?: Vec<VatSummary>,
        reverse_charge_vat_total?: JsonNumber,
        documents?: Vec<VendorCreditDocument>,
        custom_fields?: Vec<VendorCreditCustomField>,
        sub_total?: JsonNumber,
        total?: JsonNumber,
        total_credits_used?: JsonNumber,
        total_refunded_amount?: JsonNumber,
        balance?: JsonNumber,
        notes?: String,
        comments?: Vec<VendorCreditComment>,
        vendor_credit_refunds?: Vec<VendorCreditRefund>,
        bills_credited?: Vec<BillCredited>,
        created_time?: String,
        last_modified_time?: String,
    }
}

wire! {
    /// An entry of `listVendorCredits`.
    response VendorCreditListEntry {
        vendor_credit_id: Id,
        vendor_credit_number?: String,
        #[tsify(type = "VendorCreditStatus")]
        status?: String,
        reference_number?: String,
        date?: String,
        total?: JsonNumber,
        balance?: JsonNumber,
        vendor_id?: Id,
        vendor_name?: String,
        currency_id?: Id,
        currency_code?: String,
        exchange_rate?: JsonNumber,
        has_attachment?: bool,
        created_time?: String,
        last_modified_time?: String,
    }
}

wire! {
    /// Query of `getVendorCredit`.
    request VendorCreditGetQuery {
        #[tsify(type = "boolean | string")]
        print?: Scalar,
        accept?: String,
    }
}

wire! {
    /// Body of `addVendorCreditComment`.
    request VendorCreditCommentInput {
        description?: String,
    }
}

wire! {
    /// A bill and the amount of the credit applied to it.
    request VendorCreditBillInput {
        bill_id?: Id,
        amount_applied?: JsonNumber,
    }
}

wire! {
    /// Body of `applyVendorCreditToBills`.
    request VendorCreditBillsInput {
        bills?: Vec<VendorCreditBillInput>,
    }
}

wire! {
    /// Query of `listVendorCredits`.
    request VendorCreditListQuery {
        vendor_credit_number_startswith?: String,
        vendor_credit_number_contains?: String,
        date_start?: IsoDate,
        date_end?: IsoDate,
        date_before?: IsoDate,
        date_after?: IsoDate,
        status?: VendorCreditStatus,
        total_start?: JsonNumber,
        total_end?: JsonNumber,
        total_less_than?: JsonNumber,
        total_less_equals?: JsonNumber,
        total_greater_than?: JsonNumber,
        total_greater_equals?: JsonNumber,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}
