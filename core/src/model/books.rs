//! Wire types of the books family (accounting): request, response, list entry and query shapes.

use crate::format::Format;
use crate::model::billing::NumberOrText;
use crate::model::common::{
    value_set, wire, Extra, Id, IsoDate, JsonInteger, JsonNumber, LineDescription, PageNumber,
    Percentage, Tag,
};
use crate::schema::Check;
use serde::{Deserialize, Deserializer, Serialize};
use tsify::Tsify;

/// A value the documents leave untyped and the examples send in more than one JSON type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(untagged)]
pub enum Scalar {
    Bool(bool),
    Number(JsonNumber),
    Text(String),
}

/// Any JSON value: the rules leave its type to the checks that name it.
impl crate::schema::Shape for Scalar {
    const KIND: crate::schema::Kind = crate::schema::Kind::Any;
}

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

// ---- value sets ----

value_set! {
    /// Month in which the fiscal year starts (requests).
    FiscalYearStartMonth {
        January = "january", February = "february", March = "march", April = "april",
        May = "may", June = "june", July = "july", August = "august",
        September = "september", October = "october", November = "november", December = "december",
    }
}

value_set! {
    blank IndustrySize { SmallScale = "small scale", MediumScale = "medium scale", LargeScale = "large scale" }
}

value_set! {
    AccountType {
        OtherAsset = "other_asset",
        OtherCurrentAsset = "other_current_asset",
        Cash = "cash",
        Bank = "bank",
        FixedAsset = "fixed_asset",
        OtherCurrentLiability = "other_current_liability",
        CreditCard = "credit_card",
        LongTermLiability = "long_term_liability",
        OtherLiability = "other_liability",
        Equity = "equity",
        Income = "income",
        OtherIncome = "other_income",
        Expense = "expense",
        CostOfGoodsSold = "cost_of_goods_sold",
        OtherExpense = "other_expense",
        AccountsReceivable = "accounts_receivable",
        AccountsPayable = "accounts_payable",
    }
}

value_set! {
    /// Filter of the chart-of-accounts list.
    blank AccountFilter {
        All = "AccountType.All",
        Active = "AccountType.Active",
        Inactive = "AccountType.Inactive",
        Asset = "AccountType.Asset",
        Liability = "AccountType.Liability",
        Equity = "AccountType.Equity",
        Income = "AccountType.Income",
        Expense = "AccountType.Expense",
    }
}

value_set! {
    blank AccountSortColumn { AccountName = "account_name", AccountType = "account_type" }
}

value_set! {
    /// The listed `Cash` and `Both`, and the lowercase forms the examples send.
    JournalType { Cash = "Cash", Both = "Both", CashLowercase = "cash", BothLowercase = "both" }
}

value_set! {
    /// UK and Europe editions.
    VatTreatment {
        Uk = "uk",
        EuVatRegistered = "eu_vat_registered",
        EuVatNotRegistered = "eu_vat_not_registered",
        NonEu = "non_eu",
        Overseas = "overseas",
    }
}

value_set! {
    /// Journal product type (UK edition).
    JournalProductType { DigitalService = "digital_service", Goods = "goods", Service = "service" }
}

value_set! {
    JournalStatus { Draft = "draft", Published = "published" }
}

value_set! {
    DebitOrCredit { Debit = "debit", Credit = "credit" }
}

value_set! {
    TaxExemptionType { Customer = "customer", Item = "item" }
}

value_set! {
    /// `200_declining_method` and `150_declining_method` exist in the US and global editions.
    DepreciationMethod {
        DecliningMethod = "declining_method",
        StraightLine = "straight_line",
        DecliningMethod200 = "200_declining_method",
        DecliningMethod150 = "150_declining_method",
    }
}

value_set! {
    DepreciationFrequency { Yearly = "yearly", Monthly = "monthly" }
}

value_set! {
    ComputationType { ProrataBasis = "prorata_basis", NoProrata = "no_prorata" }
}

value_set! {
    /// The status an asset reports: the list filter's values (`Status.Active`...) as an asset carries
    /// them, a new asset being `draft`. An answer's other values are kept as they come.
    FixedAssetStatus {
        Draft = "draft",
        Active = "active",
        Cancel = "cancel",
        FullyDepreciated = "fully_depreciated",
        WriteOff = "write_off",
        Sold = "sold",
    }
}

