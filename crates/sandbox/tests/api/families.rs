//! State round trips per family: a create is seen by get and list, an update changes it, a delete removes it.

use crate::client::{expect, id, Sandbox};
use serde_json::{json, Value};

fn first_id(list: &Value, key: &str, field: &str, name_field: &str, name: &str) -> String {
    let items = list[key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key} in {list}"));
    id(&items
        .iter()
        .find(|i| i[name_field] == name)
        .unwrap_or_else(|| panic!("no {name} in {list}"))[field])
}

#[test]
fn books_organizations_accounts_and_journals() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let body = json!({"name": "Acme", "currency_code": "EUR", "time_zone": "Europe/Berlin", "portal_name": "acme2024", "fiscal_year_start_month": "april"});
    let created = expect(
        &s.call("books", "POST", "/organizations", Some(body)),
        201,
        0,
    );
    let org = id(&created["organization"]["organization_id"]);
    assert_eq!(created["organization"]["fiscal_year_start_month"], 3);
    let list = expect(&s.call("books", "GET", "/organizations", None), 200, 0);
    assert_eq!(list["organizations"].as_array().unwrap().len(), 2);
    assert_eq!(list["page_context"]["has_more_page"], false);
    let updated = expect(
        &s.call(
            "books",
            "PUT",
            &format!("/organizations/{org}"),
            Some(json!({"name": "Acme GmbH"})),
        ),
        200,
        0,
    );
    assert_eq!(updated["organization"]["name"], "Acme GmbH");
    assert_eq!(updated["organization"]["currency_code"], "EUR");

    let account =
        json!({"account_name": "Travel", "account_code": "6200", "account_type": "expense"});
    let created = expect(
        &s.call("books", "POST", "/chartofaccounts", Some(account)),
        201,
        0,
    );
    let account_id = id(&created["chart_of_account"]["account_id"]);
    let got = expect(
        &s.call(
            "books",
            "GET",
            &format!("/chartofaccounts/{account_id}"),
            None,
        ),
        200,
        0,
    );
    assert_eq!(
        got["account_id"],
        json!(account_id),
        "getAccount answers its fields at the top level"
    );
    assert_eq!(got["account_name"], "Travel");
    assert!(got.get("chart_of_account").is_none());
    let updated = expect(
        &s.call(
            "books",
            "PUT",
            &format!("/chartofaccounts/{account_id}"),
            Some(json!({"account_name": "Travel and Meals"})),
        ),
        200,
        0,
    );
    assert_eq!(
        updated["chart_of_account"]["account_name"],
        "Travel and Meals"
    );
    assert_eq!(
        updated["chart_of_account"]["account_code"], "6200",
        "fields not supplied are kept"
    );
    let expenses = expect(
        &s.call(
            "books",
            "GET",
            "/chartofaccounts?filter_by=AccountType.Expense&sort_column=account_name",
            None,
        ),
        200,
        0,
    );
    let names: Vec<&str> = expenses["chartofaccounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["account_name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Depreciation Expense", "Rent", "Travel and Meals"]);

    let journal = json!({"journal_date": "2024-05-01", "line_items": [
        {"account_id": account_id, "debit_or_credit": "debit", "amount": 40},
        {"account_id": account_id, "debit_or_credit": "credit", "amount": 40}
    ]});
    let created = expect(&s.call("books", "POST", "/journals", Some(journal)), 201, 0);
    assert_eq!(created["journal"]["total"], 40);
    assert_eq!(
        created["journal"]["line_items"][0]["account_name"],
        "Travel and Meals"
    );
}

