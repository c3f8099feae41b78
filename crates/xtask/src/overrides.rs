//! The reviewed corrections to the vendor's documents (`crates/xtask/overrides.yml`): each names what
//! it corrects and why.

use crate::openapi::Raw;
use crate::shape::{Field, Node, Rule};
use serde_yaml::Value;

#[derive(Default)]
pub struct Overrides {
    /// (family, method, path) → id.
    ids: Vec<(String, String, String, String)>,
    /// id → scope.
    scopes: Vec<(String, String)>,
    /// Rows that send the organization's id though their document names no such parameter.
    organization: Vec<String>,
    /// Rows that send no organization's id though their document names the parameter.
    no_organization: Vec<String>,
    /// id → the key of its answer's resource.
    answers: Vec<(String, String)>,
    /// id, field, and what to do to it.
    fields: Vec<(String, String, Value)>,
}

fn text(v: &Value, key: &str) -> Result<String, String> {
    v.get(key)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| format!("overrides: an entry lacks `{key}`: {v:?}"))
}

impl Overrides {
    pub fn read(yaml: &str) -> Result<Overrides, String> {
        let root: Value = serde_yaml::from_str(yaml).map_err(|e| format!("overrides: {e}"))?;
        let mut o = Overrides::default();
        let list = |key: &str| -> Vec<Value> {
            root.get(key)
                .and_then(Value::as_sequence)
                .cloned()
                .unwrap_or_default()
        };
        for e in list("ids") {
            text(&e, "reason")?;
            o.ids.push((
                text(&e, "family")?,
                text(&e, "method")?,
                text(&e, "path")?,
                text(&e, "id")?,
            ));
        }
        for e in list("organization") {
            text(&e, "reason")?;
            o.organization.push(text(&e, "id")?);
        }
        for e in list("no_organization") {
            text(&e, "reason")?;
            o.no_organization.push(text(&e, "id")?);
        }
        for e in list("scopes") {
            text(&e, "reason")?;
            o.scopes.push((text(&e, "id")?, text(&e, "scope")?));
        }
        for e in list("answers") {
            text(&e, "reason")?;
            o.answers.push((text(&e, "id")?, text(&e, "key")?));
        }
        for e in list("fields") {
            text(&e, "reason")?;
            o.fields
                .push((text(&e, "id")?, text(&e, "field")?, e.clone()));
        }
        Ok(o)
    }

    pub fn id(&self, raw: &Raw) -> Option<&str> {
        self.ids
            .iter()
            .find(|(f, m, p, _)| f == raw.family && *m == raw.method && *p == raw.path)
            .map(|(.., id)| id.as_str())
    }

    /// Whether row `id` sends the organization's id, against what its document says.
    pub fn organization(&self, id: &str, documented: bool) -> bool {
        (documented || self.organization.iter().any(|i| i == id))
            && !self.no_organization.iter().any(|i| i == id)
    }

    pub fn answer_key(&self, id: &str) -> Option<&str> {
        self.answers
            .iter()
            .find(|(i, _)| i == id)
            .map(|(_, k)| k.as_str())
    }

    pub fn scope(&self, id: &str) -> Option<&str> {
        self.scopes
            .iter()
            .find(|(i, _)| i == id)
            .map(|(_, s)| s.as_str())
    }

    /// Applies the corrections of row `id` to its params: `kind` (str, num, int, bool, id,
    /// str_or_num, bool_like, any), `required`, `max_length`, `allowed` (a list, or null for none),
    /// `drop: true`.
    pub fn fields(&self, id: &str, params: &mut Vec<Field>) -> Result<(), String> {
        for (_, name, e) in self.fields.iter().filter(|(i, ..)| i == id) {
            if e.get("drop").and_then(Value::as_bool) == Some(true) {
                let before = params.len();
                params.retain(|f| &f.name != name);
                if params.len() == before {
                    return Err(format!("overrides: {id} has no param {name}"));
                }
                continue;
            }
            let field = params
                .iter_mut()
                .find(|f| &f.name == name)
                .ok_or_else(|| format!("overrides: {id} has no param {name}"))?;
            if let Some(kind) = e.get("kind").and_then(Value::as_str) {
                field.node = match kind {
                    "str" => Node::Str,
                    "num" => Node::Num,
                    "int" => Node::Int,
                    "bool" => Node::Bool,
                    "id" => Node::Id,
                    "str_or_num" => Node::StrOrNum,
                    "bool_like" => Node::BoolLike,
                    "any" => Node::Any,
                    other => return Err(format!("overrides: {id}.{name}: unknown kind {other}")),
                };
                if !matches!(field.node, Node::Str) {
                    field.rules.clear();
                }
            }
            if let Some(r) = e.get("required").and_then(Value::as_bool) {
                field.required = r;
            }
            if let Some(n) = e.get("max_length") {
                field.rules.retain(|r| !matches!(r, Rule::MaxLen(_)));
                if let Some(n) = n.as_u64() {
                    field.rules.push(Rule::MaxLen(n as usize));
                }
            }
            if let Some(set) = e.get("allowed") {
                field.rules.retain(|r| !matches!(r, Rule::OneOf(_)));
                if let Some(set) = set.as_sequence() {
                    let set = set
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect();
                    field.rules.push(Rule::OneOf(set));
                }
            }
        }
        Ok(())
    }
}