value_set! {
    /// Filter of the fixed asset list.
    blank FixedAssetFilter {
        All = "Status.All",
        Active = "Status.Active",
        Cancel = "Status.Cancel",
        FullyDepreciated = "Status.FullyDepreciated",
        WriteOff = "Status.WriteOff",
        Sold = "Status.Sold",
        Draft = "Status.Draft",
    }
}

value_set! {
    blank FixedAssetSortColumn {
        AssetName = "asset_name",
        AssetNumber = "asset_number",
        AssetCost = "asset_cost",
        CreatedTime = "created_time",
        CurrentAssetValue = "current_asset_value",
    }
}

value_set! {
    /// `A` ascending, `D` descending.
    blank SortOrder { Ascending = "A", Descending = "D" }
}

value_set! {
    /// India GST edition.
    GstTreatment {
        BusinessGst = "business_gst",
        BusinessNone = "business_none",
        Overseas = "overseas",
        Consumer = "consumer",
    }
}

/// A value set of the expense tax treatments (the union of the UAE, Kenya and South Africa lists),
/// then the values given.
macro_rules! tax_treatments {
    ($(#[$m:meta])* $name:ident { $($more:tt)* }) => {
        value_set! {
            $(#[$m])*
            $name {
                VatRegistered = "vat_registered",
                VatNotRegistered = "vat_not_registered",
                GccVatNotRegistered = "gcc_vat_not_registered",
                GccVatRegistered = "gcc_vat_registered",
                NonGcc = "non_gcc",
                DzVatRegistered = "dz_vat_registered",
                DzVatNotRegistered = "dz_vat_not_registered",
                NonKenya = "non_kenya",
                Overseas = "overseas",
                $($more)*
            }
        }
    };
}

tax_treatments! {
    /// The union of the UAE, Kenya and South Africa lists.
    ExpenseTaxTreatment {}
}

tax_treatments! {
    /// The expense list plus the Mexico values.
    VendorCreditTaxTreatment {
        HomeCountryMexico = "home_country_mexico",
        BorderRegionMexico = "border_region_mexico",
        NonMexico = "non_mexico",
    }
}

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

// ---- shared pieces ----

wire! {
    /// A custom field pair of a request.
    request CustomFieldInput {
        customfield_id?: Id,
        value?: String,
    }
}

wire! {
    response CustomField {
        customfield_id?: Id,
        value?: String,
        label?: String,
        index?: JsonNumber,
    }
}

wire! {
    /// `{ tax: { tax_name, tax_amount } }` of the VAT summaries.
    response VatSummary {
        tax?: SummaryTax,
    }
}

wire! {
    response SummaryTax {
        tax_name?: String,
        tax_amount?: JsonNumber,
    }
}

// ---- organization ----

wire! {
    request OrganizationAddressInput {
        street_address1?: String,
        street_address2?: String,
        city?: String,
        state?: String,
        country?: String,
        zip?: String,
    }
}

wire! {
    response OrganizationAddress {
        street_address1?: String,
        street_address2?: String,
        city?: String,
        state?: String,
        country?: String,
        zip?: String,
    }
}

wire! {
    /// Body of `createOrganization`.
    request OrganizationCreateInput {
        name: String,
        currency_code: String,
        time_zone: String,
        /// 5 to 30 letters and digits.
        portal_name: String [LenBetween(5, 30), Format(Format::Alnum)],
        fiscal_year_start_month?: FiscalYearStartMonth,
        date_format?: String,
        field_separator?: String,
        language_code?: String,
        industry_type?: String,
        industry_size?: IndustrySize,
        org_address?: String,
        remit_to_address?: String,
        address?: OrganizationAddressInput,
    }
}

wire! {
    request OrganizationCustomFieldInput {
        index?: JsonNumber,
        value?: String,
        label?: String,
    }
}

wire! {
    /// Body of `updateOrganization`: every field optional.
    request OrganizationUpdateInput {
        name?: String,
        fiscal_year_start_month?: FiscalYearStartMonth,
        is_logo_uploaded?: bool,
        time_zone?: String,
        date_format?: String,
        field_separator?: String,
        language_code?: String,
        org_address?: String,
        remit_to_address?: String,
        address?: OrganizationAddressInput,
        contact_name?: String,
        phone?: String,
        fax?: String,
        website?: String,
        email?: String,
        currency_id?: Id,
        companyid_label?: String,
        companyid_value?: String,
        taxid_label?: String,
        taxid_value?: String,
        custom_fields?: Vec<OrganizationCustomFieldInput>,
    }
}

wire! {
    /// An organization as the create, list and update responses return it.
    response Organization {
        organization_id: Id,
        name?: String,
        is_logo_uploaded?: String,
        is_default_org?: bool,
        user_role?: String,
        account_created_date?: String,
        account_created_date_formatted?: String,
        time_zone?: String,
        language_code?: String,
        date_format?: String,
        field_separator?: String,
        fiscal_year_start_month?: JsonNumber,
        tax_group_enabled?: bool,
        user_status?: String,
        contact_name?: String,
        industry_type?: String,
        industry_size?: String,
        address?: OrganizationAddress,
        org_address?: String,
        remit_to_address?: String,
        email?: String,
        phone?: String,
        fax?: String,
        website?: String,
        company_id_label?: String,
        company_id_value?: String,
        tax_id_label?: String,
        tax_id_value?: String,
        currency_id?: Id,
        currency_code?: String,
        currency_symbol?: String,
        currency_format?: String,
        price_precision?: JsonInteger,
        plan_type?: JsonInteger,
        plan_name?: String,
        plan_period?: String,
        zi_migration_status?: JsonInteger,
        is_org_active?: bool,
        custom_fields?: Vec<CustomField>,
    }
}

// ---- chart of accounts ----

wire! {
    /// Body of `createAccount` and `updateAccount`.
    request AccountInput {
        account_name?: String,
        account_code?: String,
        account_type?: AccountType,
        currency_id?: Id,
        description?: String,
        show_on_dashboard?: bool,
        can_show_in_ze?: bool,
        include_in_vat_return?: bool,
        custom_fields?: Vec<CustomFieldInput>,
        parent_account_id?: Id,
    }
}

wire! {
    /// An account as create, update and `getAccount` return it.
    response Account {
        account_id: Id,
        account_name?: String,
        account_code?: String,
        is_active?: bool,
        #[tsify(type = "AccountType")]
        account_type?: String,
        currency_id?: Id,
        currency_code?: String,
        description?: String,
        is_system_account?: bool,
        is_involved_in_transaction?: bool,
        can_show_in_ze?: bool,
        include_in_vat_return?: bool,
        custom_fields?: Vec<CustomField>,
        parent_account_id?: Id,
        documents?: Vec<String>,
        created_time?: String,
        last_modified_time?: String,
        closing_balance?: JsonNumber,
    }
}

wire! {
    /// An entry of `listAccounts`.
    response AccountListEntry {
        account_id: Id,
        account_name?: String,
        account_code?: String,
        is_active?: bool,
        #[tsify(type = "AccountType")]
        account_type?: String,
        currency_id?: Id,
        currency_code?: String,
        description?: String,
        is_system_account?: bool,
        is_involved_in_transaction?: bool,
        can_show_in_ze?: bool,
        include_in_vat_return?: bool,
        custom_fields?: Vec<CustomField>,
        parent_account_id?: Id,
        documents?: Vec<String>,
        created_time?: String,
        last_modified_time?: String,
        is_user_created?: bool,
        is_standalone_account?: bool,
        #[tsify(type = "number | string")]
        current_balance?: Scalar,
        parent_account_name?: String,
        #[tsify(type = "number | string")]
        depth?: Scalar,
        has_attachment?: bool,
        #[tsify(type = "boolean | string")]
        is_child_present?: Scalar,
        #[tsify(type = "number | string")]
        child_count?: Scalar,
    }
}

wire! {
    /// Query of `listAccounts`.
    request AccountListQuery {
        filter_by?: AccountFilter,
        sort_column?: AccountSortColumn,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

wire! {
    /// A posting to an account, as `listAccountTransactions` lists it.
    response AccountTransaction {
        transaction_id: Id,
        categorized_transaction_id?: Id,
        transaction_type?: String,
        transaction_status?: String,
        transaction_source?: String,
        transaction_date?: String,
        account_id?: Id,
        customer_id?: Id,
        payee?: String,
        description?: String,
        entry_number?: String,
        currency_id?: Id,
        currency_code?: String,
        #[tsify(type = "DebitOrCredit")]
        debit_or_credit?: String,
        offset_account_name?: String,
        reference_number?: String,
        reconcile_status?: String,
        #[tsify(type = "number | string")]
        debit_amount?: Scalar,
        #[tsify(type = "number | string")]
        credit_amount?: Scalar,
    }
}

wire! {
    /// Query of `listAccountTransactions`.
    request AccountTransactionListQuery {
        account_id?: Id,
        date?: String,
        amount?: NumberOrText,
        filter_by?: String,
        transaction_type?: String,
        sort_column?: String,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

// ---- journals ----

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

// ---- fixed assets and their types ----

wire! {
    /// Body of `createFixedAsset` and `updateFixedAsset`.
    request FixedAssetInput {
        asset_name: String,
        fixed_asset_type_id: Id,
        asset_account_id: Id,
        expense_account_id?: Id,
        depreciation_account_id?: Id,
        depreciation_method?: DepreciationMethod,
        depreciation_frequency?: DepreciationFrequency,
        /// 0 to 100; declining methods only.
        depreciation_percentage?: Percentage,
        /// Months.
        total_life?: JsonNumber,
        salvage_value?: JsonNumber,
        depreciation_start_date?: IsoDate,
        description?: String,
        notes?: String,
        serial_no?: String,
        asset_cost: JsonNumber,
        asset_purchase_date: IsoDate,
        computation_type?: ComputationType,
        warranty_expiry_date?: IsoDate,
        dep_start_value?: JsonNumber,
        tags?: Vec<Tag>,
        custom_fields?: Vec<CustomFieldInput>,
    } checks [
        Check::NotAllowedWhen {
            field: "depreciation_percentage",
            when: "depreciation_method",
            equals: DepreciationMethod::StraightLine.as_str(),
            applies_to: "declining methods",
        },
    ]
}

wire! {
    response FixedAssetComment {
        comment_id?: Id,
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
    response FixedAsset {
        fixed_asset_id: Id,
        asset_name?: String,
        #[tsify(type = "FixedAssetStatus")]
        status?: String,
        asset_number?: String,
        asset_number_prefix?: String,
        asset_number_suffix?: JsonInteger,
        fixed_asset_type_id?: Id,
        fixed_asset_type_name?: String,
        asset_account_id?: Id,
        asset_account_name?: String,
        expense_account_id?: Id,
        expense_account_name?: String,
        depreciation_account_id?: Id,
        depreciation_account_name?: String,
        #[tsify(type = "DepreciationMethod")]
        depreciation_method?: String,
        #[tsify(type = "DepreciationFrequency")]
        depreciation_frequency?: String,
        depreciation_percentage?: JsonNumber,
        total_life?: JsonNumber,
        salvage_value?: JsonNumber,
        depreciation_start_date?: String,
        description?: String,
        notes?: String,
        serial_no?: String,
        asset_cost?: JsonNumber,
        asset_purchase_date?: String,
        #[tsify(type = "ComputationType")]
        computation_type?: String,
        warranty_expiry_date?: String,
        dep_start_value?: JsonNumber,
        current_asset_value?: JsonNumber,
        accumulated_dep_value?: JsonNumber,
        last_depreciation_date?: String,
        tags?: Vec<Tag>,
        custom_fields?: Vec<CustomField>,
        #[tsify(type = "Record<string, unknown>[]")]
        associated_transactions?: Vec<Extra>,
        comments?: Vec<FixedAssetComment>,
    }
}

wire! {
    /// An entry of `listFixedAssets`.
    response FixedAssetListEntry {
        fixed_asset_id: Id,
        asset_number?: String,
        asset_name?: String,
        #[tsify(type = "FixedAssetStatus")]
        status?: String,
        current_asset_value?: JsonNumber,
        asset_cost?: JsonNumber,
        fixed_asset_type_name?: String,
    }
}

wire! {
    /// Query of `listFixedAssets`.
    request FixedAssetListQuery {
        filter_by?: FixedAssetFilter,
        sort_column?: FixedAssetSortColumn,
        sort_order?: SortOrder,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

wire! {
    /// Body of `addFixedAssetComment`.
    request FixedAssetCommentInput {
        description?: String,
    }
}

wire! {
    /// Body of `sellFixedAsset`.
    request FixedAssetSaleInput {
        expense_account_id?: Id,
        invoice_id?: Id,
        line_item_id?: Id,
        reason?: String,
    }
}

wire! {
    /// Body of `writeOffFixedAsset`.
    request FixedAssetWriteOffInput {
        date?: IsoDate,
        expense_account_id?: Id,
        reason?: String,
    }
}

wire! {
    /// One period of `getFixedAssetForecast`.
    response FixedAssetForecastEntry {
        valuation_date?: String,
        depreciated_value?: JsonNumber,
        current_value?: JsonNumber,
        accumulated_value?: JsonNumber,
    }
}

wire! {
    /// One entry of `getFixedAssetHistory`.
    response FixedAssetHistoryEntry {
        valuation_id?: Id,
        description?: String,
        valuation_date?: String,
        depreciated_value?: JsonNumber,
        current_value?: JsonNumber,
        accumulated_value?: JsonNumber,
        #[serde(rename = "type")]
        entry_type?: String,
        is_journal_posted?: bool,
    }
}

wire! {
    /// Query of `getFixedAssetHistory`.
    request FixedAssetHistoryQuery {
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

wire! {
    /// Body of `createFixedAssetType`.
    request FixedAssetTypeInput {
        fixed_asset_type_name?: String,
        expense_account_id?: Id,
        depreciation_account_id?: Id,
        depreciation_method?: DepreciationMethod,
        depreciation_frequency?: DepreciationFrequency,
        depreciation_percentage?: Percentage,
        total_life?: JsonNumber,
        salvage_value?: JsonNumber,
        computation_type?: ComputationType,
    }
}

wire! {
    /// Body of `updateFixedAssetType`: every field required.
    request FixedAssetTypeUpdateInput {
        fixed_asset_type_name: String,
        expense_account_id: Id,
        depreciation_account_id: Id,
        depreciation_method: DepreciationMethod,
        depreciation_frequency: DepreciationFrequency,
        depreciation_percentage: Percentage,
        total_life: JsonNumber,
        salvage_value: JsonNumber,
        computation_type: ComputationType,
    }
}

wire! {
    response FixedAssetType {
        fixed_asset_type_id: Id,
        fixed_asset_type_name?: String,
        expense_account_id?: Id,
        expense_account_name?: String,
        depreciation_account_id?: Id,
        depreciation_account_name?: String,
        #[tsify(type = "DepreciationMethod")]
        depreciation_method?: String,
        depreciation_percentage?: JsonNumber,
        total_life?: JsonNumber,
        #[tsify(type = "DepreciationFrequency")]
        depreciation_frequency?: String,
        salvage_value?: JsonNumber,
        #[tsify(type = "ComputationType")]
        computation_type?: String,
    }
}

wire! {
    /// Query of `listFixedAssetTypes`.
    request FixedAssetTypeListQuery {
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

// ---- expenses ----

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

impl super::Named for ExpenseAttachmentResult {
    const NAME: &'static str = "ExpenseAttachmentResult";
    #[cfg(test)]
    const DECODE: Option<super::results::Decode> =
        Some(super::results::round_trip::<ExpenseAttachmentResult>);
}

// ---- vendor credits and refunds ----

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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_come_out_as_strings_with_every_digit() {
        let expense: Expense = serde_json::from_str(
            r#"{"expense_id": 10763000000140068, "project_id": 982000000567226, "taxes": [{"tax_id": 9007199254740993}]}"#,
        )
        .unwrap();
        assert_eq!(expense.expense_id, Id::from("10763000000140068"));
        let back = serde_json::to_value(&expense).unwrap();
        assert_eq!(back["project_id"], "982000000567226");
        assert_eq!(back["taxes"][0]["tax_id"], "9007199254740993");
    }

    #[test]
    fn unknown_fields_are_kept_and_absent_ones_omitted() {
        let asset: FixedAsset =
            serde_json::from_value(json!({ "fixed_asset_id": "1", "future_field": { "a": 1 } }))
                .unwrap();
        assert_eq!(asset.extra["future_field"], json!({ "a": 1 }));
        assert_eq!(
            serde_json::to_value(&asset).unwrap(),
            json!({ "fixed_asset_id": "1", "future_field": { "a": 1 } })
        );
    }

    #[test]
    fn a_new_server_value_still_decodes() {
        let asset: FixedAsset = serde_json::from_value(
            json!({ "fixed_asset_id": "1", "depreciation_method": "units_of_production" }),
        )
        .unwrap();
        assert_eq!(
            asset.depreciation_method.as_deref(),
            Some("units_of_production")
        );
    }

    #[test]
    fn value_sets_use_their_wire_names() {
        let method = serde_json::to_value(DepreciationMethod::DecliningMethod200).unwrap();
        assert_eq!(method, "200_declining_method");
        let size: IndustrySize = serde_json::from_value(json!("medium scale")).unwrap();
        assert_eq!(size, IndustrySize::MediumScale);
        assert_eq!(JournalType::VALUES, ["Cash", "Both", "cash", "both"]);
        assert!(serde_json::from_value::<MileageUnit>(json!("miles")).is_err());
    }

    #[test]
    fn typescript_declarations_are_unions_and_optional_fields() {
        use tsify::Tsify;
        let decl = DepreciationMethod::DECL;
        assert!(decl.contains(r#""declining_method" | "straight_line" | "200_declining_method" | "150_declining_method""#), "{decl}");
        let decl = FixedAssetInput::DECL;
        assert!(decl.contains("asset_name: string;"), "{decl}");
        assert!(
            decl.contains("depreciation_method?: DepreciationMethod;"),
            "{decl}"
        );
        assert!(!decl.contains("Record<string, unknown>"), "{decl}");
        let decl = FixedAsset::DECL;
        assert!(
            decl.contains("depreciation_method?: DepreciationMethod;"),
            "{decl}"
        );
        assert!(decl.contains("Record<string, unknown>"), "{decl}");
        let decl = ExpenseUniqueFieldUpdateInput::DECL;
        assert!(decl.contains("ExpenseInput"), "{decl}");
    }

    #[test]
    fn the_unique_field_update_is_its_headers_then_the_expense_flattened() {
        use crate::schema::Params;
        let (own, expense) = (ExpenseUniqueFieldUpdateInput::SCHEMA, ExpenseInput::SCHEMA);
        let names: Vec<_> = own.fields.iter().map(|f| f.name).collect();
        assert_eq!(
            names[..3],
            [
                "x_unique_identifier_key",
                "x_unique_identifier_value",
                "x_upsert"
            ]
        );
        assert_eq!(
            format!("{:?}", &own.fields[3..]),
            format!("{:?}", expense.fields)
        );
        assert_eq!(own.checks, expense.checks);
        assert_eq!(own.checks.len(), 2);
    }

    #[test]
    fn a_lone_line_item_object_reads_as_a_list() {
        let credit: VendorCredit = serde_json::from_value(
            json!({ "vendor_credit_id": "1", "line_items": { "name": "Hosting" } }),
        )
        .unwrap();
        assert_eq!(
            credit.line_items.unwrap()[0].name.as_deref(),
            Some("Hosting")
        );
    }

    #[test]
    fn the_attachment_result_is_comments_or_documents() {
        let docs: ExpenseAttachmentResult =
            serde_json::from_value(json!([{ "document_id": "9", "file_name": "a.pdf" }])).unwrap();
        assert!(
            matches!(docs, ExpenseAttachmentResult::Documents(ref d) if d[0].document_id == Id::from("9"))
        );
        let comments: ExpenseAttachmentResult =
            serde_json::from_value(json!([{ "comment_id": "7", "description": "attached" }]))
                .unwrap();
        assert!(matches!(comments, ExpenseAttachmentResult::Comments(_)));
    }

    #[test]
    fn a_fixed_asset_status_is_its_value_set_in_typescript_and_any_text_when_decoded() {
        assert!(FixedAsset::DECL.contains("status?: FixedAssetStatus"));
        assert!(FixedAssetListEntry::DECL.contains("status?: FixedAssetStatus"));
        let asset: FixedAsset =
            serde_json::from_value(json!({ "fixed_asset_id": "1", "status": "archived" })).unwrap();
        assert_eq!(asset.status.as_deref(), Some("archived"));
        for status in FixedAssetStatus::VALUES {
            let entry: FixedAssetListEntry =
                serde_json::from_value(json!({ "fixed_asset_id": "1", "status": status })).unwrap();
            assert_eq!(entry.status.as_deref(), Some(*status));
        }
    }

    #[test]
    fn the_receipt_query_takes_the_vendor_preview_and_checks_nothing() {
        use crate::schema::Params;
        assert!(ExpenseReceiptQuery::DECL.contains("preview?: boolean"));
        assert!(ExpenseReceiptQuery::SCHEMA.fields.is_empty());
    }
}