#[test]
fn books_fixed_assets_and_types() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let types = expect(&s.call("books", "GET", "/fixedassettypes", None), 200, 0);
    let machines = first_id(
        &types,
        "fixed_asset_types",
        "fixed_asset_type_id",
        "fixed_asset_type_name",
        "Machines",
    );
    let accounts = expect(&s.call("books", "GET", "/chartofaccounts", None), 200, 0);
    let equipment = first_id(
        &accounts,
        "chartofaccounts",
        "account_id",
        "account_name",
        "Office Equipment",
    );
    let asset = |name: &str, cost: f64| {
        json!({"asset_name": name, "fixed_asset_type_id": machines, "asset_account_id": equipment,
               "asset_cost": cost, "asset_purchase_date": "2024-01-15"})
    };
    let a = expect(
        &s.call(
            "books",
            "POST",
            "/fixedassets",
            Some(asset("Laptop", 1000.0)),
        ),
        201,
        0,
    );
    let laptop = id(&a["fixed_asset"]["fixed_asset_id"]);
    assert_eq!(a["fixed_asset"]["status"], "draft");
    assert_eq!(a["fixed_asset"]["fixed_asset_type_name"], "Machines");
    expect(
        &s.call("books", "POST", "/fixedassets", Some(asset("Drill", 300.0))),
        201,
        0,
    );
    let updated = expect(
        &s.call(
            "books",
            "PUT",
            &format!("/fixedassets/{laptop}"),
            Some(asset("Laptop Pro", 1500.0)),
        ),
        200,
        0,
    );
    assert_eq!(updated["fixed_asset"]["current_asset_value"], 1500.0);

    let list = expect(
        &s.call(
            "books",
            "GET",
            "/fixedassets?filter_by=Status.Draft&sort_column=asset_cost&sort_order=D&per_page=1",
            None,
        ),
        200,
        0,
    );
    let items = list["fixedassets"].as_array().unwrap();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["asset_name"], "Laptop Pro");
    let keys: Vec<&str> = items[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "fixed_asset_id",
            "asset_number",
            "asset_name",
            "status",
            "current_asset_value",
            "asset_cost",
            "fixed_asset_type_name"
        ]
    );
    assert_eq!(
        list["page_context"],
        json!({"page": 1, "per_page": 1, "has_more_page": true, "sort_column": "asset_cost", "sort_order": "D", "filter_by": "Status.Draft"})
    );
    let none = expect(
        &s.call("books", "GET", "/fixedassets?filter_by=Status.Sold", None),
        200,
        0,
    );
    assert_eq!(none["fixedassets"], json!([]));

    let t = json!({"fixed_asset_type_name": "Vehicles", "expense_account_id": equipment, "depreciation_account_id": equipment,
                   "depreciation_method": "declining_method", "depreciation_frequency": "yearly", "depreciation_percentage": 20,
                   "total_life": 48, "salvage_value": 500, "computation_type": "prorata_basis"});
    let created = expect(
        &s.call("books", "POST", "/fixedassettypes", Some(t.clone())),
        201,
        0,
    );
    let vehicles = id(&created["fixed_asset_type"]["fixed_asset_type_id"]);
    let mut t2 = t;
    t2["total_life"] = json!(60);
    let updated = expect(
        &s.call(
            "books",
            "PUT",
            &format!("/fixedassettypes/{vehicles}"),
            Some(t2),
        ),
        200,
        0,
    );
    assert_eq!(updated["fixed_asset_type"]["total_life"], 60);
    let deleted = expect(
        &s.call(
            "books",
            "DELETE",
            &format!("/fixedassettypes/{vehicles}"),
            None,
        ),
        200,
        0,
    );
    assert_eq!(
        deleted,
        json!({"code": 0, "message": "The fixed asset type has been deleted."})
    );
    expect(
        &s.call(
            "books",
            "DELETE",
            &format!("/fixedassettypes/{vehicles}"),
            None,
        ),
        404,
        1002,
    );
}

