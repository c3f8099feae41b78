//! The rows as the compact text the core reads (`svc_core::published`): the fields, each written once;
//! the object types as lists of fields, each written once; then the operations, sorted by id, a column
//! to a line (gzip finds more alike in a column of paths than in a row).

use crate::rows::{route, Row, Shape};
use crate::shape::{Field, Node, Rule};
use std::collections::HashMap;

pub const BANNER: &str = "Written by `cargo run -p xtask -- operations` from tests/fixtures/openapi and crates/xtask/overrides.yml: do not edit.";

/// The fields and object types, each numbered in the order first written.
#[derive(Default)]
struct Types {
    fields: Vec<String>,
    field_index: HashMap<String, usize>,
    types: Vec<String>,
    type_index: HashMap<String, usize>,
}

impl Types {
    /// The number of the object type of `fields`, written (after what it holds) if new.
    fn object(&mut self, fields: &[Field]) -> Result<usize, String> {
        let mut refs = Vec::new();
        for f in fields {
            let token = self.field(f)?;
            let n = match self.field_index.get(&token) {
                Some(&n) => n,
                None => {
                    self.fields.push(token.clone());
                    self.field_index.insert(token, self.fields.len() - 1);
                    self.fields.len() - 1
                }
            };
            refs.push(if f.required {
                format!("{n}!")
            } else {
                n.to_string()
            });
        }
        let line = refs.join(" ");
        if let Some(&n) = self.type_index.get(&line) {
            return Ok(n);
        }
        self.types.push(line.clone());
        self.type_index.insert(line, self.types.len() - 1);
        Ok(self.types.len() - 1)
    }

    fn kind(&mut self, node: &Node) -> Result<String, String> {
        Ok(match node {
            Node::Str => "s".into(),
            Node::Num => "n".into(),
            Node::Int => "i".into(),
            Node::Bool => "b".into(),
            Node::Id => "d".into(),
            Node::StrOrNum => "x".into(),
            Node::BoolLike => "l".into(),
            Node::Any => "a".into(),
            Node::Obj(fields) if fields.is_empty() => "a".into(),
            Node::Obj(fields) => format!("o{}", self.object(fields)?),
            Node::Arr(item) => format!("[{}", self.kind(&item.node)?),
        })
    }

