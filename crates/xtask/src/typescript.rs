//! The TypeScript of the generated rows: each row's params and result, for the package's declarations.

use crate::encode::BANNER;
use crate::rows::{Row, Shape};
use crate::shape::{Field, Node, Rule};
use std::collections::HashMap;

/// A field's type as a caller writes it (`input`) or as the client answers it.
fn ty(node: &Node, rules: &[Rule], input: bool, depth: usize) -> String {
    match node {
        Node::Str => match rules.iter().find_map(|r| match r {
            Rule::OneOf(set) => Some(set),
            _ => None,
        }) {
            Some(set) => set
                .iter()
                .map(|v| format!("{v:?}"))
                .collect::<Vec<_>>()
                .join(" | "),
            None => "string".into(),
        },
        Node::Num | Node::Int => "JsonNumber".into(),
        Node::Bool => "boolean".into(),
        Node::Id if input => "IdInput".into(),
        Node::Id => "Id".into(),
        Node::StrOrNum => "JsonNumber | string".into(),
        Node::BoolLike => "boolean | \"true\" | \"false\"".into(),
        Node::Any => "unknown".into(),
        Node::Obj(fields) if fields.is_empty() || depth > 6 => "Record<string, unknown>".into(),
        Node::Obj(fields) => object(fields, input, depth + 1),
        Node::Arr(item) => {
            let t = ty(&item.node, &item.rules, input, depth);
            if t.contains(' ') {
                format!("({t})[]")
            } else {
                format!("{t}[]")
            }
        }
    }
}

fn key(name: &str) -> String {
    if !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
    {
        name.to_string()
    } else {
        format!("{name:?}")
    }
}

fn object(fields: &[Field], input: bool, depth: usize) -> String {
    let members: Vec<String> = fields
        .iter()
        .map(|f| {
            let optional = if input && f.required { "" } else { "?" };
            format!(
                "{}{optional}: {}",
                key(&f.name),
                ty(&f.node, &f.rules, input, depth)
            )
        })
        .collect();
    format!("{{ {} }}", members.join("; "))
}

/// The resource an answer holds, as its fields.
fn result(row: &Row) -> Option<String> {
    let crate::openapi::Answer::Json { keys, .. } = &row.raw.answer else {
        return None;
    };
    let node = |k: &str| keys.iter().find(|(n, _)| n == k).map(|(_, n)| n);
    let t = match &row.shape {
        Shape::Key(k) => match node(k) {
            Some(n) => ty(n, &[], false, 0),
            None => "Record<string, unknown>".into(),
        },
        Shape::KeyArray(k) | Shape::List(k) => match node(k) {
            Some(Node::Arr(item)) => ty(&item.node, &item.rules, false, 0),
            _ => "Record<string, unknown>".into(),
        },
        Shape::TopLevel => {
            let fields: Vec<Field> = keys
                .iter()
                .map(|(k, n)| Field {
                    name: k.clone(),
                    node: n.clone(),
                    required: false,
                    rules: Vec::new(),
                    example: None,
                })
                .collect();
            ty(&Node::Obj(fields), &[], false, 0)
        }
        Shape::Empty | Shape::Binary => return None,
    };
    Some(match t.as_str() {
        "Record<string, unknown>" | "unknown" => "Record<string, unknown>".into(),
        _ if t.starts_with('{') => t,
        _ => format!("{{ value?: {t} }}"),
    })
}

/// The declarations: `<Id>Params` for a row with params, `<Id>Result` for a row with a resource; a
/// type that an earlier row already declares is an alias of it.
pub fn write(rows: &[Row]) -> String {
    let mut out = format!("// {BANNER}\n");
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut declare = |name: String, body: String, doc: String, out: &mut String| {
        out.push_str(&format!("/** {doc} */\n"));
        match seen.get(&body) {
            Some(first) => out.push_str(&format!("export type {name} = {first};\n")),
            None => {
                out.push_str(&format!("export type {name} = {body};\n"));
                seen.insert(body, name);
            }
        }
    };
    for r in rows {
        let name = |part| svc_core::published::type_name(&r.id, part);
        if !r.params.is_empty() {
            let body = object(&r.params, true, 1);
            declare(
                name("Params"),
                body,
                format!("The params of `{}`.", r.id),
                &mut out,
            );
        }
        if let Some(body) = result(r) {
            declare(
                name("Result"),
                body,
                format!("What `{}` resolves to.", r.id),
                &mut out,
            );
        }
    }
    out
}