#[test]
fn books_expenses_receipts_and_unique_field_updates() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let body = json!({"account_id": "1", "amount": 12.5, "date": "2024-02-02", "custom_fields": [{"api_name": "cf_ref", "value": "R-7"}]});
    let r = s.call("books", "POST", "/expenses", Some(body));
    let created = expect(&r, 201, 0);
    let expense = &created["expense"];
    assert!(
        expense["expense_id"].is_u64(),
        "expense ids are JSON numbers"
    );
    assert!(expense["expense_id"].as_u64().unwrap() > 1 << 53);
    let raw = String::from_utf8(r.body.clone()).unwrap();
    assert!(
        raw.contains(&format!("\"expense_id\":{}", expense["expense_id"])),
        "{raw}"
    );
    let expense_id = id(&expense["expense_id"]);

    let (target, _) = s.target("books", &format!("/expenses/{expense_id}/receipt"));
    let receipt = s.raw(
        "GET",
        &target,
        &[("Authorization", "Svc-oauthtoken dev-token")],
        b"",
    );
    assert_eq!(receipt.status, 200);
    assert_eq!(receipt.header("content-type"), Some("application/pdf"));
    assert!(receipt.body.starts_with(b"%PDF-"));
    expect(
        &s.call(
            "books",
            "DELETE",
            &format!("/expenses/{expense_id}/receipt"),
            None,
        ),
        200,
        0,
    );
    expect(
        &s.call(
            "books",
            "GET",
            &format!("/expenses/{expense_id}/receipt"),
            None,
        ),
        404,
        1002,
    );
    expect(
        &s.call("books", "GET", "/expenses/123/receipt", None),
        404,
        1002,
    );

    let (target, _) = s.target("books", "/expenses");
    let auth = ("Authorization", "Svc-oauthtoken dev-token");
    let put = |key: &str, value: &str, upsert: &str, body: Value| {
        let headers = [
            auth,
            ("X-Unique-Identifier-Key", key),
            ("X-Unique-Identifier-Value", value),
            ("X-Upsert", upsert),
        ];
        s.raw("PUT", &target, &headers, body.to_string().as_bytes())
    };
    let updated = expect(
        &put("cf_ref", "R-7", "false", json!({"description": "Taxi"})),
        200,
        0,
    );
    assert_eq!(updated["expense"]["description"], "Taxi");
    assert_eq!(id(&updated["expense"]["expense_id"]), expense_id);
    expect(
        &put("cf_ref", "R-8", "false", json!({"description": "Bus"})),
        404,
        1002,
    );
    let upserted = expect(
        &put(
            "cf_ref",
            "R-8",
            "true",
            json!({"account_id": "1", "amount": 3}),
        ),
        201,
        0,
    );
    assert_ne!(id(&upserted["expense"]["expense_id"]), expense_id);
    let missing = expect(&s.raw("PUT", &target, &[auth], b"{}"), 400, 1001);
    assert_eq!(
        missing["issues"][0]["path"],
        json!(["x_unique_identifier_key"])
    );
}

#[test]
fn books_expense_update_receipt_history_and_delete() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let r = s.call(
        "books",
        "POST",
        "/expenses",
        Some(json!({"account_id": "1", "amount": 10, "exchange_rate": 2})),
    );
    let one = format!(
        "/expenses/{}",
        id(&expect(&r, 201, 0)["expense"]["expense_id"])
    );
    let updated = expect(
        &s.call("books", "PUT", &one, Some(json!({"amount": 12.5}))),
        200,
        0,
    );
    assert_eq!(
        (
            &updated["expense"]["total"],
            &updated["expense"]["bcy_total"]
        ),
        (&json!(12.5), &json!(25))
    );
    let got = expect(&s.call("books", "GET", &one, None), 200, 0);
    assert_eq!(got["expense"]["amount"], 12.5);
    let scan: &[u8] = b"\x89PNG";
    expect(
        &s.upload(
            "books",
            &format!("{one}/receipt"),
            &[("receipt", Some("scan.png"), scan)],
        ),
        200,
        0,
    );
    let (target, _) = s.target("books", &format!("{one}/receipt"));
    let auth = [("Authorization", "Svc-oauthtoken dev-token")];
    let receipt = s.raw("GET", &target, &auth, b"");
    assert_eq!(receipt.header("content-type"), Some("image/png"));
    assert_eq!(receipt.body, scan);
    let history = expect(
        &s.call("books", "GET", &format!("{one}/comments"), None),
        200,
        0,
    );
    let said: Vec<&str> = history["comments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["description"].as_str().unwrap())
        .collect();
    assert_eq!(said, ["Receipt scan.png attached.", "Expense updated."]);
    expect(&s.call("books", "DELETE", &one, None), 200, 0);
    expect(&s.call("books", "GET", &one, None), 404, 1002);
    expect(
        &s.call("books", "GET", &format!("{one}/receipt"), None),
        404,
        1002,
    );
    expect(
        &s.call("books", "GET", &format!("{one}/comments"), None),
        404,
        1002,
    );
}

