//! Accounting: organizations, accounts, journals, fixed assets, expenses, vendor credits and refunds.

use crate::call::{Handler, Reply, Req};
use crate::common::{self, price_lines, USER_EMAIL, USER_NAME};
use crate::error::{issue, required, ApiError};
use crate::list::{self, num, Cmp};
use crate::record::Value;
use crate::record::{defaults, id_text, json_obj, merge, patch, same_id, stamp, text_of, Record};
use crate::resource::{
    ACCOUNT, CREDITED_BILL, CURRENCY, EXPENSE, FIXED_ASSET, FIXED_ASSET_HISTORY, JOURNAL, REFUND,
    VENDOR_CREDIT, VENDOR_CREDIT_COMMENT,
};
use crate::store::{Ids, Org, Receipt, Store};
use crate::time;
use crate::unique::{self, Upsert};
use svc_core::issue::{PathSeg, Problem};
use svc_core::json;
use svc_core::model::books::{
    AccountFilter, AccountSortColumn, AccountType, FiscalYearStartMonth, FixedAssetSortColumn,
    FixedAssetStatus, JournalStatus, VendorCreditRefundSortColumn,
};

pub const HANDLERS: &[(&str, Handler)] = &[
    ("createOrganization", create_organization),
    ("listOrganizations", list_organizations),
    ("updateOrganization", update_organization),
    ("getOrganization", get_organization),
    ("createAccount", create_account),
    ("listAccounts", list_accounts),
    ("markAccountActive", mark_account_active),
    ("markAccountInactive", mark_account_inactive),
    ("listAccountTransactions", list_account_transactions),
    ("deleteAccountTransaction", delete_account_transaction),
    ("createJournal", create_journal),
    ("listJournals", list_journals),
    ("updateJournal", update_journal),
    ("publishJournal", publish_journal),
    ("addJournalAttachment", add_journal_attachment),
    ("addJournalComment", add_journal_comment),
    ("deleteJournalComment", delete_journal_comment),
    ("createFixedAsset", create_fixed_asset),
    ("listFixedAssets", list_fixed_assets),
    ("updateFixedAsset", update_fixed_asset),
    ("deleteFixedAsset", delete_fixed_asset),
    ("markFixedAssetActive", mark_fixed_asset_active),
    ("markFixedAssetCancelled", mark_fixed_asset_cancelled),
    ("markFixedAssetDraft", mark_fixed_asset_draft),
    ("sellFixedAsset", sell_fixed_asset),
    ("writeOffFixedAsset", write_off_fixed_asset),
    ("getFixedAssetForecast", get_fixed_asset_forecast),
    ("addFixedAssetComment", add_fixed_asset_comment),
    ("deleteFixedAssetComment", delete_fixed_asset_comment),
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
            .find(|(from, _)| *from == k)
            .map_or(k, |(_, to)| *to);
        let value = match (key, v) {
            ("fiscal_year_start_month", Value::Str(m)) => FiscalYearStartMonth::VALUES
                .iter()
                .position(|x| x.eq_ignore_ascii_case(m))
                .map_or(v.clone(), Value::from),
            ("is_logo_uploaded", Value::Bool(b)) => Value::from(b.to_string()),
            _ => v.clone(),
        };
        info.insert(key.to_string().into(), value);
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

fn get_organization(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.path("organization_id"))?;
    Ok(Reply::ok("success", org.info.clone()))
}

// ---- chart of accounts

/// The account types that each type filter of the account list keeps.
const ACCOUNT_GROUPS: &[(AccountFilter, &[AccountType])] = {
    use AccountType as T;
    &[
        (
            AccountFilter::Asset,
            &[
                T::OtherAsset,
                T::OtherCurrentAsset,
                T::Cash,
                T::Bank,
                T::FixedAsset,
                T::AccountsReceivable,
            ],
        ),
        (
            AccountFilter::Liability,
            &[
                T::OtherCurrentLiability,
                T::CreditCard,
                T::LongTermLiability,
                T::OtherLiability,
                T::AccountsPayable,
            ],
        ),
        (AccountFilter::Equity, &[T::Equity]),
        (AccountFilter::Income, &[T::Income, T::OtherIncome]),
        (
            AccountFilter::Expense,
            &[T::Expense, T::CostOfGoodsSold, T::OtherExpense],
        ),
    ]
};

