//! The rows generated from the vendor's OpenAPI documents (`published/rows.txt`, written by
//! `cargo run -p xtask -- operations`), read once into the table's own shapes.
//!
//! The text holds each object type once, on a line of its own (`T`, its fields tab-separated:
//! `name[!]:kind[;rule]...`, kinds `s n i b d x l a`, `o<type>`, `[<kind>` for an array), then one
//! line per operation (`O`, family, id, method, path, scope, answer, params type, flags), sorted by
//! id, so that `catalog::find` searches them by halves. Names are
//! borrowed from the text; what is built from them lives as long as the program.

use crate::catalog::{op, BodyKind, Method, Operation, Shape, Source};
use crate::family::Family;
use crate::format::Format;
use crate::schema::{Field, Kind, Rule, Schema};

/// The generated text.
pub const TEXT: &str = include_str!("published/rows.txt");

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

fn kind(code: &'static str, types: &[&'static Schema]) -> Option<Kind> {
    Some(match code.as_bytes().first()? {
        b's' => Kind::Str,
        b'n' => Kind::Num,
        b'i' => Kind::Int,
        b'b' => Kind::Bool,
        b'd' => Kind::Id,
        b'x' => Kind::StrOrNum,
        b'l' => Kind::BoolLike,
        b'a' => Kind::Any,
        b'o' => Kind::Obj(types.get(code[1..].parse::<usize>().ok()?)?),
        b'[' => Kind::Arr(Box::leak(Box::new(Field {
            name: "",
            kind: kind(&code[1..], types)?,
            required: false,
            rules: &[],
        }))),
        _ => return None,
    })
}

fn rule(code: &'static str) -> Option<Rule> {
    Some(match code.as_bytes().first()? {
        b'<' => Rule::MaxLen(code[1..].parse().ok()?),
        b'=' => Rule::OneOf(leak(code[1..].split('|').collect())),
        b'd' => Rule::Format(Format::Date),
        _ => return None,
    })
}

fn field(text: &'static str, types: &[&'static Schema]) -> Option<Field> {
    let (name, rest) = text.split_once(':')?;
    let mut parts = rest.split(';');
    let kind = kind(parts.next()?, types)?;
    let rules: Vec<Rule> = parts.map(rule).collect::<Option<_>>()?;
    let (name, required) = match name.strip_suffix('!') {
        Some(n) => (n, true),
        None => (name, false),
    };
    Some(Field {
        name,
        kind,
        required,
        rules: leak(rules),
    })
}

fn answer(code: &'static str) -> Option<Shape> {
    let (tag, key) = code.split_once(':').unwrap_or((code, ""));
    Some(match tag {
        "k" => Shape::Key(leak(vec![key])),
        "a" => Shape::KeyArray(leak(vec![key])),
        "l" => Shape::List(key),
        "t" => Shape::TopLevel,
        "e" => Shape::Empty,
        "b" => Shape::Binary,
        _ => return None,
    })
}

fn operation(cols: &[&'static str], types: &[&'static Schema]) -> Option<Operation> {
    let [family, id, method, path, scope, shape, params, flags @ ..] = cols else {
        return None;
    };
    let family = match *family {
        "b" => Family::Books,
        "i" => Family::Inventory,
        _ => return None,
    };
    let mut row = op(family, Method::parse(method)?, path, scope);
    row.id = id;
    row.response = answer(shape)?;
    row.source = Source::Published;
    if !params.is_empty() {
        row.params = types.get(params.parse::<usize>().ok()?)?;
    }
    for flag in flags {
        let (tag, value) = flag.split_once(':').unwrap_or((flag, ""));
        match tag {
            "q" => row.query = leak(value.split(',').collect()),
            "h" => {
                row.headers = leak(
                    value
                        .split(',')
                        .map(|p| p.split_once('='))
                        .collect::<Option<_>>()?,
                )
            }
            "n" => row.org = false,
            "r" => row.routed = false,
            "m" => {
                row.body = BodyKind::Multipart {
                    param: value,
                    field: value,
                    many: false,
                    accept: &[],
                }
            }
            _ => return None,
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let (params, result) = ts_names(&row);
        row.ts.params = params;
        row.ts.result = result;
        row.ts.many = matches!(row.response, Shape::KeyArray(_));
    }
    Some(row)
}

/// The TypeScript names the generator declares for a row (`scripts/declarations/published.d.ts`).
#[cfg(not(target_arch = "wasm32"))]
fn ts_names(row: &Operation) -> (&'static str, &'static str) {
    let mut base = String::new();
    let mut chars = row.id.chars();
    if let Some(c) = chars.next() {
        base.push(c.to_ascii_uppercase());
        base.push_str(chars.as_str());
    }
    let params = match row.params.fields.is_empty() {
        true => "NoParams",
        false => Box::leak(format!("{base}Params").into_boxed_str()),
    };
    let result = match row.response {
        Shape::Binary => "Blob",
        Shape::Empty => "Message",
        _ => Box::leak(format!("{base}Result").into_boxed_str()),
    };
    (params, result)
}

/// Every generated row, in the text's order; a line the text cannot hold (none, as a test checks)
/// is left out.
pub fn rows() -> Vec<Operation> {
    let mut types: Vec<&'static Schema> = Vec::new();
    let mut out = Vec::new();
    for line in TEXT.lines() {
        let mut cols = line.split('\t');
        match cols.next() {
            Some("T") => {
                let fields: Option<Vec<Field>> = cols.map(|f| field(f, &types)).collect();
                let fields = fields.unwrap_or_default();
                types.push(Box::leak(Box::new(Schema {
                    fields: leak(fields),
                    checks: &[],
                })));
            }
            Some("O") => {
                let cols: Vec<&'static str> = cols.collect();
                if let Some(row) = operation(&cols, &types) {
                    out.push(row);
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_line_of_the_text_is_read() {
        let types = super::TEXT.lines().filter(|l| l.starts_with("T\t")).count();
        let ops = super::TEXT.lines().filter(|l| l.starts_with("O\t")).count();
        assert!(types > 0 && ops > 0);
        let rows = super::rows();
        assert_eq!(rows.len(), ops, "every operation line reads");
        assert!(rows.windows(2).all(|w| w[0].id < w[1].id), "sorted by id");
        for line in super::TEXT.lines().filter(|l| l.starts_with("T\t")) {
            for f in line.split('\t').skip(1) {
                assert!(f.contains(':'), "{f}");
            }
        }
    }
}
