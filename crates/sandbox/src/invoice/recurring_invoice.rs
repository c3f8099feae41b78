//! Recurring invoices: unique names, priced lines, status and history.

use crate::call::{Reply, Req};
use crate::common::{self, price_lines};
use crate::error::{code, ApiError};
use crate::list::{self, num};
use crate::record::Value;
use crate::record::{defaults, id_text, json_obj, patch, same_id, stamp, Record};
use crate::resource::{RECURRING_INVOICE, RECURRING_INVOICE_HISTORY};
use crate::store::{Ids, Org, Store};
use crate::time;
use crate::unique::{self, Upsert};
use svc_json::json;

fn ensure_unique_name(org: &Org, name: &str, except: Option<&str>) -> Result<(), ApiError> {
    let taken = org.rows(RECURRING_INVOICE.table).iter().any(|r| {
        r.get("recurrence_name").and_then(Value::as_str) == Some(name)
            && !except.is_some_and(|id| same_id(r.get(RECURRING_INVOICE.id), id))
    });
    match taken {
        true => Err(ApiError::bad(
            code::DUPLICATE,
            format!(
                "A recurring invoice named {:?} already exists.",
                svc_core::echo::shorten(name)
            ),
        )),
        false => Ok(()),
    }
}

/// Writes what happened to a recurring invoice into its history.
fn record_history(
    org: &mut Org,
    ids: &Ids,
    id: &str,
    operation: &str,
    description: &str,
    now_ms: i64,
) {
    let mut entry = json_obj(json!({
        "comment_description": description,
        "comment_type": "system",
        "operation_type": operation,
    }));
    entry.extend(common::authored(now_ms));
    org.insert(
        &RECURRING_INVOICE_HISTORY,
        ids.next(&RECURRING_INVOICE_HISTORY),
        entry,
        Some(id),
    );
}

fn insert_recurring_invoice(
    org: &mut Org,
    ids: &Ids,
    fields: &Record,
    now_ms: i64,
) -> Result<Record, ApiError> {
    let name = fields
        .get("recurrence_name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    ensure_unique_name(org, name, None)?;
    let mut rec = fields.clone();
    let total = price_lines(&mut rec, ids);
    let start = rec
        .get("start_date")
        .cloned()
        .unwrap_or_else(|| time::date(now_ms).into());
    defaults(
        &mut rec,
        json!({
            "status": "active",
            "start_date": start,
            "next_invoice_date": start,
            "currency_id": org.info.get("currency_id").cloned().unwrap_or_default(),
            "repeat_every": 1,
            "sub_total": num(total),
            "total": num(total),
        }),
    );
    stamp(&mut rec, now_ms, true);
    let rec = org.insert(&RECURRING_INVOICE, ids.next(&RECURRING_INVOICE), rec, None);
    let id = rec
        .get(RECURRING_INVOICE.id)
        .and_then(id_text)
        .unwrap_or_default();
    record_history(org, ids, &id, "Added", "Recurring Invoice created", now_ms);
    Ok(rec)
}

pub(super) fn create_recurring_invoice(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    Ok(Reply::created(
        "The recurring invoice has been created.",
        insert_recurring_invoice(org, ids, req.params, req.now_ms)?,
    ))
}

pub(super) fn list_recurring_invoices(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let mut rows = store.read(req.org)?.list(&RECURRING_INVOICE, None);
    for filter in ["status", "filter_by"] {
        list::keep_status(
            &mut rows,
            "status",
            list::filter_value(req.params, filter).as_deref(),
        );
    }
    list::keep_equal(&mut rows, req.params, "customer_id");
    if let Some(name) = req.text("recurrence_name").filter(|n| !n.is_empty()) {
        rows.retain(|r| r.get("recurrence_name").and_then(Value::as_str) == Some(name));
    }
    list::sort(
        &mut rows,
        req.params,
        &["created_time", "recurrence_name", "customer_name"],
    );
    Ok(list::page(rows, req.params))
}

/// Merges an update into a recurring invoice (its lines priced again) and records it.
fn apply_recurring_update(
    org: &mut Org,
    ids: &Ids,
    id: &str,
    params: &Record,
    now_ms: i64,
) -> Result<Record, ApiError> {
    org.exists(&RECURRING_INVOICE, id)?;
    if let Some(name) = params.get("recurrence_name").and_then(Value::as_str) {
        ensure_unique_name(org, name, Some(id))?;
    }
    let mut p = patch(params, now_ms);
    if p.contains_key("line_items") {
        let total = num(price_lines(&mut p, ids));
        p.insert("sub_total".into(), total.clone());
        p.insert("total".into(), total);
    }
    let rec = org.update(&RECURRING_INVOICE, id, None, &p)?;
    record_history(org, ids, id, "Updated", "Recurring Invoice updated", now_ms);
    Ok(rec)
}

pub(super) fn update_recurring_invoice(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path(RECURRING_INVOICE.id);
    Ok(Reply::ok(
        "The recurring invoice has been updated.",
        apply_recurring_update(org, ids, id, req.params, req.now_ms)?,
    ))
}

pub(super) fn update_recurring_invoice_by_unique_field(
    store: &mut Store,
    req: &Req,
) -> Result<Reply, ApiError> {
    unique::update(
        store,
        req,
        &Upsert {
            resource: &RECURRING_INVOICE,
            noun: "recurring invoice",
            create: "createRecurringInvoice",
            updated: "The recurring invoice has been updated.",
            created: "The recurring invoice has been created.",
            update: apply_recurring_update,
            insert: insert_recurring_invoice,
        },
    )
}

/// Removes the recurring invoice with its history.
pub(super) fn delete_recurring_invoice(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let id = req.path(RECURRING_INVOICE.id);
    org.remove(&RECURRING_INVOICE, id, None)?;
    org.rows_mut(RECURRING_INVOICE_HISTORY.table)
        .retain(|r| !same_id(r.get(RECURRING_INVOICE.id), id));
    Ok(Reply::done(
        "The recurring invoice is deleted successfully.",
    ))
}

/// Sets a recurring invoice's status and records it; the vendor answers 201.
fn set_recurring_status(
    store: &mut Store,
    req: &Req,
    status: &str,
    operation: &str,
    message: &str,
) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path(RECURRING_INVOICE.id);
    let p = patch(&json_obj(json!({ "status": status })), req.now_ms);
    org.update(&RECURRING_INVOICE, id, None, &p)?;
    let description = format!("Recurring Invoice {}", operation.to_lowercase());
    record_history(org, ids, id, operation, &description, req.now_ms);
    let mut reply = Reply::done(message);
    reply.status = 201;
    Ok(reply)
}

pub(super) fn stop_recurring_invoice(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    set_recurring_status(
        store,
        req,
        "stopped",
        "Stopped",
        "The recurring invoice has been stopped.",
    )
}

pub(super) fn resume_recurring_invoice(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    set_recurring_status(
        store,
        req,
        "active",
        "Resumed",
        "The recurring invoice has been resumed.",
    )
}

/// Keeps the template of the path as the recurring invoice's `template_id`.
pub(super) fn update_recurring_invoice_template(
    store: &mut Store,
    req: &Req,
) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path(RECURRING_INVOICE.id);
    let template = req.path("template_id");
    let p = patch(&json_obj(json!({ "template_id": template })), req.now_ms);
    org.update(&RECURRING_INVOICE, id, None, &p)?;
    let description = format!("Template {template} applied");
    record_history(org, ids, id, "Updated", &description, req.now_ms);
    Ok(Reply::done(
        "The template of the recurring invoice has been updated.",
    ))
}
