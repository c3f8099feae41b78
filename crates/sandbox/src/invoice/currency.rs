//! Currencies: unique codes, and no delete of a currency that records use.

use crate::call::{Reply, Req};
use crate::common::{self, currency_code};
use crate::error::{code, required, ApiError};
use crate::list;
use crate::record::same_id;
use crate::record::Value;
use crate::resource::{CURRENCY, EXPENSE, JOURNAL, RECURRING_INVOICE, VENDOR_CREDIT};
use crate::store::{Org, Store};

fn ensure_unique_code(org: &Org, code: &str, except: Option<&str>) -> Result<(), ApiError> {
    let taken = org.rows(CURRENCY.table).iter().any(|r| {
        currency_code(r) == code.to_ascii_uppercase()
            && !except.is_some_and(|id| same_id(r.get("currency_id"), id))
    });
    match taken {
        true => Err(ApiError::bad(
            code::DUPLICATE,
            format!("The currency {code} has already been added."),
        )),
        false => Ok(()),
    }
}

pub(super) fn create_currency(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let code = req
        .text("currency_code")
        .ok_or_else(|| ApiError::invalid(vec![required("currency_code")]))?;
    ensure_unique_code(org, code, None)?;
    Ok(Reply::created(
        "The currency has been added.",
        common::insert_currency(org, ids, req.params, false, req.now_ms),
    ))
}

pub(super) fn list_currencies(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let mut rows = store.read(req.org)?.list(&CURRENCY, None);
    if list::filter_value(req.params, "filter_by")
        .is_some_and(|f| list::norm(&f) == "excludebasecurrency")
    {
        rows.retain(|r| r.get("is_base_currency") != Some(&Value::Bool(true)));
    }
    Ok(list::page(rows, req.params))
}

pub(super) fn update_currency(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let id = req.path("currency_id");
    org.exists(&CURRENCY, id)?;
    if let Some(code) = req.text("currency_code") {
        ensure_unique_code(org, code, Some(id))?;
    }
    Ok(Reply::ok(
        "The currency information has been saved.",
        org.update(&CURRENCY, id, None, req.params)?,
    ))
}

/// Records that carry a currency: a currency they use cannot be deleted.
const CURRENCY_USERS: &[(&str, &str)] = &[
    (EXPENSE.table, "an expense"),
    (VENDOR_CREDIT.table, "a vendor credit"),
    (RECURRING_INVOICE.table, "a recurring invoice"),
    (JOURNAL.table, "a journal"),
];

pub(super) fn delete_currency(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let id = req.path("currency_id");
    if org.get(&CURRENCY, id, None)?.get("is_base_currency") == Some(&Value::Bool(true)) {
        return Err(ApiError::bad(
            code::IN_USE,
            "The base currency cannot be deleted.",
        ));
    }
    if let Some((_, what)) = CURRENCY_USERS
        .iter()
        .find(|(table, _)| org.refers(table, "currency_id", id))
    {
        return Err(ApiError::bad(
            code::IN_USE,
            format!("The currency is used by {what} and cannot be deleted."),
        ));
    }
    org.remove(&CURRENCY, id, None)?;
    Ok(Reply::done("The currency has been deleted."))
}
