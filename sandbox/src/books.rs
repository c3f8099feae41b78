//! Accounting: organizations, accounts, journals, fixed assets, expenses, vendor credits and refunds.

use crate::call::{Handler, Reply, Req};
use crate::common::{self, price_lines, USER_EMAIL, USER_ID, USER_NAME};
use crate::error::{issue, required, ApiError};
use crate::list::{self, num, Cmp};
use crate::record::{defaults, id_text, json_obj, patch, same_id, stamp, Record};
use crate::resource::{
    Resource, ACCOUNT, CREDITED_BILL, CURRENCY, EXPENSE, FIXED_ASSET, JOURNAL, REFUND,
    VENDOR_CREDIT, VENDOR_CREDIT_COMMENT,
};
use crate::store::{Ids, Org, Receipt, Store};
use crate::time;
use serde_json::{json, Value};
use svc_sdk::issue::{IssueCode, PathSeg};
use svc_sdk::model::books::FiscalYearStartMonth;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("createOrganization", create_organization),
    ("listOrganizations", list_organizations),
    ("updateOrganization", update_organization),
    ("createAccount", create_account),
    ("listAccounts", list_accounts),
    ("createJournal", create_journal),
    ("createFixedAsset", create_fixed_asset),
    ("listFixedAssets", list_fixed_assets),
    ("updateFixedAsset", update_fixed_asset),
    ("createExpense", create_expense),
    ("updateExpense", update_expense),
    ("deleteExpense", delete_expense),
    ("updateExpenseByUniqueField", update_expense_by_unique_field),
    ("getExpenseReceipt", get_expense_receipt),
    ("addExpenseReceipt", add_expense_receipt),
    ("deleteExpenseReceipt", delete_expense_receipt),
    ("addExpenseAttachment", add_expense_attachment),
    ("listExpenseComments", list_expense_comments),
    ("createVendorCredit", create_vendor_credit),
    ("listVendorCredits", list_vendor_credits),
    ("getVendorCredit", get_vendor_credit),
    ("updateVendorCredit", update_vendor_credit),
    ("deleteVendorCredit", delete_vendor_credit),
    ("markVendorCreditOpen", mark_vendor_credit_open),
    ("markVendorCreditVoid", mark_vendor_credit_void),
    ("submitVendorCredit", submit_vendor_credit),
    ("approveVendorCredit", approve_vendor_credit),
    ("applyVendorCreditToBills", apply_vendor_credit_to_bills),
    ("deleteVendorCreditBill", delete_vendor_credit_bill),
    ("addVendorCreditComment", add_vendor_credit_comment),
    ("createVendorCreditRefund", create_refund),
    ("listVendorCreditRefunds", list_refunds),
    ("updateVendorCreditRefund", update_refund),
    ("deleteVendorCreditRefund", delete_refund),
    ("listAllVendorCreditRefunds", list_all_refunds),
];

// ---- organizations

/// Request names that the responses spell differently.
const ORG_RENAMES: &[(&str, &str)] = &[
    ("companyid_label", "company_id_label"),
    ("companyid_value", "company_id_value"),
    ("taxid_label", "tax_id_label"),
    ("taxid_value", "tax_id_value"),
];

fn apply_org_fields(org: &Org, info: &mut Record, params: &Record) {
    for (k, v) in params
        .iter()
        .filter(|(k, v)| !v.is_null() && *k != "organization_id")
    {
        let key = ORG_RENAMES
            .iter()
            .find(|(from, _)| from == k)
            .map_or(k.as_str(), |(_, to)| *to);
        let value = match (key, v) {
            ("fiscal_year_start_month", Value::String(m)) => FiscalYearStartMonth::VALUES
                .iter()
                .position(|x| x.eq_ignore_ascii_case(m))
                .map_or(v.clone(), Value::from),
            ("is_logo_uploaded", Value::Bool(b)) => Value::from(b.to_string()),
            _ => v.clone(),
        };
        info.insert(key.into(), value);
    }
    let currency = info.get("currency_id").and_then(id_text);
    if let Some(c) = currency.and_then(|id| org.lookup(CURRENCY.table, CURRENCY.id, &id)) {
        for key in [
            "currency_code",
            "currency_symbol",
            "currency_format",
            "price_precision",
        ] {
            if let Some(v) = c.get(key) {
                info.insert(key.into(), v.clone());
            }
        }
    }
}

