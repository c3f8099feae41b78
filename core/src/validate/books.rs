//! The tests of the rules of the books operations' params (the rules are declared with their types in
//! `crate::model::books`; an upload's params are its files, `upload!` in the table), and the file types
//! of the expense receipt upload.

/// File types the expense receipt upload accepts (the attachment's without txt and csv).
pub const RECEIPT_TYPES: &[&str] = &[
    "gif", "png", "jpeg", "jpg", "bmp", "pdf", "xls", "xlsx", "doc", "docx",
];

#[cfg(test)]
mod tests {
    use crate::issue::{Issue, IssueCode};
    use crate::model::books as m;
    use crate::schema::Params;
    use crate::validate::testing::{edge, expect_all, expect_none, expect_one, issues_at};
    use crate::validate::Schema;
    use serde_json::json;
    use serde_json::Value;

    const NOW: i64 = 1_732_233_600_000;

    fn schema(op: &str) -> &'static Schema {
        crate::catalog::find(op)
            .unwrap_or_else(|| panic!("no operation {op}"))
            .params
    }

    fn books() -> impl Iterator<Item = &'static str> {
        crate::catalog::OPERATIONS
            .iter()
            .filter(|op| op.family == crate::family::Family::Books)
            .map(|op| op.id)
    }

    fn run(op: &str, params: &Value) -> Vec<Issue> {
        issues_at(schema(op), params, NOW)
    }

    /// Sets the value at a JSON pointer; `null` removes the key.
    fn set(mut params: Value, pointer: &str, v: Value) -> Value {
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        match params
            .pointer_mut(parent)
            .unwrap_or_else(|| panic!("no {parent}"))
        {
            Value::Object(m) if v.is_null() => {
                m.remove(key);
            }
            Value::Object(m) => {
                m.insert(key.to_string(), v);
            }
            Value::Array(a) => a[key.parse::<usize>().unwrap()] = v,
            other => panic!("cannot set {key} in {other}"),
        }
        params
    }

    /// The issue path of a JSON pointer: `/line_items/0/name` is `["line_items", 0, "name"]`.
    fn path_of(pointer: &str) -> Value {
        pointer
            .split('/')
            .skip(1)
            .map(|s| {
                s.parse::<usize>()
                    .map(Value::from)
                    .unwrap_or_else(|_| s.into())
            })
            .collect()
    }

    fn allowed(values: &[&str]) -> Value {
        values.iter().map(|v| Value::from(*v)).collect()
    }

    fn assert_ok(op: &str, params: &Value) {
        expect_none(&run(op, params));
    }

    fn assert_one(op: &str, params: &Value, code: IssueCode, pointer: &str, details: Value) {
        expect_one(&run(op, params), path_of(pointer), code, details);
    }

    /// A valid params example of an operation, built from the documents where a test needs more than
    /// the row's sample (`crate::examples`).
    fn example(op: &str) -> Value {
        let tags = json!([{ "tag_id": "460000000094001", "tag_option_id": "460000000048001" }]);
        let custom_fields = json!([{ "customfield_id": "460000000098001", "value": "Normal" }]);
        let address = json!({
            "street_address1": "4910 Hopyard Rd", "street_address2": "Suite 200", "city": "Pleasanton",
            "state": "CA", "country": "U.S.A", "zip": "94588"
        });
        let expense = json!({
            "account_id": 982000000561057u64, "date": "2013-11-18", "amount": 112.5, "tax_id": "982000000566007",
            "source_of_supply": "AP", "destination_of_supply": "TN", "place_of_supply": "DU", "hsn_or_sac": 80540,
            "gst_no": "22AAAAA0000A1Z5", "gst_treatment": "business_gst", "reverse_charge_tax_id": "982000000561063",
            "location_id": "460000000038080",
            "line_items": [{
                "line_item_id": 10763000000140068u64, "account_id": "982000000561057", "description": "Marketing",
                "amount": 112.5, "tax_id": "982000000566007", "item_order": 1, "product_type": "goods",
                "tax_exemption_id": "982000000561067", "location_id": "460000000038080", "tags": tags
            }],
            "taxes": [{ "tax_id": "982000000566007", "tax_amount": 11.85 }],
            "is_inclusive_tax": false, "is_billable": true, "reference_number": "EXP-1", "description": "Trip",
            "customer_id": "982000000567001", "currency_id": "982000000567001", "exchange_rate": 1,
            "project_id": "982000000567226", "mileage_type": "odometer", "vat_treatment": "uk",
            "tax_treatment": "vat_registered", "product_type": "service", "start_reading": 1200, "end_reading": 1260,
            "distance": 60, "mileage_unit": "km", "mileage_rate": 0.45, "employee_id": "982000000030040",
            "vehicle_type": "car", "can_reclaim_vat_on_mileage": true, "fuel_type": "diesel",
            "engine_capacity_range": "between_1400cc_and_1600cc", "paid_through_account_id": "982000000567250",
            "vendor_id": "982000000567300", "custom_fields": custom_fields, "tags": tags
        });
        let fixed_asset = json!({
            "asset_name": "Laptop", "fixed_asset_type_id": "3640355000000319008",
            "asset_account_id": "3640355000000000367", "expense_account_id": "3640355000000000421",
            "depreciation_account_id": "3640355000000000367", "depreciation_method": "declining_method",
            "depreciation_frequency": "yearly", "depreciation_percentage": 12, "total_life": 60, "salvage_value": 100,
            "depreciation_start_date": "2024-12-17", "description": "Work laptop", "asset_cost": 1000,
            "computation_type": "prorata_basis", "warranty_expiry_date": "2027-12-17",
            "asset_purchase_date": "2024-12-17", "serial_no": "SN-0001", "dep_start_value": 1000,
            "notes": "Model 2024", "tags": tags, "custom_fields": custom_fields
        });
        let fixed_asset_type = json!({
            "fixed_asset_type_name": "Machines", "expense_account_id": "3640355000000000421",
            "depreciation_account_id": "3640355000000000367", "depreciation_method": "declining_method",
            "depreciation_frequency": "yearly", "depreciation_percentage": 12, "total_life": 60, "salvage_value": 100,
            "computation_type": "prorata_basis"
        });
        let account = json!({
            "account_name": "Notes Payable", "account_code": "NP-01", "account_type": "long_term_liability",
            "currency_id": "460000000000097", "description": "Paid off over more than one year.",
            "show_on_dashboard": false, "can_show_in_ze": false, "include_in_vat_return": true,
            "custom_fields": custom_fields, "parent_account_id": "460000000009097"
        });
        let refund = json!({
            "date": "2014-08-30", "refund_mode": "cash", "reference_number": "RF-1", "amount": 13,
            "exchange_rate": 1, "account_id": "460000000020097", "description": "Cheque deposit"
        });
        let pages = json!({ "page": 1, "per_page": 200 });
        match op {
            "createOrganization" => json!({
                "name": "Zillium Inc", "currency_code": "USD", "time_zone": "PST", "portal_name": "zilluminc",
                "fiscal_year_start_month": "january", "date_format": "dd MMM yyyy", "field_separator": " ",
                "language_code": "en", "industry_type": "Services", "industry_size": "small scale",
                "org_address": "4910 Hopyard Rd", "remit_to_address": "PO Box 1", "address": address
            }),
            "updateOrganization" => json!({
                "name": "Zillium Inc", "fiscal_year_start_month": "april", "is_logo_uploaded": true,
                "time_zone": "PST", "date_format": "dd MMM yyyy", "field_separator": "/", "language_code": "en",
                "org_address": "4910 Hopyard Rd", "remit_to_address": "PO Box 1", "address": address,
                "contact_name": "John Smith", "phone": "+1 555 0100", "fax": "+1 555 0101",
                "website": "https://zillium.example", "email": "john@zillium.example",
                "currency_id": "982000000000190", "companyid_label": "Company ID", "companyid_value": "C-1",
                "taxid_label": "Tax ID", "taxid_value": "T-1",
                "custom_fields": [{ "index": 1, "value": "Gold", "label": "Tier" }]
            }),
            "createAccount" | "updateAccount" => account,
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
                        "tax_exemption_type": "item", "location_id": "460000000038080", "tags": tags,
                        "project_id": "460000000898001"
                    },
                    { "account_id": "460000000000362", "debit_or_credit": "debit", "amount": 5000 }
                ],
                "tax_exemption_code": "EX1", "tax_exemption_type": "customer", "status": "draft",
                "custom_fields": custom_fields, "tags": tags
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
            "createFixedAsset" | "updateFixedAsset" => fixed_asset,
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
            "createFixedAssetType" | "updateFixedAssetType" => fixed_asset_type,
            "createExpense" | "updateExpense" => expense,
            "updateExpenseByUniqueField" => {
                let mut params = expense;
                params["x_unique_identifier_key"] = "cf_unique_cf".into();
                params["x_unique_identifier_value"] = "unique Value".into();
                params["x_upsert"] = true.into();
                params
            }
            "addExpenseAttachment" => {
                json!({ "files": [{ "name": "receipt.pdf", "data": "JVBERi0=" }] })
            }
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
                    "tds_tax_id": "460000000020111", "tax_treatment_code": "uae_others", "tags": tags,
                    "item_custom_fields": [{ "custom_field_id": "460000000020200", "label": "Batch", "value": "B1", "index": 1 }],
                    "serial_numbers": ["SN-1", "SN-2"], "project_id": 90300000087378u64
                }],
                "notes": "Damaged goods", "documents": [{ "document_id": "460000000020300", "file_name": "note.pdf" }],
                "custom_fields": [{ "custom_field_id": "460000000020201", "label": "Region", "value": "South", "index": 1 }],
                "tags": tags
            }),
            "listVendorCredits" => json!({
                "vendor_credit_number_startswith": "DN-", "vendor_credit_number_contains": "000",
                "date_start": "2014-08-01", "date_end": "2014-08-31", "date_before": "2014-09-01",
                "date_after": "2014-07-31", "status": "open", "total_start": 10, "total_end": 100,
                "total_less_than": 100, "total_less_equals": 100, "total_greater_than": 10,
                "total_greater_equals": 10, "page": 1, "per_page": 200
            }),
            "createVendorCreditRefund" | "updateVendorCreditRefund" => refund,
            "listFixedAssetTypes" | "listVendorCreditRefunds" | "getFixedAssetHistory" => pages,
            "listAllVendorCreditRefunds" => {
                json!({ "sort_column": "date", "page": 1, "per_page": 200 })
            }
            "listOrganizations"
            | "getAccount"
            | "deleteFixedAssetType"
            | "getExpenseReceipt"
            | "deleteExpenseReceipt"
            | "getVendorCreditRefund"
            | "deleteVendorCreditRefund" => json!({}),
            other => crate::examples::sample(crate::catalog::find(other).unwrap()).params,
        }
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
            crate::model::results::assert_kept(&params, &back, op);
        }
    }

    // ---- organizations ----

    edge! {
        org_name_given_passes / org_name_missing_fails:
            *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["name"],
            "Zillium Inc" => null, Required {};
        org_currency_code_given_passes / org_currency_code_missing_fails:
            *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["currency_code"],
            "EUR" => null, Required {};
        org_time_zone_given_passes / org_time_zone_missing_fails:
            *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["time_zone"],
            "Europe/Berlin" => null, Required {};
        portal_name_given_passes / portal_name_missing_fails:
            *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["portal_name"],
            "zilluminc" => null, Required {};
        portal_name_of_30_passes / portal_name_of_31_fails:
            *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["portal_name"],
            ("a".repeat(30)) => ("a".repeat(31)), TooLong { "maximum": 30 };
        portal_name_of_5_passes / portal_name_of_4_fails:
            *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["portal_name"],
            "abcde" => "abcd", TooShort { "minimum": 5 };
        portal_name_of_letters_and_digits_passes / portal_name_with_a_hyphen_fails:
            *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["portal_name"],
            "Zillium2024" => "zillium-inc", InvalidFormat { "format": "alphanumeric" };
        fiscal_year_start_month_december_passes / fiscal_year_start_month_abbreviated_fails:
            *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["fiscal_year_start_month"],
            "december" => "Dec", InvalidValue { "allowed": allowed(m::FiscalYearStartMonth::VALUES) };
        industry_size_large_scale_passes / industry_size_unlisted_fails:
            *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["industry_size"],
            "large scale" => "huge", InvalidValue { "allowed": ["small scale", "medium scale", "large scale"] };
        org_address_zip_string_passes / org_address_zip_number_fails:
            *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["address", "zip"],
            "94588" => 94588, InvalidType { "expected": "string" };
        update_org_fiscal_year_start_month_april_passes / update_org_fiscal_year_start_month_capitalised_fails:
            *m::OrganizationUpdateInput::SCHEMA, example("updateOrganization"), ["fiscal_year_start_month"],
            "april" => "April", InvalidValue { "allowed": allowed(m::FiscalYearStartMonth::VALUES) };
        is_logo_uploaded_boolean_passes / is_logo_uploaded_string_fails:
            *m::OrganizationUpdateInput::SCHEMA, example("updateOrganization"), ["is_logo_uploaded"],
            false => "yes", InvalidType { "expected": "boolean" };
        org_custom_field_index_number_passes / org_custom_field_index_string_fails:
            *m::OrganizationUpdateInput::SCHEMA, example("updateOrganization"), ["custom_fields", 0, "index"],
            2.5 => "2", InvalidType { "expected": "number" };
    }

    #[test]
    fn industry_size_blank_counts_as_not_given() {
        assert_ok(
            "createOrganization",
            &set(example("createOrganization"), "/industry_size", json!(" ")),
        );
    }

    #[test]
    fn organization_update_needs_no_field() {
        assert_ok("updateOrganization", &json!({}));
    }

    #[test]
    fn organization_create_reports_every_issue() {
        let issues = run(
            "createOrganization",
            &json!({ "name": " ", "portal_name": "ab-c", "fiscal_year_start_month": "jan", "industry_size": "tiny" }),
        );
        expect_all(
            &issues,
            &[
                ("name", IssueCode::Required),
                ("currency_code", IssueCode::Required),
                ("time_zone", IssueCode::Required),
                ("portal_name", IssueCode::TooShort),
                ("portal_name", IssueCode::InvalidFormat),
                ("fiscal_year_start_month", IssueCode::InvalidValue),
                ("industry_size", IssueCode::InvalidValue),
            ],
        );
    }

    // ---- chart of accounts ----

    edge! {
        account_type_accounts_payable_passes / account_type_unlisted_fails:
            *m::AccountInput::SCHEMA, example("createAccount"), ["account_type"],
            "accounts_payable" => "asset", InvalidValue { "allowed": allowed(m::AccountType::VALUES) };
        update_account_type_equity_passes / update_account_type_unlisted_fails:
            *m::AccountInput::SCHEMA, example("updateAccount"), ["account_type"],
            "equity" => "Equity", InvalidValue { "allowed": allowed(m::AccountType::VALUES) };
        account_filter_inactive_passes / account_filter_unlisted_fails:
            *m::AccountListQuery::SCHEMA, example("listAccounts"), ["filter_by"],
            "AccountType.Inactive" => "AccountType.Deleted", InvalidValue { "allowed": allowed(m::AccountFilter::VALUES) };
        account_sort_by_type_passes / account_sort_unlisted_fails:
            *m::AccountListQuery::SCHEMA, example("listAccounts"), ["sort_column"],
            "account_type" => "balance", InvalidValue { "allowed": ["account_name", "account_type"] };
        page_of_1_passes / page_of_0_fails:
            *m::AccountListQuery::SCHEMA, example("listAccounts"), ["page"], 1 => 0,
            OutOfRange { "minimum": 1, "maximum": 4294967295u64 };
        per_page_of_1_passes / per_page_of_0_fails:
            *m::AccountListQuery::SCHEMA, example("listAccounts"), ["per_page"], 1 => 0,
            OutOfRange { "minimum": 1, "maximum": 4294967295u64 };
        page_whole_number_passes / page_fraction_fails:
            *m::AccountListQuery::SCHEMA, example("listAccounts"), ["page"], 2 => 1.5,
            InvalidType { "expected": "integer" };
    }

    #[test]
    fn every_list_pages_from_1() {
        for op in [
            "listAccounts",
            "listAccountTransactions",
            "listJournals",
            "listFixedAssets",
            "getFixedAssetHistory",
            "listFixedAssetTypes",
            "listVendorCredits",
            "listVendorCreditRefunds",
            "listAllVendorCreditRefunds",
            "listExpenses",
        ] {
            for name in ["page", "per_page"] {
                assert_ok(op, &set(example(op), &format!("/{name}"), json!(1)));
                let details = json!({ "minimum": 1, "maximum": 4294967295u64 });
                assert_one(
                    op,
                    &set(example(op), &format!("/{name}"), json!(0)),
                    IssueCode::OutOfRange,
                    &format!("/{name}"),
                    details,
                );
            }
        }
    }

    #[test]
    fn blank_list_filters_count_as_not_given() {
        assert_ok(
            "listAccounts",
            &json!({ "filter_by": "", "sort_column": "" }),
        );
        assert_ok(
            "listFixedAssets",
            &json!({ "filter_by": "", "sort_column": " ", "sort_order": "" }),
        );
        assert_ok("listVendorCredits", &json!({ "status": "" }));
        assert_ok(
            "listAccountTransactions",
            &json!({ "date": "", "amount": "", "filter_by": "", "sort_column": "" }),
        );
        assert_ok(
            "listJournals",
            &json!({ "date": "", "customer_id": "", "vendor_id": "", "filter_by": "" }),
        );
        assert_ok("listAllVendorCreditRefunds", &json!({ "sort_column": "" }));
    }

    #[test]
    fn descriptions_have_no_500_limit_where_no_field_note_sets_one() {
        let long = json!("d".repeat(2001));
        assert_ok(
            "createAccount",
            &set(example("createAccount"), "/description", long.clone()),
        );
        assert_ok(
            "createFixedAsset",
            &set(example("createFixedAsset"), "/description", long.clone()),
        );
        assert_ok(
            "createExpense",
            &set(example("createExpense"), "/description", long.clone()),
        );
        assert_ok(
            "createVendorCreditRefund",
            &set(example("createVendorCreditRefund"), "/description", long),
        );
    }

    #[test]
    fn account_body_reports_every_issue() {
        let issues = run(
            "createAccount",
            &json!({ "account_type": "asset", "show_on_dashboard": "no", "custom_fields": [{ "customfield_id": true }] }),
        );
        let got: Vec<String> = issues.iter().map(Issue::path_string).collect();
        assert_eq!(
            got,
            [
                "account_type",
                "show_on_dashboard",
                "custom_fields[0].customfield_id"
            ]
        );
    }

    // ---- journals ----

    edge! {
        journal_date_given_passes / journal_date_missing_fails:
            *m::JournalInput::SCHEMA, example("createJournal"), ["journal_date"],
            "2013-09-04" => null, Required {};
        journal_date_leap_day_passes / journal_date_impossible_fails:
            *m::JournalInput::SCHEMA, example("createJournal"), ["journal_date"],
            "2024-02-29" => "2023-02-29", InvalidFormat { "format": "date" };
        journal_line_debit_passes / journal_line_unlisted_side_fails:
            *m::JournalInput::SCHEMA, example("createJournal"), ["line_items", 0, "debit_or_credit"],
            "debit" => "both", InvalidValue { "allowed": ["debit", "credit"] };
        journal_line_side_given_passes / journal_line_side_missing_fails:
            *m::JournalInput::SCHEMA, example("createJournal"), ["line_items", 1, "debit_or_credit"],
            "credit" => null, Required {};
        journal_line_amount_zero_passes / journal_line_amount_string_fails:
            *m::JournalInput::SCHEMA, example("createJournal"), ["line_items", 0, "amount"],
            0 => "5000", InvalidType { "expected": "number" };
        journal_line_amount_given_passes / journal_line_amount_missing_fails:
            *m::JournalInput::SCHEMA, example("createJournal"), ["line_items", 1, "amount"],
            0.01 => null, Required {};
        journal_type_cash_passes / journal_type_unlisted_fails:
            *m::JournalInput::SCHEMA, example("createJournal"), ["journal_type"],
            "Cash" => "accrual", InvalidValue { "allowed": ["Cash", "Both", "cash", "both"] };
        journal_status_published_passes / journal_status_unlisted_fails:
            *m::JournalInput::SCHEMA, example("createJournal"), ["status"], "published" => "void",
            InvalidValue { "allowed": ["draft", "published"] };
        journal_vat_treatment_non_eu_passes / journal_vat_treatment_unlisted_fails:
            *m::JournalInput::SCHEMA, example("createJournal"), ["vat_treatment"],
            "non_eu" => "string", InvalidValue { "allowed": allowed(m::VatTreatment::VALUES) };
        journal_product_type_digital_service_passes / journal_product_type_unlisted_fails:
            *m::JournalInput::SCHEMA, example("createJournal"), ["product_type"],
            "digital_service" => "capital_goods", InvalidValue { "allowed": ["digital_service", "goods", "service"] };
        journal_line_description_of_2000_passes / journal_line_description_of_2001_fails:
            *m::JournalInput::SCHEMA, example("createJournal"), ["line_items", 0, "description"],
            ("d".repeat(2000)) => ("d".repeat(2001)), TooLong { "maximum": 2000 };
        journal_tax_exemption_type_customer_passes / journal_tax_exemption_type_unlisted_fails:
            *m::JournalInput::SCHEMA, example("createJournal"), ["tax_exemption_type"],
            "customer" => "vendor", InvalidValue { "allowed": ["customer", "item"] };
        journal_line_tax_exemption_type_item_passes / journal_line_tax_exemption_type_unlisted_fails:
            *m::JournalInput::SCHEMA, example("createJournal"), ["line_items", 0, "tax_exemption_type"],
            "item" => "string", InvalidValue { "allowed": ["customer", "item"] };
    }

    #[test]
    fn every_listed_journal_type_passes() {
        for t in m::JournalType::VALUES {
            assert_ok(
                "createJournal",
                &set(example("createJournal"), "/journal_type", json!(t)),
            );
        }
    }

    #[test]
    fn journal_reports_every_issue() {
        let issues = run(
            "createJournal",
            &json!({
                "journal_type": "accrual",
                "line_items": [{ "debit_or_credit": "debit" }, { "amount": "1" }, null],
                "status": "open"
            }),
        );
        expect_all(
            &issues,
            &[
                ("journal_date", IssueCode::Required),
                ("journal_type", IssueCode::InvalidValue),
                ("line_items[0].amount", IssueCode::Required),
                ("line_items[1].debit_or_credit", IssueCode::Required),
                ("line_items[1].amount", IssueCode::InvalidType),
                ("line_items[2]", IssueCode::InvalidType),
                ("status", IssueCode::InvalidValue),
            ],
        );
    }

    // ---- fixed assets ----

    edge! {
        asset_name_given_passes / asset_name_missing_fails:
            *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["asset_name"],
            "Laptop" => null, Required {};
        fixed_asset_type_id_given_passes / fixed_asset_type_id_missing_fails:
            *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["fixed_asset_type_id"],
            3640355000000319008u64 => null, Required {};
        asset_account_id_given_passes / asset_account_id_missing_fails:
            *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["asset_account_id"],
            "3640355000000000367" => null, Required {};
        asset_cost_given_passes / asset_cost_missing_fails:
            *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["asset_cost"], 0 => null, Required {};
        asset_purchase_date_given_passes / asset_purchase_date_missing_fails:
            *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["asset_purchase_date"],
            "2024-12-17" => null, Required {};
        update_asset_name_given_passes / update_asset_name_missing_fails:
            *m::FixedAssetInput::SCHEMA, example("updateFixedAsset"), ["asset_name"],
            "Laptop" => null, Required {};
        asset_purchase_date_valid_passes / asset_purchase_date_impossible_fails:
            *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["asset_purchase_date"],
            "2024-12-31" => "2024-12-32", InvalidFormat { "format": "date" };
        depreciation_start_date_valid_passes / depreciation_start_date_reordered_fails:
            *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["depreciation_start_date"],
            "2025-01-01" => "01-01-2025", InvalidFormat { "format": "date" };
        warranty_expiry_date_valid_passes / warranty_expiry_date_with_time_fails:
            *m::FixedAssetInput::SCHEMA, example("updateFixedAsset"), ["warranty_expiry_date"],
            "2027-12-17" => "2027-12-17T00:00:00", InvalidFormat { "format": "date" };
        depreciation_method_150_passes / depreciation_method_unlisted_fails:
            *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["depreciation_method"],
            "150_declining_method" => "sum_of_years_digits", InvalidValue { "allowed": allowed(m::DepreciationMethod::VALUES) };
        depreciation_frequency_monthly_passes / depreciation_frequency_unlisted_fails:
            *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["depreciation_frequency"],
            "monthly" => "weekly", InvalidValue { "allowed": ["yearly", "monthly"] };
        depreciation_percentage_100_passes / depreciation_percentage_above_100_fails:
            *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["depreciation_percentage"],
            100 => 100.5, OutOfRange { "minimum": 0, "maximum": 100 };
        depreciation_percentage_0_passes / depreciation_percentage_negative_fails:
            *m::FixedAssetInput::SCHEMA, example("updateFixedAsset"), ["depreciation_percentage"],
            0 => (-0.5), OutOfRange { "minimum": 0, "maximum": 100 };
        computation_type_no_prorata_passes / computation_type_unlisted_fails:
            *m::FixedAssetInput::SCHEMA, example("createFixedAsset"), ["computation_type"],
            "no_prorata" => "daily", InvalidValue { "allowed": ["prorata_basis", "no_prorata"] };
        asset_filter_fully_depreciated_passes / asset_filter_unlisted_fails:
            *m::FixedAssetListQuery::SCHEMA, example("listFixedAssets"), ["filter_by"],
            "Status.FullyDepreciated" => "Status.Broken", InvalidValue { "allowed": allowed(m::FixedAssetFilter::VALUES) };
        asset_sort_by_current_value_passes / asset_sort_unlisted_fails:
            *m::FixedAssetListQuery::SCHEMA, example("listFixedAssets"), ["sort_column"],
            "current_asset_value" => "status", InvalidValue { "allowed": allowed(m::FixedAssetSortColumn::VALUES) };
        asset_sort_order_d_passes / asset_sort_order_word_fails:
            *m::FixedAssetListQuery::SCHEMA, example("listFixedAssets"), ["sort_order"], "D" => "desc",
            InvalidValue { "allowed": ["A", "D"] };
    }

    #[test]
    fn percentage_with_a_declining_method_passes() {
        for method in [
            "declining_method",
            "200_declining_method",
            "150_declining_method",
        ] {
            let params = set(
                example("createFixedAsset"),
                "/depreciation_method",
                json!(method),
            );
            assert_ok("createFixedAsset", &params);
        }
        let straight = set(
            example("createFixedAsset"),
            "/depreciation_method",
            json!("straight_line"),
        );
        assert_ok(
            "createFixedAsset",
            &set(straight, "/depreciation_percentage", Value::Null),
        );
    }

    #[test]
    fn percentage_with_straight_line_fails() {
        for op in ["createFixedAsset", "updateFixedAsset"] {
            let params = set(example(op), "/depreciation_method", json!("straight_line"));
            assert_one(
                op,
                &params,
                IssueCode::NotAllowed,
                "/depreciation_percentage",
                json!({}),
            );
        }
    }

    edge! {
        write_off_date_passes / write_off_date_with_time_fails:
            *m::FixedAssetWriteOffInput::SCHEMA, example("writeOffFixedAsset"), ["date"],
            "2024-12-17" => "2024-12-17T10:00:00+0530", InvalidFormat { "format": "date" };
        sale_invoice_id_digits_pass / sale_invoice_id_fraction_fails:
            *m::FixedAssetSaleInput::SCHEMA, example("sellFixedAsset"), ["invoice_id"],
            "3640355000000319008" => 1.5, InvalidType { "expected": "id (string or integer)" };
        asset_comment_text_passes / asset_comment_number_fails:
            *m::FixedAssetCommentInput::SCHEMA, example("addFixedAssetComment"), ["description"],
            "Serviced" => 7, InvalidType { "expected": "string" };
    }

    #[test]
    fn fixed_asset_reports_every_issue() {
        let issues = run(
            "createFixedAsset",
            &json!({
                "asset_name": "Laptop", "depreciation_method": "straight_line", "depreciation_percentage": 120,
                "asset_purchase_date": "2024/12/17", "tags": [{ "tag_id": false }]
            }),
        );
        expect_all(
            &issues,
            &[
                ("fixed_asset_type_id", IssueCode::Required),
                ("asset_account_id", IssueCode::Required),
                ("depreciation_percentage", IssueCode::OutOfRange),
                ("asset_cost", IssueCode::Required),
                ("asset_purchase_date", IssueCode::InvalidFormat),
                ("tags[0].tag_id", IssueCode::InvalidType),
                ("depreciation_percentage", IssueCode::NotAllowed),
            ],
        );
    }

    // ---- fixed asset types ----

    const FIXED_ASSET_TYPE_FIELDS: [&str; 9] = [
        "fixed_asset_type_name",
        "expense_account_id",
        "depreciation_account_id",
        "depreciation_method",
        "depreciation_frequency",
        "depreciation_percentage",
        "total_life",
        "salvage_value",
        "computation_type",
    ];

    #[test]
    fn fixed_asset_type_update_with_all_nine_fields_passes() {
        assert_ok("updateFixedAssetType", &example("updateFixedAssetType"));
        assert_ok("createFixedAssetType", &json!({}));
    }

    #[test]
    fn fixed_asset_type_update_without_any_one_field_fails() {
        for name in FIXED_ASSET_TYPE_FIELDS {
            let pointer = format!("/{name}");
            let params = set(example("updateFixedAssetType"), &pointer, Value::Null);
            assert_one(
                "updateFixedAssetType",
                &params,
                IssueCode::Required,
                &pointer,
                json!({}),
            );
        }
    }

    edge! {
        type_depreciation_method_straight_line_passes / type_depreciation_method_unlisted_fails:
            *m::FixedAssetTypeInput::SCHEMA, example("createFixedAssetType"), ["depreciation_method"],
            "straight_line" => "linear", InvalidValue { "allowed": allowed(m::DepreciationMethod::VALUES) };
        type_depreciation_frequency_monthly_passes / type_depreciation_frequency_unlisted_fails:
            *m::FixedAssetTypeUpdateInput::SCHEMA, example("updateFixedAssetType"), ["depreciation_frequency"],
            "monthly" => "Yearly", InvalidValue { "allowed": ["yearly", "monthly"] };
        type_percentage_100_passes / type_percentage_above_100_fails:
            *m::FixedAssetTypeInput::SCHEMA, example("createFixedAssetType"), ["depreciation_percentage"],
            100 => 101, OutOfRange { "minimum": 0, "maximum": 100 };
        type_percentage_0_passes / type_percentage_negative_fails:
            *m::FixedAssetTypeUpdateInput::SCHEMA, example("updateFixedAssetType"), ["depreciation_percentage"],
            0 => (-1), OutOfRange { "minimum": 0, "maximum": 100 };
        type_computation_type_no_prorata_passes / type_computation_type_unlisted_fails:
            *m::FixedAssetTypeUpdateInput::SCHEMA, example("updateFixedAssetType"), ["computation_type"],
            "no_prorata" => "none", InvalidValue { "allowed": ["prorata_basis", "no_prorata"] };
    }

    #[test]
    fn fixed_asset_type_reports_every_issue() {
        let issues = run(
            "updateFixedAssetType",
            &json!({ "depreciation_method": "x", "total_life": "60" }),
        );
        let required = issues
            .iter()
            .filter(|i| i.code() == IssueCode::Required)
            .count();
        let got: Vec<(String, IssueCode)> = issues
            .iter()
            .filter(|i| i.code() != IssueCode::Required)
            .map(|i| (i.path_string(), i.code()))
            .collect();
        assert_eq!(required, 7);
        assert_eq!(
            got,
            [
                ("depreciation_method".to_string(), IssueCode::InvalidValue),
                ("total_life".to_string(), IssueCode::InvalidType),
            ]
        );
    }

    // ---- expenses ----

    edge! {
        expense_date_valid_passes / expense_date_impossible_fails:
            *m::ExpenseInput::SCHEMA, example("createExpense"), ["date"],
            "2013-11-30" => "2013-11-31", InvalidFormat { "format": "date" };
        expense_gst_treatment_consumer_passes / expense_gst_treatment_unlisted_fails:
            *m::ExpenseInput::SCHEMA, example("createExpense"), ["gst_treatment"],
            "consumer" => "business_sez", InvalidValue { "allowed": ["business_gst", "business_none", "overseas", "consumer"] };
        expense_tax_treatment_non_kenya_passes / expense_tax_treatment_mexican_fails:
            *m::ExpenseInput::SCHEMA, example("createExpense"), ["tax_treatment"],
            "non_kenya" => "non_mexico", InvalidValue { "allowed": allowed(m::ExpenseTaxTreatment::VALUES) };
        expense_vat_treatment_overseas_passes / expense_vat_treatment_unlisted_fails:
            *m::ExpenseInput::SCHEMA, example("createExpense"), ["vat_treatment"],
            "overseas" => "eu", InvalidValue { "allowed": allowed(m::VatTreatment::VALUES) };
        expense_product_type_capital_goods_passes / expense_product_type_unlisted_fails:
            *m::ExpenseInput::SCHEMA, example("createExpense"), ["product_type"],
            "capital_goods" => "services", InvalidValue { "allowed": allowed(m::ExpenseProductType::VALUES) };
        expense_line_product_type_digital_service_passes / expense_line_product_type_unlisted_fails:
            *m::ExpenseInput::SCHEMA, example("createExpense"), ["line_items", 0, "product_type"],
            "digital_service" => "software", InvalidValue { "allowed": allowed(m::ExpenseProductType::VALUES) };
        expense_line_description_of_2000_passes / expense_line_description_of_2001_fails:
            *m::ExpenseInput::SCHEMA, example("createExpense"), ["line_items", 0, "description"],
            ("d".repeat(2000)) => ("d".repeat(2001)), TooLong { "maximum": 2000 };
        mileage_type_odometer_passes / mileage_type_unlisted_fails:
            *m::ExpenseInput::SCHEMA, example("createExpense"), ["mileage_type"],
            "odometer" => "gps", InvalidValue { "allowed": ["non_mileage", "odometer", "manual"] };
        mileage_unit_mile_passes / mileage_unit_unlisted_fails:
            *m::ExpenseInput::SCHEMA, example("createExpense"), ["mileage_unit"], "mile" => "miles",
            InvalidValue { "allowed": ["km", "mile"] };
        vehicle_type_motorcycle_passes / vehicle_type_unlisted_fails:
            *m::ExpenseInput::SCHEMA, example("createExpense"), ["vehicle_type"],
            "motorcycle" => "truck", InvalidValue { "allowed": ["car", "van", "motorcycle", "bike"] };
        fuel_type_lpg_passes / fuel_type_unlisted_fails:
            *m::ExpenseInput::SCHEMA, example("createExpense"), ["fuel_type"], "lpg" => "electric",
            InvalidValue { "allowed": ["petrol", "lpg", "diesel"] };
        engine_capacity_range_more_than_2000cc_passes / engine_capacity_range_unlisted_fails:
            *m::ExpenseUniqueFieldUpdateInput::SCHEMA, example("updateExpenseByUniqueField"), ["engine_capacity_range"],
            "more_than_2000cc" => "2000cc", InvalidValue { "allowed": allowed(m::EngineCapacityRange::VALUES) };
        unique_key_given_passes / unique_key_missing_fails:
            *m::ExpenseUniqueFieldUpdateInput::SCHEMA, example("updateExpenseByUniqueField"), ["x_unique_identifier_key"],
            "cf_unique_cf" => null, Required {};
        unique_value_given_passes / unique_value_missing_fails:
            *m::ExpenseUniqueFieldUpdateInput::SCHEMA, example("updateExpenseByUniqueField"), ["x_unique_identifier_value"],
            "INV-7" => "", Required {};
        upsert_boolean_passes / upsert_word_fails:
            *m::ExpenseUniqueFieldUpdateInput::SCHEMA, example("updateExpenseByUniqueField"), ["x_upsert"],
            "false" => "yes", InvalidType { "expected": "boolean" };
        unique_update_date_valid_passes / unique_update_date_impossible_fails:
            *m::ExpenseUniqueFieldUpdateInput::SCHEMA, example("updateExpenseByUniqueField"), ["date"],
            "2024-02-29" => "2024-02-30", InvalidFormat { "format": "date" };
    }

    #[test]
    fn mileage_value_sets_count_a_blank_as_not_given() {
        let mut params = example("createExpense");
        for name in [
            "mileage_unit",
            "vehicle_type",
            "fuel_type",
            "engine_capacity_range",
        ] {
            params = set(params, &format!("/{name}"), json!(" "));
        }
        assert_ok("createExpense", &params);
    }

    #[test]
    fn readings_with_odometer_pass() {
        for op in ["createExpense", "updateExpenseByUniqueField"] {
            assert_ok(op, &example(op));
            let without = set(
                set(example(op), "/mileage_type", json!("manual")),
                "/start_reading",
                json!(" "),
            );
            assert_ok(op, &set(without, "/end_reading", Value::Null));
        }
    }

    #[test]
    fn readings_without_odometer_fail() {
        for mileage_type in [json!("manual"), json!("non_mileage"), Value::Null] {
            for reading in ["start_reading", "end_reading"] {
                let other = if reading == "start_reading" {
                    "/end_reading"
                } else {
                    "/start_reading"
                };
                let params = set(
                    set(
                        example("createExpense"),
                        "/mileage_type",
                        mileage_type.clone(),
                    ),
                    other,
                    Value::Null,
                );
                assert_one(
                    "createExpense",
                    &params,
                    IssueCode::NotAllowed,
                    &format!("/{reading}"),
                    json!({}),
                );
            }
        }
    }

    #[test]
    fn expense_reports_every_issue() {
        let issues = run(
            "updateExpenseByUniqueField",
            &json!({
                "x_upsert": 1, "date": "18-11-2013", "mileage_type": "manual", "start_reading": 10,
                "vehicle_type": "truck", "line_items": [{ "product_type": "x", "amount": "1" }]
            }),
        );
        expect_all(
            &issues,
            &[
                ("x_unique_identifier_key", IssueCode::Required),
                ("x_unique_identifier_value", IssueCode::Required),
                ("x_upsert", IssueCode::InvalidType),
                ("date", IssueCode::InvalidFormat),
                ("line_items[0].amount", IssueCode::InvalidType),
                ("line_items[0].product_type", IssueCode::InvalidValue),
                ("vehicle_type", IssueCode::InvalidValue),
                ("start_reading", IssueCode::NotAllowed),
            ],
        );
    }

    edge! {
        expense_list_amount_number_passes / expense_list_amount_string_fails:
            *m::ExpenseListQuery::SCHEMA, example("listExpenses"), ["amount"],
            112.5 => "112.5", InvalidType { "expected": "number" };
        expense_list_customer_id_digits_passes / expense_list_customer_id_fraction_fails:
            *m::ExpenseListQuery::SCHEMA, example("listExpenses"), ["customer_id"],
            "982000000567001" => 1.5, InvalidType { "expected": "id (string or integer)" };
        expense_update_date_valid_passes / expense_update_date_impossible_fails:
            *m::ExpenseInput::SCHEMA, example("updateExpense"), ["date"],
            "2013-11-18" => "2013-11-31", InvalidFormat { "format": "date" };
    }

    #[test]
    fn expense_list_filters_may_be_blank_as_the_vendor_sends_them() {
        assert_ok(
            "listExpenses",
            &json!({ "vendor_id": "", "vendor_name": "", "reference_number": "" }),
        );
    }

    #[test]
    fn expense_receipt_types_are_the_attachment_types_but_text_and_csv() {
        let op = crate::catalog::find("addExpenseReceipt").unwrap();
        let crate::catalog::BodyKind::Multipart { accept, many, .. } = op.body else {
            panic!("addExpenseReceipt is an upload");
        };
        assert!(!many);
        let mut types = accept.to_vec();
        types.extend(["txt", "csv"]);
        assert_eq!(types, crate::catalog::ATTACHMENT_TYPES);
    }

    // ---- vendor credits and refunds ----

    edge! {
        vendor_credit_update_date_valid_passes / vendor_credit_update_date_impossible_fails:
            *m::VendorCreditInput::SCHEMA, example("updateVendorCredit"), ["date"],
            "2014-08-28" => "2014-02-30", InvalidFormat { "format": "date" };
        bill_amount_applied_number_passes / bill_amount_applied_string_fails:
            *m::VendorCreditBillsInput::SCHEMA, example("applyVendorCreditToBills"), ["bills", 0, "amount_applied"],
            10 => "10", InvalidType { "expected": "number" };
        bill_id_given_passes / bill_id_empty_fails:
            *m::VendorCreditBillsInput::SCHEMA, example("applyVendorCreditToBills"), ["bills", 0, "bill_id"],
            "460000000057075" => "", InvalidType { "expected": "id (string or integer)" };
        vendor_credit_comment_text_passes / vendor_credit_comment_number_fails:
            *m::VendorCreditCommentInput::SCHEMA, example("addVendorCreditComment"), ["description"],
            "Credits applied to Bill 1" => 1, InvalidType { "expected": "string" };
        vendor_credit_accept_text_passes / vendor_credit_accept_number_fails:
            *m::VendorCreditGetQuery::SCHEMA, example("getVendorCredit"), ["accept"],
            "json" => 1, InvalidType { "expected": "string" };
    }

    edge! {
        vendor_credit_date_valid_passes / vendor_credit_date_impossible_fails:
            *m::VendorCreditInput::SCHEMA, example("createVendorCredit"), ["date"],
            "2014-08-28" => "2014-02-30", InvalidFormat { "format": "date" };
        vendor_credit_gst_treatment_overseas_passes / vendor_credit_gst_treatment_unlisted_fails:
            *m::VendorCreditInput::SCHEMA, example("createVendorCredit"), ["gst_treatment"],
            "overseas" => "foreign", InvalidValue { "allowed": ["business_gst", "business_none", "overseas", "consumer"] };
        vendor_credit_tax_treatment_non_mexico_passes / vendor_credit_tax_treatment_unlisted_fails:
            *m::VendorCreditInput::SCHEMA, example("createVendorCredit"), ["tax_treatment"],
            "non_mexico" => "mexico", InvalidValue { "allowed": allowed(m::VendorCreditTaxTreatment::VALUES) };
        tax_treatment_code_ksa_passes / tax_treatment_code_unlisted_fails:
            *m::VendorCreditInput::SCHEMA, example("createVendorCredit"), ["line_items", 0, "tax_treatment_code"],
            "ksa_reimbursed_expense" => "ksa_others", InvalidValue { "allowed": allowed(m::TaxTreatmentCode::VALUES) };
        line_item_name_of_100_passes / line_item_name_of_101_fails:
            *m::VendorCreditInput::SCHEMA, example("createVendorCredit"), ["line_items", 0, "name"],
            ("n".repeat(100)) => ("n".repeat(101)), TooLong { "maximum": 100 };
        line_item_description_of_2000_passes / line_item_description_of_2001_fails:
            *m::VendorCreditInput::SCHEMA, example("createVendorCredit"), ["line_items", 0, "description"],
            ("d".repeat(2000)) => ("d".repeat(2001)), TooLong { "maximum": 2000 };
        serial_numbers_of_strings_pass / serial_numbers_with_a_number_fail:
            *m::VendorCreditInput::SCHEMA, example("createVendorCredit"), ["line_items", 0, "serial_numbers"],
            ["SN-1"] => ["SN-1", 2], InvalidType { "expected": "string" } at ["line_items", 0, "serial_numbers", 1];
        vendor_credit_status_void_passes / vendor_credit_status_unlisted_fails:
            *m::VendorCreditListQuery::SCHEMA, example("listVendorCredits"), ["status"], "void" => "paid",
            InvalidValue { "allowed": ["open", "closed", "void", "draft"] };
        refund_date_valid_passes / refund_date_impossible_fails:
            *m::VendorCreditRefundInput::SCHEMA, example("createVendorCreditRefund"), ["date"],
            "2014-08-30" => "2014-08-32", InvalidFormat { "format": "date" };
        refund_update_date_valid_passes / refund_update_date_with_slashes_fails:
            *m::VendorCreditRefundInput::SCHEMA, example("updateVendorCreditRefund"), ["date"],
            "2014-08-28" => "2014/08/28", InvalidFormat { "format": "date" };
        refund_amount_number_passes / refund_amount_string_fails:
            *m::VendorCreditRefundInput::SCHEMA, example("createVendorCreditRefund"), ["amount"],
            13.5 => "13", InvalidType { "expected": "number" };
        all_refunds_sort_by_reference_passes / all_refunds_sort_unlisted_fails:
            *m::AllVendorCreditRefundsQuery::SCHEMA, example("listAllVendorCreditRefunds"), ["sort_column"],
            "reference_number" => "amount", InvalidValue { "allowed": allowed(m::VendorCreditRefundSortColumn::VALUES) };
    }

    #[test]
    fn vendor_credit_date_filters_take_dates() {
        for name in ["date_start", "date_end", "date_before", "date_after"] {
            let pointer = format!("/{name}");
            assert_ok(
                "listVendorCredits",
                &set(example("listVendorCredits"), &pointer, json!("2024-02-29")),
            );
            let bad = set(example("listVendorCredits"), &pointer, json!("2023-02-29"));
            assert_one(
                "listVendorCredits",
                &bad,
                IssueCode::InvalidFormat,
                &pointer,
                json!({ "format": "date" }),
            );
        }
    }

    #[test]
    fn vendor_credit_total_filters_take_numbers() {
        for name in [
            "total_start",
            "total_end",
            "total_less_than",
            "total_less_equals",
            "total_greater_than",
            "total_greater_equals",
        ] {
            let pointer = format!("/{name}");
            assert_ok(
                "listVendorCredits",
                &set(example("listVendorCredits"), &pointer, json!(0.5)),
            );
            let bad = set(example("listVendorCredits"), &pointer, json!("100"));
            assert_one(
                "listVendorCredits",
                &bad,
                IssueCode::InvalidType,
                &pointer,
                json!({ "expected": "number" }),
            );
        }
    }

    #[test]
    fn vendor_credit_reports_every_issue() {
        let issues = run(
            "createVendorCredit",
            &json!({
                "tax_treatment": "mexico", "date": "2014-8-28",
                "line_items": [{ "name": "n".repeat(101), "serial_numbers": "SN-1", "tax_treatment_code": "x" }]
            }),
        );
        expect_all(
            &issues,
            &[
                ("tax_treatment", IssueCode::InvalidValue),
                ("date", IssueCode::InvalidFormat),
                ("line_items[0].name", IssueCode::TooLong),
                ("line_items[0].tax_treatment_code", IssueCode::InvalidValue),
                ("line_items[0].serial_numbers", IssueCode::InvalidType),
            ],
        );
    }

    #[test]
    fn list_queries_report_every_issue() {
        let issues = run(
            "listVendorCredits",
            &json!({ "status": "paid", "date_start": "yesterday", "total_end": "9", "page": 0, "per_page": 1.5 }),
        );
        expect_all(
            &issues,
            &[
                ("date_start", IssueCode::InvalidFormat),
                ("status", IssueCode::InvalidValue),
                ("total_end", IssueCode::InvalidType),
                ("page", IssueCode::OutOfRange),
                ("per_page", IssueCode::InvalidType),
            ],
        );
    }

    // ---- the vendor's examples ----

    const JOURNAL_BODIES: [&str; 2] = ["createJournal", "updateJournal"];

    #[test]
    fn vendor_journals_fail_only_on_their_placeholders_in_value_sets() {
        for id in JOURNAL_BODIES {
            let op = crate::catalog::find(id).unwrap();
            let params = crate::examples::sample(op).params;
            let got: Vec<String> = run(id, &params).iter().map(Issue::path_string).collect();
            assert_eq!(
                got,
                [
                    "vat_treatment",
                    "product_type",
                    "line_items[0].tax_exemption_type",
                    "tax_exemption_type"
                ],
                "{id}"
            );
        }
    }

    #[test]
    fn vendor_requests_of_the_other_books_operations_pass_whole() {
        let books = crate::catalog::OPERATIONS.iter().filter(|op| {
            op.family == crate::family::Family::Books && !JOURNAL_BODIES.contains(&op.id)
        });
        for op in books {
            let sample = crate::examples::sample(op);
            if sample.vendor.is_some() {
                assert_ok(op.id, &sample.params);
            }
        }
    }
}
