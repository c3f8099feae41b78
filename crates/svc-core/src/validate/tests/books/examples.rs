//! The valid params examples the books rule tests start from, and the tests that each passes and decodes as its params type.

use super::support::{assert_ok, books};
use crate::model::books as m;
use serde_json::{json, Value};

/// Tags as the documents send them.
fn tags() -> Value {
    json!([{ "tag_id": "460000000094001", "tag_option_id": "460000000048001" }])
}

/// Custom fields as the documents send them.
fn custom_fields() -> Value {
    json!([{ "customfield_id": "460000000098001", "value": "Normal" }])
}

/// An organization address.
fn address() -> Value {
    json!({
        "street_address1": "4910 Hopyard Rd", "street_address2": "Suite 200", "city": "Pleasanton",
        "state": "CA", "country": "U.S.A", "zip": "94588"
    })
}

/// An expense body with every documented field.
fn expense() -> Value {
    json!({
        "account_id": 982000000561057u64, "date": "2013-11-18", "amount": 112.5, "tax_id": "982000000566007",
        "source_of_supply": "AP", "destination_of_supply": "TN", "place_of_supply": "DU", "hsn_or_sac": 80540,
        "gst_no": "22AAAAA0000A1Z5", "gst_treatment": "business_gst", "reverse_charge_tax_id": "982000000561063",
        "location_id": "460000000038080",
        "line_items": [{
            "line_item_id": 10763000000140068u64, "account_id": "982000000561057", "description": "Marketing",
            "amount": 112.5, "tax_id": "982000000566007", "item_order": 1, "product_type": "goods",
            "tax_exemption_id": "982000000561067", "location_id": "460000000038080", "tags": tags()
        }],
        "taxes": [{ "tax_id": "982000000566007", "tax_amount": 11.85 }],
        "is_inclusive_tax": false, "is_billable": true, "reference_number": "EXP-1", "description": "Trip",
        "customer_id": "982000000567001", "currency_id": "982000000567001", "exchange_rate": 1,
        "project_id": "982000000567226", "mileage_type": "odometer", "vat_treatment": "uk",
        "tax_treatment": "vat_registered", "product_type": "service", "start_reading": 1200, "end_reading": 1260,
        "distance": 60, "mileage_unit": "km", "mileage_rate": 0.45, "employee_id": "982000000030040",
        "vehicle_type": "car", "can_reclaim_vat_on_mileage": true, "fuel_type": "diesel",
        "engine_capacity_range": "between_1400cc_and_1600cc", "paid_through_account_id": "982000000567250",
        "vendor_id": "982000000567300", "custom_fields": custom_fields(), "tags": tags()
    })
}

/// A fixed asset body.
fn fixed_asset() -> Value {
    json!({
        "asset_name": "Laptop", "fixed_asset_type_id": "3640355000000319008",
        "asset_account_id": "3640355000000000367", "expense_account_id": "3640355000000000421",
        "depreciation_account_id": "3640355000000000367", "depreciation_method": "declining_method",
        "depreciation_frequency": "yearly", "depreciation_percentage": 12, "total_life": 60, "salvage_value": 100,
        "depreciation_start_date": "2024-12-17", "description": "Work laptop", "asset_cost": 1000,
        "computation_type": "prorata_basis", "warranty_expiry_date": "2027-12-17",
        "asset_purchase_date": "2024-12-17", "serial_no": "SN-0001", "dep_start_value": 1000,
        "notes": "Model 2024", "tags": tags(), "custom_fields": custom_fields()
    })
}

/// A fixed asset type body.
fn fixed_asset_type() -> Value {
    json!({
        "fixed_asset_type_name": "Machines", "expense_account_id": "3640355000000000421",
        "depreciation_account_id": "3640355000000000367", "depreciation_method": "declining_method",
        "depreciation_frequency": "yearly", "depreciation_percentage": 12, "total_life": 60, "salvage_value": 100,
        "computation_type": "prorata_basis"
    })
}

/// An account body.
fn account() -> Value {
    json!({
        "account_name": "Notes Payable", "account_code": "NP-01", "account_type": "long_term_liability",
        "currency_id": "460000000000097", "description": "Paid off over more than one year.",
        "show_on_dashboard": false, "can_show_in_ze": false, "include_in_vat_return": true,
        "custom_fields": custom_fields(), "parent_account_id": "460000000009097"
    })
}