    /// `name:kind[;rule]...` (whether it is required is its type's to say).
    fn field(&mut self, f: &Field) -> Result<String, String> {
        if f.name.contains([':', ';', '!', '\t', ' ', '\n']) {
            return Err(format!("the field name {:?} cannot be written", f.name));
        }
        let mut out = f.name.clone();
        out.push(':');
        out.push_str(&self.kind(&f.node)?);
        for rule in &f.rules {
            match rule {
                Rule::MaxLen(n) => out.push_str(&format!(";<{n}")),
                Rule::OneOf(set) => {
                    if set.iter().any(|v| v.contains(['|', ';', '\t', '\n'])) {
                        return Err(format!("a value of {} cannot be written", f.name));
                    }
                    out.push_str(&format!(";={}", set.join("|")));
                }
                Rule::Date => out.push_str(";d"),
            }
        }
        Ok(out)
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

/// The scope without what the family and the method say: `invoices` for `SvcBooks.invoices.READ` of
/// a GET, `invoices.ALL` where the verb is another, the whole scope where the family's is not its prefix.
fn scope(r: &Row) -> String {
    let family = if r.raw.family == "books" {
        "SvcBooks."
    } else {
        "SvcInventory."
    };
    let verb = match r.raw.method.as_str() {
        "GET" => "READ",
        "POST" => "CREATE",
        "PUT" => "UPDATE",
        "DELETE" => "DELETE",
        _ => "ALL",
    };
    match r
        .scope
        .strip_prefix(family)
        .and_then(|s| s.rsplit_once('.'))
    {
        Some((area, v)) if v == verb && !area.contains('.') => area.to_string(),
        Some((area, v)) if !area.contains('.') => format!("{area}.{v}"),
        _ => format!("={}", r.scope),
    }
}

/// The rows whose route another row holds: of rows that share a family, method and path, the one
/// whose document is named for the path's first segment (`invoices.yml` for `/invoices`) keeps it.
fn shared_routes(rows: &[Row]) -> Vec<String> {
    let mut groups: HashMap<(String, String, String), Vec<&Row>> = HashMap::new();
    for r in rows {
        let key = (
            r.raw.family.to_string(),
            r.raw.method.clone(),
            route(&r.raw.path),
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

/// The whole text: `F` the fields, `T` a type's fields by number (`!` after a required one), then one line per column of the
/// operations: `I` ids, `M` family and method (`bG`: books, GET; `P` POST, `U` PUT, `D` DELETE, `A` PATCH), `P` paths, `S` scopes, `R` answers,
/// `Q` params types, `X` flags (`q:` query params, `h:` headers, `n` no organization, `r` not routed,
/// `m:` a multipart file), each a tab between values.
pub fn write(rows: &[Row]) -> Result<String, String> {
    let mut types = Types::default();
    let shared = shared_routes(rows);
    let mut sorted: Vec<&Row> = rows.iter().collect();
    sorted.sort_by(|a, b| a.id.cmp(&b.id));
    let mut cols: [Vec<String>; 7] = Default::default();
    for r in sorted {
        let params = match r.params.is_empty() {
            true => String::new(),
            false => types
                .object(&r.params)
                .map_err(|e| format!("{}: {e}", r.id))?
                .to_string(),
        };
        let mut flags = Vec::new();
        if !r.query.is_empty() {
            flags.push(format!("q:{}", r.query.join(",")));
        }
        if !r.headers.is_empty() {
            let h: Vec<String> = r.headers.iter().map(|(p, h)| format!("{p}={h}")).collect();
            flags.push(format!("h:{}", h.join(",")));
        }
        if !r.raw.org {
            flags.push("n".into());
        }
        if shared.contains(&r.id) {
            flags.push("r".into());
        }
        if let Some(f) = &r.raw.file_field {
            flags.push(format!("m:{f}"));
        }
        let family = if r.raw.family == "books" { 'b' } else { 'i' };
        let method = match r.raw.method.as_str() {
            "POST" => 'P',
            "PUT" => 'U',
            "DELETE" => 'D',
            "PATCH" => 'A',
            _ => 'G',
        };
        let values = [
            r.id.clone(),
            format!("{family}{method}"),
            r.raw.path.clone(),
            scope(r),
            shape(&r.shape),
            params,
            flags.join(" "),
        ];
        for (col, v) in cols.iter_mut().zip(values) {
            if v.contains(['\t', '\n']) {
                return Err(format!("{}: {v:?} cannot be written", r.id));
            }
            col.push(v);
        }
    }
    // The fields in the order of their text, so that alike ones sit together for gzip.
    let mut order: Vec<usize> = (0..types.fields.len()).collect();
    order.sort_by(|&a, &b| types.fields[a].cmp(&types.fields[b]));
    let mut renumbered = vec![0; order.len()];
    for (new, &old) in order.iter().enumerate() {
        renumbered[old] = new;
    }
    let fields: Vec<&str> = order.iter().map(|&i| types.fields[i].as_str()).collect();
    let mut out = format!("# {BANNER}\nF\t{}\n", fields.join("\t"));
    for t in &types.types {
        let refs: Vec<String> = t
            .split(' ')
            .map(|r| {
                let (n, required) = r.strip_suffix('!').map_or((r, ""), |n| (n, "!"));
                let n: usize = n.parse().unwrap_or_default();
                format!("{}{required}", renumbered[n])
            })
            .collect();
        out.push_str(&format!("T\t{}\n", refs.join(" ")));
    }
    for (tag, col) in ["I", "M", "P", "S", "R", "Q", "X"].iter().zip(cols) {
        out.push_str(&format!("{tag}\t{}\n", col.join("\t")));
    }
    Ok(out)
}
