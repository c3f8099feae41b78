//! Rows without a handler, served from the row alone: records, their collections and their actions.

mod act;
mod answer;
mod bulk;
pub mod example;
pub mod path;

use crate::call::{Reply, Req};
use crate::error::ApiError;
use crate::record::{patch, stamp, Record};
use crate::resource::{Resource, NAMED};
use crate::store::{Ids, Org, Store};
use answer::Got;
use path::{Coll, Target};
use svc_core::catalog::{Method, Operation};

/// What a row does, from its method and what its path names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Create,
    List,
    Get,
    Update,
    Delete,
    /// A change of (or a look at) one record: `status/sent`, `email`, `address/billing`.
    Act,
    /// A call about a whole collection: `PUT /invoices` by a custom field, `POST /invoices/email`.
    Bulk,
}

fn kind(op: &Operation, t: &Target) -> Action {
    match (t.tail.is_empty(), &t.coll, op.method) {
        (true, Some(_), Method::Post) => Action::Create,
        (true, Some(_), Method::Get) => Action::List,
        (true, None, Method::Get) => Action::Get,
        (true, None, Method::Put | Method::Patch | Method::Post) => Action::Update,
        (true, None, Method::Delete) => Action::Delete,
        (false, None, _) => Action::Act,
        _ => Action::Bulk,
    }
}

/// The target of a row whose path values are all `x`.
fn target_of(op: &Operation) -> Target {
    path::target(op, &|_| "x".to_string())
}

/// What the generic store does for a row; `None` when its path names nothing it can keep.
pub fn action(op: &Operation) -> Option<Action> {
    let t = target_of(op);
    (t.coll.is_some() || !t.items.is_empty()).then(|| kind(op, &t))
}

pub fn serves(op: &Operation) -> bool {
    action(op).is_some()
}

/// The collection a row creates records in, if it creates any.
pub fn creates(op: &Operation) -> Option<Coll> {
    let t = target_of(op);
    (kind(op, &t) == Action::Create).then_some(t.coll).flatten()
}

/// How the store keeps a collection's records: as the handler of the same table does, if any.
pub fn resource(c: &Coll) -> Resource<'_> {
    let big = NAMED.iter().any(|r| r.table == c.table && r.big_ids);
    Resource {
        table: &c.table,
        id: &c.id,
        big_ids: big,
        parent: c.parent.as_deref(),
    }
}

/// Stores a new record with a fresh id, its parent's id, the fields and its time stamps.
pub fn insert(
    org: &mut Org,
    ids: &Ids,
    res: &Resource,
    parent: Option<&str>,
    fields: &Record,
    now_ms: i64,
) -> Record {
    let mut rec = fields.clone();
    stamp(&mut rec, now_ms, true);
    org.insert(res, ids.next(res), rec, parent)
}

/// The id of each item the path names, once each is known to exist (else 1002), outermost first.
fn located<'r>(org: &Org, t: &Target, req: &'r Req) -> Result<Vec<&'r str>, ApiError> {
    let mut found: Vec<&'r str> = Vec::new();
    for item in &t.items {
        let id = req.path(item.param);
        let parent = found.last().copied().filter(|_| item.scoped);
        org.get(&resource(&item.coll), id, parent)?;
        found.push(id);
    }
    Ok(found)
}

/// Serves a call of a row that has no handler.
pub fn serve(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let op = req.op;
    let t = path::target(op, &|p| req.path(p).to_string());
    let (org, ids) = store.space(req.org)?;
    let found = located(org, &t, req)?;
    let at = found.last().copied();
    match (kind(op, &t), &t.coll, t.items.last()) {
        (Action::Act, _, Some(item)) => act::on_item(org, ids, req, &t, &item.coll, found),
        (Action::Create, Some(c), _) => Ok(create(org, ids, req, c, at)),
        (Action::List, Some(c), _) => Ok(bulk::list(org, req, c, at)),
        (Action::Bulk, Some(c), _) => bulk::on_collection(org, ids, req, &t, c, at),
        (action, None, Some(item)) => one(org, req, action, item, found),
        _ => Ok(answer::reply(req, 200, "success".into(), Got::None, true)),
    }
}

fn create(org: &mut Org, ids: &Ids, req: &Req, c: &Coll, at: Option<&str>) -> Reply {
    let res = resource(c);
    let rec = insert(org, ids, &res, at, req.params, req.now_ms);
    let message = format!("The {} has been created.", res.noun());
    answer::reply(req, 201, message, Got::One(rec), false)
}

/// A get, update or delete of the last item the path names.
fn one(
    org: &mut Org,
    req: &Req,
    action: Action,
    item: &path::Item,
    found: Vec<&str>,
) -> Result<Reply, ApiError> {
    let res = resource(&item.coll);
    let n = found.len();
    let id = found[n - 1];
    let parent = (item.scoped && n > 1).then(|| found[n - 2]);
    let noun = res.noun();
    Ok(match action {
        Action::Get => {
            let rec = org.get(&res, id, parent)?.clone();
            answer::reply(req, 200, "success".into(), Got::One(rec), false)
        }
        Action::Delete => {
            org.remove(&res, id, parent)?;
            Reply::done(format!("The {noun} has been deleted."))
        }
        _ => {
            let rec = org.update(&res, id, parent, &patch(req.params, req.now_ms))?;
            let message = format!("The {noun} has been updated.");
            answer::reply(req, 200, message, Got::One(rec), false)
        }
    })
}

#[cfg(test)]
mod tests;
