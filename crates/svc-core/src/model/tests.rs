//! The result types' tests: every row's result type (`Operation::returns`) decodes the vendor's
//! example answer of that row and keeps every field the server sent.

use crate::catalog::{operations, Shape};
use serde_json::Value;

/// The resources of an answer as the row's shape finds them (each item of a list).
pub fn resources(shape: Shape, body: &Value) -> Vec<Value> {
    match shape {
        Shape::Key(keys) | Shape::KeyArray(keys) => keys
            .iter()
            .filter_map(|k| body.get(*k))
            .take(1)
            .cloned()
            .collect(),
        Shape::KeyOrOneElementArray(key) => match &body[key] {
            Value::Array(items) => items.clone(),
            Value::Null => vec![],
            one => vec![one.clone()],
        },
        Shape::TopLevel => {
            let mut fields = body.as_object().cloned().unwrap_or_default();
            fields.remove("code");
            fields.remove("message");
            vec![Value::Object(fields)]
        }
        Shape::List(key) => body[key].as_array().cloned().unwrap_or_default(),
        Shape::Empty | Shape::Binary => vec![],
    }
}

/// Every field the server sent (but null) is still there after a round trip, with its value: a
/// number may come back as its exact digits in a string (ids), never rounded; a lone object sent in
/// place of a list comes back as its only member.
pub fn assert_kept(sent: &Value, back: &Value, at: &str) {
    match (sent, back) {
        (Value::Number(n), Value::String(s)) => assert_eq!(n.to_string(), *s, "{at}"),
        (Value::Number(a), Value::Number(b)) => assert_eq!(a.as_f64(), b.as_f64(), "{at}"),
        (Value::String(_) | Value::Bool(_), _) => assert_eq!(sent, back, "{at}"),
        (Value::Object(sent), Value::Object(back)) => {
            for (k, v) in sent.iter().filter(|(_, v)| !v.is_null()) {
                let got = back.get(k).unwrap_or_else(|| panic!("{at}.{k} was lost"));
                assert_kept(v, got, &format!("{at}.{k}"));
            }
        }
        (Value::Object(_), Value::Array(items)) if items.len() == 1 => {
            assert_kept(sent, &items[0], at)
        }
        (Value::Array(sent), Value::Array(back)) => {
            assert_eq!(sent.len(), back.len(), "{at}");
            for (i, (s, b)) in sent.iter().zip(back).enumerate() {
                assert_kept(s, b, &format!("{at}[{i}]"));
            }
        }
        _ => {}
    }
}

#[test]
fn every_vendor_answer_decodes_as_its_row_says_and_keeps_every_field() {
    for op in operations() {
        let Some(file) = crate::examples::vendor_of(op) else {
            continue;
        };
        let mut items = resources(op.response, &file.json["response_body"]);
        if op.ts.many {
            items = items
                .into_iter()
                .flat_map(|v| v.as_array().cloned().unwrap_or(vec![v]))
                .collect();
        }
        let Some(decode) = op.decode else {
            assert!(
                items.is_empty(),
                "{}: {} carries a resource",
                op.id,
                file.name
            );
            continue;
        };
        assert!(
            !items.is_empty(),
            "{}: nothing under {:?} in {}",
            op.id,
            op.response,
            file.name
        );
        for item in items {
            let back = decode(&item).unwrap_or_else(|e| panic!("{} ({}): {e}", op.id, file.name));
            assert_kept(&item, &back, op.id);
        }
    }
}