/// Adds an organization (with its base currency) and returns its record.
pub fn new_organization(
    store: &mut Store,
    id: &str,
    params: &Record,
    now_ms: i64,
    is_default: bool,
    plan: &str,
) -> Record {
    let code = params
        .get("currency_code")
        .and_then(Value::as_str)
        .unwrap_or("USD")
        .to_string();
    let mut org = Org::new(id, Record::new());
    common::insert_currency(
        &mut org,
        &store.ids,
        &json_obj(json!({"currency_code": code})),
        true,
        now_ms,
    );
    let mut info = json_obj(json!({
        "organization_id": id,
        "name": "",
        "is_logo_uploaded": "false",
        "is_default_org": is_default,
        "user_role": "admin",
        "account_created_date": time::date(now_ms),
        "time_zone": "Etc/UTC",
        "language_code": "en",
        "date_format": "yyyy-MM-dd",
        "field_separator": "-",
        "fiscal_year_start_month": 0,
        "tax_group_enabled": false,
        "user_status": "active",
        "contact_name": USER_NAME,
        "email": USER_EMAIL,
        "currency_id": org.rows(CURRENCY.table)[0]["currency_id"].clone(),
        "price_precision": 2,
        "plan_name": plan.to_ascii_uppercase(),
        "plan_period": "Monthly",
        "zi_migration_status": 0,
        "is_org_active": true,
    }));
    apply_org_fields(&org, &mut info, params);
    org.info = info.clone();
    store.orgs.push(org);
    info
}

fn create_organization(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let id = store.ids.text().as_str().unwrap_or_default().to_string();
    let info = new_organization(store, &id, req.params, req.now_ms, false, "free");
    Ok(Reply::created("The organization has been created.", info))
}

fn list_organizations(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let rows = store
        .orgs
        .iter()
        .map(|o| {
            let mut r = o.info.clone();
            let day = r
                .get("account_created_date")
                .and_then(Value::as_str)
                .and_then(time::day_of);
            if let Some(day) = day {
                r.insert(
                    "account_created_date_formatted".into(),
                    time::date_formatted(day * time::DAY_MS).into(),
                );
            }
            r
        })
        .collect();
    Ok(list::page(rows, req.params))
}

fn update_organization(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.path("organization_id"))?;
    let mut info = org.info.clone();
    apply_org_fields(org, &mut info, req.params);
    org.info = info.clone();
    Ok(Reply::ok("Organization details have been updated.", info))
}

// ---- chart of accounts

const ACCOUNT_GROUPS: &[(&str, &[&str])] = &[
    (
        "asset",
        &[
            "other_asset",
            "other_current_asset",
            "cash",
            "bank",
            "fixed_asset",
            "accounts_receivable",
        ],
    ),
    (
        "liability",
        &[
            "other_current_liability",
            "credit_card",
            "long_term_liability",
            "other_liability",
            "accounts_payable",
        ],
    ),
    ("equity", &["equity"]),
    ("income", &["income", "other_income"]),
    (
        "expense",
        &["expense", "cost_of_goods_sold", "other_expense"],
    ),
];

pub fn insert_account(org: &mut Org, ids: &Ids, fields: &Record, now_ms: i64) -> Record {
    let mut rec = fields.clone();
    defaults(
        &mut rec,
        json!({
            "is_active": true,
            "is_user_created": true,
            "is_system_account": false,
            "is_involved_in_transaction": false,
            "can_show_in_ze": false,
            "include_in_vat_return": false,
            "currency_id": org.info.get("currency_id").cloned().unwrap_or_default(),
            "current_balance": 0,
            "closing_balance": 0,
            "documents": [],
        }),
    );
    stamp(&mut rec, now_ms, true);
    org.insert(&ACCOUNT, ids.next(&ACCOUNT), rec, None)
}

fn create_account(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    Ok(Reply::created(
        "The account has been created.",
        insert_account(org, ids, req.params, req.now_ms),
    ))
}

fn list_accounts(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let mut rows = org.list(&ACCOUNT, None);
    let filter = list::filter_value(req.params, "filter_by").map(|f| list::norm(&f));
    match filter.as_deref() {
        Some(state @ ("active" | "inactive")) => {
            let want = state == "active";
            rows.retain(|r| r.get("is_active").and_then(Value::as_bool) == Some(want));
        }
        Some(group) => {
            if let Some((_, types)) = ACCOUNT_GROUPS.iter().find(|(g, _)| *g == group) {
                rows.retain(|r| {
                    r.get("account_type")
                        .and_then(Value::as_str)
                        .is_some_and(|t| types.contains(&t))
                });
            }
        }
        None => {}
    }
    list::sort(&mut rows, req.params, &["account_name", "account_type"]);
    for r in &mut rows {
        let id = r.get("account_id").and_then(id_text).unwrap_or_default();
        let children = org
            .rows(ACCOUNT.table)
            .iter()
            .filter(|c| same_id(c.get("parent_account_id"), &id))
            .count();
        defaults(
            r,
            json!({
                "is_standalone_account": true,
                "depth": 0,
                "has_attachment": false,
                "is_child_present": children > 0,
                "child_count": children,
            }),
        );
    }
    Ok(list::page(rows, req.params))
}

// ---- journals

