//! What receivables do beyond their records: an invoice's total and balance, and a customer
//! payment that lowers the balances of the invoices it is applied to.

use crate::call::{Reply, Req};
use crate::error::{code, ApiError};
use crate::generic;
use crate::list::{self, number};
use crate::record::{id_text, Record, Value};
use crate::resource::Resource;
use crate::store::Store;

const INVOICE: Resource = Resource::new("/invoices", "invoice_id");

/// The total of an invoice's line items (quantity × rate, quantity 1 when not given).
fn total(params: &Record) -> f64 {
    let items = params.get("line_items").and_then(Value::as_array);
    items
        .into_iter()
        .flatten()
        .map(|i| number(i.get("quantity")).unwrap_or(1.0) * number(i.get("rate")).unwrap_or(0.0))
        .sum()
}

/// `createInvoice`: stored by the generic store with its total, a balance of the whole total and
/// the status `draft`, unless the call says otherwise.
pub fn create_invoice(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let mut params = req.params.clone();
    let sum = list::num(total(&params));
    params.or_insert_with("total", || sum.clone());
    params.or_insert_with("balance", || sum);
    params.or_insert_with("status", || "draft".into());
    generic::serve(
        store,
        &Req {
            params: &params,
            ..*req
        },
    )
}

/// The invoices a payment is applied to, with the amounts: `invoices`, else the top-level pair.
fn applied(params: &Record) -> Vec<(String, f64)> {
    let one = |r: &Value| {
        let id = id_text(r.get("invoice_id")?)?;
        Some((id, number(r.get("amount_applied"))?))
    };
    match params.get("invoices").and_then(Value::as_array) {
        Some(items) => items.iter().filter_map(one).collect(),
        None => one(&Value::Obj(params.clone())).into_iter().collect(),
    }
}

/// `createCustomerPayment`: each invoice it is applied to must exist and owe at least the amount;
/// their balances go down (an invoice owing nothing is `paid`, else `partially_paid`), and the
/// payment is stored by the generic store.
pub fn create_customer_payment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let amounts = applied(req.params);
    let (org, _) = store.space(req.org)?;
    for (id, amount) in &amounts {
        let balance = number(org.get(&INVOICE, id, None)?.get("balance")).unwrap_or(0.0);
        if *amount > balance + 1e-9 {
            return Err(ApiError::bad(
                code::BAD_REQUEST,
                format!("The amount applied to the invoice {id} ({amount}) exceeds its balance ({balance})."),
            ));
        }
    }
    for (id, amount) in &amounts {
        let rec = org.get_mut(&INVOICE, id, None)?;
        let left = number(rec.get("balance")).unwrap_or(0.0) - amount;
        let status = if left <= 1e-9 {
            "paid"
        } else {
            "partially_paid"
        };
        rec.insert("balance".into(), list::num(left.max(0.0)));
        rec.insert("status".into(), status.into());
    }
    generic::serve(store, req)
}
