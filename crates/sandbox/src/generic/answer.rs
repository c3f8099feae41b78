//! A generic call's answer in its row's shape: from the records it found, or the row's example.

use super::example;
use crate::call::{Reply, Req};
use crate::list;
use crate::record::{Record, Value};
use svc_core::catalog::Shape;

/// What a call found or made.
pub enum Got {
    One(Record),
    Many(Vec<Record>),
    None,
}

impl Got {
    /// The resource as the shape holds it: an array for `KeyArray`, else one object.
    fn value(self, many: bool) -> Option<Value> {
        match (self, many) {
            (Got::One(r), true) => Some(Value::Arr(vec![Value::Obj(r)])),
            (Got::One(r), false) => Some(Value::Obj(r)),
            (Got::Many(rs), true) => Some(Value::Arr(rs.into_iter().map(Value::Obj).collect())),
            (Got::Many(rs), false) => rs.into_iter().next().map(Value::Obj),
            (Got::None, _) => None,
        }
    }
}

/// The resource of a row's example answer: its key's member, or for `TopLevel` its members
/// beside `code` and `message`.
fn from_example(req: &Req, shape: Shape) -> Option<Value> {
    let op = req.op;
    match shape {
        Shape::Key(keys) | Shape::KeyArray(keys) => example::member(op, keys.first()?),
        Shape::KeyOrOneElementArray(key) => example::member(op, key),
        Shape::TopLevel => {
            let whole = example::answer(op)?.as_object()?;
            let rest: Record = whole
                .iter()
                .filter(|(k, _)| *k != "code" && *k != "message")
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect();
            (!rest.is_empty()).then_some(Value::Obj(rest))
        }
        _ => None,
    }
}

/// What a shape holds when neither records nor an example give anything: the params, or a status.
fn fallback(req: &Req, many: bool) -> Value {
    let mut rec = req.params.clone();
    if rec.is_empty() {
        rec.insert("status".into(), "success".into());
    }
    match many {
        true => Value::Arr(vec![Value::Obj(rec)]),
        false => Value::Obj(rec),
    }
}

/// The answer of a call in its row's shape. `example_first`: the row's example answer says more
/// than the records (a look at an email's content); else the records come first.
pub fn reply(req: &Req, status: u16, message: String, got: Got, example_first: bool) -> Reply {
    let shape = req.op.response;
    let many = matches!(shape, Shape::KeyArray(_));
    match shape {
        Shape::Empty => return Reply::done(message),
        Shape::Binary => {
            return Reply::file("application/pdf", "document.pdf", b"%PDF-1.4\n".to_vec())
        }
        Shape::List(_) => {
            let rows = match got {
                Got::One(r) => vec![r],
                Got::Many(rs) => rs,
                Got::None => Vec::new(),
            };
            return list::page(rows, req.params);
        }
        _ => {}
    }
    let value = match example_first {
        true => from_example(req, shape).or_else(|| got.value(many)),
        false => got.value(many).or_else(|| from_example(req, shape)),
    };
    let value = match value {
        Some(Value::Obj(m)) if m.is_empty() && shape == Shape::TopLevel => fallback(req, false),
        Some(v) => v,
        None => fallback(req, many),
    };
    match status {
        201 => Reply::created(message, value),
        _ => Reply::ok(message, value),
    }
}