#[test]
fn books_vendor_credits_and_refunds() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let credit = |number: &str, date: &str, rate: f64| {
        json!({"vendor_id": "460000000020029", "vendor_credit_number": number, "date": date,
               "line_items": [{"name": "Hosting", "rate": rate, "quantity": 2}]})
    };
    let a = expect(
        &s.call(
            "books",
            "POST",
            "/vendorcredits",
            Some(credit("DN-100", "2024-03-01", 30.0)),
        ),
        201,
        0,
    );
    let a_id = id(&a["vendor_credit"]["vendor_credit_id"]);
    assert_eq!(a["vendor_credit"]["total"], 60);
    assert_eq!(a["vendor_credit"]["vendor_name"], "Bowman and Co");
    expect(
        &s.call(
            "books",
            "POST",
            "/vendorcredits",
            Some(credit("DN-200", "2024-04-01", 100.0)),
        ),
        201,
        0,
    );
    let numbers = |q: &str| -> Vec<String> {
        let v = expect(
            &s.call("books", "GET", &format!("/vendorcredits?{q}"), None),
            200,
            0,
        );
        v["vendorcredits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["vendor_credit_number"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(numbers("vendor_credit_number_startswith=DN-1"), ["DN-100"]);
    assert_eq!(numbers("vendor_credit_number_contains=20"), ["DN-200"]);
    assert_eq!(numbers("date_after=2024-03-01"), ["DN-200"]);
    assert_eq!(
        numbers("date_start=2024-03-01&date_end=2024-03-31"),
        ["DN-100"]
    );
    assert_eq!(numbers("total_greater_than=60"), ["DN-200"]);
    assert_eq!(numbers("total_less_equals=60&status=open"), ["DN-100"]);
    assert!(numbers("status=void").is_empty());
    assert_eq!(numbers("total_less_equals=60."), ["DN-100"]);
    assert_eq!(numbers("total_start=60."), ["DN-100", "DN-200"]);
    assert!(numbers("total_less_than=6e1").is_empty());
    let refused = expect(
        &s.call("books", "GET", "/vendorcredits?page=1.", None),
        400,
        1001,
    );
    assert_eq!(refused["issues"][0]["expected"], "integer", "{refused}");

    let refunds = format!("/vendorcredits/{a_id}/refunds");
    let r = expect(
        &s.call(
            "books",
            "POST",
            &refunds,
            Some(json!({"date": "2024-03-05", "amount": 13, "refund_mode": "cash"})),
        ),
        201,
        0,
    );
    let refund_id = id(&r["vendor_credit_refund"]["vendor_credit_refund_id"]);
    let one = format!("{refunds}/{refund_id}");
    assert_eq!(
        expect(&s.call("books", "GET", &one, None), 200, 0)["vendor_credit_refund"]["amount"],
        13
    );
    let updated = expect(
        &s.call("books", "PUT", &one, Some(json!({"amount": 20}))),
        200,
        0,
    );
    assert_eq!(updated["vendor_credit_refund"]["refund_mode"], "cash");
    let listed = expect(&s.call("books", "GET", &refunds, None), 200, 0);
    assert_eq!(
        listed["vendor_credit_refunds"][0]["vendor_credit_number"],
        "DN-100"
    );
    let all = expect(
        &s.call(
            "books",
            "GET",
            "/vendorcredits/refunds?sort_column=date",
            None,
        ),
        200,
        0,
    );
    assert_eq!(all["vendor_credit_refunds"].as_array().unwrap().len(), 1);
    assert_eq!(numbers("total_less_equals=60")[0], "DN-100");
    let credits = expect(
        &s.call(
            "books",
            "GET",
            "/vendorcredits?vendor_credit_number_startswith=DN-1",
            None,
        ),
        200,
        0,
    );
    assert_eq!(credits["vendorcredits"][0]["balance"], 40);
    expect(&s.call("books", "DELETE", &one, None), 200, 0);
    expect(&s.call("books", "GET", &one, None), 404, 1002);
    expect(
        &s.call("books", "GET", "/vendorcredits/404/refunds", None),
        404,
        1002,
    );
}

#[test]
fn books_vendor_credit_bills_statuses_and_comments() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let body = json!({"vendor_id": "460000000020029", "line_items": [{"name": "Chairs", "rate": 50, "quantity": 2}]});
    let r = s.call("books", "POST", "/vendorcredits", Some(body));
    let one = format!(
        "/vendorcredits/{}",
        id(&expect(&r, 201, 0)["vendor_credit"]["vendor_credit_id"])
    );
    let credit = || expect(&s.call("books", "GET", &one, None), 200, 0)["vendor_credit"].clone();
    let bills = json!({"bills": [{"bill_id": "460000000057075", "amount_applied": 30}]});
    expect(
        &s.call("books", "POST", &format!("{one}/bills"), Some(bills)),
        201,
        0,
    );
    let c = credit();
    assert_eq!(
        (&c["balance"], &c["total_credits_used"]),
        (&json!(70), &json!(30))
    );
    let applied = id(&c["bills_credited"][0]["vendor_credit_bill_id"]);
    let listed = expect(
        &s.call("books", "GET", &format!("{one}/bills"), None),
        200,
        0,
    );
    assert_eq!(listed["bills_credited"][0]["amount"], 30);
    let all = json!({"bills": [{"bill_id": "460000000057076", "amount_applied": 70}]});
    s.call("books", "POST", &format!("{one}/bills"), Some(all));
    assert_eq!(
        (&credit()["balance"], &credit()["status"]),
        (&json!(0), &json!("closed"))
    );
    expect(
        &s.call("books", "DELETE", &format!("{one}/bills/{applied}"), None),
        200,
        0,
    );
    assert_eq!(
        (&credit()["balance"], &credit()["status"]),
        (&json!(30), &json!("open"))
    );
    let no_bill = json!({"bills": [{"amount_applied": 1}]});
    let refused = expect(
        &s.call("books", "POST", &format!("{one}/bills"), Some(no_bill)),
        400,
        1001,
    );
    assert_eq!(refused["issues"][0]["path"], json!(["bills", 0, "bill_id"]));

    for (action, status) in [
        ("submit", "pending_approval"),
        ("approve", "approved"),
        ("status/void", "void"),
        ("status/open", "open"),
    ] {
        s.call("books", "POST", &format!("{one}/{action}"), None);
        assert_eq!(credit()["status"], status, "{action}");
    }

    let c = expect(
        &s.call(
            "books",
            "POST",
            &format!("{one}/comments"),
            Some(json!({"description": "Checked"})),
        ),
        201,
        0,
    );
    let comment = id(&c["comment"]["comment_id"]);
    assert_eq!(credit()["comments"][0]["description"], "Checked");
    expect(
        &s.call(
            "books",
            "DELETE",
            &format!("{one}/comments/{comment}"),
            None,
        ),
        200,
        0,
    );
    let left = expect(
        &s.call("books", "GET", &format!("{one}/comments"), None),
        200,
        0,
    );
    assert_eq!(left["comments"], json!([]));

    let updated = expect(
        &s.call(
            "books",
            "PUT",
            &one,
            Some(json!({"line_items": [{"name": "Desk", "rate": 200}]})),
        ),
        200,
        0,
    );
    assert_eq!(
        (
            &updated["vendor_credit"]["total"],
            &updated["vendor_credit"]["balance"]
        ),
        (&json!(200), &json!(130))
    );
    expect(&s.call("books", "DELETE", &one, None), 200, 0);
    expect(&s.call("books", "GET", &one, None), 404, 1002);
    expect(
        &s.call("books", "GET", &format!("{one}/bills"), None),
        404,
        1002,
    );
}

