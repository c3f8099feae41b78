//! Journals: lines priced in the base currency, publishing, attachments and comments.

use super::comment::{new_comment, push, remove_comment};
use crate::call::{Reply, Req};
use crate::error::ApiError;
use crate::list::{self, num};
use crate::record::Value;
use crate::record::{defaults, json_obj, merge, patch, same_id, stamp, text_of, Record};
use crate::resource::JOURNAL;
use crate::store::{Ids, Store};
use svc_core::model::books::JournalStatus;
use svc_json::json;

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

pub(super) fn create_journal(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

pub(super) fn list_journals(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

pub(super) fn update_journal(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

pub(super) fn publish_journal(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let p = patch(&json_obj(json!({ "status": "published" })), req.now_ms);
    org.update(&JOURNAL, req.path("journal_id"), None, &p)?;
    Ok(Reply::done("Journal has been published."))
}

pub(super) fn add_journal_attachment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

pub(super) fn add_journal_comment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

pub(super) fn delete_journal_comment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let rec = org.get_mut(&JOURNAL, req.path("journal_id"), None)?;
    remove_comment(rec, req.path("comment_id"))?;
    Ok(Reply::done(
        "The selected journal comment entries have been deleted.",
    ))
}