/// A vendor credit refund body.
fn refund() -> Value {
    json!({
        "date": "2014-08-30", "refund_mode": "cash", "reference_number": "RF-1", "amount": 13,
        "exchange_rate": 1, "account_id": "460000000020097", "description": "Cheque deposit"
    })
}

/// The first page of a list, at its largest.
fn pages() -> Value {
    json!({ "page": 1, "per_page": 200 })
}

/// A valid params example of an operation, built from the documents where a test needs more than
/// the row's sample (`crate::examples`).
pub(super) fn example(op: &str) -> Value {
    organization(op)
        .or_else(|| account_or_journal(op))
        .or_else(|| asset_or_expense(op))
        .or_else(|| vendor_credit(op))
        .unwrap_or_else(|| match op {
            "listOrganizations"
            | "getAccount"
            | "deleteFixedAssetType"
            | "getExpenseReceipt"
            | "deleteExpenseReceipt"
            | "getVendorCreditRefund"
            | "deleteVendorCreditRefund" => json!({}),
            other => crate::examples::sample(crate::catalog::find(other).unwrap()).params,
        })
}

/// The examples of the organization operations.
fn organization(op: &str) -> Option<Value> {
    Some(match op {
        "createOrganization" => json!({
            "name": "Zillium Inc", "currency_code": "USD", "time_zone": "PST", "portal_name": "zilluminc",
            "fiscal_year_start_month": "january", "date_format": "dd MMM yyyy", "field_separator": " ",
            "language_code": "en", "industry_type": "Services", "industry_size": "small scale",
            "org_address": "4910 Hopyard Rd", "remit_to_address": "PO Box 1", "address": address()
        }),
        "updateOrganization" => json!({
            "name": "Zillium Inc", "fiscal_year_start_month": "april", "is_logo_uploaded": true,
            "time_zone": "PST", "date_format": "dd MMM yyyy", "field_separator": "/", "language_code": "en",
            "org_address": "4910 Hopyard Rd", "remit_to_address": "PO Box 1", "address": address(),
            "contact_name": "John Smith", "phone": "+1 555 0100", "fax": "+1 555 0101",
            "website": "https://zillium.example", "email": "john@zillium.example",
            "currency_id": "982000000000190", "companyid_label": "Company ID", "companyid_value": "C-1",
            "taxid_label": "Tax ID", "taxid_value": "T-1",
            "custom_fields": [{ "index": 1, "value": "Gold", "label": "Tier" }]
        }),
        _ => return None,
    })
}

/// The examples of the account and journal operations.
fn account_or_journal(op: &str) -> Option<Value> {
    Some(match op {
        "createAccount" | "updateAccount" => account(),
        "listAccounts" => json!({
            "filter_by": "AccountType.Active", "sort_column": "account_name", "page": 1, "per_page": 200
        }),
        "createJournal" | "updateJournal" => json!({
            "journal_date": "2013-09-04", "reference_number": "7355", "notes": "Loan repayment",
            "journal_type": "both", "vat_treatment": "uk", "include_in_vat_return": true, "product_type": "goods",
            "is_bas_adjustment": false, "currency_id": "460000000000097", "exchange_rate": 1,
            "location_id": "460000000038080",
            "line_items": [
                {
                    "account_id": "460000000000361", "customer_id": "460000000000111", "line_id": "460000000038005",
                    "description": "Repayment", "debit_or_credit": "credit", "amount": 5000,
                    "tax_exemption_type": "item", "location_id": "460000000038080", "tags": tags(),
                    "project_id": "460000000898001"
                },
                { "account_id": "460000000000362", "debit_or_credit": "debit", "amount": 5000 }
            ],
            "tax_exemption_code": "EX1", "tax_exemption_type": "customer", "status": "draft",
            "custom_fields": custom_fields(), "tags": tags()
        }),
        "listAccountTransactions" => json!({
            "account_id": "460000000038079", "date": "2013-10-04", "amount": 25, "filter_by": "",
            "transaction_type": "customer_payment", "sort_column": "transaction_date", "page": 1,
            "per_page": 200
        }),
        "listJournals" => json!({
            "entry_number": "1", "reference_number": "7355", "date": "2013-09-04", "notes": "Loan",
            "last_modified_time": "2013-09-05T17:13:31+0530", "total": 5000,
            "customer_id": "460000000044001", "vendor_id": 460000000020029u64, "filter_by": "",
            "sort_column": "journal_date", "page": 1, "per_page": 200
        }),
        "addJournalComment" | "addFixedAssetComment" => json!({ "description": "Checked" }),
        "addJournalAttachment" => {
            json!({ "files": [{ "name": "lease.pdf", "data": "JVBERi0=" }] })
        }
        _ => return None,
    })
}