/// A filter of the account list as `list::filter_value` and `list::norm` read it (`asset`).
fn filter_name(filter: AccountFilter) -> String {
    list::norm(filter.as_str().rsplit('.').next().unwrap_or_default())
}

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
    let active = [AccountFilter::Active, AccountFilter::Inactive]
        .into_iter()
        .find(|f| filter.as_ref() == Some(&filter_name(*f)));
    if let Some(state) = active {
        let want = state == AccountFilter::Active;
        rows.retain(|r| r.get("is_active").and_then(Value::as_bool) == Some(want));
    } else if let Some((_, types)) = ACCOUNT_GROUPS
        .iter()
        .find(|(g, _)| filter.as_ref() == Some(&filter_name(*g)))
    {
        rows.retain(|r| {
            r.get("account_type")
                .and_then(Value::as_str)
                .is_some_and(|t| types.iter().any(|k| k.as_str() == t))
        });
    }
    list::sort(&mut rows, req.params, AccountSortColumn::VALUES);
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

fn set_account_active(store: &mut Store, req: &Req, active: bool) -> Result<(), ApiError> {
    let (org, _) = store.open(req.org)?;
    let p = patch(&json_obj(json!({ "is_active": active })), req.now_ms);
    org.update(&ACCOUNT, req.path("account_id"), None, &p)?;
    Ok(())
}

fn mark_account_active(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    set_account_active(store, req, true)?;
    Ok(Reply::done("The account has been marked as active."))
}

fn mark_account_inactive(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    set_account_active(store, req, false)?;
    Ok(Reply::done("The account has been marked as inactive."))
}

/// One posting of a transaction to an account, with the name of the account on the other side.
fn posting(
    source: &Record,
    kind: &str,
    account: Option<&Value>,
    debit: bool,
    amount: f64,
    offset: Option<&Value>,
) -> Option<Record> {
    let account = account.filter(|v| !v.is_null())?;
    let (debit_amount, credit_amount) = if debit { (amount, 0.0) } else { (0.0, amount) };
    let mut p = json_obj(json!({
        "transaction_id": source.get(&format!("{kind}_id")).cloned().unwrap_or_default(),
        "transaction_type": kind,
        "transaction_status": source.get("status").cloned().unwrap_or_default(),
        "transaction_source": kind,
        "account_id": account,
        "debit_or_credit": if debit { "debit" } else { "credit" },
        "reconcile_status": "unreconciled",
        "debit_amount": num(debit_amount),
        "credit_amount": num(credit_amount),
    }));
    if let Some(offset) = offset {
        p.insert("offset_account_name".into(), offset.clone());
    }
    for key in ["currency_id", "currency_code", "reference_number"] {
        if let Some(v) = source.get(key) {
            p.insert(key.into(), v.clone());
        }
    }
    Some(p)
}

