//! The tests of the rules of the invoice operations' params: currencies, projects, project comments,
//! recurring invoices (the rules are declared with their types in `crate::model::invoice`).

use crate::catalog::{find, Method};
use crate::family::Family;
use crate::issue::IssueCode;
use crate::model::invoice as m;
use crate::schema::{Params, Schema};
use crate::validate::tests::support::{edge, expect_all, issues, vendor_request_passes, with};
use serde_json::json;
use serde_json::Value;

fn currency() -> Value {
    json!({"currency_code": "AUD", "currency_symbol": "$", "price_precision": 2, "currency_format": "1,234,567.89"})
}

fn project() -> Value {
    json!({
        "project_name": "Network Distribution",
        "customer_id": "460000000044001",
        "user_id": "460000000024003",
        "currency_id": 460000000098001u64,
        "billing_type": "based_on_task_hours",
        "description": "Distribution for the system of intermediaries",
        "status": "active",
        "rate": "12.50",
        "budget_type": "total_project_hours",
        "budget_hours": "120",
        "budget_amount": 1000,
        "tasks": [{"task_name": "Analysis", "description": "First pass", "rate": 20, "budget_hours": "10"}],
        "users": [{
            "user_id": "460000000024003",
            "is_current_user": true,
            "user_name": "John David",
            "email": "johndavid@example.com",
            "user_role": "admin",
            "rate": "30",
            "budget_hours": 40,
            "total_hours": "12:26",
            "billed_hours": "12:27",
            "un_billed_hours": "00:00"
        }]
    })
}

fn recurring_invoice() -> Value {
    let mut v = json!({
        "recurrence_name": "MonthlyInvoice",
        "customer_id": "903000000000099",
        "recurrence_frequency": "months",
        "repeat_every": 1,
        "reference_number": "12314",
        "contact_persons": ["982000000567003", 982000000567004u64],
        "currency_id": "982000000000190",
        "start_date": "2016-06-12",
        "end_date": "2017-06-12",
        "place_of_supply": "TN",
        "gst_no": "22AAAAA0000A1Z5",
        "gst_treatment": "business_gst",
        "allow_partial_payments": true,
        "email": "benjamin.george@example.com",
        "custom_fields": [{"value": "129890", "label": "label", "data_type": "text"}],
        "avatax_exempt_no": "EX-1",
        "avatax_use_code": "G",
        "tax_authority_id": "903000006345",
        "tax_exemption_id": "903000006346"
    });
    v["billing_address"] = json!({"address": "4900 Hopyard Rd", "street2": "McMillan Avenue", "city": "Pleasanton",
                                  "state": "CA", "zip": "94588", "country": "U.S.A", "fax": "+1-925-924-9600"});
    v["shipping_address"] = json!({"address": "4900 Hopyard Rd", "city": "Pleasanton", "state": "CA",
                                   "zip": "94588", "country": "U.S.A"});
    v["payment_gateways"] =
        json!([{"configured": true, "additional_field1": "standard", "gateway_name": "stripe"}]);
    v["payment_options"] =
        json!({"payment_gateways": [{"configured": true, "gateway_name": "paypal"}]});
    v["line_items"] = json!([{
        "line_item_id": "982000000567021", "item_id": 90300000081501u64, "name": "Hard Drive",
        "description": "prorated amount", "rate": 120.5, "quantity": 2, "discount": "10%",
        "tax_id": "903000000000356", "avatax_tax_code": "P0000000", "avatax_use_code": "G",
        "item_total": 241, "sku": "HD-1", "product_type": "goods", "hsn_or_sac": 80540,
        "project_id": 90300000087378u64, "sat_item_key_code": 71121206, "unitkey_code": "box"
    }]);
    v
}

fn project_comment() -> Value {
    json!({"description": "Billing based on task hours"})
}

fn list_query() -> Value {
    json!({"page": 1, "per_page": 200})
}