/// The examples of the fixed asset and expense operations.
fn asset_or_expense(op: &str) -> Option<Value> {
    Some(match op {
        "createFixedAsset" | "updateFixedAsset" => fixed_asset(),
        "sellFixedAsset" => json!({
            "expense_account_id": "3640355000000000421", "invoice_id": "3640355000000319008",
            "line_item_id": 3640355000000319008u64, "reason": "Asset is no longer required"
        }),
        "writeOffFixedAsset" => json!({
            "date": "2024-12-17", "expense_account_id": "3640355000000000421", "reason": "Damaged"
        }),
        "listFixedAssets" => json!({
            "filter_by": "Status.Active", "sort_column": "asset_number", "sort_order": "A", "page": 1,
            "per_page": 200
        }),
        "createFixedAssetType" | "updateFixedAssetType" => fixed_asset_type(),
        "createExpense" | "updateExpense" => expense(),
        "updateExpenseByUniqueField" => {
            let mut params = expense();
            params["x_unique_identifier_key"] = "cf_unique_cf".into();
            params["x_unique_identifier_value"] = "unique Value".into();
            params["x_upsert"] = true.into();
            params
        }
        "addExpenseAttachment" => {
            json!({ "files": [{ "name": "receipt.pdf", "data": "JVBERi0=" }] })
        }
        _ => return None,
    })
}

/// The examples of the vendor credit and refund operations.
fn vendor_credit(op: &str) -> Option<Value> {
    Some(match op {
        "createVendorCredit" | "updateVendorCredit" => json!({
            "vendor_id": "460000000020029", "currency_id": "3000000000083", "vat_treatment": "uk",
            "vendor_credit_number": "DN-00002", "gst_treatment": "business_gst", "tax_treatment": "vat_registered",
            "gst_no": "22AAAAA0000A1Z5", "source_of_supply": "TN", "destination_of_supply": "TN",
            "place_of_supply": "DU", "pricebook_id": "460000000020100", "reference_number": "REF-7",
            "is_update_customer": false, "date": "2014-08-28", "exchange_rate": 1, "is_inclusive_tax": false,
            "location_id": "460000000038080",
            "line_items": [{
                "item_id": "460000000020071", "line_item_id": "460000000020077", "account_id": "460000000020097",
                "name": "Premium Plan - Web hosting", "hsn_or_sac": "998315", "reverse_charge_tax_id": 460000000057089u64,
                "location_id": "460000000038080", "description": "Hosting for August", "item_order": 0,
                "quantity": 1, "unit": "Nos", "rate": 30, "tax_id": "460000000020110",
                "tds_tax_id": "460000000020111", "tax_treatment_code": "uae_others", "tags": tags(),
                "item_custom_fields": [{ "custom_field_id": "460000000020200", "label": "Batch", "value": "B1", "index": 1 }],
                "serial_numbers": ["SN-1", "SN-2"], "project_id": 90300000087378u64
            }],
            "notes": "Damaged goods", "documents": [{ "document_id": "460000000020300", "file_name": "note.pdf" }],
            "custom_fields": [{ "custom_field_id": "460000000020201", "label": "Region", "value": "South", "index": 1 }],
            "tags": tags()
        }),
        "listVendorCredits" => json!({
            "vendor_credit_number_startswith": "DN-", "vendor_credit_number_contains": "000",
            "date_start": "2014-08-01", "date_end": "2014-08-31", "date_before": "2014-09-01",
            "date_after": "2014-07-31", "status": "open", "total_start": 10, "total_end": 100,
            "total_less_than": 100, "total_less_equals": 100, "total_greater_than": 10,
            "total_greater_equals": 10, "page": 1, "per_page": 200
        }),
        "createVendorCreditRefund" | "updateVendorCreditRefund" => refund(),
        "listFixedAssetTypes" | "listVendorCreditRefunds" | "getFixedAssetHistory" => pages(),
        "listAllVendorCreditRefunds" => {
            json!({ "sort_column": "date", "page": 1, "per_page": 200 })
        }
        _ => return None,
    })
}