/// The transactions the accounts list: the lines of published journals, and each expense as a
/// debit of its account and a credit of the account it was paid through. Computed, not stored.
fn account_transactions(org: &Org) -> Vec<Record> {
    let mut out = Vec::new();
    for journal in org.rows(JOURNAL.table) {
        if journal.get("status").and_then(Value::as_str) != Some("published") {
            continue;
        }
        let lines: Vec<&Record> = journal
            .get("line_items")
            .and_then(Value::as_array)
            .map(|l| l.iter().filter_map(Value::as_object).collect())
            .unwrap_or_default();
        for line in &lines {
            let side = line.get("debit_or_credit").and_then(Value::as_str);
            let offset = lines
                .iter()
                .find(|o| o.get("debit_or_credit").and_then(Value::as_str) != side)
                .and_then(|o| o.get("account_name"));
            let amount = list::number(line.get("bcy_amount").or(line.get("amount"))).unwrap_or(0.0);
            let Some(mut p) = posting(
                journal,
                "journal",
                line.get("account_id"),
                side == Some("debit"),
                amount,
                offset,
            ) else {
                continue;
            };
            p.insert(
                "categorized_transaction_id".into(),
                line.get("line_id").cloned().unwrap_or_default(),
            );
            for (from, to) in [
                ("journal_date", "transaction_date"),
                ("entry_number", "entry_number"),
                ("notes", "description"),
            ] {
                if let Some(v) = journal.get(from) {
                    p.insert(to.into(), v.clone());
                }
            }
            for (from, to) in [
                ("account_name", "account_name"),
                ("customer_id", "customer_id"),
                ("customer_name", "payee"),
                ("description", "description"),
            ] {
                if let Some(v) = line.get(from).filter(|v| v.as_str() != Some("")) {
                    p.insert(to.into(), v.clone());
                }
            }
            out.push(p);
        }
    }
    for expense in org.rows(EXPENSE.table) {
        let amount = list::number(expense.get("bcy_total").or(expense.get("total"))).unwrap_or(0.0);
        let sides = [
            (
                "account_id",
                "account_name",
                true,
                expense.get("paid_through_account_name"),
            ),
            (
                "paid_through_account_id",
                "paid_through_account_name",
                false,
                expense.get("account_name"),
            ),
        ];
        for (field, name, debit, offset) in sides {
            let Some(mut p) = posting(
                expense,
                "expense",
                expense.get(field),
                debit,
                amount,
                offset,
            ) else {
                continue;
            };
            for (from, to) in [
                (name, "account_name"),
                ("date", "transaction_date"),
                ("description", "description"),
                ("customer_id", "customer_id"),
                ("vendor_name", "payee"),
            ] {
                if let Some(v) = expense.get(from) {
                    p.insert(to.into(), v.clone());
                }
            }
            out.push(p);
        }
    }
    out
}

fn list_account_transactions(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let p = req.params;
    let mut rows = account_transactions(store.read(req.org)?);
    list::keep_equal(&mut rows, p, "account_id");
    let given = |name: &str| p.get(name).map(text_of).filter(|s| !s.trim().is_empty());
    if let Some(kind) = given("transaction_type") {
        rows.retain(|r| r.get("transaction_type").and_then(Value::as_str) == Some(&kind));
    }
    if let Some(date) = given("date") {
        rows.retain(|r| r.get("transaction_date").and_then(Value::as_str) == Some(&date));
    }
    if let Some(amount) = list::number(p.get("amount")) {
        rows.retain(|r| {
            ["debit_amount", "credit_amount"]
                .iter()
                .any(|k| list::number(r.get(k)) == Some(amount))
        });
    }
    list::sort(
        &mut rows,
        p,
        &[
            "transaction_date",
            "transaction_type",
            "entry_number",
            "debit_amount",
            "credit_amount",
        ],
    );
    Ok(list::page(rows, p))
}

/// Deletes a listed transaction: the journal or the expense it comes from, with all its postings.
fn delete_account_transaction(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let id = req.path("transaction_id");
    let kind = account_transactions(org)
        .into_iter()
        .find(|t| same_id(t.get("transaction_id"), id))
        .and_then(|t| {
            t.get("transaction_type")
                .and_then(Value::as_str)
                .map(String::from)
        })
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "The transaction {:?} does not exist.",
                svc_core::echo::shorten(id)
            ))
        })?;
    if kind == "journal" {
        org.remove(&JOURNAL, id, None)?;
    } else {
        org.remove(&EXPENSE, id, None)?;
        org.receipts.remove(id);
    }
    Ok(Reply::done("The transaction has been deleted."))
}

// ---- journals

