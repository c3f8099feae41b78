//! A schema of the documents as the table's kinds and rules: what a field takes, read from its type,
//! its example and the constraints its description states.

use crate::openapi::{required_names, Doc};
use serde_yaml::Value;

/// The kind of a field, as `svc_core::schema::Kind` has them.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Str,
    Num,
    Int,
    Bool,
    Id,
    StrOrNum,
    BoolLike,
    Any,
    Obj(Vec<Field>),
    Arr(Box<Field>),
}

/// A rule on a field, as `svc_core::schema::Rule` has them.
#[derive(Clone, Debug, PartialEq)]
pub enum Rule {
    MaxLen(usize),
    OneOf(Vec<String>),
    Date,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: String,
    pub node: Node,
    pub required: bool,
    pub rules: Vec<Rule>,
    pub example: Option<Value>,
}

/// Whether a name is an identifier's, as the core reads answers (`lossless::is_id_key`).
pub fn names_an_id(name: &str) -> bool {
    svc_core::lossless::is_id_key(name)
}

/// The field `name` that `schema` describes.
pub fn field(doc: &Doc, name: &str, schema: &Value, required: bool) -> Field {
    let mut seen = Vec::new();
    field_in(doc, name, schema, required, &mut seen)
}

fn field_in(
    doc: &Doc,
    name: &str,
    schema: &Value,
    required: bool,
    seen: &mut Vec<String>,
) -> Field {
    let reference = schema
        .get("$ref")
        .and_then(Value::as_str)
        .map(str::to_string);
    let s = doc.resolve(schema);
    let mut f = Field {
        name: name.to_string(),
        node: Node::Any,
        required,
        rules: Vec::new(),
        example: schema.get("example").or_else(|| s.get("example")).cloned(),
    };
    if let Some(r) = &reference {
        if seen.contains(r) || seen.len() > 12 {
            return f;
        }
        seen.push(r.clone());
    }
    let ty = s.get("type").and_then(Value::as_str).unwrap_or_default();
    f.node = if let Some(props) = s.get("properties").and_then(Value::as_mapping) {
        let required = required_names(s);
        let fields = props
            .iter()
            .filter_map(|(k, v)| {
                let k = k.as_str()?;
                Some(field_in(doc, k, v, required.iter().any(|r| r == k), seen))
            })
            .collect();
        Node::Obj(fields)
    } else if ty == "array" || s.get("items").is_some() {
        let items = s.get("items").unwrap_or(&Value::Null);
        Node::Arr(Box::new(field_in(doc, "", items, false, seen)))
    } else {
        scalar(ty, name, f.example.as_ref())
    };
    if reference.is_some() {
        seen.pop();
    }
    describe(&mut f, s);
    if let Some(own) = schema.get("description") {
        let _ = own;
        describe(&mut f, schema);
    }
    f
}

/// A scalar's kind from its stated type, its name and its example: an example of another type than
/// the stated one widens the kind to what the service is shown to take.
fn scalar(ty: &str, name: &str, example: Option<&Value>) -> Node {
    let id = names_an_id(name);
    let ex_str = matches!(example, Some(Value::String(s)) if !s.is_empty());
    let ex_bool_text = matches!(example, Some(Value::String(s)) if s == "true" || s == "false");
    let ex_num = matches!(example, Some(Value::Number(_)));
    match ty {
        _ if id && matches!(ty, "string" | "integer" | "number") => Node::Id,
        "string" if ex_num => Node::StrOrNum,
        "string" => Node::Str,
        "number" if ex_str => Node::StrOrNum,
        "number" => Node::Num,
        "integer" if ex_str => Node::StrOrNum,
        "integer" => Node::Int,
        "boolean" if ex_bool_text => Node::BoolLike,
        "boolean" => Node::Bool,
        _ if id => Node::Id,
        _ => match example {
            Some(Value::String(_)) => Node::Str,
            Some(Value::Bool(_)) => Node::Bool,
            Some(Value::Number(_)) => Node::StrOrNum,
            _ => Node::Any,
        },
    }
}

