//! Wire types of journals: bodies, line items, comments, documents and list queries.

use super::shared::{CustomField, CustomFieldInput, DebitOrCredit, Scalar, VatTreatment};
use crate::model::common::{
    value_set, wire, Id, IsoDate, JsonInteger, JsonNumber, LineDescription, PageNumber, Tag,
};

value_set! {
    /// The listed `Cash` and `Both`, and the lowercase forms the examples send.
    JournalType { Cash = "Cash", Both = "Both", CashLowercase = "cash", BothLowercase = "both" }
}

value_set! {
    /// Journal product type (UK edition).
    JournalProductType { DigitalService = "digital_service", Goods = "goods", Service = "service" }
}

value_set! {
    JournalStatus { Draft = "draft", Published = "published" }
}

value_set! {
    TaxExemptionType { Customer = "customer", Item = "item" }
}

wire! {
    request JournalLineItemInput {
        line_id?: Id,
        account_id?: Id,
        customer_id?: Id,
        description?: LineDescription,
        debit_or_credit: DebitOrCredit,
        amount: JsonNumber,
        tax_id?: Id,
        tax_exemption_id?: Id,
        tax_exemption_type?: TaxExemptionType,
        tax_exemption_code?: String,
        tax_authority_id?: Id,
        tax_authority_name?: String,
        acquisition_vat_id?: Id,
        reverse_charge_vat_id?: Id,
        tags?: Vec<Tag>,
        location_id?: Id,
        project_id?: Id,
    }
}

wire! {
    /// Body of `createJournal`.
    request JournalInput {
        journal_date: IsoDate,
        reference_number?: String,
        notes?: String,
        journal_type?: JournalType,
        vat_treatment?: VatTreatment,
        include_in_vat_return?: bool,
        product_type?: JournalProductType,
        is_bas_adjustment?: bool,
        currency_id?: Id,
        exchange_rate?: JsonNumber,
        location_id?: Id,
        line_items?: Vec<JournalLineItemInput>,
        tax_exemption_code?: String,
        tax_exemption_type?: TaxExemptionType,
        status?: JournalStatus,
        custom_fields?: Vec<CustomFieldInput>,
        tags?: Vec<Tag>,
    }
}

wire! {
    response JournalLineItem {
        line_id?: Id,
        account_id?: Id,
        account_name?: String,
        customer_id?: Id,
        customer_name?: String,
        description?: String,
        #[tsify(type = "DebitOrCredit")]
        debit_or_credit?: String,
        amount?: JsonNumber,
        bcy_amount?: JsonNumber,
        tax_id?: Id,
        tax_name?: String,
        tax_type?: String,
        #[tsify(type = "number | string")]
        tax_percentage?: Scalar,
        tax_exemption_id?: Id,
        #[tsify(type = "TaxExemptionType")]
        tax_exemption_type?: String,
        tax_exemption_code?: String,
        tax_authority_id?: Id,
        tax_authority_name?: String,
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
        tags?: Vec<Tag>,
        location_id?: Id,
        location_name?: String,
        project_id?: Id,
        project_name?: String,
    }
}

wire! {
    response JournalTax {
        tax_name?: String,
        tax_amount?: JsonNumber,
        #[tsify(type = "DebitOrCredit")]
        debit_or_credit?: String,
        tax_account?: bool,
    }
}

wire! {
    /// Query of `listJournals`.
    request JournalListQuery {
        entry_number?: String,
        reference_number?: String,
        date?: String,
        notes?: String,
        last_modified_time?: String,
        total?: JsonNumber,
        customer_id?: Id as StrOrNum,
        vendor_id?: Id as StrOrNum,
        filter_by?: String,
        sort_column?: String,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

wire! {
    /// Body of `addJournalComment`.
    request JournalCommentInput {
        description?: String,
    }
}

wire! {
    response JournalComment {
        comment_id?: Id,
        journal_id?: Id,
        description?: String,
        commented_by_id?: Id,
        commented_by?: String,
        comment_type?: String,
        date?: String,
        date_description?: String,
        time?: String,
        operation_type?: String,
    }
}

wire! {
    /// A file attached to a journal.
    response JournalDocument {
        document_id: Id,
        file_name?: String,
        file_size?: JsonInteger,
        file_type?: String,
        document_type?: String,
    }
}

wire! {
    response Journal {
        journal_id: Id,
        entry_number?: String,
        reference_number?: String,
        notes?: String,
        currency_id?: Id,
        currency_code?: String,
        currency_symbol?: String,
        exchange_rate?: JsonNumber,
        journal_date?: String,
        #[tsify(type = "JournalType")]
        journal_type?: String,
        #[tsify(type = "VatTreatment")]
        vat_treatment?: String,
        #[tsify(type = "JournalProductType")]
        product_type?: String,
        include_in_vat_return?: bool,
        is_bas_adjustment?: bool,
        location_id?: Id,
        location_name?: String,
        line_items?: Vec<JournalLineItem>,
        line_item_total?: JsonNumber,
        total?: JsonNumber,
        bcy_total?: JsonNumber,
        price_precision?: JsonInteger,
        taxes?: Vec<JournalTax>,
        #[tsify(type = "JournalStatus")]
        status?: String,
        created_time?: String,
        last_modified_time?: String,
        custom_fields?: Vec<CustomField>,
        tags?: Vec<Tag>,
        has_attachment?: bool,
        documents?: Vec<JournalDocument>,
        comments?: Vec<JournalComment>,
    }
}