/// Gives new lines their ids and base-currency amounts; returns the sum of the debits.
fn price_journal_lines(rec: &mut Record, ids: &Ids) -> f64 {
    let rate = list::number(rec.get("exchange_rate")).unwrap_or(1.0);
    if let Some(Value::Arr(lines)) = rec.get_mut("line_items") {
        for line in lines.iter_mut().filter_map(Value::as_object_mut) {
            line.or_insert_with("line_id", || ids.text());
            let amount = list::number(line.get("amount")).unwrap_or(0.0);
            line.or_insert_with("bcy_amount", || num(amount * rate));
        }
    }
    rec.get("line_items")
        .and_then(Value::as_array)
        .map_or(0.0, |lines| {
            lines
                .iter()
                .filter(|l| l.get("debit_or_credit").and_then(Value::as_str) == Some("debit"))
                .filter_map(|l| list::number(l.get("amount")))
                .sum()
        })
}

fn journal_totals(rec: &Record, debits: f64) -> Value {
    let rate = list::number(rec.get("exchange_rate")).unwrap_or(1.0);
    json!({
        "line_item_total": num(debits),
        "total": num(debits),
        "bcy_total": num(debits * rate),
    })
}

fn create_journal(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let mut rec = req.params.clone();
    let debits = price_journal_lines(&mut rec, ids);
    let totals = journal_totals(&rec, debits);
    defaults(&mut rec, totals);
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
        }),
    );
    stamp(&mut rec, req.now_ms, true);
    Ok(Reply::created(
        "The journal entry has been created.",
        org.insert(&JOURNAL, ids.next(&JOURNAL), rec, None),
    ))
}

fn list_journals(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let p = req.params;
    let mut rows = store.read(req.org)?.list(&JOURNAL, None);
    let given = |name: &str| p.get(name).map(text_of).filter(|s| !s.trim().is_empty());
    for (param, field) in [
        ("entry_number", "entry_number"),
        ("reference_number", "reference_number"),
        ("date", "journal_date"),
    ] {
        if let Some(want) = given(param) {
            rows.retain(|r| r.get(field).map(text_of).as_deref() == Some(want.as_str()));
        }
    }
    if let Some(part) = given("notes").map(|n| n.to_lowercase()) {
        rows.retain(|r| {
            r.get("notes")
                .and_then(Value::as_str)
                .is_some_and(|n| n.to_lowercase().contains(&part))
        });
    }
    if let Some(total) = list::number(p.get("total")) {
        rows.retain(|r| list::number(r.get("total")) == Some(total));
    }
    for field in ["customer_id", "vendor_id"] {
        if let Some(want) = given(field) {
            rows.retain(|r| {
                r.get("line_items")
                    .and_then(Value::as_array)
                    .is_some_and(|lines| lines.iter().any(|l| same_id(l.get(field), &want)))
            });
        }
    }
    let status = list::filter_value(p, "filter_by")
        .map(|f| list::norm(&f))
        .filter(|f| JournalStatus::VALUES.contains(&f.as_str()));
    list::keep_status(&mut rows, "status", status.as_deref());
    list::sort(
        &mut rows,
        p,
        &[
            "journal_date",
            "entry_number",
            "reference_number",
            "total",
            "created_time",
            "last_modified_time",
        ],
    );
    Ok(list::page(rows, p))
}

fn update_journal(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path("journal_id");
    let mut rec = org.get(&JOURNAL, id, None)?.clone();
    merge(&mut rec, &patch(req.params, req.now_ms), &[JOURNAL.id]);
    if req.params.contains_key("line_items") || req.params.contains_key("exchange_rate") {
        let debits = price_journal_lines(&mut rec, ids);
        let totals = json_obj(journal_totals(&rec, debits));
        merge(&mut rec, &totals, &[]);
    }
    Ok(Reply::ok(
        "The journal entry has been updated.",
        org.update(&JOURNAL, id, None, &rec)?,
    ))
}

fn publish_journal(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let p = patch(&json_obj(json!({ "status": "published" })), req.now_ms);
    org.update(&JOURNAL, req.path("journal_id"), None, &p)?;
    Ok(Reply::done("Journal has been published."))
}

fn add_journal_attachment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let rec = org.get_mut(&JOURNAL, req.path("journal_id"), None)?;
    for file in req.files {
        let name = file.filename.clone().unwrap_or_default();
        let document = json!({
            "document_id": ids.text(),
            "file_name": name,
            "file_size": file.data.len(),
            "file_type": name.rsplit_once('.').map_or("", |(_, e)| e).to_ascii_lowercase(),
            "document_type": "attachment",
        });
        push(rec, "documents", document);
    }
    rec.insert("has_attachment".into(), true.into());
    Ok(Reply::done(
        "Your file has been successfully attached to the journal.",
    ))
}

