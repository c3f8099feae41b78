//! The organization the sandbox starts with, so that a demo is not empty.

use crate::common::{self, USER_EMAIL, USER_ID, USER_NAME};
use crate::error::ApiError;
use crate::record::Value;
use crate::record::{id_text, json_obj, Record};
use crate::resource::{CUSTOMER, FIXED_ASSET_TYPE, PROJECT_INVOICE, USER, VENDOR};
use crate::store::{Ids, Org, Store};
use crate::{billing, books, generic, invoice, time};
use svc_json::json;

pub const CUSTOMER_ID: &str = "460000000044001";
pub const VENDOR_ID: &str = "460000000020029";
pub const PRODUCT_ID: &str = "460000000098001";

fn each(values: Value) -> Vec<Record> {
    match values {
        Value::Arr(items) => items.into_iter().map(json_obj).collect(),
        _ => Vec::new(),
    }
}

/// Adds the organization `id` with accounts, fixed asset types, a customer, a vendor, a user,
/// a project with tasks and an invoice, plans (and their events), a second currency and an expense.
pub fn organization(
    store: &mut Store,
    id: &str,
    plan: &str,
    base: &str,
    now_ms: i64,
) -> Result<(), ApiError> {
    let params = json_obj(json!({
        "name": "Sandbox Trading Co",
        "currency_code": "USD",
        "time_zone": "Etc/UTC",
        "portal_name": "sandboxtrading",
        "industry_type": "Services",
    }));
    books::new_organization(store, id, &params, now_ms, true, plan);
    let (org, ids) = store.open(id)?;
    org.rows_mut(CUSTOMER.table).push(json_obj(
        json!({"customer_id": CUSTOMER_ID, "customer_name": "SAF Instruments Inc"}),
    ));
    org.rows_mut(VENDOR.table).push(json_obj(
        json!({"vendor_id": VENDOR_ID, "vendor_name": "Bowman and Co"}),
    ));
    org.rows_mut(USER.table).push(json_obj(json!({
        "user_id": USER_ID, "user_name": USER_NAME, "email": USER_EMAIL, "user_role": "admin",
    })));

    let accounts = accounts(org, ids, now_ms);
    let account = |i: usize| Value::from(accounts[i].clone());
    fixed_asset_types(org, ids, (account(9), account(3)), now_ms);

    common::insert_currency(
        org,
        ids,
        &json_obj(json!({"currency_code": "EUR"})),
        false,
        now_ms,
    );
    project(org, ids, now_ms)?;
    plans(org, ids, base, now_ms)?;

    let expense = json_obj(json!({
        "account_id": account(8),
        "paid_through_account_id": account(0),
        "amount": 112.5,
        "description": "Office rent",
        "reference_number": "RENT-001",
        "vendor_id": VENDOR_ID,
    }));
    books::insert_expense(org, ids, &expense, now_ms);
    Ok(())
}

/// The chart of accounts; their ids, in order.
fn accounts(org: &mut Org, ids: &Ids, now_ms: i64) -> Vec<String> {
    let mut accounts = Vec::new();
    for fields in each(json!([
        {"account_name": "Petty Cash", "account_code": "1000", "account_type": "cash"},
        {"account_name": "Business Bank", "account_code": "1010", "account_type": "bank"},
        {"account_name": "Office Equipment", "account_code": "1500", "account_type": "fixed_asset"},
        {"account_name": "Accumulated Depreciation", "account_code": "1590", "account_type": "fixed_asset"},
        {"account_name": "Accounts Payable", "account_code": "2000", "account_type": "accounts_payable"},
        {"account_name": "Company Card", "account_code": "2100", "account_type": "credit_card"},
        {"account_name": "Owner's Equity", "account_code": "3000", "account_type": "equity"},
        {"account_name": "Sales", "account_code": "4000", "account_type": "income"},
        {"account_name": "Rent", "account_code": "6000", "account_type": "expense"},
        {"account_name": "Depreciation Expense", "account_code": "6100", "account_type": "other_expense"},
    ])) {
        let rec = books::insert_account(org, ids, &fields, now_ms);
        accounts.push(rec.get("account_id").and_then(id_text).unwrap_or_default());
    }
    accounts
}