#[test]
fn inventory_packages_and_composite_items() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let body = json!({"date": "2024-06-01", "line_items": [{"so_line_item_id": "11", "quantity": 2}, {"so_line_item_id": "12", "quantity": 1}]});
    let r = s.call(
        "inventory",
        "POST",
        "/packages?salesorder_id=9007199254740999",
        Some(body),
    );
    let created = expect(&r, 201, 0);
    let package = created["package"]
        .as_array()
        .expect("the package comes as a one-element array");
    assert_eq!(package.len(), 1);
    let package_id = package[0]["package_id"]
        .as_u64()
        .expect("package ids are JSON numbers");
    assert!(package_id > 1 << 53);
    assert!(
        package[0]["line_items"][0]["line_item_id"]
            .as_u64()
            .unwrap()
            > 1 << 53
    );
    assert_eq!(package[0]["total_quantity"], 3);
    assert_eq!(package[0]["status"], "not_shipped");
    let raw = String::from_utf8(r.body.clone()).unwrap();
    assert!(
        raw.contains(&format!("\"package_id\":{package_id}")),
        "{raw}"
    );

    let list = expect(
        &s.call("inventory", "GET", "/packages?status=NotShipped", None),
        200,
        0,
    );
    assert_eq!(
        list["packagea"][0]["package_id"], package_id,
        "packages are listed under `packagea`"
    );
    assert!(list.get("packages").is_none());
    let shipped = expect(
        &s.call("inventory", "GET", "/packages?status=Shipped", None),
        200,
        0,
    );
    assert_eq!(shipped["packagea"], json!([]));
    let got = expect(
        &s.call("inventory", "GET", &format!("/packages/{package_id}"), None),
        200,
        0,
    );
    assert!(got["package"].is_object());
    let updated = expect(
        &s.call(
            "inventory",
            "PUT",
            &format!("/packages/{package_id}"),
            Some(json!({"notes": "fragile"})),
        ),
        200,
        0,
    );
    assert_eq!(updated["package"][0]["notes"], "fragile");
    assert_eq!(updated["package"][0]["total_quantity"], 3);
    expect(&s.call("inventory", "GET", "/packages/1", None), 404, 1002);

    let item = json!({"name": "Starter Kit", "sku": "KIT-1", "rate": 25, "reorder_level": 5, "initial_stock": 3,
                      "mapped_items": [{"item_id": "77", "quantity": 2}]});
    let created = expect(
        &s.call("inventory", "POST", "/compositeitems", Some(item)),
        201,
        0,
    );
    let kit = created["composite_item"]["composite_item_id"]
        .as_u64()
        .unwrap();
    assert!(kit > 1 << 53);
    assert_eq!(created["composite_item"]["is_combo_product"], true);
    let low = expect(
        &s.call("inventory", "GET", "/compositeitems?status=Lowstock", None),
        200,
        0,
    );
    assert_eq!(low["composite_items"][0]["composite_item_id"], kit);
    let updated = expect(
        &s.call(
            "inventory",
            "PUT",
            &format!("/compositeitems/{kit}"),
            Some(json!({"status": "inactive"})),
        ),
        200,
        0,
    );
    assert_eq!(updated["composite_item"]["sku"], "KIT-1");
    let active = expect(
        &s.call(
            "inventory",
            "GET",
            "/compositeitems?status=Status.Active",
            None,
        ),
        200,
        0,
    );
    assert_eq!(active["composite_items"], json!([]));
    let inactive = expect(
        &s.call("inventory", "GET", "/compositeitems?status=Inactive", None),
        200,
        0,
    );
    assert_eq!(inactive["composite_items"].as_array().unwrap().len(), 1);
}