#[test]
fn the_documented_examples_pass_their_rows() {
    let examples = [
        ("createCurrency", currency()),
        (
            "listCurrencies",
            json!({"filter_by": "Currencies.ExcludeBaseCurrency", "page": 2, "per_page": 50}),
        ),
        ("getCurrency", json!({})),
        ("updateCurrency", currency()),
        ("deleteCurrency", json!({})),
        ("createProject", project()),
        (
            "listProjects",
            json!({"filter_by": "Status.Active", "customer_id": "460000000044001", "sort_column": "rate", "page": 1, "per_page": 10}),
        ),
        ("updateProject", project()),
        ("removeProjectUser", json!({})),
        ("addProjectComment", project_comment()),
        ("listProjectComments", list_query()),
        ("deleteProjectComment", json!({})),
        (
            "listProjectInvoices",
            json!({"sort_column": "balance", "page": 1, "per_page": 25}),
        ),
        ("createRecurringInvoice", recurring_invoice()),
    ];
    for (id, example) in &examples {
        let op = find(id).unwrap();
        assert_eq!(op.family, Family::Invoice, "{id}");
        assert_eq!(issues(op.params, example), vec![], "{id}");
    }
}

#[test]
fn every_rule_set_names_an_invoice_operation_of_the_catalog() {
    for op in crate::catalog::operations()
        .iter()
        .filter(|op| op.family == Family::Invoice)
    {
        let (id, schema) = (op.id, op.params);
        if !op.method.has_body() {
            assert!(
                schema.fields.iter().all(|f| !f.required),
                "{id}: a query has no required field"
            );
        }
    }
    assert_eq!(find("deleteCurrency").unwrap().method, Method::Delete);
}

/// The vendor's requests of the operations with a params type, and its schema.
const VENDOR_TYPED: &[(&str, &Schema)] = &[
    (
        "books-as-invoice__create_currency.json",
        m::CurrencyInput::SCHEMA,
    ),
    (
        "books-as-invoice__update_currency.json",
        m::CurrencyInput::SCHEMA,
    ),
    (
        "books-as-invoice__list_currencies.json",
        m::CurrencyListQuery::SCHEMA,
    ),
    (
        "books-as-invoice__create_project.json",
        m::ProjectInput::SCHEMA,
    ),
    (
        "books-as-invoice__update_project.json",
        m::ProjectInput::SCHEMA,
    ),
    (
        "books-as-invoice__list_projects.json",
        m::ProjectListQuery::SCHEMA,
    ),
    (
        "books-as-invoice__add_project_comment.json",
        m::ProjectCommentInput::SCHEMA,
    ),
    (
        "books-as-invoice__list_project_comments.json",
        m::ProjectCommentListQuery::SCHEMA,
    ),
    (
        "books-as-invoice__list_project_invoices.json",
        m::ProjectInvoiceListQuery::SCHEMA,
    ),
    (
        "books-as-invoice__create_recurring_invoice.json",
        m::RecurringInvoiceInput::SCHEMA,
    ),
    (
        "books-as-invoice__clone_project.json",
        m::ProjectCloneInput::SCHEMA,
    ),
    (
        "books-as-invoice__add_project_user.json",
        m::ProjectUsersInput::SCHEMA,
    ),
    (
        "books-as-invoice__invite_project_user.json",
        m::ProjectUserDetailsInput::SCHEMA,
    ),
    (
        "books-as-invoice__update_project_user.json",
        m::ProjectUserDetailsInput::SCHEMA,
    ),
    (
        "books-as-invoice__list_recurring_invoices.json",
        m::RecurringInvoiceListQuery::SCHEMA,
    ),
    (
        "books-as-invoice__update_recurring_invoice.json",
        m::RecurringInvoiceInput::SCHEMA,
    ),
    (
        "books-as-invoice__stop_recurring_invoice.json",
        m::RecurringInvoiceStatusInput::SCHEMA,
    ),
    (
        "books-as-invoice__resume_recurring_invoice.json",
        m::RecurringInvoiceStatusInput::SCHEMA,
    ),
    (
        "books-as-invoice__update_recurring_invoice_template.json",
        m::RecurringInvoiceTemplateInput::SCHEMA,
    ),
];

/// The vendor's requests of the operations without a params type, and the row's id.
const VENDOR_UNTYPED: &[(&str, &str)] = &[
    ("books-as-invoice__get_currency.json", "getCurrency"),
    ("books-as-invoice__delete_currency.json", "deleteCurrency"),
    (
        "books-as-invoice__delete_project_user.json",
        "removeProjectUser",
    ),
    (
        "books-as-invoice__delete_project_comment.json",
        "deleteProjectComment",
    ),
];