/// Adds the rules that `s` states (its `enum`, `format`, `maxLength`, and those in its description).
pub fn describe(f: &mut Field, s: &Value) {
    if !matches!(f.node, Node::Str) {
        return;
    }
    let example = f
        .example
        .as_ref()
        .and_then(Value::as_str)
        .map(str::to_string);
    let mut add = |rule: Rule| {
        let holds = match (&rule, &example) {
            (Rule::MaxLen(n), Some(e)) => e.chars().count() <= *n,
            (Rule::OneOf(set), Some(e)) => set.iter().any(|v| v == e),
            (Rule::Date, Some(e)) => is_date(e),
            _ => true,
        };
        let kind = std::mem::discriminant(&rule);
        let same = f
            .rules
            .iter_mut()
            .find(|r| std::mem::discriminant(*r) == kind);
        match (same, rule) {
            // Values the `enum` and the description each allow: both are allowed (a document's enum
            // may leave out what its description names).
            (Some(Rule::OneOf(have)), Rule::OneOf(more)) if holds => {
                for v in more {
                    if !have.contains(&v) {
                        have.push(v);
                    }
                }
            }
            (None, rule) if holds => f.rules.push(rule),
            _ => {}
        }
    };
    if let Some(set) = s.get("enum").and_then(Value::as_sequence) {
        let set: Vec<String> = set
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
        if !set.is_empty() {
            add(Rule::OneOf(set));
        }
    }
    if let Some(n) = s.get("maxLength").and_then(Value::as_u64) {
        add(Rule::MaxLen(n as usize));
    }
    if s.get("format").and_then(Value::as_str) == Some("date") {
        add(Rule::Date);
    }
    let text = s
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if let Some(n) = max_length(text) {
        add(Rule::MaxLen(n));
    }
    if let Some(set) = allowed_values(text) {
        add(Rule::OneOf(set));
    }
}

/// Whether a text is a date the core's `Format::Date` rule takes.
fn is_date(s: &str) -> bool {
    svc_core::calendar::parse_date(s).is_some()
}

/// The length a description states as the most a value may have ("Max-length [100]").
pub fn max_length(text: &str) -> Option<usize> {
    let lower = text.to_ascii_lowercase();
    for marker in ["max-length", "maximum length", "max-len"] {
        if let Some(at) = lower.find(marker) {
            let rest = &lower[at + marker.len()..];
            let rest: String = rest.chars().take(24).collect();
            let digits: String = rest
                .chars()
                .skip_while(|c| !c.is_ascii_digit())
                .take_while(char::is_ascii_digit)
                .collect();
            if let Ok(n) = digits.parse::<usize>() {
                if n > 0 {
                    return Some(n);
                }
            }
        }
    }
    None
}

/// The values a description allows ("Allowed values: <code>a</code>, <code>b</code>"), when it names
/// them plainly; `None` when it names none, or words that are not values ("etc.").
pub fn allowed_values(text: &str) -> Option<Vec<String>> {
    let lower = text.to_ascii_lowercase();
    let at = lower.find("allowed values")?;
    let rest = &text[at + "allowed values".len()..];
    let rest = rest
        .trim_start()
        .trim_start_matches(['s', ':', ' '])
        .trim_start_matches("are ")
        .trim_start_matches(':')
        .trim_start();
    let mut set = Vec::new();
    if rest.starts_with("<code>") {
        let mut r = rest;
        while let Some(body) = r.strip_prefix("<code>") {
            let end = body.find("</code>")?;
            set.push(body[..end].trim().to_string());
            r = body[end + "</code>".len()..].trim_start();
            r = r
                .strip_prefix(',')
                .or_else(|| r.strip_prefix("and"))
                .or_else(|| r.strip_prefix("or"))
                .unwrap_or(r)
                .trim_start();
            r = r
                .strip_prefix("and ")
                .or_else(|| r.strip_prefix("or "))
                .unwrap_or(r);
        }
    } else {
        let end = rest.find(['\'', '"', '(', ';']).unwrap_or(rest.len());
        let mut clause = rest[..end].trim();
        let sentence_end = clause.char_indices().find(|&(i, c)| {
            c == '.' && clause[i + 1..].starts_with(|n: char| n == ' ' || n.is_ascii_uppercase())
        });
        if let Some((stop, _)) = sentence_end {
            clause = &clause[..stop];
        }
        let clause = clause.trim_end_matches('.');
        for part in clause
            .split(',')
            .flat_map(|p| p.split(" and "))
            .flat_map(|p| p.split(" or "))
        {
            let v = part.trim();
            let plain = !v.is_empty()
                && v != "etc"
                && v.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
            if !plain {
                return None;
            }
            set.push(v.to_string());
        }
    }
    set.retain(|v| !v.is_empty());
    set.dedup();
    (set.len() >= 2).then_some(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_state_lengths_and_values() {
        assert_eq!(max_length("Name. Max-length [100]"), Some(100));
        assert_eq!(max_length("Maximum length allowed [500]."), Some(500));
        assert_eq!(max_length("Maximum Length: 50 characters"), Some(50));
        assert_eq!(max_length("no limit"), None);
        assert_eq!(
            allowed_values("Type. Allowed Values: <code>customer</code>, <code>vendor</code>."),
            Some(vec!["customer".into(), "vendor".into()])
        );
        assert_eq!(
            allowed_values("Allowed values: active, inactive."),
            Some(vec!["active".into(), "inactive".into()])
        );
        assert_eq!(allowed_values("Allowed values: cash, check, etc."), None);
        assert_eq!(
            allowed_values("Allowed values are entity_level or item_level.Allowed"),
            Some(vec!["entity_level".into(), "item_level".into()])
        );
    }
}
