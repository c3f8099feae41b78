//! Refunds of vendor credits, listed with their credit's number and vendor.

use super::vendor_credit::refresh_balance;
use crate::call::{Reply, Req};
use crate::error::ApiError;
use crate::list::{self, num};
use crate::record::{defaults, id_text, patch, stamp, Record};
use crate::resource::{REFUND, VENDOR_CREDIT};
use crate::store::{Org, Store};
use crate::time;
use svc_core::model::books::VendorCreditRefundSortColumn;
use svc_json::json;

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

pub(super) fn create_refund(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

pub(super) fn list_refunds(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

pub(super) fn update_refund(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

pub(super) fn delete_refund(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let credit = req.path("vendor_credit_id");
    org.exists(&VENDOR_CREDIT, credit)?;
    org.remove(&REFUND, req.path("vendor_credit_refund_id"), Some(credit))?;
    refresh_balance(org, credit)?;
    Ok(Reply::done("The refund has been deleted."))
}

pub(super) fn list_all_refunds(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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
    use crate::call::Handler;
    use crate::list::tests::sorted;

    #[test]
    fn refunds_sort_by_every_column_of_the_core() {
        let columns = VendorCreditRefundSortColumn::VALUES;
        let (mut store, ids) = sorted::two_rows(&REFUND, None, columns);
        let op = ("listAllVendorCreditRefunds", list_all_refunds as Handler);
        sorted::by_every_column(&mut store, op, &[], columns, (REFUND.id, &ids));
    }
}
