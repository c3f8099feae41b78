//! Wire types of recurring invoices: bodies, lines, addresses, payment gateways, history.

use crate::format::Format;
use crate::model::billing::NumberOrText;
use crate::model::common::{value_set, wire, Id, JsonInteger, JsonNumber, PageNumber};

value_set! {
    /// Product type of a recurring invoice line.
    InvoiceProductType {
        Goods = "goods",
        Services = "services",
    }
}

value_set! {
    PaymentGatewayName {
        Paypal = "paypal",
        AuthorizeNet = "authorize_net",
        PayflowPro = "payflow_pro",
        Stripe = "stripe",
        TwoCheckout = "2checkout",
        Braintree = "braintree",
    }
}

value_set! {
    /// `additional_field1` of a payment gateway.
    PaymentGatewayMode {
        Standard = "standard",
        Adaptive = "adaptive",
    }
}

wire! {
    /// A billing or shipping address of a recurring invoice (`street2` is documented for billing only).
    request RecurringInvoiceAddressInput {
        address?: String,
        street2?: String,
        city?: String,
        state?: String,
        zip?: String,
        country?: String,
        fax?: String,
    }
}

wire! {
    response RecurringInvoiceAddress {
        address?: String,
        street2?: String,
        city?: String,
        state?: String,
        zip?: String,
        country?: String,
        fax?: String,
    }
}

wire! {
    request PaymentGatewayInput {
        configured?: bool,
        additional_field1?: PaymentGatewayMode,
        gateway_name?: PaymentGatewayName,
    }
}

wire! {
    response PaymentGateway {
        configured?: bool,
        #[tsify(type = "PaymentGatewayMode")]
        additional_field1?: String,
        #[tsify(type = "PaymentGatewayName")]
        gateway_name?: String,
    }
}

wire! {
    /// Payment options; the vendor examples carry the gateways here.
    request PaymentOptionsInput {
        payment_gateways?: Vec<PaymentGatewayInput>,
    }
}

wire! {
    response PaymentOptions {
        payment_gateways?: Vec<PaymentGateway>,
    }
}

wire! {
    request RecurringInvoiceCustomFieldInput {
        value?: String,
        label?: String,
        data_type?: String,
    }
}

wire! {
    response RecurringInvoiceCustomField {
        #[tsify(type = "unknown")]
        value?: svc_json::Value,
        label?: String,
        data_type?: String,
    }
}

wire! {
    /// A line of a recurring invoice create body.
    request RecurringInvoiceLineInput {
        line_item_id?: Id,
        item_id?: Id,
        name?: String [MaxLen(100)],
        description?: String [MaxLen(2000)],
        rate?: JsonNumber,
        quantity?: JsonInteger,
        discount?: String,
        tax_id?: Id,
        tds_tax_id?: Id,
        tax_exemption_id?: Id,
        avatax_tax_code?: String [MaxLen(25)],
        avatax_use_code?: String [MaxLen(25)],
        item_total?: JsonNumber,
        sku?: String,
        product_type?: InvoiceProductType,
        hsn_or_sac?: NumberOrText,
        project_id?: Id,
        project_name?: String,
        sat_item_key_code?: NumberOrText,
        unitkey_code?: String,
    }
}

wire! {
    /// A line of a recurring invoice response.
    response RecurringInvoiceLine {
        line_item_id?: Id,
        item_id?: Id,
        name?: String,
        description?: String,
        rate?: JsonNumber,
        quantity?: JsonNumber,
        #[tsify(type = "number | string")]
        discount?: svc_json::Value,
        tax_id?: Id,
        tds_tax_id?: Id,
        tax_exemption_id?: Id,
        avatax_tax_code?: String,
        avatax_use_code?: String,
        item_total?: JsonNumber,
        sku?: String,
        #[tsify(type = "InvoiceProductType")]
        product_type?: String,
        #[tsify(type = "number | string")]
        hsn_or_sac?: svc_json::Value,
        project_id?: Id,
        project_name?: String,
        #[tsify(type = "number | string")]
        sat_item_key_code?: svc_json::Value,
        unitkey_code?: String,
    }
}

