//! Expenses: their totals, receipt, attachments and history.

use super::comment::push;
use crate::call::{Reply, Req};
use crate::common;
use crate::error::{required, ApiError};
use crate::list::{self, num};
use crate::record::Value;
use crate::record::{defaults, id_text, json_obj, patch, stamp, Record};
use crate::resource::EXPENSE;
use crate::store::{Ids, Org, Receipt, Store};
use crate::time;
use crate::unique::{self, Upsert};
use svc_json::json;

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
pub(super) fn update_expense(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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
pub(super) fn delete_expense(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let id = req.path("expense_id");
    org.remove(&EXPENSE, id, None)?;
    org.receipts.remove(id);
    Ok(Reply::done("The expense has been deleted."))
}

pub(super) fn create_expense(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

pub(super) fn update_expense_by_unique_field(
    store: &mut Store,
    req: &Req,
) -> Result<Reply, ApiError> {
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

pub(super) fn get_expense_receipt(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let id = req.path("expense_id");
    org.exists(&EXPENSE, id)?;
    let r = org
        .receipts
        .get(id)
        .ok_or_else(|| ApiError::not_found("The expense has no receipt."))?;
    Ok(Reply::file(&r.content_type, &r.name, r.bytes.clone()))
}

pub(super) fn delete_expense_receipt(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

pub(super) fn add_expense_attachment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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
pub(super) fn add_expense_receipt(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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
pub(super) fn list_expense_comments(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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