/// Two fixed asset types, depreciated into the `(expense, depreciation)` accounts.
fn fixed_asset_types(
    org: &mut Org,
    ids: &Ids,
    (expense, depreciation): (Value, Value),
    now_ms: i64,
) {
    for fields in each(json!([
        {"fixed_asset_type_name": "Machines", "depreciation_method": "declining_method", "depreciation_frequency": "yearly",
         "depreciation_percentage": 12, "total_life": 60, "salvage_value": 100, "computation_type": "prorata_basis"},
        {"fixed_asset_type_name": "Furniture", "depreciation_method": "straight_line", "depreciation_frequency": "monthly",
         "total_life": 120, "salvage_value": 0, "computation_type": "no_prorata"},
    ])) {
        let mut fields = fields;
        fields.insert("expense_account_id".into(), expense.clone());
        fields.insert("depreciation_account_id".into(), depreciation.clone());
        generic::insert(org, ids, &FIXED_ASSET_TYPE, None, &fields, now_ms);
    }
}

/// A project with two tasks and an invoice.
fn project(org: &mut Org, ids: &Ids, now_ms: i64) -> Result<(), ApiError> {
    let project = invoice::insert_project(
        org,
        ids,
        &json_obj(json!({
            "project_name": "Network Distribution",
            "customer_id": CUSTOMER_ID,
            "description": "Distribution network for the system of intermediaries.",
            "billing_type": "based_on_task_hours",
            "rate": 50,
            "user_id": USER_ID,
            "tasks": [
                {"task_name": "Distribution Analysis", "description": "Map the current network.", "rate": 50, "budget_hours": 20},
                {"task_name": "Field Survey", "rate": 40, "budget_hours": 10},
            ],
        })),
        now_ms,
    )?;
    let project_id = project
        .get("project_id")
        .and_then(id_text)
        .unwrap_or_default();
    let invoice = json_obj(json!({
        "customer_name": "SAF Instruments Inc",
        "status": "sent",
        "invoice_number": "INV-00001",
        "reference_number": "",
        "date": time::date(now_ms),
        "due_date": time::date(now_ms + 15 * time::DAY_MS),
        "total": 310.75,
        "balance": 48.75,
        "created_time": time::timestamp(now_ms),
    }));
    org.insert(
        &PROJECT_INVOICE,
        ids.next(&PROJECT_INVOICE),
        invoice,
        Some(&project_id),
    );
    Ok(())
}

/// Two plans, and the events they record.
fn plans(org: &mut Org, ids: &Ids, base: &str, now_ms: i64) -> Result<(), ApiError> {
    for fields in each(json!([
        {"plan_code": "basic-monthly", "name": "Basic", "description": "Monthly basic plan", "product_id": PRODUCT_ID,
         "recurring_price": 9.99, "unit": "seat", "interval": 1, "interval_unit": "months", "billing_cycles": -1,
         "trial_period": 14, "setup_fee": 0, "product_type": "goods"},
        {"plan_code": "pro-yearly", "name": "Pro", "description": "Yearly pro plan", "product_id": PRODUCT_ID,
         "recurring_price": 99, "unit": "seat", "interval": 1, "interval_unit": "years", "billing_cycles": -1,
         "trial_period": 0, "setup_fee": 10, "product_type": "goods"},
    ])) {
        billing::insert_plan(org, ids, &fields, base, now_ms)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::{ACCOUNT, CURRENCY, EVENT, EXPENSE, PLAN, PROJECT, TASK};
    use crate::store::FIRST_BIG_ID;

    #[test]
    fn the_seeded_organization_has_something_of_everything() {
        let mut store = Store::default();
        organization(&mut store, "42", "free", "http://127.0.0.1:1", 0).unwrap();
        let org = store.org("42").unwrap();
        for (res, at_least) in [
            (ACCOUNT, 10),
            (FIXED_ASSET_TYPE, 2),
            (CURRENCY, 2),
            (PROJECT, 1),
            (TASK, 2),
            (PROJECT_INVOICE, 1),
            (PLAN, 2),
            (EVENT, 2),
            (EXPENSE, 1),
        ] {
            assert!(org.rows(res.table).len() >= at_least, "{}", res.table);
        }
        let types = org.rows(FIXED_ASSET_TYPE.table);
        assert_eq!(
            types[0]["expense_account_name"],
            json!("Depreciation Expense")
        );
        let expense = &org.rows(EXPENSE.table)[0];
        assert_eq!(expense["expense_id"], json!(FIRST_BIG_ID));
        assert_eq!(expense["account_name"], json!("Rent"));
        assert_eq!(expense["vendor_name"], json!("Bowman and Co"));
        assert!(org.receipts.contains_key(&FIRST_BIG_ID.to_string()));
        let project = &org.rows(PROJECT.table)[0];
        assert_eq!(project["customer_name"], json!("SAF Instruments Inc"));
        assert_eq!(project["users"][0]["user_name"], json!(USER_NAME));
        assert_eq!(org.info["currency_code"], json!("USD"));
    }
}
