//! Wire types of expenses: bodies, mileage, receipts, attachments, comments and list queries.

use super::shared::{
    CustomFieldInput, ExpenseTaxTreatment, GstTreatment, Scalar, VatSummary, VatTreatment,
};
use crate::model::billing::NumberOrText;
use crate::model::common::{
    value_set, wire, Id, IsoDate, JsonInteger, JsonNumber, LineDescription, PageNumber, Tag,
};
use crate::schema::Check;
use serde::{Deserialize, Serialize};
use tsify::Tsify;

value_set! {
    /// `goods` and `service`; UK adds `digital_service`, South Africa `capital_service` and `capital_goods`.
    ExpenseProductType {
        Goods = "goods",
        Service = "service",
        DigitalService = "digital_service",
        CapitalService = "capital_service",
        CapitalGoods = "capital_goods",
    }
}

value_set! {
    /// `odometer` and `manual` are the mileage modes.
    MileageType { NonMileage = "non_mileage", Odometer = "odometer", Manual = "manual" }
}

value_set! {
    blank MileageUnit { Km = "km", Mile = "mile" }
}

value_set! {
    blank VehicleType { Car = "car", Van = "van", Motorcycle = "motorcycle", Bike = "bike" }
}

value_set! {
    blank FuelType { Petrol = "petrol", Lpg = "lpg", Diesel = "diesel" }
}

value_set! {
    blank EngineCapacityRange {
        LessThan1400cc = "less_than_1400cc",
        Between1400ccAnd1600cc = "between_1400cc_and_1600cc",
        Between1600ccAnd2000cc = "between_1600cc_and_2000cc",
        MoreThan2000cc = "more_than_2000cc",
    }
}

wire! {
    request ExpenseLineItemInput {
        line_item_id?: Id,
        account_id?: Id,
        description?: LineDescription,
        amount?: JsonNumber,
        tax_id?: Id,
        item_order?: JsonInteger,
        product_type?: ExpenseProductType,
        acquisition_vat_id?: Id,
        reverse_charge_vat_id?: Id,
        reverse_charge_tax_id?: Id,
        tax_exemption_code?: String,
        tax_exemption_id?: Id,
        location_id?: Id,
        tags?: Vec<Tag>,
    }
}

wire! {
    request ExpenseTaxInput {
        tax_id?: Id,
        tax_amount?: JsonNumber,
    }
}

wire! {
    /// Body of `createExpense` (and of `updateExpenseByUniqueField`).
    request ExpenseInput {
        account_id?: Id,
        date?: IsoDate,
        amount?: JsonNumber,
        tax_id?: Id,
        source_of_supply?: String,
        destination_of_supply?: String,
        place_of_supply?: String,
        hsn_or_sac?: NumberOrText,
        gst_no?: String,
        gst_treatment?: GstTreatment,
        reverse_charge_tax_id?: Id,
        location_id?: Id,
        line_items?: Vec<ExpenseLineItemInput>,
        taxes?: Vec<ExpenseTaxInput>,
        is_inclusive_tax?: bool,
        is_billable?: bool,
        reference_number?: String,
        description?: String,
        customer_id?: Id,
        currency_id?: Id,
        exchange_rate?: JsonNumber,
        project_id?: Id,
        mileage_type?: MileageType,
        vat_treatment?: VatTreatment,
        tax_treatment?: ExpenseTaxTreatment,
        product_type?: ExpenseProductType,
        acquisition_vat_id?: Id,
        reverse_charge_vat_id?: Id,
        /// Only with `mileage_type` odometer.
        start_reading?: NumberOrText,
        /// Only with `mileage_type` odometer.
        end_reading?: NumberOrText,
        distance?: NumberOrText,
        mileage_unit?: MileageUnit,
        mileage_rate?: NumberOrText,
        employee_id?: Id,
        vehicle_type?: VehicleType,
        can_reclaim_vat_on_mileage?: bool as Any,
        fuel_type?: FuelType,
        engine_capacity_range?: EngineCapacityRange,
        paid_through_account_id?: Id,
        vendor_id?: Id,
        custom_fields?: Vec<CustomFieldInput>,
        tags?: Vec<Tag>,
    } checks [
        Check::NotAllowedUnless {
            field: "start_reading",
            when: "mileage_type",
            equals: MileageType::Odometer.as_str(),
        },
        Check::NotAllowedUnless {
            field: "end_reading",
            when: "mileage_type",
            equals: MileageType::Odometer.as_str(),
        },
    ]
}

wire! {
    /// Params of `updateExpenseByUniqueField`: the expense body plus the values of its three headers.
    request ExpenseUniqueFieldUpdateInput {
        /// API name of the unique custom field (header X-Unique-Identifier-Key).
        x_unique_identifier_key: String,
        /// Its value (header X-Unique-Identifier-Value).
        x_unique_identifier_value: String,
        /// Create the expense when none matches (header X-Upsert).
        x_upsert?: bool as BoolLike,
        ..expense: ExpenseInput,
    }
}

wire! {
    response ExpenseTax {
        tax_id?: Id,
        tax_amount?: JsonNumber,
    }
}

