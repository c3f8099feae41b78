//! The rows generated from the vendor's OpenAPI documents (`published/rows.txt`, written by
//! `cargo run -p xtask -- operations`), read once into the table's own shapes.
//!
//! The text holds the fields, each once (`F`, tab-separated `name:kind[;rule]...`, kinds
//! `s n i b d x l a`, `o<type>`, `[<kind>` for an array), the object types as their fields' numbers
//! (`T`, one line each, `!` after a required field's, a type after those its fields hold), then the
//! operations sorted by id, a column to a line: `I` ids, `M` family and method, `P` paths, `S` scopes,
//! `R` answers, `Q` params types, `X` flags. Names are borrowed from the text; what is built from
//! them lives as long as the program.

use crate::family::Family;
use crate::format::Format;
use crate::row::{op, BodyKind, Method, Operation, Shape, Source};
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
        b'o' => Kind::Obj(types.get(number(&code[1..])?)?),
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
        b'<' => Rule::MaxLen(number(&code[1..])?),
        b'=' => Rule::OneOf(leak(code[1..].split('|').collect())),
        b'd' => Rule::Format(Format::Date),
        _ => return None,
    })
}

fn field(text: &'static str, required: bool, types: &[&'static Schema]) -> Option<Field> {
    let (name, rest) = text.split_once(':')?;
    let mut parts = rest.split(';');
    let kind = kind(parts.next()?, types)?;
    let mut rules = Vec::new();
    for part in parts {
        rules.push(rule(part)?);
    }
    Some(Field {
        name,
        kind,
        required,
        rules: leak(rules),
    })
}

/// A number as the text writes it.
fn number(text: &str) -> Option<usize> {
    if text.is_empty() || text.len() > 6 {
        return None;
    }
    text.bytes().try_fold(0usize, |n, b| {
        b.is_ascii_digit().then(|| n * 10 + usize::from(b - b'0'))
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

/// The scope a row's column gives: the area alone when the family and the method say the rest.
fn scope(family: Family, method: Method, text: &'static str) -> &'static str {
    if let Some(whole) = text.strip_prefix('=') {
        return whole;
    }
    let mut out = String::from(match family {
        Family::Books => "SvcBooks.",
        _ => "SvcInventory.",
    });
    out.push_str(text);
    if !text.contains('.') {
        out.push_str(match method {
            Method::Get => ".READ",
            Method::Post => ".CREATE",
            Method::Put => ".UPDATE",
            Method::Delete => ".DELETE",
            Method::Patch => ".ALL",
        });
    }
    Box::leak(out.into_boxed_str())
}

/// The row of one value of each column: id, family and method, path, scope, answer, params, flags.
fn operation(cols: [&'static str; 7], types: &[&'static Schema]) -> Option<Operation> {
    let [id, kind, path, scope_text, shape, params, flags] = cols;
    let mut code = kind.bytes();
    let family = match code.next()? {
        b'b' => Family::Books,
        b'i' => Family::Inventory,
        _ => return None,
    };
    let method = match code.next()? {
        b'G' => Method::Get,
        b'P' => Method::Post,
        b'U' => Method::Put,
        b'D' => Method::Delete,
        b'A' => Method::Patch,
        _ => return None,
    };
    let mut row = op(family, method, path, scope(family, method, scope_text));
    row.id = id;
    row.response = answer(shape)?;
    row.source = Source::Published;
    if !params.is_empty() {
        row.params = types.get(number(params)?)?;
    }
    for flag in flags.split(' ').filter(|f| !f.is_empty()) {
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

/// The TypeScript name of a generated row's params (`part` "Params") or result ("Result"), as the
/// generator declares it (`scripts/declarations/published.d.ts`): `createContact` → `CreateContactParams`.
pub fn type_name(id: &str, part: &str) -> String {
    let mut chars = id.chars();
    let first = chars.next().map(|c| c.to_ascii_uppercase());
    first.into_iter().chain(chars).chain(part.chars()).collect()
}

/// The TypeScript names of a row's params and result.
#[cfg(not(target_arch = "wasm32"))]
fn ts_names(row: &Operation) -> (&'static str, &'static str) {
    let leaked = |part| &*Box::leak(type_name(row.id, part).into_boxed_str());
    let params = match row.params.fields.is_empty() {
        true => "NoParams",
        false => leaked("Params"),
    };
    let result = match row.response {
        Shape::Binary => "Blob",
        Shape::Empty => "Message",
        _ => leaked("Result"),
    };
    (params, result)
}

/// Every generated row, sorted by id; a row the text cannot hold (none, as a test checks) is left out.
pub fn rows() -> Vec<Operation> {
    let mut fields: Vec<&'static str> = Vec::new();
    let mut types: Vec<&'static Schema> = Vec::new();
    let mut cols: [Vec<&'static str>; 7] = Default::default();
    for line in TEXT.split('\n') {
        let Some((tag, rest)) = line.split_once('\t') else {
            continue;
        };
        match tag {
            "F" => fields = rest.split('\t').collect(),
            "T" => {
                let built: Option<Vec<Field>> = rest
                    .split(' ')
                    .map(|n| {
                        let (n, required) = n.strip_suffix('!').map_or((n, false), |n| (n, true));
                        field(fields.get(number(n)?)?, required, &types)
                    })
                    .collect();
                types.push(Box::leak(Box::new(Schema {
                    fields: leak(built.unwrap_or_default()),
                    checks: &[],
                })));
            }
            _ => {
                let at = ["I", "M", "P", "S", "R", "Q", "X"]
                    .iter()
                    .position(|t| *t == tag);
                if let Some(at) = at {
                    cols[at] = rest.split('\t').collect();
                }
            }
        }
    }
    (0..cols[0].len())
        .filter_map(|i| {
            let mut row = [""; 7];
            for (value, col) in row.iter_mut().zip(&cols) {
                *value = col.get(i)?;
            }
            operation(row, &types)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_line_of_the_text_is_read() {
        let column = |tag: &str| {
            super::TEXT
                .lines()
                .find_map(|l| l.strip_prefix(tag))
                .map_or(0, |l| l.split('\t').count())
        };
        let ops = column("I\t");
        for tag in ["M\t", "P\t", "S\t", "R\t", "Q\t", "X\t"] {
            assert_eq!(column(tag), ops, "{tag}");
        }
        assert!(ops > 0);
        let rows = super::rows();
        assert_eq!(rows.len(), ops, "every operation line reads");
        assert!(rows.windows(2).all(|w| w[0].id < w[1].id), "sorted by id");
        for f in super::TEXT
            .lines()
            .find_map(|l| l.strip_prefix("F\t"))
            .unwrap()
            .split('\t')
        {
            assert!(
                super::field(f, false, &[]).is_some() || f.contains(":o") || f.contains(":[o"),
                "{f}"
            );
        }
        for line in super::TEXT.lines().filter_map(|l| l.strip_prefix("T\t")) {
            assert!(
                line.split(' ')
                    .all(|n| super::number(n.trim_end_matches('!')).is_some()),
                "{line}"
            );
        }
    }
}