fn create_journal(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let mut rec = req.params.clone();
    let rate = list::number(rec.get("exchange_rate")).unwrap_or(1.0);
    if let Some(Value::Array(lines)) = rec.get_mut("line_items") {
        for line in lines.iter_mut().filter_map(Value::as_object_mut) {
            line.entry("line_id").or_insert_with(|| ids.text());
            let amount = list::number(line.get("amount")).unwrap_or(0.0);
            line.entry("bcy_amount")
                .or_insert_with(|| num(amount * rate));
        }
    }
    let debits: f64 = rec
        .get("line_items")
        .and_then(Value::as_array)
        .map_or(0.0, |lines| {
            lines
                .iter()
                .filter(|l| l.get("debit_or_credit").and_then(Value::as_str) == Some("debit"))
                .filter_map(|l| list::number(l.get("amount")))
                .sum()
        });
    let (number, _) = org.next_number("JE");
    defaults(
        &mut rec,
        json!({
            "entry_number": number,
            "journal_type": "both",
            "status": "published",
            "currency_id": org.info.get("currency_id").cloned().unwrap_or_default(),
            "exchange_rate": 1,
            "price_precision": 2,
            "line_item_total": num(debits),
            "total": num(debits),
            "bcy_total": num(debits * rate),
        }),
    );
    stamp(&mut rec, req.now_ms, true);
    Ok(Reply::created(
        "The journal entry has been created.",
        org.insert(&JOURNAL, ids.next(&JOURNAL), rec, None),
    ))
}

// ---- fixed assets

const ASSET_LIST_FIELDS: &[&str] = &[
    "fixed_asset_id",
    "asset_number",
    "asset_name",
    "status",
    "current_asset_value",
    "asset_cost",
    "fixed_asset_type_name",
];

pub fn insert_fixed_asset(org: &mut Org, ids: &Ids, fields: &Record, now_ms: i64) -> Record {
    let mut rec = fields.clone();
    let (number, n) = org.next_number("FA");
    let cost = rec.get("asset_cost").cloned().unwrap_or(Value::from(0));
    defaults(
        &mut rec,
        json!({
            "asset_number": number,
            "asset_number_prefix": "FA-",
            "asset_number_suffix": n,
            "status": "draft",
            "current_asset_value": cost,
            "accumulated_dep_value": 0,
            "associated_transactions": [],
            "comments": [],
        }),
    );
    stamp(&mut rec, now_ms, true);
    org.insert(&FIXED_ASSET, ids.next(&FIXED_ASSET), rec, None)
}

fn create_fixed_asset(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    Ok(Reply::created(
        "The fixed asset has been created.",
        insert_fixed_asset(org, ids, req.params, req.now_ms),
    ))
}

fn list_fixed_assets(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let mut rows = org.list(&FIXED_ASSET, None);
    list::keep_status(
        &mut rows,
        "status",
        list::filter_value(req.params, "filter_by").as_deref(),
    );
    list::sort(
        &mut rows,
        req.params,
        &[
            "asset_name",
            "asset_number",
            "asset_cost",
            "created_time",
            "current_asset_value",
        ],
    );
    let rows = rows
        .iter()
        .map(|r| list::pick(r, ASSET_LIST_FIELDS))
        .collect();
    Ok(list::page(rows, req.params))
}

fn update_fixed_asset(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let id = req.path("fixed_asset_id");
    let mut p = patch(req.params, req.now_ms);
    let depreciated = list::number(
        org.get(&FIXED_ASSET, id, None)?
            .get("accumulated_dep_value"),
    )
    .unwrap_or(0.0);
    if let (Some(cost), true) = (p.get("asset_cost").cloned(), depreciated == 0.0) {
        p.insert("current_asset_value".into(), cost);
    }
    Ok(Reply::ok(
        "The fixed asset has been updated.",
        org.update(&FIXED_ASSET, id, None, &p)?,
    ))
}

// ---- expenses

/// The receipt every expense starts with: a tiny PDF.
pub const RECEIPT_PDF: &[u8] = b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";

pub fn insert_expense(org: &mut Org, ids: &Ids, fields: &Record, now_ms: i64) -> Record {
    let mut rec = fields.clone();
    let itemized = rec
        .get("line_items")
        .and_then(Value::as_array)
        .is_some_and(|l| !l.is_empty());
    if let Some(Value::Array(lines)) = rec.get_mut("line_items") {
        for line in lines.iter_mut().filter_map(Value::as_object_mut) {
            line.entry("line_item_id").or_insert_with(|| ids.big());
        }
    }
    let amount =
        list::number(rec.get("amount")).unwrap_or_else(|| list::sum(&rec, "line_items", "amount"));
    let rate = list::number(rec.get("exchange_rate")).unwrap_or(1.0);
    defaults(
        &mut rec,
        json!({
            "transaction_type": "expense",
            "status": "unbilled",
            "date": time::date(now_ms),
            "amount": num(amount),
            "currency_id": org.info.get("currency_id").cloned().unwrap_or_default(),
            "exchange_rate": 1,
            "is_itemized_expense": itemized,
            "is_inclusive_tax": false,
            "is_billable": false,
            "is_personal": false,
            "sub_total": num(amount),
            "total": num(amount),
            "bcy_total": num(amount * rate),
            "expense_receipt_name": "receipt.pdf",
            "expense_receipt_type": "pdf",
        }),
    );
    stamp(&mut rec, now_ms, true);
    let rec = org.insert(&EXPENSE, ids.next(&EXPENSE), rec, None);
    let id = rec.get("expense_id").and_then(id_text).unwrap_or_default();
    let receipt = Receipt {
        name: "receipt.pdf".into(),
        content_type: "application/pdf".into(),
        bytes: RECEIPT_PDF.to_vec(),
    };
    org.receipts.insert(id, receipt);
    rec
}