/// A comment by the sandbox's user, kept in the `comments` of the record it is about.
fn new_comment(req: &Req, ids: &Ids, parent: Option<(&str, &str)>) -> Value {
    let mut c = json_obj(json!({
        "comment_id": ids.text(),
        "description": req.params.get("description").cloned().unwrap_or_default(),
        "comment_type": "user",
        "operation_type": "Added",
    }));
    c.extend(common::authored(req.now_ms));
    if let Some((field, id)) = parent {
        c.insert(field.to_string().into(), id.into());
    }
    Value::Obj(c)
}

/// Removes the comment `comment_id` from a record's `comments` (1002 when it has none of that id).
fn remove_comment(rec: &mut Record, id: &str) -> Result<(), ApiError> {
    let comments = rec.get_mut("comments").and_then(Value::as_array_mut);
    let at = comments
        .as_ref()
        .and_then(|c| c.iter().position(|x| same_id(x.get("comment_id"), id)));
    match (comments, at) {
        (Some(c), Some(i)) => {
            c.remove(i);
            Ok(())
        }
        _ => Err(ApiError::not_found(format!(
            "The comment {:?} does not exist.",
            svc_core::echo::shorten(id)
        ))),
    }
}

fn add_journal_comment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path("journal_id");
    let rec = org.get_mut(&JOURNAL, id, None)?;
    let comment = new_comment(req, ids, Some(("journal_id", id)));
    push(rec, "comments", comment.clone());
    Ok(Reply::ok(
        "Journal comment has been added successfully.",
        json!([comment]),
    ))
}

fn delete_journal_comment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let rec = org.get_mut(&JOURNAL, req.path("journal_id"), None)?;
    remove_comment(rec, req.path("comment_id"))?;
    Ok(Reply::done(
        "The selected journal comment entries have been deleted.",
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
    list::sort(&mut rows, req.params, FixedAssetSortColumn::VALUES);
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

fn delete_fixed_asset(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let id = req.path("fixed_asset_id");
    org.remove(&FIXED_ASSET, id, None)?;
    org.rows_mut(FIXED_ASSET_HISTORY.table)
        .retain(|r| !same_id(r.get("fixed_asset_id"), id));
    Ok(Reply::done("The selected fixed asset has been deleted."))
}

/// A status the asset takes, with what its history says of the change.
struct AssetChange<'a> {
    status: &'static str,
    description: String,
    /// The asset leaves the books: its value goes to zero.
    disposal: bool,
    date: Option<&'a str>,
}

/// Sets the asset's status and records the change in its history.
fn change_asset(store: &mut Store, req: &Req, change: AssetChange) -> Result<(), ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path("fixed_asset_id");
    let asset = org.get(&FIXED_ASSET, id, None)?;
    let value = list::number(asset.get("current_asset_value")).unwrap_or(0.0);
    let accumulated = list::number(asset.get("accumulated_dep_value")).unwrap_or(0.0);
    let mut p = json_obj(json!({ "status": change.status }));
    let (removed, left) = match change.disposal {
        true => {
            p.insert("current_asset_value".into(), 0.into());
            (value, 0.0)
        }
        false => (0.0, value),
    };
    org.update(&FIXED_ASSET, id, None, &patch(&p, req.now_ms))?;
    let entry = json_obj(json!({
        "description": change.description,
        "valuation_date": change.date.map_or_else(|| time::date(req.now_ms), String::from),
        "depreciated_value": num(removed),
        "current_value": num(left),
        "accumulated_value": num(accumulated),
        "type": change.status,
        "is_journal_posted": false,
    }));
    let entry_id = ids.next(&FIXED_ASSET_HISTORY);
    org.insert(&FIXED_ASSET_HISTORY, entry_id, entry, Some(id));
    Ok(())
}