wire! {
    response Expense {
        expense_id: Id,
        transaction_id?: Id,
        transaction_type?: String,
        gst_no?: String,
        #[tsify(type = "GstTreatment")]
        gst_treatment?: String,
        #[tsify(type = "ExpenseTaxTreatment")]
        tax_treatment?: String,
        #[tsify(type = "VatTreatment")]
        vat_treatment?: String,
        destination_of_supply?: String,
        destination_of_supply_state?: String,
        place_of_supply?: String,
        source_of_supply?: String,
        #[tsify(type = "string | number")]
        hsn_or_sac?: Scalar,
        paid_through_account_id?: Id,
        paid_through_account_name?: String,
        vat_reg_no?: String,
        reverse_charge_tax_id?: Id,
        reverse_charge_tax_name?: String,
        reverse_charge_tax_percentage?: JsonNumber,
        reverse_charge_tax_amount?: JsonNumber,
        tax_amount?: JsonNumber,
        is_itemized_expense?: bool,
        #[tsify(type = "boolean | string")]
        is_pre_gst?: Scalar,
        trip_id?: Id,
        trip_number?: String,
        reverse_charge_vat_total?: JsonNumber,
        acquisition_vat_total?: JsonNumber,
        acquisition_vat_summary?: Vec<VatSummary>,
        reverse_charge_vat_summary?: Vec<VatSummary>,
        taxes?: Vec<ExpenseTax>,
        expense_item_id?: Id,
        account_id?: Id,
        account_name?: String,
        date?: String,
        tax_id?: Id,
        tax_name?: String,
        tax_percentage?: JsonNumber,
        currency_id?: Id,
        currency_code?: String,
        exchange_rate?: JsonNumber,
        sub_total?: JsonNumber,
        total?: JsonNumber,
        bcy_total?: JsonNumber,
        amount?: JsonNumber,
        is_inclusive_tax?: bool,
        reference_number?: String,
        description?: String,
        is_billable?: bool,
        is_personal?: bool,
        customer_id?: Id,
        customer_name?: String,
        expense_receipt_name?: String,
        expense_receipt_type?: String,
        last_modified_time?: String,
        status?: String,
        invoice_id?: Id,
        invoice_number?: String,
        location_id?: Id,
        location_name?: String,
        project_id?: Id,
        project_name?: String,
        #[tsify(type = "number | string")]
        mileage_rate?: Scalar,
        #[tsify(type = "MileageType")]
        mileage_type?: String,
        expense_type?: String,
        #[tsify(type = "number | string")]
        start_reading?: Scalar,
        #[tsify(type = "number | string")]
        end_reading?: Scalar,
        tags?: Vec<Tag>,
    }
}

/// Query of `getExpenseReceipt`, as the vendor's example sends it. Its schema is empty, as the row's
/// rules were before it had a type (the golden corpus pins them): `preview` is sent as given.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Tsify)]
pub struct ExpenseReceiptQuery {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub preview: Option<bool>,
}

impl crate::schema::Params for ExpenseReceiptQuery {
    const SCHEMA: &'static crate::schema::Schema = &crate::schema::Schema::EMPTY;
}

impl crate::model::Named for ExpenseReceiptQuery {
    const NAME: &'static str = "ExpenseReceiptQuery";
}

impl crate::schema::Shape for ExpenseReceiptQuery {
    const KIND: crate::schema::Kind = crate::schema::Kind::Obj(&crate::schema::Schema::EMPTY);

    #[cfg(not(target_arch = "wasm32"))]
    fn requests(out: &mut Vec<crate::schema::Request>) {
        out.push(crate::schema::Request {
            name: "ExpenseReceiptQuery",
            decl: <Self as Tsify>::DECL,
            schema: &crate::schema::Schema::EMPTY,
        });
    }
}

wire! {
    /// Query of `listExpenses`: the filters of the vendor's example.
    request ExpenseListQuery {
        description?: String,
        reference_number?: String,
        date?: String,
        status?: String,
        amount?: JsonNumber,
        account_name?: String,
        customer_name?: String,
        vendor_name?: String,
        customer_id?: Id,
        vendor_id?: Id as StrOrNum,
        recurring_expense_id?: Id,
        paid_through_account_id?: Id,
        search_text?: String,
        sort_column?: String,
        filter_by?: String,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

wire! {
    /// A comment or history entry of an expense (`listExpenseComments`, the attachment response).
    response ExpenseComment {
        comment_id: Id,
        expense_id?: Id,
        description?: String,
        commented_by_id?: Id,
        commented_by?: String,
        date_description?: String,
        time?: String,
        operation_type?: String,
        transaction_id?: Id,
        transaction_type?: String,
    }
}

wire! {
    /// A document of the expense attachment response.
    response ExpenseDocument {
        document_id: Id,
        file_name?: String,
        file_size?: JsonInteger,
        document_type?: String,
    }
}

/// Result of `addExpenseAttachment`: the documented `comments`, or the `documents` the examples return.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(untagged)]
pub enum ExpenseAttachmentResult {
    Comments(Vec<ExpenseComment>),
    Documents(Vec<ExpenseDocument>),
}

impl crate::model::Named for ExpenseAttachmentResult {
    const NAME: &'static str = "ExpenseAttachmentResult";
    #[cfg(test)]
    const DECODE: Option<crate::model::Decode> =
        Some(crate::model::round_trip::<ExpenseAttachmentResult>);
}