#[test]
fn the_vendor_requests_pass() {
    for (file, schema) in VENDOR_TYPED {
        vendor_request_passes(file, schema);
    }
    for (file, id) in VENDOR_UNTYPED {
        vendor_request_passes(file, find(id).unwrap().params);
    }
    for id in [
        "updateProjectByUniqueField",
        "updateRecurringInvoiceByUniqueField",
    ] {
        let op = find(id).unwrap();
        let sample = crate::examples::sample(op);
        assert!(sample.vendor.is_some(), "{id}");
        let found = issues(op.params, &sample.params);
        assert!(
            found
                .iter()
                .all(|i| crate::validate::tests::support::json_path(i).contains("avatax")),
            "{id}: the body and its headers pass but for placeholders: {found:#?}"
        );
    }
}

#[test]
fn the_recurring_invoice_placeholders_fail_only_where_they_stand() {
    let mut params = crate::validate::tests::support::vendor_params(
        "books-as-invoice__create_recurring_invoice.json",
    );
    params["avatax_use_code"] = json!("string placeholder longer than 25");
    params["avatax_exempt_no"] = json!("another placeholder longer than 25");
    let found: Vec<String> = issues(m::RecurringInvoiceInput::SCHEMA, &params)
        .iter()
        .map(crate::validate::tests::support::json_path)
        .collect();
    assert_eq!(found, ["$.avatax_exempt_no", "$.avatax_use_code"]);
}

#[test]
fn the_currency_lengths_are_not_guessed() {
    let long = "x".repeat(101);
    let p = json!({"currency_code": long, "currency_symbol": long, "currency_format": long});
    assert!(issues(m::CurrencyInput::SCHEMA, &p).is_empty());
}

#[test]
fn every_currency_issue_is_reported() {
    let found = issues(
        m::CurrencyInput::SCHEMA,
        &json!({"currency_code": 36, "price_precision": "2", "currency_format": []}),
    );
    expect_all(
        &found,
        &[
            ("currency_code", IssueCode::InvalidType),
            ("price_precision", IssueCode::InvalidType),
            ("currency_format", IssueCode::InvalidType),
        ],
    );
}

#[test]
fn every_project_issue_is_reported() {
    let p = json!({
        "project_name": "x".repeat(101),
        "billing_type": "hourly",
        "budget_type": "per_day",
        "tasks": [{"description": "ok"}, {"task_name": "t", "description": "d".repeat(501)}],
        "users": [{"user_id": "1", "user_role": "owner", "email": "e".repeat(101)}]
    });
    expect_all(
        &issues(m::ProjectInput::SCHEMA, &p),
        &[
            ("project_name", IssueCode::TooLong),
            ("customer_id", IssueCode::Required),
            ("user_id", IssueCode::Required),
            ("billing_type", IssueCode::InvalidValue),
            ("budget_type", IssueCode::InvalidValue),
            ("tasks[0].task_name", IssueCode::Required),
            ("tasks[1].description", IssueCode::TooLong),
            ("users[0].email", IssueCode::TooLong),
            ("users[0].user_role", IssueCode::InvalidValue),
        ],
    );
}

#[test]
fn every_recurring_invoice_issue_is_reported() {
    let p = json!({
        "recurrence_frequency": " ",
        "start_date": "12/06/2016",
        "repeat_every": "2",
        "line_items": [{"quantity": 1.5, "product_type": "service"}],
        "payment_options": {"payment_gateways": [{"gateway_name": "venmo"}]}
    });
    let found = issues(m::RecurringInvoiceInput::SCHEMA, &p);
    expect_all(
        &found,
        &[
            ("recurrence_name", IssueCode::Required),
            ("customer_id", IssueCode::Required),
            ("recurrence_frequency", IssueCode::Required),
            ("start_date", IssueCode::InvalidFormat),
            ("repeat_every", IssueCode::InvalidType),
            (
                "payment_options.payment_gateways[0].gateway_name",
                IssueCode::InvalidValue,
            ),
            ("line_items[0].quantity", IssueCode::InvalidType),
            ("line_items[0].product_type", IssueCode::InvalidValue),
        ],
    );
    assert_eq!(json!(found[6].path), json!(["line_items", 0, "quantity"]));
}

#[test]
fn blank_budget_type_and_currency_filter_count_as_not_given() {
    assert!(issues(
        m::ProjectInput::SCHEMA,
        &with(&project(), &json!(["budget_type"]), json!(" "))
    )
    .is_empty());
    assert!(issues(m::CurrencyListQuery::SCHEMA, &json!({"filter_by": ""})).is_empty());
}