/// An entry of an expense's history (`comments[]`, listed by `listExpenseComments`).
fn history(ids: &Ids, expense: &Record, description: &str, operation: &str, now_ms: i64) -> Value {
    json!({
        "comment_id": ids.text(),
        "expense_id": expense["expense_id"],
        "description": description,
        "commented_by_id": USER_ID,
        "commented_by": USER_NAME,
        "date_description": "few seconds ago",
        "time": time::time_of_day(now_ms),
        "operation_type": operation,
        "transaction_id": expense["expense_id"],
        "transaction_type": "expense",
    })
}

/// Merges the params, numbers new lines, and works the totals out again as a create does.
fn update_expense(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path("expense_id");
    let stored = org.get(&EXPENSE, id, None)?;
    let mut p = patch(req.params, req.now_ms);
    if let Some(Value::Array(lines)) = p.get_mut("line_items") {
        for line in lines.iter_mut().filter_map(Value::as_object_mut) {
            line.entry("line_item_id").or_insert_with(|| ids.big());
        }
    }
    let amount = list::number(p.get("amount"))
        .or_else(|| {
            p.contains_key("line_items")
                .then(|| list::sum(&p, "line_items", "amount"))
        })
        .or_else(|| list::number(stored.get("amount")))
        .unwrap_or(0.0);
    let rate = list::number(p.get("exchange_rate"))
        .or_else(|| list::number(stored.get("exchange_rate")))
        .unwrap_or(1.0);
    for (key, value) in [
        ("amount", amount),
        ("sub_total", amount),
        ("total", amount),
        ("bcy_total", amount * rate),
    ] {
        p.insert(key.into(), num(value));
    }
    org.update(&EXPENSE, id, None, &p)?;
    let rec = org.get_mut(&EXPENSE, id, None)?;
    let entry = history(ids, rec, "Expense updated.", "Updated", req.now_ms);
    push(rec, "comments", entry);
    Ok(Reply::ok(
        "Expense information has been updated.",
        rec.clone(),
    ))
}

/// Removes the expense and its receipt.
fn delete_expense(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let id = req.path("expense_id");
    org.remove(&EXPENSE, id, None)?;
    org.receipts.remove(id);
    Ok(Reply::done("The expense has been deleted."))
}

fn create_expense(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    Ok(Reply::created(
        "The expense has been recorded.",
        insert_expense(org, ids, req.params, req.now_ms),
    ))
}

const UNIQUE_PARAMS: [&str; 3] = [
    "x_unique_identifier_key",
    "x_unique_identifier_value",
    "x_upsert",
];

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Whether a record's custom fields hold `value` under the field named `key`.
fn has_custom_value(rec: &Record, key: &str, value: &str) -> bool {
    let Some(fields) = rec.get("custom_fields").and_then(Value::as_array) else {
        return false;
    };
    fields.iter().any(|f| {
        let named = ["api_name", "customfield_id", "custom_field_id", "label"]
            .iter()
            .any(|k| f.get(*k).is_some_and(|n| text_of(n) == key));
        named && f.get("value").is_some_and(|v| text_of(v) == value)
    })
}

/// The params of an update by a unique custom field: the field's name and value, whether a record
/// is created when none matches, and the body without the three header params.
pub struct UniqueField {
    pub key: String,
    pub value: String,
    pub upsert: bool,
    pub body: Record,
}

