//! Actions on one record (`status/sent`, `active`, `email`, `address/billing`, `templates/{id}`,
//! `clone`, …): the record must exist; a plain change is applied, and the row's shape answered.

use super::answer::{self, Got};
use super::path::{singular, Coll, Target};
use super::{example, insert, resource};
use crate::call::{Reply, Req};
use crate::error::ApiError;
use crate::record::{patch, Record, Value};
use crate::store::{Ids, Org};
use svc_core::catalog::{Method, Shape};

fn set(fields: &[(&str, Value)]) -> Record {
    fields
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

fn status(s: &str) -> Record {
    set(&[("status", s.into())])
}

/// The change an action makes to its record, where one is plain.
fn change(tail: &[&str], req: &Req) -> Record {
    let value = |seg: &str| Value::from(req.path(seg));
    match (req.op.method, tail) {
        (Method::Get, _) => Record::new(),
        (_, ["status", x]) => status(x),
        (_, ["active"]) => set(&[("status", "active".into()), ("is_active", true.into())]),
        (_, ["inactive"]) => set(&[("status", "inactive".into()), ("is_active", false.into())]),
        (_, ["void"]) => status("void"),
        (_, ["draft"]) => status("draft"),
        (_, ["converttoopen"]) => status("open"),
        (_, ["submit"]) => status("pending_approval"),
        (_, ["approve"]) => status("approved"),
        (_, ["reject"]) => status("rejected"),
        (_, ["markastransferred"]) => status("transferred"),
        (_, ["markasprimary"] | ["primary"]) => set(&[("is_primary", true.into())]),
        (Method::Post, ["email"]) => set(&[("is_emailed", true.into())]),
        (_, ["writeoff"]) => set(&[("balance", 0.into()), ("status", "paid".into())]),
        (_, ["address", kind]) => {
            set(&[(&format!("{kind}_address"), Value::Obj(req.params.clone()))])
        }
        (_, ["templates", id]) => set(&[("template_id", value(id))]),
        (_, ["substatus", id]) => set(&[("current_sub_status", value(id))]),
        (_, ["paymentreminder", x @ ("enable" | "disable")]) => {
            set(&[("payment_reminder_enabled", (*x == "enable").into())])
        }
        (_, ["customfields"]) => req.params.clone(),
        (Method::Delete, ["attachment"]) => set(&[("has_attachment", false.into())]),
        (_, ["attachment"]) => set(&[("has_attachment", true.into())]),
        _ => Record::new(),
    }
}

/// Whether a row's answer is the record itself: its key is the collection's noun
/// (`purchaseorder` of `purchase_order_id`), not something about it (`data`, `billing_address`).
fn answers_the_record(req: &Req, c: &Coll) -> bool {
    let plain = |s: &str| s.replace('_', "");
    let noun = plain(c.id.strip_suffix("_id").unwrap_or(&c.id));
    match req.op.response {
        Shape::Key(keys) | Shape::KeyArray(keys) => {
            keys.iter().any(|k| plain(&singular(k)) == noun)
        }
        Shape::KeyOrOneElementArray(k) => plain(&singular(k)) == noun,
        Shape::TopLevel => example::answer(req.op).is_none(),
        _ => false,
    }
}

/// An action on the last item the path names (its ids in `found`, outermost first).
pub fn on_item(
    org: &mut Org,
    ids: &Ids,
    req: &Req,
    t: &Target,
    c: &Coll,
    found: Vec<&str>,
) -> Result<Reply, ApiError> {
    let res = resource(c);
    let n = found.len();
    let id = found[n - 1];
    let scoped = t.items.last().is_some_and(|i| i.scoped);
    let parent = (scoped && n > 1).then(|| found[n - 2]);
    let message = example::answer(req.op)
        .and_then(|a| a.get("message"))
        .and_then(Value::as_str)
        .unwrap_or("success")
        .to_string();
    if t.tail == ["clone"] {
        let mut copy = org.get(&res, id, parent)?.clone();
        copy.remove(&c.id);
        crate::record::merge(&mut copy, req.params, &[]);
        let rec = insert(org, ids, &res, parent, &copy, req.now_ms);
        return Ok(answer::reply(req, 201, message, Got::One(rec), false));
    }
    let mut changes = change(&t.tail, req);
    let draft = org
        .get(&res, id, parent)?
        .get("status")
        .and_then(Value::as_str)
        == Some("draft");
    if changes.contains_key("is_emailed") && draft {
        changes.insert("status".into(), "sent".into());
    }
    let rec = match changes.is_empty() {
        true => org.get(&res, id, parent)?.clone(),
        false => org.update(&res, id, parent, &patch(&changes, req.now_ms))?,
    };
    let example_first = !answers_the_record(req, c);
    Ok(answer::reply(
        req,
        200,
        message,
        Got::One(rec),
        example_first,
    ))
}