#[test]
fn invoice_currencies_projects_comments_and_recurring_invoices() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let created = expect(
        &s.call(
            "invoice",
            "POST",
            "/settings/currencies",
            Some(json!({"currency_code": "GBP"})),
        ),
        201,
        0,
    );
    let currency = created["currency"].as_array().expect("a one-element array")[0].clone();
    assert_eq!(currency["currency_name"], "GBP- Pound Sterling");
    let gbp = id(&currency["currency_id"]);
    expect(
        &s.call(
            "invoice",
            "POST",
            "/settings/currencies",
            Some(json!({"currency_code": "GBP"})),
        ),
        400,
        1003,
    );
    let got = expect(
        &s.call(
            "invoice",
            "GET",
            &format!("/settings/currencies/{gbp}"),
            None,
        ),
        200,
        0,
    );
    assert_eq!(got["currency"]["currency_symbol"], "£");
    let updated = expect(
        &s.call(
            "invoice",
            "PUT",
            &format!("/settings/currencies/{gbp}"),
            Some(json!({"price_precision": 3})),
        ),
        200,
        0,
    );
    assert_eq!(updated["currency"][0]["price_precision"], 3);
    let all = expect(
        &s.call("invoice", "GET", "/settings/currencies", None),
        200,
        0,
    );
    assert_eq!(all["currencies"].as_array().unwrap().len(), 3);
    let foreign = expect(
        &s.call(
            "invoice",
            "GET",
            "/settings/currencies?filter_by=Currencies.ExcludeBaseCurrency",
            None,
        ),
        200,
        0,
    );
    assert_eq!(foreign["currencies"].as_array().unwrap().len(), 2);
    expect(
        &s.call(
            "invoice",
            "DELETE",
            &format!("/settings/currencies/{gbp}"),
            None,
        ),
        200,
        0,
    );
    expect(
        &s.call(
            "invoice",
            "GET",
            &format!("/settings/currencies/{gbp}"),
            None,
        ),
        404,
        1002,
    );

    let project = json!({"project_name": "Rollout", "customer_id": "460000000044001", "billing_type": "based_on_project_hours",
                         "user_id": "460000000024003", "rate": "75", "tasks": [{"task_name": "Plan"}]});
    let created = expect(
        &s.call("invoice", "POST", "/projects", Some(project)),
        201,
        0,
    );
    let p = &created["project"];
    let pid = id(&p["project_id"]);
    assert_eq!(
        (p["rate"].clone(), p["customer_name"].clone()),
        (json!(75), json!("SAF Instruments Inc"))
    );
    assert_eq!(p["tasks"][0]["task_name"], "Plan");
    assert_eq!(p["users"][0]["user_name"], "John David");
    let mine = expect(
        &s.call(
            "invoice",
            "GET",
            "/projects?customer_id=460000000044001&sort_column=project_name",
            None,
        ),
        200,
        0,
    );
    let names: Vec<&str> = mine["projects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["project_name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Network Distribution", "Rollout"]);
    let update = json!({"project_name": "Rollout 2", "customer_id": "460000000044001", "billing_type": "based_on_project_hours",
                        "user_id": "460000000024003", "status": "inactive"});
    let updated = expect(
        &s.call("invoice", "PUT", &format!("/projects/{pid}"), Some(update)),
        200,
        0,
    );
    assert_eq!(updated["project"]["project_name"], "Rollout 2");
    let inactive = expect(
        &s.call(
            "invoice",
            "GET",
            "/projects?filter_by=Status.Inactive",
            None,
        ),
        200,
        0,
    );
    assert_eq!(inactive["projects"].as_array().unwrap().len(), 1);

    let comments = format!("/projects/{pid}/comments");
    let added = expect(
        &s.call(
            "invoice",
            "POST",
            &comments,
            Some(json!({"description": "Kick-off done"})),
        ),
        201,
        0,
    );
    let comment_id = id(&added["comments"][0]["comment_id"]);
    let listed = expect(&s.call("invoice", "GET", &comments, None), 200, 0);
    assert_eq!(listed["comments"][0]["description"], "Kick-off done");
    expect(
        &s.call(
            "invoice",
            "DELETE",
            &format!("{comments}/{comment_id}"),
            None,
        ),
        200,
        0,
    );
    assert_eq!(
        expect(&s.call("invoice", "GET", &comments, None), 200, 0)["comments"],
        json!([])
    );

    expect(
        &s.call(
            "invoice",
            "DELETE",
            &format!("/projects/{pid}/users/460000000024003"),
            None,
        ),
        200,
        0,
    );
    expect(
        &s.call(
            "invoice",
            "DELETE",
            &format!("/projects/{pid}/users/460000000024003"),
            None,
        ),
        404,
        1002,
    );
    let seeded = expect(
        &s.call("invoice", "GET", "/projects?filter_by=Status.Active", None),
        200,
        0,
    );
    let seeded_id = id(&seeded["projects"][0]["project_id"]);
    let invoices = expect(
        &s.call(
            "invoice",
            "GET",
            &format!("/projects/{seeded_id}/invoices?sort_column=date"),
            None,
        ),
        200,
        0,
    );
    assert_eq!(invoices["invoices"][0]["invoice_number"], "INV-00001");

    let recurring = json!({"recurrence_name": "Monthly", "customer_id": "460000000044001", "recurrence_frequency": "months",
                           "line_items": [{"name": "Support", "rate": 10, "quantity": 3}]});
    let created = expect(
        &s.call(
            "invoice",
            "POST",
            "/recurringinvoices",
            Some(recurring.clone()),
        ),
        201,
        0,
    );
    assert_eq!(created["recurring_invoice"]["total"], 30);
    expect(
        &s.call("invoice", "POST", "/recurringinvoices", Some(recurring)),
        400,
        1003,
    );
}

