//! The rows as the compact text the core reads (`svc_core::published`): one line per object type,
//! each written once and named by its number, then one line per operation.

use crate::rows::{Row, Shape};
use crate::shape::{Field, Node, Rule};
use std::collections::HashMap;

pub const BANNER: &str = "Written by `cargo run -p xtask -- operations` from tests/fixtures/openapi and crates/xtask/overrides.yml: do not edit.";

#[derive(Default)]
struct Types {
    lines: Vec<String>,
    index: HashMap<String, usize>,
}

impl Types {
    /// The number of the object type of `fields`, written first if new.
    fn object(&mut self, fields: &[Field]) -> usize {
        let line: Vec<String> = fields.iter().map(|f| self.field(f)).collect();
        let line = line.join("\t");
        if let Some(&n) = self.index.get(&line) {
            return n;
        }
        self.lines.push(line.clone());
        self.index.insert(line, self.lines.len() - 1);
        self.lines.len() - 1
    }

    fn kind(&mut self, node: &Node) -> String {
        match node {
            Node::Str => "s".into(),
            Node::Num => "n".into(),
            Node::Int => "i".into(),
            Node::Bool => "b".into(),
            Node::Id => "d".into(),
            Node::StrOrNum => "x".into(),
            Node::BoolLike => "l".into(),
            Node::Any => "a".into(),
            Node::Obj(fields) if fields.is_empty() => "a".into(),
            Node::Obj(fields) => format!("o{}", self.object(fields)),
            Node::Arr(item) => format!("[{}", self.kind(&item.node)),
        }
    }

    fn field(&mut self, f: &Field) -> String {
        let mut out = f.name.clone();
        if f.required {
            out.push('!');
        }
        out.push(':');
        out.push_str(&self.kind(&f.node));
        for rule in &f.rules {
            match rule {
                Rule::MaxLen(n) => out.push_str(&format!(";<{n}")),
                Rule::OneOf(set) => out.push_str(&format!(";={}", set.join("|"))),
                Rule::Date => out.push_str(";d"),
            }
        }
        out
    }
}

fn shape(s: &Shape) -> String {
    match s {
        Shape::Key(k) => format!("k:{k}"),
        Shape::KeyArray(k) => format!("a:{k}"),
        Shape::List(k) => format!("l:{k}"),
        Shape::TopLevel => "t".into(),
        Shape::Empty => "e".into(),
        Shape::Binary => "b".into(),
    }
}

/// Whether a value can be written in the text as it is: no tab, line break, `;`, `|` or `:` in a name.
fn plain(s: &str) -> bool {
    !s.contains(['\t', '\n', '\r'])
}

/// The rows whose route another row holds: of rows that share a family, method and path, the one
/// whose document is named for the path's first segment (`invoices.yml` for `/invoices`) keeps it.
fn shared_routes(rows: &[Row]) -> Vec<String> {
    let mut groups: HashMap<(String, String, String), Vec<&Row>> = HashMap::new();
    for r in rows {
        let key = (
            r.raw.family.to_string(),
            r.raw.method.clone(),
            crate::rows::route(&r.raw.path),
        );
        groups.entry(key).or_default().push(r);
    }
    let mut out = Vec::new();
    for group in groups.values().filter(|g| g.len() > 1) {
        let first = group[0]
            .raw
            .path
            .trim_start_matches('/')
            .split('/')
            .next()
            .unwrap_or_default();
        let owner = group
            .iter()
            .position(|r| r.raw.file.trim_end_matches(".yml").replace('-', "") == first)
            .unwrap_or(0);
        for (i, r) in group.iter().enumerate() {
            if i != owner {
                out.push(r.id.clone());
            }
        }
    }
    out
}

/// The whole text.
pub fn write(rows: &[Row]) -> Result<String, String> {
    let mut types = Types::default();
    let mut ops = Vec::new();
    let shared = shared_routes(rows);
    for r in rows {
        for f in &r.params {
            if f.name.contains([':', ';', '!', '\t']) {
                return Err(format!(
                    "{}: param name {:?} cannot be written",
                    r.id, f.name
                ));
            }
            for rule in &f.rules {
                if let Rule::OneOf(set) = rule {
                    if set.iter().any(|v| v.contains(['|', ';', '\t'])) {
                        return Err(format!("{}.{}: a value cannot be written", r.id, f.name));
                    }
                }
            }
        }
        let params = if r.params.is_empty() {
            String::new()
        } else {
            types.object(&r.params).to_string()
        };
        let family = if r.raw.family == "books" { "b" } else { "i" };
        let mut line = vec![
            "O".to_string(),
            family.into(),
            r.id.clone(),
            r.raw.method.clone(),
            r.raw.path.clone(),
            r.scope.clone(),
            shape(&r.shape),
            params,
        ];
        if !r.query.is_empty() {
            line.push(format!("q:{}", r.query.join(",")));
        }
        if !r.headers.is_empty() {
            let h: Vec<String> = r.headers.iter().map(|(p, h)| format!("{p}={h}")).collect();
            line.push(format!("h:{}", h.join(",")));
        }
        if !r.raw.org {
            line.push("n".into());
        }
        if shared.contains(&r.id) {
            line.push("r".into());
        }
        if let Some(f) = &r.raw.file_field {
            line.push(format!("m:{f}"));
        }
        if line.iter().any(|c| !plain(c)) {
            return Err(format!("{}: a column cannot be written", r.id));
        }
        ops.push(line.join("\t"));
    }
    let mut out = format!("# {BANNER}\n");
    for t in &types.lines {
        out.push_str("T\t");
        out.push_str(t);
        out.push('\n');
    }
    ops.sort_by(|a, b| a.split('\t').nth(2).cmp(&b.split('\t').nth(2)));
    for o in ops {
        out.push_str(&o);
        out.push('\n');
    }
    Ok(out)
}