/// Declares a request whose fields are `$head`'s and then a recurring invoice body's.
macro_rules! recurring_invoice_request {
    ($(#[$m:meta])* $name:ident { $($head:tt)* }) => {
        wire! {
            $(#[$m])*
            request $name {
                $($head)*
                /// Unique.
                recurrence_name: String [MaxLen(100)],
                customer_id: Id,
                /// Its values are not documented.
                recurrence_frequency: String,
                reference_number?: String,
                contact_persons?: Vec<Id>,
                currency_id?: Id,
                /// Dates `yyyy-mm-dd`.
                start_date?: String [Format(Format::Date)],
                end_date?: String [Format(Format::Date)],
                last_sent_date?: String [Format(Format::Date)],
                next_invoice_date?: String [Format(Format::Date)],
                /// Periods between recurrences.
                repeat_every?: JsonInteger,
                place_of_supply?: String,
                gst_no?: String,
                gst_treatment?: String,
                tax_treatment?: String,
                vat_treatment?: String,
                /// Mexico.
                cfdi_usage?: String,
                /// Mexico.
                allow_partial_payments?: bool,
                email?: String,
                custom_fields?: Vec<RecurringInvoiceCustomFieldInput>,
                billing_address?: RecurringInvoiceAddressInput,
                shipping_address?: RecurringInvoiceAddressInput,
                payment_gateways?: Vec<PaymentGatewayInput>,
                payment_options?: PaymentOptionsInput,
                avatax_exempt_no?: String [MaxLen(25)],
                avatax_use_code?: String [MaxLen(25)],
                tax_authority_id?: Id,
                tax_exemption_id?: Id,
                line_items?: Vec<RecurringInvoiceLineInput>,
            }
        }
    };
}

recurring_invoice_request! {
    /// Create and update body of a recurring invoice (the vendor's update sends the create's model).
    RecurringInvoiceInput {}
}

wire! {
    /// A recurring invoice as returned by create, get, update and the list.
    response RecurringInvoice {
        recurring_invoice_id: Id,
        recurrence_name?: String,
        /// `active`, or `stopped` once stopped.
        status?: String,
        reference_number?: String,
        customer_id?: Id,
        customer_name?: String,
        contact_persons?: Vec<Id>,
        currency_id?: Id,
        currency_code?: String,
        start_date?: String,
        end_date?: String,
        last_sent_date?: String,
        next_invoice_date?: String,
        recurrence_frequency?: String,
        repeat_every?: JsonInteger,
        place_of_supply?: String,
        gst_no?: String,
        gst_treatment?: String,
        is_pre_gst?: bool,
        tax_treatment?: String,
        vat_treatment?: String,
        cfdi_usage?: String,
        allow_partial_payments?: bool,
        email?: String,
        custom_fields?: Vec<RecurringInvoiceCustomField>,
        billing_address?: RecurringInvoiceAddress,
        shipping_address?: RecurringInvoiceAddress,
        payment_gateways?: Vec<PaymentGateway>,
        payment_options?: PaymentOptions,
        avatax_exempt_no?: String,
        avatax_use_code?: String,
        tax_authority_id?: Id,
        tax_exemption_id?: Id,
        line_items?: Vec<RecurringInvoiceLine>,
    }
}

recurring_invoice_request! {
    /// Params of `updateRecurringInvoiceByUniqueField`: the values of its three headers, then the
    /// recurring invoice body.
    RecurringInvoiceUniqueFieldUpdateInput {
        /// API name of the unique custom field (header X-Unique-Identifier-Key).
        x_unique_identifier_key: String,
        /// Its value (header X-Unique-Identifier-Value).
        x_unique_identifier_value: String,
        /// Create the recurring invoice when none matches (header X-Upsert).
        x_upsert?: bool as BoolLike,
    }
}

wire! {
    /// Query of the recurring invoice list, as the vendor's example sends it.
    request RecurringInvoiceListQuery {
        recurrence_name?: String,
        item_name?: String,
        item_description?: String,
        customer_name?: String,
        line_item_id?: Id,
        item_id?: Id,
        tax_id?: Id,
        notes?: String,
        /// Dates `yyyy-mm-dd`.
        start_date?: String [Format(Format::Date)],
        end_date?: String [Format(Format::Date)],
        customer_id?: Id,
        /// `active`, or `stopped` once stopped.
        status?: String,
        filter_by?: String,
        search_text?: String,
        sort_column?: String,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

wire! {
    /// Body of `stopRecurringInvoice` and `resumeRecurringInvoice`: the vendor's example repeats the id.
    request RecurringInvoiceStatusInput {
        recurring_invoice_id?: Id,
    }
}

wire! {
    /// Body of `updateRecurringInvoiceTemplate`: the vendor's example repeats both ids.
    request RecurringInvoiceTemplateInput {
        recurring_invoice_id?: Id,
        template_id?: Id,
    }
}

wire! {
    /// An entry of a recurring invoice's history: what happened to it, or a comment.
    response RecurringInvoiceHistoryEntry {
        comment_id: Id,
        recurring_invoice_id?: Id,
        comment_description?: String,
        commented_by_id?: Id,
        commented_by?: String,
        /// `system` for what happened to it.
        comment_type?: String,
        operation_type?: String,
        date?: String,
        date_description?: String,
        time?: String,
        transaction_id?: Id,
        transaction_type?: String,
    }
}
