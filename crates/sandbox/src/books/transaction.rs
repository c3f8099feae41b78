//! The transactions the accounts list, computed from published journals and expenses.

use crate::call::{Reply, Req};
use crate::error::ApiError;
use crate::list::{self, num};
use crate::record::Value;
use crate::record::{json_obj, same_id, text_of, Record};
use crate::resource::{EXPENSE, JOURNAL};
use crate::store::{Org, Store};
use svc_core::model::books::JournalStatus;
use svc_json::json;

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
    let journals = org.rows(JOURNAL.table).iter().flat_map(journal_postings);
    let expenses = org.rows(EXPENSE.table).iter().flat_map(expense_postings);
    journals.chain(expenses).collect()
}

/// A published journal's postings: one per line; none for a draft.
fn journal_postings(journal: &Record) -> Vec<Record> {
    let mut out = Vec::new();
    if journal.get("status").and_then(Value::as_str) != Some(JournalStatus::Published.as_str()) {
        return out;
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
    out
}

/// An expense's postings: a debit of its account and a credit of the account it was paid through.
fn expense_postings(expense: &Record) -> Vec<Record> {
    let mut out = Vec::new();
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
    out
}

pub(super) fn list_account_transactions(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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
pub(super) fn delete_account_transaction(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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
