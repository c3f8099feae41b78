//! Each generated row's sample call and answer, built from the documents' per-property examples, for
//! the tests (`tests/fixtures/published/examples.json`): numbers written as the documents give them.

use crate::encode::BANNER;
use crate::openapi::Answer;
use crate::rows::{Row, Shape};
use crate::shape::{Field, Node, Rule};
use serde_yaml::Value;
use svc_json::write::{array, string};

/// A YAML value as JSON text, numbers as written.
fn json(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let t = n.to_string();
            if t.contains("inf") || t.contains("NaN") {
                out.push('0');
            } else {
                out.push_str(&t);
            }
        }
        Value::String(s) => string(out, s),
        Value::Sequence(items) => array(out, items, json),
        Value::Mapping(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(out, k.as_str().unwrap_or_default());
                out.push(':');
                json(out, x);
            }
            out.push('}');
        }
        Value::Tagged(t) => json(out, &t.value),
    }
}

/// A value for a field without an example that the row's rules take.
fn made(f: &Field) -> String {
    if let Some(Rule::OneOf(set)) = f.rules.iter().find(|r| matches!(r, Rule::OneOf(_))) {
        let mut o = String::new();
        string(&mut o, &set[0]);
        return o;
    }
    match &f.node {
        Node::Str => "\"text\"".into(),
        Node::Num | Node::Int | Node::StrOrNum => "1".into(),
        Node::Bool | Node::BoolLike => "true".into(),
        Node::Id => "\"460000000000001\"".into(),
        Node::Any => "{}".into(),
        Node::Obj(_) | Node::Arr(_) => String::new(),
    }
}

/// The object of `fields`: those with an example or required (all, for an answer).
fn object(out: &mut String, fields: &[Field], all: bool, depth: usize) {
    out.push('{');
    let mut first = true;
    for f in fields {
        let mut v = String::new();
        value(&mut v, f, all, depth);
        if v.is_empty()
            || (!all && !f.required && f.example.is_none() && !nested(f))
            || (!all && v == "{}" && !f.required)
        {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        string(out, &f.name);
        out.push(':');
        out.push_str(&v);
    }
    out.push('}');
}

/// Whether an example is of the kind its field takes (the documents' placeholders and typos are not),
/// and short: a long text is the vendor's prose, which is not ours to copy into the declarations' calls.
fn fits(f: &Field, v: &Value) -> bool {
    match (&f.node, v) {
        (_, Value::Null | Value::Mapping(_) | Value::Sequence(_)) => false,
        (_, Value::String(s)) if s.is_empty() || s.chars().count() > 40 => false,
        (Node::Bool, Value::Bool(_)) => true,
        (Node::Bool, _) => false,
        (Node::BoolLike, Value::String(s)) => s == "true" || s == "false",
        (Node::Id, Value::String(s)) => !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()),
        (Node::Id, Value::Number(n)) => n.is_u64(),
        (Node::Num | Node::Int, Value::String(_)) => false,
        (Node::Str, Value::String(s)) => f.rules.iter().all(|r| match r {
            Rule::OneOf(set) => set.contains(s),
            _ => true,
        }),
        (Node::Str, _) => false,
        _ => true,
    }
}

fn nested(f: &Field) -> bool {
    matches!(f.node, Node::Obj(_) | Node::Arr(_))
}

fn value(out: &mut String, f: &Field, all: bool, depth: usize) {
    match &f.node {
        Node::Obj(fields) if depth < 8 && !fields.is_empty() => object(out, fields, all, depth + 1),
        Node::Arr(item) if depth < 8 => {
            let mut v = String::new();
            value(&mut v, item, all, depth + 1);
            if v.is_empty() || v == "{}" && !f.required {
                if f.required {
                    out.push_str("[]");
                }
                return;
            }
            out.push('[');
            out.push_str(&v);
            out.push(']');
        }
        Node::Obj(_) | Node::Arr(_) => {
            if f.required {
                out.push_str("{}");
            }
        }
        _ => match &f.example {
            Some(Value::Number(n))
                if !all && matches!(f.node, Node::Id) && fits(f, &Value::Number(n.clone())) =>
            {
                string(out, &n.to_string())
            }
            Some(v) if fits(f, v) => json(out, v),
            _ if all || f.required => out.push_str(&made(f)),
            _ => {}
        },
    }
}

/// `{ "<id>": { "path": [...], "params": {...}, "file"?: true, "answer": {...} } }` for every
/// generated row (`file`: it answers a file).
pub fn write(rows: &[Row]) -> String {
    let mut out = String::from("{\"//\":");
    string(&mut out, BANNER);
    for r in rows {
        out.push_str(",\n");
        string(&mut out, &r.id);
        out.push_str(":{\"path\":[");
        let names = r
            .raw
            .path
            .split('/')
            .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'));
        for (i, name) in names.enumerate() {
            if i > 0 {
                out.push(',');
            }
            let ex = r
                .raw
                .path_params
                .iter()
                .find(|(n, _)| n == name)
                .and_then(|(_, e)| e.as_ref());
            match ex {
                Some(Value::Number(n)) => string(&mut out, &n.to_string()),
                Some(Value::String(s)) if !s.is_empty() => string(&mut out, s),
                _ if name.ends_with("_id") => string(&mut out, "460000000012345"),
                _ => string(&mut out, &format!("{name}-1")),
            }
        }
        out.push_str("],\"params\":");
        object(&mut out, &r.params, false, 0);
        if r.shape == Shape::Binary {
            out.push_str(",\"file\":true");
        }
        out.push_str(",\"answer\":");
        let mut answer = String::from("{\"code\":0,\"message\":\"success\"");
        if let (Answer::Json { keys, page }, false) = (&r.raw.answer, r.shape == Shape::Binary) {
            for (k, node) in keys {
                let f = Field {
                    name: k.clone(),
                    node: node.clone(),
                    required: true,
                    rules: Vec::new(),
                    example: None,
                };
                let mut v = String::new();
                value(&mut v, &f, true, 0);
                let array_key = matches!(&r.shape, Shape::List(a) | Shape::KeyArray(a) if a == k);
                if array_key && !v.starts_with('[') {
                    v = format!("[{}]", if v.starts_with('{') { v.as_str() } else { "{}" });
                }
                if v.is_empty() {
                    continue;
                }
                answer.push(',');
                string(&mut answer, k);
                answer.push(':');
                answer.push_str(&v);
            }
            if *page {
                answer.push_str(
                    ",\"page_context\":{\"page\":1,\"per_page\":200,\"has_more_page\":false}",
                );
            }
        }
        answer.push('}');
        out.push_str(&answer);
        out.push('}');
    }
    out.push_str("\n}\n");
    out
}