fn mark_asset(store: &mut Store, req: &Req, status: &'static str) -> Result<Reply, ApiError> {
    let change = AssetChange {
        status,
        description: format!("Marked as {status}."),
        disposal: false,
        date: None,
    };
    change_asset(store, req, change)?;
    Ok(Reply::done("Fixed asset's status changed"))
}

fn mark_fixed_asset_active(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    mark_asset(store, req, "active")
}

fn mark_fixed_asset_cancelled(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    mark_asset(store, req, "cancel")
}

fn mark_fixed_asset_draft(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    mark_asset(store, req, "draft")
}

/// `Sold.` or `Written off.`, and the reason given.
fn with_reason(what: &str, req: &Req) -> String {
    match req.text("reason").filter(|r| !r.trim().is_empty()) {
        Some(reason) => format!("{what}: {reason}"),
        None => format!("{what}."),
    }
}

fn sell_fixed_asset(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let change = AssetChange {
        status: "sold",
        description: with_reason("Sold", req),
        disposal: true,
        date: None,
    };
    change_asset(store, req, change)?;
    Ok(Reply::done("Fixed asset has been sold"))
}

fn write_off_fixed_asset(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let change = AssetChange {
        status: "write_off",
        description: with_reason("Written off", req),
        disposal: true,
        date: req.text("date").filter(|d| !d.is_empty()),
    };
    change_asset(store, req, change)?;
    Ok(Reply::done("Fixed asset has been written off"))
}

/// The last day of the month `months` after the month of `start` (`yyyy-mm-dd`).
fn month_end(start: (i32, u32, u32), months: i64) -> String {
    let index = i64::from(start.0) * 12 + i64::from(start.1 - 1) + months;
    let (y, m) = (index.div_euclid(12), index.rem_euclid(12) as u32 + 1);
    let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    let first_of_next = svc_core::calendar::days_from_civil(ny as i32, nm, 1);
    time::date((first_of_next - 1) * time::DAY_MS)
}

/// The longest forecast, in periods.
const FORECAST_PERIODS: f64 = 1200.0;

/// The depreciation still to come, period by period, from the asset's value, salvage value, life,
/// method, rate and frequency; nothing for an asset that is sold, written off or cancelled.
pub fn forecast(asset: &Record, today: &str) -> Vec<Value> {
    let status = asset.get("status").and_then(Value::as_str).unwrap_or("");
    let ended = [
        FixedAssetStatus::Sold,
        FixedAssetStatus::WriteOff,
        FixedAssetStatus::Cancel,
    ];
    if ended.iter().any(|s| s.as_str() == status) {
        return Vec::new();
    }
    let n = |k: &str| list::number(asset.get(k));
    let mut value = n("current_asset_value")
        .or(n("dep_start_value"))
        .or(n("asset_cost"))
        .unwrap_or(0.0);
    let mut accumulated = n("accumulated_dep_value").unwrap_or(0.0);
    let salvage = n("salvage_value").unwrap_or(0.0);
    let life = n("total_life").unwrap_or(0.0);
    let step = match asset.get("depreciation_frequency").and_then(Value::as_str) {
        Some("monthly") => 1.0,
        _ => 12.0,
    };
    let periods = (life / step).ceil().clamp(0.0, FORECAST_PERIODS) as i64;
    let years = life / 12.0;
    let yearly_rate = match asset.get("depreciation_method").and_then(Value::as_str) {
        Some("straight_line") => None,
        Some("200_declining_method") if years > 0.0 => Some(2.0 / years),
        Some("150_declining_method") if years > 0.0 => Some(1.5 / years),
        _ => Some(n("depreciation_percentage").unwrap_or(0.0) / 100.0),
    };
    let start = ["depreciation_start_date", "asset_purchase_date"]
        .iter()
        .find_map(|k| asset.get(k).and_then(Value::as_str))
        .and_then(svc_core::calendar::parse_date)
        .or_else(|| svc_core::calendar::parse_date(today))
        .unwrap_or((1970, 1, 1));
    let cents = |f: f64| (f * 100.0).round() / 100.0;
    let mut out = Vec::new();
    for k in 1..=periods {
        let left = (value - salvage).max(0.0);
        let dep = match yearly_rate {
            _ if k == periods => left,
            None => left / (periods - k + 1) as f64,
            Some(rate) => (value * rate * step / 12.0).min(left),
        };
        let dep = cents(dep);
        value = cents(value - dep);
        accumulated = cents(accumulated + dep);
        out.push(json!({
            "valuation_date": month_end(start, k * step as i64 - 1),
            "depreciated_value": num(dep),
            "current_value": num(value),
            "accumulated_value": num(accumulated),
        }));
    }
    out
}