#[test]
fn pages_end_where_the_page_context_does() {
    assert!(issues(m::ProjectListQuery::SCHEMA, &json!({"page": u32::MAX})).is_empty());
    let found = issues(
        m::ProjectListQuery::SCHEMA,
        &json!({"page": u32::MAX as u64 + 1}),
    );
    let range = json!({"minimum": 1, "maximum": u32::MAX});
    crate::validate::tests::support::expect_one(
        &found,
        json!(["page"]),
        IssueCode::OutOfRange,
        range,
    );
}

fn unique_project() -> Value {
    let mut p = project();
    p["x_unique_identifier_key"] = json!("cf_unique_cf");
    p["x_unique_identifier_value"] = json!("unique Value");
    p["x_upsert"] = json!(true);
    p
}

fn unique_recurring_invoice() -> Value {
    let mut r = recurring_invoice();
    r["x_unique_identifier_key"] = json!("cf_unique_cf");
    r["x_unique_identifier_value"] = json!("unique Value");
    r
}

fn user_details() -> Value {
    json!({"user_name": "John David", "email": "johndavid@example.com", "user_role": "admin", "rate": 5000, "budget_hours": "0", "cost_rate": "10.00"})
}

edge! {
    // vendor rows of projects
    clone_name_100_passes / clone_name_101_fails:
        *m::ProjectCloneInput::SCHEMA, json!({"project_name": "N"}), ["project_name"], ("p".repeat(100)) => ("p".repeat(101)), TooLong {"maximum": 100};
    clone_description_500_passes / clone_description_501_fails:
        *m::ProjectCloneInput::SCHEMA, json!({"project_name": "N"}), ["description"], ("d".repeat(500)) => ("d".repeat(501)), TooLong {"maximum": 500};
    unique_project_key_given_passes / unique_project_key_missing_fails:
        *m::ProjectUniqueFieldUpdateInput::SCHEMA, unique_project(), ["x_unique_identifier_key"], "cf_ref" => null, Required {};
    unique_project_value_given_passes / unique_project_value_blank_fails:
        *m::ProjectUniqueFieldUpdateInput::SCHEMA, unique_project(), ["x_unique_identifier_value"], "P-1" => "", Required {};
    unique_project_upsert_text_passes / unique_project_upsert_word_fails:
        *m::ProjectUniqueFieldUpdateInput::SCHEMA, unique_project(), ["x_upsert"], "false" => "yes", InvalidType {"expected": "boolean"};
    unique_project_name_100_passes / unique_project_name_101_fails:
        *m::ProjectUniqueFieldUpdateInput::SCHEMA, unique_project(), ["project_name"], ("p".repeat(100)) => ("p".repeat(101)), TooLong {"maximum": 100};
    added_user_id_present_passes / added_user_id_missing_fails:
        *m::ProjectUsersInput::SCHEMA, json!({"users": [{"user_id": "460000000024003"}]}), ["users", 0, "user_id"], 460000000024003u64 => null, Required {};
    added_cost_rate_string_passes / added_cost_rate_boolean_fails:
        *m::ProjectUsersInput::SCHEMA, json!({"users": []}), ["cost_rate"], "10.00" => true, InvalidType {"expected": "string or number"};
    invited_name_200_passes / invited_name_201_fails:
        *m::ProjectUserDetailsInput::SCHEMA, user_details(), ["user_name"], ("u".repeat(200)) => ("u".repeat(201)), TooLong {"maximum": 200};
    invited_email_100_passes / invited_email_101_fails:
        *m::ProjectUserDetailsInput::SCHEMA, user_details(), ["email"], ("e".repeat(100)) => ("e".repeat(101)), TooLong {"maximum": 100};
    updated_user_role_listed_passes / updated_user_role_unlisted_fails:
        *m::ProjectUserDetailsInput::SCHEMA, user_details(), ["user_role"], "staff" => "owner",
        InvalidValue {"allowed": ["staff", "admin", "timesheetstaff"]};
    updated_user_rate_number_passes / updated_user_rate_boolean_fails:
        *m::ProjectUserDetailsInput::SCHEMA, user_details(), ["rate"], 12.5 => false, InvalidType {"expected": "string or number"};

    // vendor rows of recurring invoices
    update_recurrence_name_100_passes / update_recurrence_name_101_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["recurrence_name"], ("r".repeat(100)) => ("r".repeat(101)), TooLong {"maximum": 100};
    update_recurring_customer_id_present_passes / update_recurring_customer_id_missing_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["customer_id"], "903000000000099" => null, Required {};
    unique_recurring_key_given_passes / unique_recurring_key_missing_fails:
        *m::RecurringInvoiceUniqueFieldUpdateInput::SCHEMA, unique_recurring_invoice(), ["x_unique_identifier_key"], "cf_ref" => null, Required {};
    unique_recurring_avatax_25_passes / unique_recurring_avatax_26_fails:
        *m::RecurringInvoiceUniqueFieldUpdateInput::SCHEMA, unique_recurring_invoice(), ["avatax_use_code"], ("a".repeat(25)) => ("a".repeat(26)), TooLong {"maximum": 25};
    recurring_list_start_date_passes / recurring_list_start_date_slashes_fail:
        *m::RecurringInvoiceListQuery::SCHEMA, list_query(), ["start_date"], "2016-06-12" => "12/06/2016", InvalidFormat {"format": "date"};
    recurring_list_customer_id_passes / recurring_list_customer_id_empty_fails:
        *m::RecurringInvoiceListQuery::SCHEMA, list_query(), ["customer_id"], 903000000000099u64 => "", InvalidType {"expected": "id (string or integer)"};
    recurring_list_page_1_passes / recurring_list_page_0_fails:
        *m::RecurringInvoiceListQuery::SCHEMA, list_query(), ["page"], 1 => 0, OutOfRange {"minimum": 1, "maximum": 4294967295u32};
    stop_id_given_passes / stop_id_boolean_fails:
        *m::RecurringInvoiceStatusInput::SCHEMA, json!({}), ["recurring_invoice_id"], "90300000072369" => true, InvalidType {"expected": "id (string or integer)"};
    template_id_given_passes / template_id_boolean_fails:
        *m::RecurringInvoiceTemplateInput::SCHEMA, json!({}), ["template_id"], 90300043563547u64 => false, InvalidType {"expected": "id (string or integer)"};

    // currencies
    price_precision_integer_passes / price_precision_fraction_fails:
        *m::CurrencyInput::SCHEMA, currency(), ["price_precision"], 0 => 2.5, InvalidType {"expected": "integer"};
    update_price_precision_integer_passes / update_price_precision_string_fails:
        *m::CurrencyInput::SCHEMA, currency(), ["price_precision"], 4 => "2", InvalidType {"expected": "integer"};
    currency_filter_listed_passes / currency_filter_unlisted_fails:
        *m::CurrencyListQuery::SCHEMA, list_query(), ["filter_by"], "Currencies.ExcludeBaseCurrency" => "Currencies.All",
        InvalidValue {"allowed": ["Currencies.ExcludeBaseCurrency"]};
    currencies_page_1_passes / currencies_page_0_fails:
        *m::CurrencyListQuery::SCHEMA, list_query(), ["page"], 1 => 0, OutOfRange {"minimum": 1, "maximum": 4294967295u32};
    currencies_per_page_1_passes / currencies_per_page_0_fails:
        *m::CurrencyListQuery::SCHEMA, list_query(), ["per_page"], 1 => 0, OutOfRange {"minimum": 1, "maximum": 4294967295u32};
    currencies_page_integer_passes / currencies_page_fraction_fails:
        *m::CurrencyListQuery::SCHEMA, list_query(), ["page"], 3 => 1.5, InvalidType {"expected": "integer"};

    // projects
    project_name_present_passes / project_name_missing_fails:
        *m::ProjectInput::SCHEMA, project(), ["project_name"], "P" => null, Required {};
    project_name_100_passes / project_name_101_fails:
        *m::ProjectInput::SCHEMA, project(), ["project_name"], ("p".repeat(100)) => ("p".repeat(101)), TooLong {"maximum": 100};
    update_project_name_100_passes / update_project_name_101_fails:
        *m::ProjectInput::SCHEMA, project(), ["project_name"], ("p".repeat(100)) => ("p".repeat(101)), TooLong {"maximum": 100};
    project_customer_id_numeric_passes / project_customer_id_missing_fails:
        *m::ProjectInput::SCHEMA, project(), ["customer_id"], 460000000044001u64 => null, Required {};
    project_customer_id_string_passes / project_customer_id_boolean_fails:
        *m::ProjectInput::SCHEMA, project(), ["customer_id"], "460000000044001" => true, InvalidType {"expected": "id (string or integer)"};
    project_user_id_present_passes / project_user_id_missing_fails:
        *m::ProjectInput::SCHEMA, project(), ["user_id"], "460000000024003" => null, Required {};
    update_project_user_id_present_passes / update_project_user_id_missing_fails:
        *m::ProjectInput::SCHEMA, project(), ["user_id"], "460000000024003" => null, Required {};
    billing_type_present_passes / billing_type_missing_fails:
        *m::ProjectInput::SCHEMA, project(), ["billing_type"], "fixed_cost_for_project" => null, Required {};
    billing_type_listed_passes / billing_type_unlisted_fails:
        *m::ProjectInput::SCHEMA, project(), ["billing_type"], "based_on_staff_hours" => "hourly",
        InvalidValue {"allowed": ["fixed_cost_for_project", "based_on_project_hours", "based_on_staff_hours", "based_on_task_hours"]};
    budget_type_listed_passes / budget_type_unlisted_fails:
        *m::ProjectInput::SCHEMA, project(), ["budget_type"], "hours_per_staff" => "per_day",
        InvalidValue {"allowed": ["total_project_cost", "total_project_hours", "hours_per_task", "hours_per_staff"]};
    project_status_listed_passes / project_status_unlisted_fails:
        *m::ProjectInput::SCHEMA, project(), ["status"], "inactive" => "archived", InvalidValue {"allowed": ["active", "inactive"]};
    project_description_500_passes / project_description_501_fails:
        *m::ProjectInput::SCHEMA, project(), ["description"], ("d".repeat(500)) => ("d".repeat(501)), TooLong {"maximum": 500};
    project_rate_number_passes / project_rate_boolean_fails:
        *m::ProjectInput::SCHEMA, project(), ["rate"], 12.5 => true, InvalidType {"expected": "string or number"};
    budget_hours_string_passes / budget_hours_array_fails:
        *m::ProjectInput::SCHEMA, project(), ["budget_hours"], "12" => [12], InvalidType {"expected": "string or number"};
    budget_amount_number_passes / budget_amount_object_fails:
        *m::ProjectInput::SCHEMA, project(), ["budget_amount"], 1000.5 => {"amount": 1}, InvalidType {"expected": "string or number"};
    task_name_present_passes / task_name_missing_fails:
        *m::ProjectInput::SCHEMA, project(), ["tasks", 0, "task_name"], "T" => null, Required {};
    task_name_100_passes / task_name_101_fails:
        *m::ProjectInput::SCHEMA, project(), ["tasks", 0, "task_name"], ("t".repeat(100)) => ("t".repeat(101)), TooLong {"maximum": 100};
    task_description_500_passes / task_description_501_fails:
        *m::ProjectInput::SCHEMA, project(), ["tasks", 0, "description"], ("d".repeat(500)) => ("d".repeat(501)), TooLong {"maximum": 500};
    task_rate_string_passes / task_rate_boolean_fails:
        *m::ProjectInput::SCHEMA, project(), ["tasks", 0, "rate"], "20" => false, InvalidType {"expected": "string or number"};
    task_budget_hours_number_passes / task_budget_hours_boolean_fails:
        *m::ProjectInput::SCHEMA, project(), ["tasks", 0, "budget_hours"], 10 => true, InvalidType {"expected": "string or number"};
    project_user_user_id_present_passes / project_user_user_id_missing_fails:
        *m::ProjectInput::SCHEMA, project(), ["users", 0, "user_id"], 460000000024003u64 => null, Required {};
    user_name_200_passes / user_name_201_fails:
        *m::ProjectInput::SCHEMA, project(), ["users", 0, "user_name"], ("u".repeat(200)) => ("u".repeat(201)), TooLong {"maximum": 200};
    user_email_100_passes / user_email_101_fails:
        *m::ProjectInput::SCHEMA, project(), ["users", 0, "email"], ("e".repeat(100)) => ("e".repeat(101)), TooLong {"maximum": 100};
    user_role_listed_passes / user_role_unlisted_fails:
        *m::ProjectInput::SCHEMA, project(), ["users", 0, "user_role"], "timesheetstaff" => "owner",
        InvalidValue {"allowed": ["staff", "admin", "timesheetstaff"]};
    user_rate_string_passes / user_rate_boolean_fails:
        *m::ProjectInput::SCHEMA, project(), ["users", 0, "rate"], " " => true, InvalidType {"expected": "string or number"};
    user_total_hours_duration_passes / user_total_hours_decimal_fails:
        *m::ProjectInput::SCHEMA, project(), ["users", 0, "total_hours"], "120:59" => "12.5", InvalidFormat {"format": "duration"};
    user_billed_hours_duration_passes / user_billed_hours_minutes_60_fails:
        *m::ProjectInput::SCHEMA, project(), ["users", 0, "billed_hours"], "00:59" => "00:60", InvalidFormat {"format": "duration"};
    user_un_billed_hours_duration_passes / user_un_billed_hours_short_fails:
        *m::ProjectInput::SCHEMA, project(), ["users", 0, "un_billed_hours"], "00:00" => "0:00", InvalidFormat {"format": "duration"};
    user_is_current_user_boolean_passes / user_is_current_user_string_fails:
        *m::ProjectInput::SCHEMA, project(), ["users", 0, "is_current_user"], false => "true", InvalidType {"expected": "boolean"};
    project_filter_listed_passes / project_filter_unlisted_fails:
        *m::ProjectListQuery::SCHEMA, list_query(), ["filter_by"], "Status.Inactive" => "Status.Archived",
        InvalidValue {"allowed": ["Status.All", "Status.Active", "Status.Inactive"]};
    project_list_customer_id_passes / project_list_customer_id_empty_fails:
        *m::ProjectListQuery::SCHEMA, list_query(), ["customer_id"], "460000000044001" => "", InvalidType {"expected": "id (string or integer)"};
    project_sort_listed_passes / project_sort_unlisted_fails:
        *m::ProjectListQuery::SCHEMA, list_query(), ["sort_column"], "customer_name" => "status",
        InvalidValue {"allowed": ["project_name", "customer_name", "rate", "created_time"]};
    projects_page_1_passes / projects_page_0_fails:
        *m::ProjectListQuery::SCHEMA, list_query(), ["page"], 1 => 0, OutOfRange {"minimum": 1, "maximum": 4294967295u32};
    projects_per_page_1_passes / projects_per_page_negative_fails:
        *m::ProjectListQuery::SCHEMA, list_query(), ["per_page"], 1 => (-1), OutOfRange {"minimum": 1, "maximum": 4294967295u32};

    // project comments and invoices
    comment_present_passes / comment_missing_fails:
        *m::ProjectCommentInput::SCHEMA, project_comment(), ["description"], "c" => null, Required {};
    comment_one_letter_passes / comment_blank_fails:
        *m::ProjectCommentInput::SCHEMA, project_comment(), ["description"], "c " => "  ", Required {};
    comment_500_passes / comment_501_fails:
        *m::ProjectCommentInput::SCHEMA, project_comment(), ["description"], ("c".repeat(500)) => ("c".repeat(501)), TooLong {"maximum": 500};
    comments_page_1_passes / comments_page_0_fails:
        *m::ProjectCommentListQuery::SCHEMA, list_query(), ["page"], 1 => 0, OutOfRange {"minimum": 1, "maximum": 4294967295u32};
    comments_per_page_1_passes / comments_per_page_0_fails:
        *m::ProjectCommentListQuery::SCHEMA, list_query(), ["per_page"], 1 => 0, OutOfRange {"minimum": 1, "maximum": 4294967295u32};
    project_invoice_sort_listed_passes / project_invoice_sort_unlisted_fails:
        *m::ProjectInvoiceListQuery::SCHEMA, list_query(), ["sort_column"], "invoice_number" => "due_date",
        InvalidValue {"allowed": ["invoice_number", "date", "total", "balance", "created_time"]};
    project_invoices_page_1_passes / project_invoices_page_0_fails:
        *m::ProjectInvoiceListQuery::SCHEMA, list_query(), ["page"], 1 => 0, OutOfRange {"minimum": 1, "maximum": 4294967295u32};
    project_invoices_per_page_1_passes / project_invoices_per_page_0_fails:
        *m::ProjectInvoiceListQuery::SCHEMA, list_query(), ["per_page"], 1 => 0, OutOfRange {"minimum": 1, "maximum": 4294967295u32};

    // recurring invoices
    recurrence_name_present_passes / recurrence_name_missing_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["recurrence_name"], "R" => null, Required {};
    recurrence_name_100_passes / recurrence_name_101_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["recurrence_name"], ("r".repeat(100)) => ("r".repeat(101)), TooLong {"maximum": 100};
    recurring_customer_id_present_passes / recurring_customer_id_missing_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["customer_id"], 903000000000099u64 => null, Required {};
    recurrence_frequency_any_text_passes / recurrence_frequency_missing_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["recurrence_frequency"], "fortnights" => null, Required {};
    recurrence_frequency_one_char_passes / recurrence_frequency_blank_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["recurrence_frequency"], "w" => "", Required {};
    repeat_every_integer_passes / repeat_every_fraction_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["repeat_every"], 2 => 2.5, InvalidType {"expected": "integer"};
    start_date_leap_day_passes / start_date_invalid_day_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["start_date"], "2024-02-29" => "2023-02-29", InvalidFormat {"format": "date"};
    end_date_date_passes / end_date_timestamp_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["end_date"], "2017-12-31" => "2017-12-31T00:00:00+0000", InvalidFormat {"format": "date"};
    last_sent_date_date_passes / last_sent_date_slashes_fail:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["last_sent_date"], "2016-06-12" => "2016/06/12", InvalidFormat {"format": "date"};
    next_invoice_date_date_passes / next_invoice_date_month_13_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["next_invoice_date"], "2016-12-17" => "2016-13-17", InvalidFormat {"format": "date"};
    allow_partial_payments_boolean_passes / allow_partial_payments_string_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["allow_partial_payments"], false => "true", InvalidType {"expected": "boolean"};
    avatax_exempt_no_25_passes / avatax_exempt_no_26_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["avatax_exempt_no"], ("a".repeat(25)) => ("a".repeat(26)), TooLong {"maximum": 25};
    avatax_use_code_25_passes / avatax_use_code_26_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["avatax_use_code"], ("a".repeat(25)) => ("a".repeat(26)), TooLong {"maximum": 25};
    contact_persons_ids_pass / contact_persons_boolean_member_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["contact_persons", 0], 982000000567003u64 => true,
        InvalidType {"expected": "id (string or integer)"};
    line_name_100_passes / line_name_101_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["line_items", 0, "name"], ("n".repeat(100)) => ("n".repeat(101)), TooLong {"maximum": 100};
    line_description_2000_passes / line_description_2001_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["line_items", 0, "description"], ("d".repeat(2000)) => ("d".repeat(2001)),
        TooLong {"maximum": 2000};
    line_avatax_tax_code_25_passes / line_avatax_tax_code_26_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["line_items", 0, "avatax_tax_code"], ("a".repeat(25)) => ("a".repeat(26)),
        TooLong {"maximum": 25};
    line_avatax_use_code_25_passes / line_avatax_use_code_26_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["line_items", 0, "avatax_use_code"], ("a".repeat(25)) => ("a".repeat(26)),
        TooLong {"maximum": 25};
    line_quantity_integer_passes / line_quantity_fraction_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["line_items", 0, "quantity"], 3 => 1.5, InvalidType {"expected": "integer"};
    line_rate_number_passes / line_rate_string_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["line_items", 0, "rate"], 0 => "12.5", InvalidType {"expected": "number"};
    line_product_type_listed_passes / line_product_type_unlisted_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["line_items", 0, "product_type"], "services" => "service",
        InvalidValue {"allowed": ["goods", "services"]};
    gateway_name_listed_passes / gateway_name_unlisted_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["payment_gateways", 0, "gateway_name"], "2checkout" => "venmo",
        InvalidValue {"allowed": ["paypal", "authorize_net", "payflow_pro", "stripe", "2checkout", "braintree"]};
    nested_gateway_name_listed_passes / nested_gateway_name_unlisted_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["payment_options", "payment_gateways", 0, "gateway_name"], "braintree" => "venmo",
        InvalidValue {"allowed": ["paypal", "authorize_net", "payflow_pro", "stripe", "2checkout", "braintree"]};
    gateway_mode_listed_passes / gateway_mode_unlisted_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["payment_gateways", 0, "additional_field1"], "adaptive" => "express",
        InvalidValue {"allowed": ["standard", "adaptive"]};
    gateway_configured_boolean_passes / gateway_configured_string_fails:
        *m::RecurringInvoiceInput::SCHEMA, recurring_invoice(), ["payment_gateways", 0, "configured"], false => "yes", InvalidType {"expected": "boolean"};
}
