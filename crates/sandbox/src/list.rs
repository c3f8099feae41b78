//! Lists: pagination, sorting, and the filter helpers the list operations share.

use crate::call::Reply;
use crate::record::{id_text, same_id, Record, Value};
use std::cmp::Ordering;

/// The documented defaults: page 1, 200 per page.
const DEFAULT_PER_PAGE: u64 = 200;

/// A number, or a string holding one.
pub fn number(v: Option<&Value>) -> Option<f64> {
    let v = v?;
    match v {
        Value::Num(_) => v.as_f64(),
        Value::Str(s) => s.trim().parse::<f64>().ok().filter(|f| f.is_finite()),
        _ => None,
    }
}

/// A JSON number, an integer when the value is whole.
pub fn num(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 9e15 {
        Value::from(f as i64)
    } else {
        Value::from(f)
    }
}

/// The sum of a numeric field over the objects of an array field.
pub fn sum(rec: &Record, array: &str, field: &str) -> f64 {
    rec.get(array)
        .and_then(Value::as_array)
        .map_or(0.0, |items| {
            items.iter().filter_map(|i| number(i.get(field))).sum()
        })
}

#[derive(Clone, Copy, Debug)]
pub enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
}

/// Keeps the rows whose `field` passes each bound given in params (`date_after`, `total_start`, …).
pub fn keep_range(rows: &mut Vec<Record>, params: &Record, field: &str, bounds: &[(&str, Cmp)]) {
    for (param, cmp) in bounds {
        let Some(bound) = params
            .get(param)
            .filter(|v| !v.is_null() && v.as_str() != Some(""))
        else {
            continue;
        };
        rows.retain(|r| {
            r.get(field).is_some_and(|v| {
                let o = compare(Some(v), Some(bound));
                match cmp {
                    Cmp::Lt => o.is_lt(),
                    Cmp::Le => o.is_le(),
                    Cmp::Gt => o.is_gt(),
                    Cmp::Ge => o.is_ge(),
                }
            })
        });
    }
}

fn positive(params: &Record, name: &str, default: u64) -> u64 {
    number(params.get(name))
        .filter(|n| *n >= 1.0 && n.fract() == 0.0)
        .map_or(default, |n| n as u64)
}

/// A filter value with its `Prefix.` removed; `None` when absent, empty or `All`.
pub fn filter_value(params: &Record, name: &str) -> Option<String> {
    let raw = params.get(name)?.as_str()?.trim();
    let value = raw.rsplit('.').next().unwrap_or(raw);
    (!value.is_empty() && !value.eq_ignore_ascii_case("all")).then(|| value.to_string())
}

/// Lower case without `_`, `-` and spaces, so `NotShipped` matches `not_shipped`.
pub fn norm(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Keeps the rows whose `field` equals `wanted` (normalized), or all of them without a filter.
pub fn keep_status(rows: &mut Vec<Record>, field: &str, wanted: Option<&str>) {
    if let Some(w) = wanted {
        let w = norm(w);
        rows.retain(|r| {
            r.get(field)
                .and_then(Value::as_str)
                .is_some_and(|s| norm(s) == w)
        });
    }
}

/// Keeps the rows whose `field` holds the id in params under the same name.
pub fn keep_equal(rows: &mut Vec<Record>, params: &Record, field: &str) {
    if let Some(want) = params
        .get(field)
        .and_then(id_text)
        .filter(|s| !s.is_empty())
    {
        rows.retain(|r| same_id(r.get(field), &want));
    }
}

fn compare(a: Option<&Value>, b: Option<&Value>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(x), Some(y)) => match (number(Some(x)), number(Some(y))) {
            (Some(p), Some(q)) => p.total_cmp(&q),
            _ => text(x).to_lowercase().cmp(&text(y).to_lowercase()),
        },
    }
}

fn text(v: &Value) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        other => other.to_string(),
    }
}

/// Sorts by `sort_column` when it is one of `columns`; `sort_order` `D` is descending.
pub fn sort(rows: &mut [Record], params: &Record, columns: &[&str]) {
    sort_renamed(rows, params, columns, &[]);
}