impl UniqueField {
    pub fn of(params: &Record) -> Result<UniqueField, ApiError> {
        let key = params.get(UNIQUE_PARAMS[0]).map(text_of);
        let value = params.get(UNIQUE_PARAMS[1]).map(text_of);
        let (Some(key), Some(value)) = (key, value) else {
            let missing = UNIQUE_PARAMS[..2]
                .iter()
                .filter(|p| !params.contains_key(**p))
                .map(|p| required(p))
                .collect();
            return Err(ApiError::invalid(missing));
        };
        let upsert = params
            .get(UNIQUE_PARAMS[2])
            .is_some_and(|v| text_of(v) == "true");
        let body = params
            .iter()
            .filter(|(k, _)| !UNIQUE_PARAMS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Ok(UniqueField {
            key,
            value,
            upsert,
            body,
        })
    }

    /// The id of the first record of `res` whose custom field holds the value.
    pub fn find(&self, org: &Org, res: &Resource) -> Option<String> {
        org.rows(res.table)
            .iter()
            .find(|r| has_custom_value(r, &self.key, &self.value))
            .and_then(|r| r.get(res.id))
            .and_then(id_text)
    }

    /// Checks the body against the rules of `create` before an upsert creates a record.
    pub fn check_create(&self, create: &str) -> Result<(), ApiError> {
        let op = svc_sdk::catalog::find(create).expect("the create is in the catalog");
        let issues = svc_sdk::validate::validate(op, &Value::Object(self.body.clone()));
        match issues.is_empty() {
            true => Ok(()),
            false => Err(ApiError::invalid(issues)),
        }
    }

    /// The answer when no record matches and none is to be created.
    pub fn not_found(&self, noun: &str) -> ApiError {
        ApiError::not_found(format!(
            "No {noun} has {:?} in its custom field {:?}.",
            svc_sdk::error::shorten(&self.value),
            svc_sdk::error::shorten(&self.key)
        ))
    }
}

fn update_expense_by_unique_field(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let unique = UniqueField::of(req.params)?;
    let (org, ids) = store.open(req.org)?;
    match unique.find(org, &EXPENSE) {
        Some(id) => Ok(Reply::ok(
            "The expense has been updated.",
            org.update(&EXPENSE, &id, None, &patch(&unique.body, req.now_ms))?,
        )),
        None if unique.upsert => {
            unique.check_create("createExpense")?;
            Ok(Reply::created(
                "The expense has been recorded.",
                insert_expense(org, ids, &unique.body, req.now_ms),
            ))
        }
        None => Err(unique.not_found("expense")),
    }
}

fn get_expense_receipt(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let id = req.path("expense_id");
    org.exists(&EXPENSE, id)?;
    let r = org
        .receipts
        .get(id)
        .ok_or_else(|| ApiError::not_found("The expense has no receipt."))?;
    Ok(Reply::file(&r.content_type, &r.name, r.bytes.clone()))
}

fn delete_expense_receipt(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path("expense_id");
    org.exists(&EXPENSE, id)?;
    org.receipts
        .remove(id)
        .ok_or_else(|| ApiError::not_found("The expense has no receipt."))?;
    let rec = org.get_mut(&EXPENSE, id, None)?;
    rec.remove("expense_receipt_name");
    rec.remove("expense_receipt_type");
    let entry = history(ids, rec, "Receipt deleted.", "Deleted", req.now_ms);
    push(rec, "comments", entry);
    Ok(Reply::done(
        "The attached expense receipt has been deleted.",
    ))
}

fn push(rec: &mut Record, key: &str, item: Value) {
    match rec.entry(key).or_insert_with(|| Value::Array(Vec::new())) {
        Value::Array(items) => items.push(item),
        other => *other = Value::Array(vec![item]),
    }
}

fn add_expense_attachment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path("expense_id").to_string();
    let rec = org.get_mut(&EXPENSE, &id, None)?;
    for file in req.files {
        let name = file.filename.clone().unwrap_or_default();
        let document = json!({
            "document_id": ids.text(),
            "file_name": name,
            "file_size": file.data.len(),
            "file_type": extension(&name),
            "document_type": "attachment",
        });
        let description = format!("Attachment {name} added.");
        let comment = history(ids, rec, &description, "Added", req.now_ms);
        push(rec, "documents", document);
        push(rec, "comments", comment);
    }
    rec.insert("has_attachment".into(), true.into());
    let comments = rec["comments"].clone();
    let documents = rec["documents"].clone();
    Ok(
        Reply::ok("The expense attachment has been attached.", comments)
            .with("documents", documents),
    )
}

/// The lower-case extension of a file name.
fn extension(name: &str) -> String {
    name.rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase()
}

/// The media type a receipt is served with: the part's own, else one known for its extension.
fn receipt_type(part_type: Option<&str>, ext: &str) -> String {
    if let Some(t) = part_type.filter(|t| !t.is_empty() && *t != "application/octet-stream") {
        return t.to_string();
    }
    match ext {
        "pdf" => "application/pdf",
        "png" => "image/png",
        "gif" => "image/gif",
        "jpg" | "jpeg" => "image/jpeg",
        "bmp" => "image/bmp",
        "doc" => "application/msword",
        "xls" => "application/vnd.ms-excel",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        _ => "application/octet-stream",
    }
    .to_string()
}

/// Replaces the expense's receipt with the uploaded file; `getExpenseReceipt` serves it.
fn add_expense_receipt(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path("expense_id");
    org.exists(&EXPENSE, id)?;
    let file = req
        .files
        .first()
        .ok_or_else(|| ApiError::invalid(vec![required("receipt")]))?;
    let name = file.filename.clone().unwrap_or_default();
    let ext = extension(&name);
    let receipt = Receipt {
        content_type: receipt_type(file.content_type.as_deref(), &ext),
        name: name.clone(),
        bytes: file.data.clone(),
    };
    org.receipts.insert(id.to_string(), receipt);
    let rec = org.get_mut(&EXPENSE, id, None)?;
    rec.insert("expense_receipt_name".into(), name.clone().into());
    rec.insert("expense_receipt_type".into(), ext.into());
    let entry = history(
        ids,
        rec,
        &format!("Receipt {name} attached."),
        "Added",
        req.now_ms,
    );
    push(rec, "comments", entry);
    Ok(Reply::done("The expense receipt has been attached."))
}