fn get_fixed_asset_forecast(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let asset = org.get(&FIXED_ASSET, req.path("fixed_asset_id"), None)?;
    Ok(Reply::ok(
        "success",
        forecast(asset, &time::date(req.now_ms)),
    ))
}

fn add_fixed_asset_comment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let rec = org.get_mut(&FIXED_ASSET, req.path("fixed_asset_id"), None)?;
    let comment = new_comment(req, ids, None);
    push(rec, "comments", comment.clone());
    Ok(Reply::ok("Comment has been added", comment))
}

fn delete_fixed_asset_comment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let rec = org.get_mut(&FIXED_ASSET, req.path("fixed_asset_id"), None)?;
    remove_comment(rec, req.path("comment_id"))?;
    Ok(Reply::done("Fixed asset comment has been deleted"))
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
    if let Some(Value::Arr(lines)) = rec.get_mut("line_items") {
        for line in lines.iter_mut().filter_map(Value::as_object_mut) {
            line.or_insert_with("line_item_id", || ids.big());
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
    let mut entry = json_obj(json!({
        "comment_id": ids.text(),
        "expense_id": expense["expense_id"],
        "description": description,
        "operation_type": operation,
        "transaction_id": expense["expense_id"],
        "transaction_type": "expense",
    }));
    entry.extend(common::authored(now_ms));
    Value::Obj(entry)
}

/// Merges the params, numbers new lines, and works the totals out again as a create does.
fn update_expense(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path("expense_id");
    let stored = org.get(&EXPENSE, id, None)?;
    let mut p = patch(req.params, req.now_ms);
    if let Some(Value::Arr(lines)) = p.get_mut("line_items") {
        for line in lines.iter_mut().filter_map(Value::as_object_mut) {
            line.or_insert_with("line_item_id", || ids.big());
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

fn patch_expense(
    org: &mut Org,
    _: &Ids,
    id: &str,
    body: &Record,
    now_ms: i64,
) -> Result<Record, ApiError> {
    org.update(&EXPENSE, id, None, &patch(body, now_ms))
}

fn insert_expense_checked(
    org: &mut Org,
    ids: &Ids,
    body: &Record,
    now_ms: i64,
) -> Result<Record, ApiError> {
    Ok(insert_expense(org, ids, body, now_ms))
}

fn update_expense_by_unique_field(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    unique::update(
        store,
        req,
        &Upsert {
            resource: &EXPENSE,
            noun: "expense",
            create: "createExpense",
            updated: "The expense has been updated.",
            created: "The expense has been recorded.",
            update: patch_expense,
            insert: insert_expense_checked,
        },
    )
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
    match rec.or_insert_with(key.to_string(), || Value::Arr(Vec::new())) {
        Value::Arr(items) => items.push(item),
        other => *other = Value::Arr(vec![item]),
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
        let rows = org.list(res, Some(id)).into_iter().map(Value::Obj);
        rec.insert(key.into(), Value::Arr(rows.collect()));
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
        .map(<[Value]>::to_vec)
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
                    format!("{field} is required"),
                    Problem::Required {},
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
            "comment_type": "user",
            "operation_type": "Added",
            "transaction_type": "vendor_credit",
        }),
    );
    defaults(&mut rec, Value::Obj(common::authored(req.now_ms)));
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
    list::sort(&mut rows, req.params, VendorCreditRefundSortColumn::VALUES);
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
    list::sort(&mut rows, req.params, VendorCreditRefundSortColumn::VALUES);
    Ok(list::page(rows, req.params))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::list::sorted;

    #[test]
    fn the_account_groups_hold_every_account_type_once_and_name_every_type_filter() {
        for t in AccountType::VALUES {
            let groups = ACCOUNT_GROUPS
                .iter()
                .filter(|(_, types)| types.iter().any(|k| k.as_str() == *t))
                .count();
            assert_eq!(groups, 1, "{t}");
        }
        let states = [
            AccountFilter::All,
            AccountFilter::Active,
            AccountFilter::Inactive,
        ];
        for f in AccountFilter::VALUES {
            let grouped = ACCOUNT_GROUPS.iter().any(|(g, _)| g.as_str() == *f);
            assert!(grouped != states.iter().any(|s| s.as_str() == *f), "{f}");
        }
    }

    #[test]
    fn filters_and_renames_name_fields_of_the_core_params() {
        let query = svc_core::catalog::find("listVendorCredits").unwrap().params;
        for (name, _) in DATE_BOUNDS.iter().chain(TOTAL_BOUNDS) {
            assert!(query.field(name).is_some(), "{name}");
        }
        let update = svc_core::catalog::find("updateOrganization")
            .unwrap()
            .params;
        for (name, _) in ORG_RENAMES {
            assert!(update.field(name).is_some(), "{name}");
        }
    }

    #[test]
    fn lists_sort_by_every_column_of_the_core() {
        let columns = AccountSortColumn::VALUES;
        let (mut store, ids) = sorted::two_rows(&ACCOUNT, None, columns);
        let op = ("listAccounts", list_accounts as Handler);
        sorted::by_every_column(&mut store, op, &[], columns, (ACCOUNT.id, &ids));

        let columns = FixedAssetSortColumn::VALUES;
        let (mut store, ids) = sorted::two_rows(&FIXED_ASSET, None, columns);
        let op = ("listFixedAssets", list_fixed_assets as Handler);
        sorted::by_every_column(&mut store, op, &[], columns, (FIXED_ASSET.id, &ids));

        let columns = VendorCreditRefundSortColumn::VALUES;
        let (mut store, ids) = sorted::two_rows(&REFUND, None, columns);
        let op = ("listAllVendorCreditRefunds", list_all_refunds as Handler);
        sorted::by_every_column(&mut store, op, &[], columns, (REFUND.id, &ids));
    }

    #[test]
    fn a_forecast_runs_to_the_salvage_value_period_by_period() {
        let straight = json_obj(json!({
            "asset_cost": 1200, "current_asset_value": 1200, "salvage_value": 0, "total_life": 12,
            "depreciation_method": "straight_line", "depreciation_frequency": "monthly",
            "depreciation_start_date": "2024-12-17", "status": "active",
        }));
        let f = forecast(&straight, "2025-01-01");
        assert_eq!(f.len(), 12);
        assert_eq!(
            f[0],
            json!({"valuation_date": "2024-12-31", "depreciated_value": 100, "current_value": 1100, "accumulated_value": 100})
        );
        assert_eq!(f[2]["valuation_date"], json!("2025-02-28"));
        assert_eq!(f[11]["current_value"], json!(0));

        let declining = json_obj(json!({
            "asset_cost": 1000, "current_asset_value": 1000, "salvage_value": 100, "total_life": 60,
            "depreciation_method": "declining_method", "depreciation_percentage": 12,
            "depreciation_frequency": "yearly", "asset_purchase_date": "2024-12-17", "status": "draft",
        }));
        let f = forecast(&declining, "2025-01-01");
        let dep: Vec<&Value> = f.iter().map(|e| &e["depreciated_value"]).collect();
        assert_eq!(dep[..2], [&json!(120), &json!(105.6)]);
        assert_eq!(f[0]["valuation_date"], json!("2025-11-30"));
        assert_eq!(f[4]["current_value"], json!(100));
        assert_eq!(f[4]["accumulated_value"], json!(900));

        let mut sold = declining.clone();
        sold.insert("status".into(), json!("sold"));
        assert!(forecast(&sold, "2025-01-01").is_empty());
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