/// As `sort`, where a column of `renamed` sorts by the records' field of the other name.
pub fn sort_renamed(
    rows: &mut [Record],
    params: &Record,
    columns: &[&str],
    renamed: &[(&str, &str)],
) {
    let Some(column) = params.get("sort_column").and_then(Value::as_str) else {
        return;
    };
    if !columns.contains(&column) {
        return;
    }
    let column = renamed
        .iter()
        .find(|(from, _)| *from == column)
        .map_or(column, |(_, to)| *to);
    let desc = params
        .get("sort_order")
        .and_then(Value::as_str)
        .is_some_and(|o| o.eq_ignore_ascii_case("D"));
    rows.sort_by(|a, b| {
        let o = compare(a.get(column), b.get(column));
        if desc {
            o.reverse()
        } else {
            o
        }
    });
}

/// Only the named fields, in that order.
pub fn pick(rec: &Record, fields: &[&str]) -> Record {
    fields
        .iter()
        .filter_map(|f| rec.get(f).map(|v| (f.to_string(), v.clone())))
        .collect()
}

/// One page of rows and its `page_context`.
pub fn page(rows: Vec<Record>, params: &Record) -> Reply {
    let page = positive(params, "page", 1);
    let per_page = positive(params, "per_page", DEFAULT_PER_PAGE);
    let skip = (page - 1).saturating_mul(per_page);
    let total = rows.len() as u64;
    let items: Vec<Value> = rows
        .into_iter()
        .skip(skip.min(total) as usize)
        .take(per_page.min(total) as usize)
        .map(Value::Obj)
        .collect();
    let mut context = Record::new();
    context.insert("page".into(), page.into());
    context.insert("per_page".into(), per_page.into());
    context.insert(
        "has_more_page".into(),
        (skip.saturating_add(per_page) < total).into(),
    );
    for key in ["sort_column", "sort_order", "filter_by"] {
        if let Some(v) = params
            .get(key)
            .filter(|v| v.as_str().is_some_and(|s| !s.is_empty()))
        {
            context.insert(key.into(), v.clone());
        }
    }
    Reply::page(items, context)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::call::Body;
    use svc_json::json;

    fn rows(v: Value) -> Vec<Record> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_object().unwrap().clone())
            .collect()
    }

    fn params(v: Value) -> Record {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn pages_and_their_context() {
        let all = rows(json!([{"n": 1}, {"n": 2}, {"n": 3}]));
        let Body::Page { items, context } =
            page(all.clone(), &params(json!({"page": "2", "per_page": 2}))).body
        else {
            panic!()
        };
        assert_eq!(items, vec![json!({"n": 3})]);
        assert_eq!(
            context,
            params(json!({"page": 2, "per_page": 2, "has_more_page": false}))
        );
        let Body::Page { items, context } = page(all, &params(json!({"per_page": 2}))).body else {
            panic!()
        };
        assert_eq!(items.len(), 2);
        assert_eq!(context["has_more_page"], json!(true));
    }

    #[test]
    fn sorting_numbers_and_text() {
        let mut r = rows(json!([{"c": 10, "s": "b"}, {"c": 9, "s": "A"}, {"s": "c"}]));
        sort(&mut r, &params(json!({"sort_column": "c"})), &["c", "s"]);
        assert_eq!(r[0]["c"], json!(9));
        assert!(r[2].get("c").is_none());
        sort(
            &mut r,
            &params(json!({"sort_column": "s", "sort_order": "D"})),
            &["c", "s"],
        );
        assert_eq!(r[0]["s"], json!("c"));
        assert_eq!(r[2]["s"], json!("A"));
    }

    #[test]
    fn filters() {
        let p = params(
            json!({"filter_by": "Status.NotShipped", "all": "Status.All", "customer_id": "5"}),
        );
        assert_eq!(filter_value(&p, "filter_by").as_deref(), Some("NotShipped"));
        assert_eq!(filter_value(&p, "all"), None);
        let mut r =
            rows(json!([{"status": "not_shipped", "customer_id": 5}, {"status": "shipped"}]));
        keep_status(&mut r, "status", Some("NotShipped"));
        keep_equal(&mut r, &p, "customer_id");
        assert_eq!(r.len(), 1);
        let mut r =
            rows(json!([{"d": "2024-01-01", "t": 5}, {"d": "2024-02-01", "t": 50}, {"t": 500}]));
        keep_range(
            &mut r,
            &params(json!({"after": "2024-01-01", "empty": ""})),
            "d",
            &[("after", Cmp::Gt), ("empty", Cmp::Lt)],
        );
        assert_eq!(r.len(), 1);
        let mut r = rows(json!([{"t": 5}, {"t": "50"}, {"t": 500}]));
        keep_range(
            &mut r,
            &params(json!({"lo": "10", "hi": 500})),
            "t",
            &[("lo", Cmp::Ge), ("hi", Cmp::Lt)],
        );
        assert_eq!(r, rows(json!([{"t": "50"}])));
    }

    #[test]
    fn numbers() {
        assert_eq!(num(2.0), json!(2));
        assert_eq!(num(2.5), json!(2.5));
        assert_eq!(
            sum(
                &params(json!({"l": [{"a": 1}, {"a": "2.5"}, {}]})),
                "l",
                "a"
            ),
            3.5
        );
    }

    /// A check for list handlers: that they sort by every column of the core's value set.
    pub(crate) mod sorted {
        use crate::call::{Body, Handler, Req};
        use crate::record::{Record, Value};
        use crate::resource::Resource;
        use crate::store::{Org, Store};
        use svc_core::catalog::find;

        /// The organization the check's records are in.
        pub const ORG: &str = "1";

        /// A store whose organization holds two records of `res` (under `parent`), each of `fields`
        /// 1 in the first and 2 in the second; and their ids.
        pub fn two_rows(
            res: &Resource,
            parent: Option<&str>,
            fields: &[&str],
        ) -> (Store, [Value; 2]) {
            let mut store = Store::default();
            store.orgs.push(Org::new(ORG, Record::new()));
            let ids = add_two(&mut store, res, parent, fields);
            (store, ids)
        }

        /// Adds the two records of `two_rows` to a store; their ids.
        pub fn add_two(
            store: &mut Store,
            res: &Resource,
            parent: Option<&str>,
            fields: &[&str],
        ) -> [Value; 2] {
            let (org, ids) = store.open(ORG).unwrap();
            [1, 2].map(|n| {
                let mut rec = Record::new();
                for f in fields {
                    rec.insert(f.to_string().into(), Value::from(n));
                }
                let id = ids.next(res);
                org.insert(res, id.clone(), rec, parent);
                id
            })
        }

        /// Lists with each of `columns` descending, and asserts that the record of 2 (`ids[1]`) comes
        /// first.
        pub fn by_every_column(
            store: &mut Store,
            (op_id, handler): (&str, Handler),
            path: &[(&str, &str)],
            columns: &[&str],
            (id_field, ids): (&str, &[Value; 2]),
        ) {
            let path: Vec<(String, String)> = path
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            for column in columns {
                let mut params = Record::new();
                params.insert("sort_column".into(), Value::from(*column));
                params.insert("sort_order".into(), Value::from("D"));
                let req = Req {
                    op: find(op_id).unwrap(),
                    org: ORG,
                    path: &path,
                    params: &params,
                    files: &[],
                    now_ms: 0,
                    base: "http://127.0.0.1:1",
                    reach: &crate::accounts::Reach::Every,
                };
                let Body::Page { items, .. } = handler(store, &req).unwrap().body else {
                    panic!("{op_id} answers no page");
                };
                let order: Vec<_> = items
                    .iter()
                    .filter_map(|r| r.get(id_field).cloned())
                    .collect();
                assert_eq!(
                    order,
                    [ids[1].clone(), ids[0].clone()],
                    "{op_id} sorted by {column}"
                );
            }
        }
    }
}