/// The expense's history, newest first.
fn list_expense_comments(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let rec = org.get(&EXPENSE, req.path("expense_id"), None)?;
    let rows: Vec<Record> = rec
        .get("comments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .rev()
        .filter_map(|c| c.as_object().cloned())
        .collect();
    Ok(list::page(rows, req.params))
}

// ---- vendor credits and refunds

fn create_vendor_credit(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let mut rec = req.params.clone();
    let total = price_lines(&mut rec, ids);
    let (number, _) = org.next_number("DN");
    defaults(
        &mut rec,
        json!({
            "vendor_credit_number": number,
            "date": time::date(req.now_ms),
            "status": "open",
            "currency_id": org.info.get("currency_id").cloned().unwrap_or_default(),
            "exchange_rate": 1,
            "price_precision": 2,
            "is_inclusive_tax": false,
            "sub_total": num(total),
            "total": num(total),
            "balance": num(total),
            "total_credits_used": 0,
            "total_refunded_amount": 0,
            "vendor_credit_refunds": [],
        }),
    );
    stamp(&mut rec, req.now_ms, true);
    Ok(Reply::created(
        "Vendor credit has been created.",
        org.insert(&VENDOR_CREDIT, ids.next(&VENDOR_CREDIT), rec, None),
    ))
}

const DATE_BOUNDS: &[(&str, Cmp)] = &[
    ("date_start", Cmp::Ge),
    ("date_end", Cmp::Le),
    ("date_before", Cmp::Lt),
    ("date_after", Cmp::Gt),
];
const TOTAL_BOUNDS: &[(&str, Cmp)] = &[
    ("total_start", Cmp::Ge),
    ("total_end", Cmp::Le),
    ("total_less_than", Cmp::Lt),
    ("total_less_equals", Cmp::Le),
    ("total_greater_than", Cmp::Gt),
    ("total_greater_equals", Cmp::Ge),
];

fn list_vendor_credits(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let p = req.params;
    let mut rows = store.read(req.org)?.list(&VENDOR_CREDIT, None);
    let number = |r: &Record| {
        r.get("vendor_credit_number")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_lowercase()
    };
    if let Some(prefix) = p
        .get("vendor_credit_number_startswith")
        .and_then(Value::as_str)
    {
        rows.retain(|r| number(r).starts_with(&prefix.to_lowercase()));
    }
    if let Some(part) = p
        .get("vendor_credit_number_contains")
        .and_then(Value::as_str)
    {
        rows.retain(|r| number(r).contains(&part.to_lowercase()));
    }
    list::keep_range(&mut rows, p, "date", DATE_BOUNDS);
    list::keep_range(&mut rows, p, "total", TOTAL_BOUNDS);
    list::keep_status(
        &mut rows,
        "status",
        list::filter_value(p, "status").as_deref(),
    );
    list::sort(
        &mut rows,
        p,
        &[
            "vendor_name",
            "vendor_credit_number",
            "date",
            "total",
            "balance",
            "status",
            "created_time",
            "last_modified_time",
            "reference_number",
        ],
    );
    Ok(list::page(rows, p))
}

/// The sum of `amount` over the records of `res` under one vendor credit.
fn credit_sum(org: &Org, res: &crate::resource::Resource, credit_id: &str) -> f64 {
    org.list(res, Some(credit_id))
        .iter()
        .filter_map(|r| list::number(r.get("amount")))
        .sum()
}

/// Recomputes what a vendor credit has refunded and applied to bills, and what is left; an open
/// credit with nothing left is closed, and a closed one with a balance again is open.
fn refresh_balance(org: &mut Org, credit_id: &str) -> Result<(), ApiError> {
    let refunded = credit_sum(org, &REFUND, credit_id);
    let used = credit_sum(org, &CREDITED_BILL, credit_id);
    let credit = org.get_mut(&VENDOR_CREDIT, credit_id, None)?;
    let total = list::number(credit.get("total")).unwrap_or(0.0);
    let balance = total - used - refunded;
    credit.insert("total_refunded_amount".into(), num(refunded));
    credit.insert("total_credits_used".into(), num(used));
    credit.insert("balance".into(), num(balance));
    let status = match credit.get("status").and_then(Value::as_str) {
        Some("open") if balance <= 0.0 && total > 0.0 => Some("closed"),
        Some("closed") if balance > 0.0 => Some("open"),
        _ => None,
    };
    if let Some(status) = status {
        credit.insert("status".into(), status.into());
    }
    Ok(())
}

/// A vendor credit with its refunds, the bills it was applied to and its comments.
fn credit_view(org: &Org, id: &str) -> Result<Record, ApiError> {
    let mut rec = org.get(&VENDOR_CREDIT, id, None)?.clone();
    for (key, res) in [
        ("vendor_credit_refunds", &REFUND),
        ("bills_credited", &CREDITED_BILL),
        ("comments", &VENDOR_CREDIT_COMMENT),
    ] {
        let rows = org.list(res, Some(id)).into_iter().map(Value::Object);
        rec.insert(key.into(), Value::Array(rows.collect()));
    }
    Ok(rec)
}

fn get_vendor_credit(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    Ok(Reply::ok(
        "success",
        credit_view(org, req.path("vendor_credit_id"))?,
    ))
}

/// Merges the params; new lines are priced and the totals and balance worked out again.
fn update_vendor_credit(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path("vendor_credit_id");
    org.exists(&VENDOR_CREDIT, id)?;
    let mut p = patch(req.params, req.now_ms);
    if p.contains_key("line_items") {
        let total = price_lines(&mut p, ids);
        p.insert("sub_total".into(), num(total));
        p.insert("total".into(), num(total));
    }
    org.update(&VENDOR_CREDIT, id, None, &p)?;
    refresh_balance(org, id)?;
    Ok(Reply::ok(
        "Vendor credit information has been updated.",
        credit_view(org, id)?,
    ))
}

/// Removes the vendor credit with its refunds, bill applications and comments.
fn delete_vendor_credit(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let id = req.path("vendor_credit_id");
    org.remove(&VENDOR_CREDIT, id, None)?;
    for res in [REFUND, CREDITED_BILL, VENDOR_CREDIT_COMMENT] {
        org.rows_mut(res.table)
            .retain(|r| !same_id(r.get("vendor_credit_id"), id));
    }
    Ok(Reply::done("The vendor credit has been deleted."))
}

/// Sets the status of a vendor credit; `created` answers 201 as the vendor's example does.
fn set_credit_status(
    store: &mut Store,
    req: &Req,
    status: &str,
    message: &str,
    created: bool,
) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let p = patch(&json_obj(json!({ "status": status })), req.now_ms);
    org.update(&VENDOR_CREDIT, req.path("vendor_credit_id"), None, &p)?;
    let reply = Reply::done(message);
    Ok(Reply {
        status: if created { 201 } else { reply.status },
        ..reply
    })
}