#[test]
fn every_operation_has_a_valid_example() {
    for op in books() {
        assert_ok(op, &example(op));
    }
}

/// Decodes into `T` and encodes again.
fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(
    v: &Value,
) -> Result<Value, String> {
    let typed: T = serde_json::from_value(v.clone()).map_err(|e| e.to_string())?;
    serde_json::to_value(&typed).map_err(|e| e.to_string())
}

type Decode = fn(&Value) -> Result<Value, String>;

/// The params type of each operation that takes params.
const PARAMS_TYPES: &[(&str, Decode)] = &[
    (
        "createOrganization",
        round_trip::<m::OrganizationCreateInput>,
    ),
    (
        "updateOrganization",
        round_trip::<m::OrganizationUpdateInput>,
    ),
    ("createAccount", round_trip::<m::AccountInput>),
    ("listAccounts", round_trip::<m::AccountListQuery>),
    ("updateAccount", round_trip::<m::AccountInput>),
    (
        "listAccountTransactions",
        round_trip::<m::AccountTransactionListQuery>,
    ),
    ("createJournal", round_trip::<m::JournalInput>),
    ("listJournals", round_trip::<m::JournalListQuery>),
    ("updateJournal", round_trip::<m::JournalInput>),
    ("addJournalComment", round_trip::<m::JournalCommentInput>),
    ("createFixedAsset", round_trip::<m::FixedAssetInput>),
    ("listFixedAssets", round_trip::<m::FixedAssetListQuery>),
    ("updateFixedAsset", round_trip::<m::FixedAssetInput>),
    ("sellFixedAsset", round_trip::<m::FixedAssetSaleInput>),
    (
        "writeOffFixedAsset",
        round_trip::<m::FixedAssetWriteOffInput>,
    ),
    (
        "getFixedAssetHistory",
        round_trip::<m::FixedAssetHistoryQuery>,
    ),
    (
        "addFixedAssetComment",
        round_trip::<m::FixedAssetCommentInput>,
    ),
    ("createFixedAssetType", round_trip::<m::FixedAssetTypeInput>),
    (
        "listFixedAssetTypes",
        round_trip::<m::FixedAssetTypeListQuery>,
    ),
    (
        "updateFixedAssetType",
        round_trip::<m::FixedAssetTypeUpdateInput>,
    ),
    ("createExpense", round_trip::<m::ExpenseInput>),
    (
        "updateExpenseByUniqueField",
        round_trip::<m::ExpenseUniqueFieldUpdateInput>,
    ),
    ("createVendorCredit", round_trip::<m::VendorCreditInput>),
    ("listExpenses", round_trip::<m::ExpenseListQuery>),
    ("updateExpense", round_trip::<m::ExpenseInput>),
    ("getVendorCredit", round_trip::<m::VendorCreditGetQuery>),
    ("updateVendorCredit", round_trip::<m::VendorCreditInput>),
    (
        "applyVendorCreditToBills",
        round_trip::<m::VendorCreditBillsInput>,
    ),
    (
        "addVendorCreditComment",
        round_trip::<m::VendorCreditCommentInput>,
    ),
    ("listVendorCredits", round_trip::<m::VendorCreditListQuery>),
    (
        "createVendorCreditRefund",
        round_trip::<m::VendorCreditRefundInput>,
    ),
    (
        "listVendorCreditRefunds",
        round_trip::<m::VendorCreditRefundListQuery>,
    ),
    (
        "updateVendorCreditRefund",
        round_trip::<m::VendorCreditRefundInput>,
    ),
    (
        "listAllVendorCreditRefunds",
        round_trip::<m::AllVendorCreditRefundsQuery>,
    ),
];

#[test]
fn every_valid_example_is_its_params_type_field_for_field() {
    for (op, decode) in PARAMS_TYPES {
        let params = example(op);
        let back = decode(&params).unwrap_or_else(|e| panic!("{op}: {e}"));
        crate::model::tests::assert_kept(&params, &back, op);
    }
}
