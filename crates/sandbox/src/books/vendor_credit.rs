//! Vendor credits: their balance, status, bill applications and comments.

use crate::call::{Reply, Req};
use crate::common::{self, price_lines};
use crate::error::{issue, required, ApiError};
use crate::list::{self, num, Cmp};
use crate::record::Value;
use crate::record::{defaults, json_obj, patch, same_id, stamp, Record};
use crate::resource::{CREDITED_BILL, REFUND, VENDOR_CREDIT, VENDOR_CREDIT_COMMENT};
use crate::store::{Org, Store};
use crate::time;
use svc_core::issue::{PathSeg, Problem};
use svc_core::model::books::VendorCreditStatus;
use svc_json::json;

pub(super) fn create_vendor_credit(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

pub(super) fn list_vendor_credits(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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
pub(super) fn refresh_balance(org: &mut Org, credit_id: &str) -> Result<(), ApiError> {
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

pub(super) fn get_vendor_credit(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    Ok(Reply::ok(
        "success",
        credit_view(org, req.path("vendor_credit_id"))?,
    ))
}

/// Merges the params; new lines are priced and the totals and balance worked out again.
pub(super) fn update_vendor_credit(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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
pub(super) fn delete_vendor_credit(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

pub(super) fn mark_vendor_credit_open(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let message = "The status of the vendor credit has been changed to open.";
    set_credit_status(store, req, VendorCreditStatus::Open.as_str(), message, true)
}

pub(super) fn mark_vendor_credit_void(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let message = "The vendor credit has been voided.";
    set_credit_status(store, req, VendorCreditStatus::Void.as_str(), message, true)
}

pub(super) fn submit_vendor_credit(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let message = "The vendor credit has been submitted for approval successfully.";
    set_credit_status(store, req, "pending_approval", message, false)
}

pub(super) fn approve_vendor_credit(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let message = "You have approved the vendor credit.";
    set_credit_status(store, req, "approved", message, false)
}

/// Records one application per bill (`bills_credited`) and lowers the credit's balance.
pub(super) fn apply_vendor_credit_to_bills(
    store: &mut Store,
    req: &Req,
) -> Result<Reply, ApiError> {
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
pub(super) fn delete_vendor_credit_bill(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

pub(super) fn add_vendor_credit_comment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vendor_credit_bounds_are_fields_of_the_core_query() {
        let query = svc_core::catalog::find("listVendorCredits").unwrap().params;
        for (name, _) in DATE_BOUNDS.iter().chain(TOTAL_BOUNDS) {
            assert!(query.field(name).is_some(), "{name}");
        }
    }
}