fn mark_vendor_credit_open(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let message = "The status of the vendor credit has been changed to open.";
    set_credit_status(store, req, "open", message, true)
}

fn mark_vendor_credit_void(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let message = "The vendor credit has been voided.";
    set_credit_status(store, req, "void", message, true)
}

fn submit_vendor_credit(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let message = "The vendor credit has been submitted for approval successfully.";
    set_credit_status(store, req, "pending_approval", message, false)
}

fn approve_vendor_credit(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let message = "You have approved the vendor credit.";
    set_credit_status(store, req, "approved", message, false)
}

/// Records one application per bill (`bills_credited`) and lowers the credit's balance.
fn apply_vendor_credit_to_bills(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let credit = req.path("vendor_credit_id");
    org.exists(&VENDOR_CREDIT, credit)?;
    let bills = req
        .params
        .get("bills")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if bills.is_empty() {
        return Err(ApiError::invalid(vec![required("bills")]));
    }
    let mut missing = Vec::new();
    for (i, bill) in bills.iter().enumerate() {
        for field in ["bill_id", "amount_applied"] {
            if bill.get(field).is_none_or(Value::is_null) {
                let path = [
                    PathSeg::Key("bills".to_string().into()),
                    PathSeg::Index(i),
                    PathSeg::Key(field.to_string().into()),
                ];
                missing.push(issue(
                    &path,
                    IssueCode::Required,
                    format!("{field} is required"),
                ));
            }
        }
    }
    if !missing.is_empty() {
        return Err(ApiError::invalid(missing));
    }
    for bill in &bills {
        let mut rec = json_obj(json!({
            "bill_id": bill["bill_id"],
            "amount": bill["amount_applied"],
            "date": time::date(req.now_ms),
        }));
        stamp(&mut rec, req.now_ms, true);
        org.insert(&CREDITED_BILL, ids.next(&CREDITED_BILL), rec, Some(credit));
    }
    refresh_balance(org, credit)?;
    let reply = Reply::done("Credits have been applied to the bill(s).");
    Ok(Reply {
        status: 201,
        ..reply
    })
}

/// Removes an application to a bill; its amount is credit again.
fn delete_vendor_credit_bill(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let credit = req.path("vendor_credit_id");
    org.exists(&VENDOR_CREDIT, credit)?;
    org.remove(
        &CREDITED_BILL,
        req.path("vendor_credit_bill_id"),
        Some(credit),
    )?;
    refresh_balance(org, credit)?;
    Ok(Reply::done(
        "Credits applied to the bill have been deleted.",
    ))
}