#[test]
fn billing_tasks_plans_and_events() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let projects = expect(&s.call("invoice", "GET", "/projects", None), 200, 0);
    let pid = id(&projects["projects"][0]["project_id"]);
    let tasks = format!("/projects/{pid}/tasks");
    let seeded = expect(&s.call("billing", "GET", &tasks, None), 200, 0);
    assert_eq!(seeded["tasks"].as_array().unwrap().len(), 2);
    let created = expect(
        &s.call(
            "billing",
            "POST",
            &tasks,
            Some(json!({"task_name": "Painting", "rate": 3})),
        ),
        201,
        0,
    );
    let tid = id(&created["task"]["task_id"]);
    assert_eq!(created["task"]["project_name"], "Network Distribution");
    let one = format!("{tasks}/{tid}");
    let updated = expect(
        &s.call(
            "billing",
            "PUT",
            &one,
            Some(json!({"task_name": "Painting walls"})),
        ),
        200,
        0,
    );
    assert_eq!(updated["task"]["rate"], 3);
    assert_eq!(
        expect(&s.call("billing", "GET", &one, None), 200, 0)["task"]["task_name"],
        "Painting walls"
    );
    expect(&s.call("billing", "DELETE", &one, None), 200, 0);
    expect(&s.call("billing", "GET", &one, None), 404, 1002);
    expect(
        &s.call("billing", "GET", "/projects/nope/tasks", None),
        404,
        1002,
    );

    let plan = json!({"plan_code": "gold", "name": "Gold", "recurring_price": 20, "interval": 1, "interval_unit": "months", "product_id": "p-2"});
    let created = expect(&s.call("billing", "POST", "/plans", Some(plan)), 201, 0);
    assert_eq!(created["plan"]["status"], "active");
    let updated = expect(
        &s.call(
            "billing",
            "PUT",
            "/plans/gold",
            Some(json!({"recurring_price": 25})),
        ),
        200,
        0,
    );
    assert_eq!(updated["plan"]["name"], "Gold");
    expect(
        &s.call(
            "billing",
            "PUT",
            "/plans/gold",
            Some(json!({"status": "inactive"})),
        ),
        200,
        0,
    );
    let by_product = expect(
        &s.call("billing", "GET", "/plans?product_id=p-2", None),
        200,
        0,
    );
    assert_eq!(by_product["plans"].as_array().unwrap().len(), 1);
    let active = expect(
        &s.call("billing", "GET", "/plans?filter_by=PlanStatus.ACTIVE", None),
        200,
        0,
    );
    assert_eq!(
        active["plans"].as_array().unwrap().len(),
        2,
        "the two seeded plans"
    );
    let inactive = expect(
        &s.call("billing", "GET", "/plans?filter_by=INACTIVE", None),
        200,
        0,
    );
    assert_eq!(inactive["plans"][0]["plan_code"], "gold");

    let events = expect(&s.call("billing", "GET", "/events", None), 200, 0);
    let events = events["events"].as_array().unwrap().clone();
    let types: Vec<&str> = events
        .iter()
        .map(|e| e["event_type"].as_str().unwrap())
        .collect();
    assert_eq!(
        types[..3],
        [
            "billing_date_changed",
            "subscription_upgraded",
            "subscription_activation"
        ],
        "newest first"
    );
    assert_eq!(
        events[0].as_object().unwrap().keys().collect::<Vec<_>>(),
        ["event_id", "event_type", "event_time"]
    );
    let event = expect(
        &s.call(
            "billing",
            "GET",
            &format!("/events/{}", id(&events[1]["event_id"])),
            None,
        ),
        200,
        0,
    );
    let payload: Value = serde_json::from_str(event["event"]["payload"].as_str().unwrap()).unwrap();
    assert_eq!(
        (
            payload["plan_code"].clone(),
            payload["recurring_price"].clone()
        ),
        (json!("gold"), json!(25))
    );
    assert_eq!(event["event"]["webhooks"], json!([]));
    expect(&s.call("billing", "GET", "/events/none", None), 404, 1002);
}

#[test]
fn crm_watch_answers_the_documented_shape() {
    let s = Sandbox::start(&[]);
    let body = json!({"watch": [{"channel_id": 1000000068001u64, "events": ["Deals.all"], "notify_url": "http://127.0.0.1:9/x", "token": "abc"}]});
    let v = expect(
        &s.call("crm", "PATCH", "/actions/watch", Some(body)),
        200,
        0,
    );
    let item = &v["watch"][0];
    assert_eq!(
        (item["code"].as_str(), item["status"].as_str()),
        (Some("SUCCESS"), Some("success"))
    );
    let event = &item["details"]["events"][0];
    assert_eq!(event["resource_name"], "Deals");
    assert_eq!(event["channel_id"], 1000000068001u64);
    assert!(event["resource_uri"]
        .as_str()
        .unwrap()
        .ends_with("/crm/v8/Deals"));
    assert!(event["channel_expiry"].as_str().is_some() && event["resource_id"].as_str().is_some());
}
