//! One test per catalog row: the method, URL, headers and body of a sample call.

use super::*;
use crate::request::{build, Body, Target};

enum Expect {
    NoBody,
    Json(&'static str),
    Multipart(&'static str),
}

fn check(id: &str, path: &[&str], params: &str, url: &str, headers: &[(&str, &str)], body: Expect) {
    let op = find(id).expect("row exists");
    let target = Target::new(None, None, Some("ORG"), None).unwrap();
    let params: serde_json::Value = serde_json::from_str(params).unwrap();
    assert_eq!(
        crate::validate::validate(op, &params),
        vec![],
        "{id}: the sample is valid"
    );
    let p = build(op, &target, path, &params).unwrap();
    assert_eq!(p.method, op.method);
    assert_eq!(p.url, format!("https://www.svcapis.com{url}"));
    for (name, value) in headers {
        assert!(
            p.headers.iter().any(|(n, v)| n == name && v == value),
            "{id}: header {name}: {value} missing in {:?}",
            p.headers
        );
    }
    let org_headers = p
        .headers
        .iter()
        .filter(|(n, _)| n.starts_with("X-com-svc"))
        .count();
    assert_eq!(
        org_headers,
        headers
            .iter()
            .filter(|(n, _)| n.starts_with("X-com-svc"))
            .count(),
        "{id}"
    );
    match (body, &p.body) {
        (Expect::NoBody, Body::None) => {}
        (Expect::Json(expected), Body::Json(text)) => {
            let got: serde_json::Value = serde_json::from_str(text).unwrap();
            let want: serde_json::Value = serde_json::from_str(expected).unwrap();
            assert_eq!(got, want, "{id}");
            assert!(p
                .headers
                .iter()
                .any(|(n, v)| n == "Content-Type" && v == "application/json"));
        }
        (Expect::Multipart(field), Body::Multipart { field: got }) => assert_eq!(field, *got),
        (_, other) => panic!("{id}: unexpected body {other:?}"),
    }
}

macro_rules! row {
    ($id:ident, [$($p:expr),*], $params:expr, $url:expr, [$($h:expr),*], $body:expr) => {
        #[test]
        #[allow(non_snake_case)]
        fn $id() {
            check(stringify!($id), &[$($p),*], $params, $url, &[$($h),*], $body);
        }
    };
}

row!(
    createOrganization,
    [],
    r#"{"name":"Acme","currency_code":"USD","time_zone":"Asia/Kolkata","portal_name":"acme2024"}"#,
    "/books/v3/organizations",
    [],
    Expect::Json(
        r#"{"name":"Acme","currency_code":"USD","time_zone":"Asia/Kolkata","portal_name":"acme2024"}"#
    )
);
row!(
    listOrganizations,
    [],
    r#"{}"#,
    "/books/v3/organizations",
    [],
    Expect::NoBody
);
row!(
    updateOrganization,
    ["10234695"],
    r#"{"name":"Acme"}"#,
    "/books/v3/organizations/10234695?organization_id=ORG",
    [],
    Expect::Json(r#"{"name":"Acme"}"#)
);
row!(
    createAccount,
    [],
    r#"{"account_name":"Petty","account_type":"cash"}"#,
    "/books/v3/chartofaccounts?organization_id=ORG",
    [],
    Expect::Json(r#"{"account_name":"Petty","account_type":"cash"}"#)
);
row!(
    listAccounts,
    [],
    r#"{"page":2,"per_page":50}"#,
    "/books/v3/chartofaccounts?organization_id=ORG&page=2&per_page=50",
    [],
    Expect::NoBody
);
row!(
    getAccount,
    ["460000000038079"],
    r#"{}"#,
    "/books/v3/chartofaccounts/460000000038079?organization_id=ORG",
    [],
    Expect::NoBody
);
row!(
    updateAccount,
    ["a b"],
    r#"{"account_name":"Petty"}"#,
    "/books/v3/chartofaccounts/a%20b?organization_id=ORG",
    [],
    Expect::Json(r#"{"account_name":"Petty"}"#)
);
row!(
    createJournal,
    [],
    r#"{"journal_date":"2024-01-31","line_items":[{"account_id":"1","debit_or_credit":"debit","amount":5}]}"#,
    "/books/v3/journals?organization_id=ORG",
    [],
    Expect::Json(
        r#"{"journal_date":"2024-01-31","line_items":[{"account_id":"1","debit_or_credit":"debit","amount":5}]}"#
    )
);
row!(
    createFixedAsset,
    [],
    r#"{"asset_name":"Laptop","fixed_asset_type_id":"1","asset_account_id":"2","asset_cost":1000,"asset_purchase_date":"2024-12-17"}"#,
    "/books/v3/fixedassets?organization_id=ORG",
    [],
    Expect::Json(
        r#"{"asset_name":"Laptop","fixed_asset_type_id":"1","asset_account_id":"2","asset_cost":1000,"asset_purchase_date":"2024-12-17"}"#
    )
);
row!(listFixedAssets, [], r#"{"filter_by":"Status.Active","sort_column":"asset_name","sort_order":"D"}"#, "/books/v3/fixedassets?organization_id=ORG&filter_by=Status.Active&sort_column=asset_name&sort_order=D", [], Expect::NoBody);
row!(
    updateFixedAsset,
    ["../x"],
    r#"{"asset_name":"Laptop","fixed_asset_type_id":"1","asset_account_id":"2","asset_cost":1000,"asset_purchase_date":"2024-12-17"}"#,
    "/books/v3/fixedassets/..%2Fx?organization_id=ORG",
    [],
    Expect::Json(
        r#"{"asset_name":"Laptop","fixed_asset_type_id":"1","asset_account_id":"2","asset_cost":1000,"asset_purchase_date":"2024-12-17"}"#
    )
);
row!(
    createFixedAssetType,
    [],
    r#"{"fixed_asset_type_name":"Machines"}"#,
    "/books/v3/fixedassettypes?organization_id=ORG",
    [],
    Expect::Json(r#"{"fixed_asset_type_name":"Machines"}"#)
);
row!(
    listFixedAssetTypes,
    [],
    r#"{"page":1}"#,
    "/books/v3/fixedassettypes?organization_id=ORG&page=1",
    [],
    Expect::NoBody
);
row!(
    updateFixedAssetType,
    ["7"],
    r#"{"fixed_asset_type_name":"Machines","expense_account_id":"3","depreciation_account_id":"4","depreciation_method":"declining_method","depreciation_frequency":"yearly","depreciation_percentage":12,"total_life":60,"salvage_value":100,"computation_type":"prorata_basis"}"#,
    "/books/v3/fixedassettypes/7?organization_id=ORG",
    [],
    Expect::Json(
        r#"{"fixed_asset_type_name":"Machines","expense_account_id":"3","depreciation_account_id":"4","depreciation_method":"declining_method","depreciation_frequency":"yearly","depreciation_percentage":12,"total_life":60,"salvage_value":100,"computation_type":"prorata_basis"}"#
    )
);
row!(
    deleteFixedAssetType,
    ["x y"],
    r#"{}"#,
    "/books/v3/fixedassettypes/x%20y?organization_id=ORG",
    [],
    Expect::NoBody
);
row!(
    createExpense,
    [],
    r#"{"account_id":"1","date":"2024-01-02","amount":112.5}"#,
    "/books/v3/expenses?organization_id=ORG",
    [],
    Expect::Json(r#"{"account_id":"1","date":"2024-01-02","amount":112.5}"#)
);
row!(
    updateExpenseByUniqueField,
    [],
    r#"{"x_unique_identifier_key":"cf_unique_cf","x_unique_identifier_value":"unique Value","x_upsert":true,"amount":10}"#,
    "/books/v3/expenses?organization_id=ORG",
    [
        ("X-Unique-Identifier-Key", "cf_unique_cf"),
        ("X-Unique-Identifier-Value", "unique Value"),
        ("X-Upsert", "true")
    ],
    Expect::Json(r#"{"amount":10}"#)
);
row!(
    getExpenseReceipt,
    ["982000000030049"],
    r#"{}"#,
    "/books/v3/expenses/982000000030049/receipt?organization_id=ORG",
    [],
    Expect::NoBody
);
row!(
    deleteExpenseReceipt,
    ["982000000030049"],
    r#"{}"#,
    "/books/v3/expenses/982000000030049/receipt?organization_id=ORG",
    [],
    Expect::NoBody
);
row!(
    addExpenseAttachment,
    ["982000000030049"],
    r#"{}"#,
    "/books/v3/expenses/982000000030049/attachment?organization_id=ORG",
    [],
    Expect::Multipart("attachment")
);
row!(
    createVendorCredit,
    [],
    r#"{"vendor_id":"1","line_items":[{"item_id":"2","quantity":1}]}"#,
    "/books/v3/vendorcredits?organization_id=ORG",
    [],
    Expect::Json(r#"{"vendor_id":"1","line_items":[{"item_id":"2","quantity":1}]}"#)
);
row!(
    listVendorCredits,
    [],
    r#"{"status":"open","date_start":"2024-01-01"}"#,
    "/books/v3/vendorcredits?organization_id=ORG&status=open&date_start=2024-01-01",
    [],
    Expect::NoBody
);
row!(
    createVendorCreditRefund,
    ["11"],
    r#"{"date":"2024-01-02","amount":5,"account_id":"3"}"#,
    "/books/v3/vendorcredits/11/refunds?organization_id=ORG",
    [],
    Expect::Json(r#"{"date":"2024-01-02","amount":5,"account_id":"3"}"#)
);
row!(
    listVendorCreditRefunds,
    ["11"],
    r#"{}"#,
    "/books/v3/vendorcredits/11/refunds?organization_id=ORG",
    [],
    Expect::NoBody
);
row!(
    getVendorCreditRefund,
    ["11", "22"],
    r#"{}"#,
    "/books/v3/vendorcredits/11/refunds/22?organization_id=ORG",
    [],
    Expect::NoBody
);
row!(
    updateVendorCreditRefund,
    ["11", "22"],
    r#"{"amount":6}"#,
    "/books/v3/vendorcredits/11/refunds/22?organization_id=ORG",
    [],
    Expect::Json(r#"{"amount":6}"#)
);
row!(
    deleteVendorCreditRefund,
    ["11", "22"],
    r#"{}"#,
    "/books/v3/vendorcredits/11/refunds/22?organization_id=ORG",
    [],
    Expect::NoBody
);
row!(
    listAllVendorCreditRefunds,
    [],
    r#"{"sort_column":"date"}"#,
    "/books/v3/vendorcredits/refunds?organization_id=ORG&sort_column=date",
    [],
    Expect::NoBody
);
row!(
    createPackage,
    [],
    r#"{"salesorder_id":"5","date":"2024-01-02","line_items":[{"so_line_item_id":"9","quantity":1}]}"#,
    "/inventory/v1/packages?organization_id=ORG&salesorder_id=5",
    [],
    Expect::Json(r#"{"date":"2024-01-02","line_items":[{"so_line_item_id":"9","quantity":1}]}"#)
);
row!(
    listPackages,
    [],
    r#"{"status":"Shipped"}"#,
    "/inventory/v1/packages?organization_id=ORG&status=Shipped",
    [],
    Expect::NoBody
);
row!(
    getPackage,
    ["9007199254740993"],
    r#"{}"#,
    "/inventory/v1/packages/9007199254740993?organization_id=ORG",
    [],
    Expect::NoBody
);
row!(
    updatePackage,
    ["9007199254740993"],
    r#"{"notes":"n"}"#,
    "/inventory/v1/packages/9007199254740993?organization_id=ORG",
    [],
    Expect::Json(r#"{"notes":"n"}"#)
);
row!(
    createCompositeItem,
    [],
    r#"{"name":"Kit","mapped_items":[{"item_id":"1","quantity":2}]}"#,
    "/inventory/v1/compositeitems?organization_id=ORG",
    [],
    Expect::Json(r#"{"name":"Kit","mapped_items":[{"item_id":"1","quantity":2}]}"#)
);
row!(
    listCompositeItems,
    [],
    r#"{}"#,
    "/inventory/v1/compositeitems?organization_id=ORG",
    [],
    Expect::NoBody
);
row!(
    updateCompositeItem,
    ["c#1"],
    r#"{"name":"Kit"}"#,
    "/inventory/v1/compositeitems/c%231?organization_id=ORG",
    [],
    Expect::Json(r#"{"name":"Kit"}"#)
);
row!(
    uploadCompositeItemImage,
    ["c1"],
    r#"{}"#,
    "/inventory/v1/compositeitems/c1/image?organization_id=ORG",
    [],
    Expect::Multipart("image")
);
row!(
    createCurrency,
    [],
    r#"{"currency_code":"EUR","currency_symbol":"€"}"#,
    "/invoice/v3/settings/currencies",
    [("X-com-svc-invoice-organizationid", "ORG")],
    Expect::Json(r#"{"currency_code":"EUR","currency_symbol":"€"}"#)
);
row!(
    listCurrencies,
    [],
    r#"{"filter_by":"Currencies.ExcludeBaseCurrency"}"#,
    "/invoice/v3/settings/currencies?filter_by=Currencies.ExcludeBaseCurrency",
    [("X-com-svc-invoice-organizationid", "ORG")],
    Expect::NoBody
);
row!(
    getCurrency,
    ["3"],
    r#"{}"#,
    "/invoice/v3/settings/currencies/3",
    [("X-com-svc-invoice-organizationid", "ORG")],
    Expect::NoBody
);
row!(
    updateCurrency,
    ["3"],
    r#"{"currency_symbol":"$"}"#,
    "/invoice/v3/settings/currencies/3",
    [("X-com-svc-invoice-organizationid", "ORG")],
    Expect::Json(r#"{"currency_symbol":"$"}"#)
);
row!(
    deleteCurrency,
    ["3"],
    r#"{}"#,
    "/invoice/v3/settings/currencies/3",
    [("X-com-svc-invoice-organizationid", "ORG")],
    Expect::NoBody
);
row!(
    createProject,
    [],
    r#"{"project_name":"P","customer_id":"1","billing_type":"based_on_task_hours","user_id":"2"}"#,
    "/invoice/v3/projects",
    [("X-com-svc-invoice-organizationid", "ORG")],
    Expect::Json(
        r#"{"project_name":"P","customer_id":"1","billing_type":"based_on_task_hours","user_id":"2"}"#
    )
);
row!(
    listProjects,
    [],
    r#"{"filter_by":"Status.All","customer_id":"1"}"#,
    "/invoice/v3/projects?filter_by=Status.All&customer_id=1",
    [("X-com-svc-invoice-organizationid", "ORG")],
    Expect::NoBody
);
row!(
    updateProject,
    ["p1"],
    r#"{"project_name":"P","customer_id":"1","billing_type":"based_on_task_hours","user_id":"2"}"#,
    "/invoice/v3/projects/p1",
    [("X-com-svc-invoice-organizationid", "ORG")],
    Expect::Json(
        r#"{"project_name":"P","customer_id":"1","billing_type":"based_on_task_hours","user_id":"2"}"#
    )
);
row!(
    removeProjectUser,
    ["p1", "u?1"],
    r#"{}"#,
    "/invoice/v3/projects/p1/users/u%3F1",
    [("X-com-svc-invoice-organizationid", "ORG")],
    Expect::NoBody
);
row!(
    addProjectComment,
    ["p1"],
    r#"{"description":"hi"}"#,
    "/invoice/v3/projects/p1/comments",
    [("X-com-svc-invoice-organizationid", "ORG")],
    Expect::Json(r#"{"description":"hi"}"#)
);
row!(
    listProjectComments,
    ["p1"],
    r#"{}"#,
    "/invoice/v3/projects/p1/comments",
    [("X-com-svc-invoice-organizationid", "ORG")],
    Expect::NoBody
);
row!(
    deleteProjectComment,
    ["p1", "c1"],
    r#"{}"#,
    "/invoice/v3/projects/p1/comments/c1",
    [("X-com-svc-invoice-organizationid", "ORG")],
    Expect::NoBody
);
row!(
    listProjectInvoices,
    ["p1"],
    r#"{"sort_column":"date"}"#,
    "/invoice/v3/projects/p1/invoices?sort_column=date",
    [("X-com-svc-invoice-organizationid", "ORG")],
    Expect::NoBody
);
row!(
    createRecurringInvoice,
    [],
    r#"{"recurrence_name":"Monthly","customer_id":"1","recurrence_frequency":"months"}"#,
    "/invoice/v3/recurringinvoices",
    [("X-com-svc-invoice-organizationid", "ORG")],
    Expect::Json(
        r#"{"recurrence_name":"Monthly","customer_id":"1","recurrence_frequency":"months"}"#
    )
);
row!(
    createTask,
    ["p1"],
    r#"{"task_name":"Design"}"#,
    "/billing/v1/projects/p1/tasks",
    [("X-com-svc-subscriptions-organizationid", "ORG")],
    Expect::Json(r#"{"task_name":"Design"}"#)
);
row!(
    listTasks,
    ["p1"],
    r#"{}"#,
    "/billing/v1/projects/p1/tasks",
    [("X-com-svc-subscriptions-organizationid", "ORG")],
    Expect::NoBody
);
row!(
    getTask,
    ["p1", "t1"],
    r#"{}"#,
    "/billing/v1/projects/p1/tasks/t1",
    [("X-com-svc-subscriptions-organizationid", "ORG")],
    Expect::NoBody
);
row!(
    updateTask,
    ["p1", "t1"],
    r#"{"task_name":"Build"}"#,
    "/billing/v1/projects/p1/tasks/t1",
    [("X-com-svc-subscriptions-organizationid", "ORG")],
    Expect::Json(r#"{"task_name":"Build"}"#)
);
row!(
    deleteTask,
    ["p1", "t1"],
    r#"{}"#,
    "/billing/v1/projects/p1/tasks/t1",
    [("X-com-svc-subscriptions-organizationid", "ORG")],
    Expect::NoBody
);
row!(
    createPlan,
    [],
    r#"{"plan_code":"basic","name":"Basic","recurring_price":10,"interval":1,"interval_unit":"months"}"#,
    "/billing/v1/plans",
    [("X-com-svc-subscriptions-organizationid", "ORG")],
    Expect::Json(
        r#"{"plan_code":"basic","name":"Basic","recurring_price":10,"interval":1,"interval_unit":"months"}"#
    )
);
row!(
    listPlans,
    [],
    r#"{"filter_by":"PlanStatus.ACTIVE"}"#,
    "/billing/v1/plans?filter_by=PlanStatus.ACTIVE",
    [("X-com-svc-subscriptions-organizationid", "ORG")],
    Expect::NoBody
);
row!(
    updatePlan,
    ["basic plan"],
    r#"{"name":"Basic"}"#,
    "/billing/v1/plans/basic%20plan",
    [("X-com-svc-subscriptions-organizationid", "ORG")],
    Expect::Json(r#"{"name":"Basic"}"#)
);
row!(
    getEvent,
    ["e1"],
    r#"{}"#,
    "/billing/v1/events/e1",
    [("X-com-svc-subscriptions-organizationid", "ORG")],
    Expect::NoBody
);
row!(
    listEvents,
    [],
    r#"{"page":3}"#,
    "/billing/v1/events?page=3",
    [("X-com-svc-subscriptions-organizationid", "ORG")],
    Expect::NoBody
);
row!(
    updateNotificationChannels,
    [],
    r#"{"watch":[{"channel_id":1000000068001,"events":["Deals.all"],"notify_url":"https://hooks.example.com/svc"}]}"#,
    "/crm/v8/actions/watch",
    [],
    Expect::Json(
        r#"{"watch":[{"channel_id":1000000068001,"events":["Deals.all"],"notify_url":"https://hooks.example.com/svc"}]}"#
    )
);
#[test]
fn every_row_has_a_test_here() {
    let src: String = include_str!("catalog_rows.rs").split_whitespace().collect();
    for op in OPERATIONS {
        assert!(
            src.contains(&format!("row!({},", op.id)),
            "no row test for {}",
            op.id
        );
    }
}
