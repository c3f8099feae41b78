//! Calls about a whole collection: its list with filters, sorting and pages, an update by a
//! custom field, a delete of many, and actions such as `POST /invoices/email`.

use super::answer::{self, Got};
use super::path::{Coll, Target};
use super::{insert, resource};
use crate::call::{Reply, Req};
use crate::error::ApiError;
use crate::list;
use crate::record::{id_text, patch, text_of, Record, Value};
use crate::store::{Ids, Org};
use svc_core::catalog::Method;
use svc_core::schema::Kind;

/// Params that shape a list rather than filter it.
const PAGING: &[&str] = &[
    "page",
    "per_page",
    "sort_column",
    "sort_order",
    "filter_by",
    "search_text",
    "response_option",
];

/// The unique-field params of an update by a custom field (sent as headers).
const UNIQUE_KEY: &str = "x_unique_identifier_key";
const UNIQUE_VALUE: &str = "x_unique_identifier_value";
const UPSERT: &str = "x_upsert";

fn scalar(kind: &Kind) -> bool {
    matches!(
        kind,
        Kind::Str | Kind::Num | Kind::Int | Kind::Id | Kind::StrOrNum | Kind::Bool | Kind::BoolLike
    )
}

fn same(a: &Value, b: &Value) -> bool {
    match (id_text(a), id_text(b)) {
        (Some(x), Some(y)) => x == y,
        _ => list::norm(&text_of(a)) == list::norm(&text_of(b)),
    }
}

/// Keeps the records with a `status` the filter means: `unpaid` (a balance left), `paid`, or one
/// equal to it.
fn keep_status(rows: &mut Vec<Record>, wanted: &str) {
    let balance = |r: &Record| list::number(r.get("balance")).unwrap_or(0.0);
    match list::norm(wanted).as_str() {
        "all" => {}
        "unpaid" => rows.retain(|r| balance(r) > 0.0),
        "paid" => rows.retain(|r| balance(r) <= 0.0),
        _ => list::keep_status(rows, "status", Some(wanted)),
    }
}

/// Keeps the records that each filter of the row's params holds: equality on a scalar param that
/// names a record field, `status` and `filter_by=Status.X` by their meaning.
pub fn filter(rows: &mut Vec<Record>, req: &Req) {
    for field in req.op.params.fields {
        let name = field.name;
        if PAGING.contains(&name) || !scalar(&field.kind) {
            continue;
        }
        let Some(want) = req
            .params
            .get(name)
            .filter(|v| !v.is_null() && !text_of(v).is_empty())
        else {
            continue;
        };
        if name == "status" {
            keep_status(rows, &text_of(want));
        } else if rows.iter().any(|r| r.contains_key(name)) {
            rows.retain(|r| r.get(name).is_some_and(|v| same(v, want)));
        }
    }
    let by = req.params.get("filter_by").and_then(Value::as_str);
    if let Some(("Status", wanted)) = by.and_then(|f| f.split_once('.')) {
        keep_status(rows, wanted);
    }
}

/// The records of a collection (under the item the path names), filtered and sorted.
fn rows(org: &Org, req: &Req, c: &Coll, at: Option<&str>) -> Vec<Record> {
    let mut rows = org.list(&resource(c), at);
    filter(&mut rows, req);
    if let Some(column) = req.params.get("sort_column").and_then(Value::as_str) {
        list::sort(&mut rows, req.params, &[column]);
    }
    rows
}

pub fn list(org: &Org, req: &Req, c: &Coll, at: Option<&str>) -> Reply {
    let rows = rows(org, req, c, at);
    answer::reply(req, 200, "success".into(), Got::Many(rows), false)
}

/// Whether a record holds `value` in the field `key`, or in the custom field of that api name,
/// label or id.
fn holds(rec: &Record, key: &str, value: &Value) -> bool {
    if rec.get(key).is_some_and(|v| same(v, value)) {
        return true;
    }
    let custom = rec.get("custom_fields").and_then(Value::as_array);
    custom.into_iter().flatten().any(|f| {
        let named = ["api_name", "label", "customfield_id"]
            .iter()
            .any(|n| f.get(n).is_some_and(|v| text_of(v) == key));
        named && f.get("value").is_some_and(|v| same(v, value))
    })
}

/// `PUT /invoices` with the unique-field headers: updates the record holding the value, or with
/// `X-Upsert` creates one.
fn by_unique(
    org: &mut Org,
    ids: &Ids,
    req: &Req,
    c: &Coll,
    at: Option<&str>,
) -> Result<Reply, ApiError> {
    let res = resource(c);
    let key = req.params.get(UNIQUE_KEY).map(text_of).unwrap_or_default();
    let value = req.params.get(UNIQUE_VALUE).cloned().unwrap_or(Value::Null);
    let mut fields = req.params.clone();
    for header in [UNIQUE_KEY, UNIQUE_VALUE, UPSERT] {
        fields.remove(header);
    }
    let found = org
        .list(&res, at)
        .into_iter()
        .find(|r| holds(r, &key, &value))
        .and_then(|r| r.get(c.id.as_str()).and_then(id_text));
    let upsert = req.params.get(UPSERT).is_some_and(|v| text_of(v) == "true");
    let noun = res.noun();
    match found {
        Some(id) => {
            let rec = org.update(&res, &id, at, &patch(&fields, req.now_ms))?;
            let message = format!("The {noun} has been updated.");
            Ok(answer::reply(req, 200, message, Got::One(rec), false))
        }
        None if upsert => {
            let rec = insert(org, ids, &res, at, &fields, req.now_ms);
            let message = format!("The {noun} has been created.");
            Ok(answer::reply(req, 201, message, Got::One(rec), false))
        }
        None => Err(ApiError::not_found(format!(
            "No {noun} has {key} {:?}.",
            svc_core::echo::shorten(&text_of(&value))
        ))),
    }
}

/// The ids a bulk call names: every `…_id` or `…_ids` param, comma-separated.
fn named_ids(params: &Record) -> Vec<String> {
    params
        .iter()
        .filter(|(k, _)| k.ends_with("_id") || k.ends_with("_ids"))
        .flat_map(|(_, v)| {
            let text = id_text(v).unwrap_or_else(|| text_of(v));
            text.split(',')
                .map(|s| s.trim().to_string())
                .collect::<Vec<_>>()
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// A call about a whole collection.
pub fn on_collection(
    org: &mut Org,
    ids: &Ids,
    req: &Req,
    t: &Target,
    c: &Coll,
    at: Option<&str>,
) -> Result<Reply, ApiError> {
    let plain = t.tail.is_empty();
    match req.op.method {
        Method::Put if plain && req.params.contains_key(UNIQUE_KEY) => {
            by_unique(org, ids, req, c, at)
        }
        Method::Delete if plain => {
            let res = resource(c);
            let gone: Vec<Record> = named_ids(req.params)
                .iter()
                .filter_map(|id| org.remove(&res, id, at).ok())
                .collect();
            Ok(answer::reply(
                req,
                200,
                "success".into(),
                Got::Many(gone),
                true,
            ))
        }
        method => {
            let rows = rows(org, req, c, at);
            Ok(answer::reply(
                req,
                200,
                "success".into(),
                Got::Many(rows),
                method == Method::Get || !plain,
            ))
        }
    }
}