fn add_vendor_credit_comment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let credit = req.path("vendor_credit_id");
    org.exists(&VENDOR_CREDIT, credit)?;
    let mut rec = req.params.clone();
    defaults(
        &mut rec,
        json!({
            "commented_by_id": USER_ID,
            "commented_by": USER_NAME,
            "comment_type": "user",
            "date": time::date(req.now_ms),
            "date_description": "few seconds ago",
            "time": time::time_of_day(req.now_ms),
            "operation_type": "Added",
            "transaction_type": "vendor_credit",
        }),
    );
    rec.insert("transaction_id".into(), credit.into());
    stamp(&mut rec, req.now_ms, true);
    let rec = org.insert(
        &VENDOR_CREDIT_COMMENT,
        ids.next(&VENDOR_CREDIT_COMMENT),
        rec,
        Some(credit),
    );
    Ok(Reply::created("Comments added.", rec))
}

/// A refund as lists show it: with its credit's number and vendor.
fn listed_refund(org: &Org, mut r: Record) -> Record {
    let credit = r
        .get("vendor_credit_id")
        .and_then(id_text)
        .and_then(|id| org.lookup(VENDOR_CREDIT.table, VENDOR_CREDIT.id, &id));
    if let Some(c) = credit {
        for (from, to) in [
            ("vendor_credit_number", "vendor_credit_number"),
            ("vendor_name", "customer_name"),
        ] {
            if let Some(v) = c.get(from) {
                r.insert(to.into(), v.clone());
            }
        }
    }
    r
}

const REFUND_SORT: &[&str] = &[
    "vendor_name",
    "vendor_credit_number",
    "balance",
    "total",
    "date",
    "created_time",
    "last_modified_time",
    "reference_number",
];

fn create_refund(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let credit = req.path("vendor_credit_id");
    org.exists(&VENDOR_CREDIT, credit)?;
    let mut rec = req.params.clone();
    let amount = list::number(rec.get("amount")).unwrap_or(0.0);
    let rate = list::number(rec.get("exchange_rate")).unwrap_or(1.0);
    defaults(
        &mut rec,
        json!({
            "date": time::date(req.now_ms),
            "exchange_rate": 1,
            "amount_bcy": num(amount * rate),
            "amount_fcy": num(amount),
            "imported_transactions": [],
        }),
    );
    stamp(&mut rec, req.now_ms, true);
    let rec = org.insert(&REFUND, ids.next(&REFUND), rec, Some(credit));
    refresh_balance(org, credit)?;
    Ok(Reply::created(
        "The refund information for this vendor credit has been saved.",
        rec,
    ))
}

fn list_refunds(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let credit = req.path("vendor_credit_id");
    org.exists(&VENDOR_CREDIT, credit)?;
    let mut rows: Vec<Record> = org
        .list(&REFUND, Some(credit))
        .into_iter()
        .map(|r| listed_refund(org, r))
        .collect();
    list::sort(&mut rows, req.params, REFUND_SORT);
    Ok(list::page(rows, req.params))
}

fn update_refund(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let credit = req.path("vendor_credit_id");
    org.exists(&VENDOR_CREDIT, credit)?;
    let rec = org.update(
        &REFUND,
        req.path("vendor_credit_refund_id"),
        Some(credit),
        &patch(req.params, req.now_ms),
    )?;
    refresh_balance(org, credit)?;
    Ok(Reply::ok("The refund information has been saved.", rec))
}

fn delete_refund(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let credit = req.path("vendor_credit_id");
    org.exists(&VENDOR_CREDIT, credit)?;
    org.remove(&REFUND, req.path("vendor_credit_refund_id"), Some(credit))?;
    refresh_balance(org, credit)?;
    Ok(Reply::done("The refund has been deleted."))
}

fn list_all_refunds(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let mut rows: Vec<Record> = org
        .list(&REFUND, None)
        .into_iter()
        .map(|r| listed_refund(org, r))
        .collect();
    list::sort(&mut rows, req.params, REFUND_SORT);
    Ok(list::page(rows, req.params))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_field_matching_accepts_the_names_the_families_use() {
        let rec = json_obj(
            json!({"custom_fields": [{"api_name": "cf_ref", "value": "A-1"}, {"customfield_id": 7, "value": 3}]}),
        );
        assert!(has_custom_value(&rec, "cf_ref", "A-1"));
        assert!(has_custom_value(&rec, "7", "3"));
        assert!(!has_custom_value(&rec, "cf_ref", "A-2"));
        assert!(!has_custom_value(&json_obj(json!({})), "cf_ref", "A-1"));
    }

    #[test]
    fn organization_fields_are_renamed_and_months_become_numbers() {
        let mut store = Store::default();
        let params = json_obj(
            json!({"name": "Acme", "currency_code": "EUR", "fiscal_year_start_month": "april", "taxid_label": "VAT"}),
        );
        let info = new_organization(&mut store, "9", &params, 0, false, "free");
        assert_eq!(info["fiscal_year_start_month"], json!(3));
        assert_eq!(info["tax_id_label"], json!("VAT"));
        assert_eq!(info["currency_code"], json!("EUR"));
        assert_eq!(info["currency_symbol"], json!("€"));
        assert_eq!(info["account_created_date"], json!("1970-01-01"));
    }
}
