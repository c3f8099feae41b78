//! The vendor's OpenAPI documents read into operations: method, path, parameters, body, answer and scope.

use crate::shape::{self, Node};
use serde_yaml::Value;
use std::path::Path;

/// One document of one family, kept whole for its `$ref`s.
pub struct Doc {
    pub family: &'static str,
    pub file: String,
    root: Value,
}

/// Where a parameter travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Query,
    Header,
}

/// A query or header parameter, read as a field.
pub struct Param {
    pub field: shape::Field,
    pub place: Place,
    /// The header's own spelling, for a header.
    pub wire: String,
}

/// What a successful answer holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// Keys other than `code` and `message`, each with its node; `page` when `page_context` is one.
    Json {
        keys: Vec<(String, Node)>,
        page: bool,
    },
    /// A file of this content type.
    File(String),
    /// None stated.
    Nothing,
}

/// One operation as its document states it.
pub struct Raw {
    pub family: &'static str,
    pub file: String,
    pub method: String,
    pub path: String,
    pub operation_id: Option<String>,
    pub summary: String,
    pub scope: Option<String>,
    pub path_params: Vec<(String, Option<Value>)>,
    pub params: Vec<Param>,
    /// Whether the organization id is one of its parameters.
    pub org: bool,
    pub body: Option<shape::Field>,
    /// A multipart body's file property.
    pub file_field: Option<String>,
    pub answer: Answer,
}

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

impl Doc {
    pub fn read(family: &'static str, path: &Path) -> Result<Doc, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let root: Value =
            serde_yaml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let file = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        Ok(Doc { family, file, root })
    }

    /// The value a `$ref` chain ends at (itself when it is none).
    pub fn resolve<'a>(&'a self, mut v: &'a Value) -> &'a Value {
        for _ in 0..16 {
            let Some(target) = v.get("$ref").and_then(Value::as_str) else {
                return v;
            };
            let mut at = &self.root;
            for part in target.trim_start_matches("#/").split('/') {
                match at.get(part) {
                    Some(next) => at = next,
                    None => return &Value::Null,
                }
            }
            v = at;
        }
        &Value::Null
    }

    /// Every operation of the document, in its order.
    pub fn operations(&self) -> Vec<Raw> {
        let mut out = Vec::new();
        let Some(paths) = self.root.get("paths").and_then(Value::as_mapping) else {
            return out;
        };
        for (path, item) in paths {
            let (Some(path), Some(item)) = (path.as_str(), item.as_mapping()) else {
                continue;
            };
            let shared = item.get("parameters").and_then(Value::as_sequence);
            for method in METHODS {
                if let Some(op) = item.get(method) {
                    out.push(self.operation(method, path, op, shared));
                }
            }
        }
        out
    }

    fn operation(&self, method: &str, path: &str, op: &Value, shared: Option<&Vec<Value>>) -> Raw {
        let text = |key: &str| op.get(key).and_then(Value::as_str).map(str::to_string);
        let mut raw = Raw {
            family: self.family,
            file: self.file.clone(),
            method: method.to_ascii_uppercase(),
            path: path.to_string(),
            operation_id: text("operationId"),
            summary: text("summary").unwrap_or_default(),
            scope: scope(op),
            path_params: Vec::new(),
            params: Vec::new(),
            org: false,
            body: None,
            file_field: None,
            answer: Answer::Nothing,
        };
        let own = op.get("parameters").and_then(Value::as_sequence);
        for p in shared.into_iter().chain(own).flatten() {
            self.parameter(self.resolve(p), &mut raw);
        }
        if let Some(content) = op
            .get("requestBody")
            .map(|b| self.resolve(b))
            .and_then(|b| b.get("content"))
            .and_then(Value::as_mapping)
        {
            for (kind, media) in content {
                let kind = kind.as_str().unwrap_or_default();
                let Some(schema) = media.get("schema") else {
                    continue;
                };
                if kind.starts_with("multipart/") {
                    raw.file_field = self.file_property(schema);
                } else if kind == "application/json" {
                    raw.body = Some(shape::field(self, "", schema, false));
                }
            }
        }
        raw.answer = self.answer(op);
        raw
    }

    fn parameter(&self, p: &Value, raw: &mut Raw) {
        let Some(name) = p.get("name").and_then(Value::as_str) else {
            return;
        };
        let place = p.get("in").and_then(Value::as_str).unwrap_or_default();
        let required = p.get("required").and_then(Value::as_bool).unwrap_or(false);
        match place {
            "path" if !raw.path_params.iter().any(|(n, _)| n == name) => {
                raw.path_params
                    .push((name.to_string(), p.get("example").cloned()));
            }
            "query" if name == "organization_id" => raw.org = true,
            "query" | "header" => {
                let wire = name.to_string();
                let key = match place {
                    "header" => name.to_ascii_lowercase().replace('-', "_"),
                    _ => name.to_string(),
                };
                if raw.params.iter().any(|q| q.field.name == key) {
                    return;
                }
                let mut field = shape::field(
                    self,
                    &key,
                    p.get("schema").unwrap_or(&Value::Null),
                    required,
                );
                shape::describe(&mut field, p);
                raw.params.push(Param {
                    field,
                    place: if place == "header" {
                        Place::Header
                    } else {
                        Place::Query
                    },
                    wire,
                });
            }
            _ => {}
        }
    }

    fn file_property(&self, schema: &Value) -> Option<String> {
        let props = self.resolve(schema).get("properties")?.as_mapping()?;
        props.iter().find_map(|(k, v)| {
            let v = self.resolve(v);
            let binary = v.get("format").and_then(Value::as_str) == Some("binary")
                || v.get("items")
                    .map(|i| self.resolve(i))
                    .and_then(|i| i.get("format"))
                    .and_then(Value::as_str)
                    == Some("binary");
            binary.then(|| k.as_str().unwrap_or_default().to_string())
        })
    }

    fn answer(&self, op: &Value) -> Answer {
        let Some(responses) = op.get("responses").and_then(Value::as_mapping) else {
            return Answer::Nothing;
        };
        for (code, response) in responses {
            let code = match code {
                Value::Number(n) => n.to_string(),
                other => other.as_str().unwrap_or_default().to_string(),
            };
            if !code.starts_with('2') {
                continue;
            }
            let Some(content) = self
                .resolve(response)
                .get("content")
                .and_then(Value::as_mapping)
            else {
                return Answer::Nothing;
            };
            if let Some((kind, media)) = content.iter().next() {
                let kind = kind.as_str().unwrap_or_default();
                if kind != "application/json" {
                    return Answer::File(kind.to_string());
                }
                let schema = self.resolve(media.get("schema").unwrap_or(&Value::Null));
                let mut keys = Vec::new();
                let mut page = false;
                let required = required_names(schema);
                if let Some(props) = schema.get("properties").and_then(Value::as_mapping) {
                    for (k, v) in props {
                        let k = k.as_str().unwrap_or_default();
                        match k {
                            "code" | "message" => {}
                            "page_context" => page = true,
                            _ => {
                                let f = shape::field(self, k, v, required.contains(&k.to_string()));
                                keys.push((k.to_string(), f.node));
                            }
                        }
                    }
                }
                return Answer::Json { keys, page };
            }
        }
        Answer::Nothing
    }
}

/// The names a schema lists as required.
pub fn required_names(schema: &Value) -> Vec<String> {
    schema
        .get("required")
        .and_then(Value::as_sequence)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn scope(op: &Value) -> Option<String> {
    op.get("security")?
        .as_sequence()?
        .iter()
        .filter_map(Value::as_mapping)
        .flat_map(|m| m.values())
        .filter_map(Value::as_sequence)
        .flatten()
        .find_map(Value::as_str)
        .map(str::to_string)
}

/// Every document of both families under `dir` (`books/`, `inventory/`), in file order.
pub fn read_all(dir: &Path) -> Result<Vec<Doc>, String> {
    let mut docs = Vec::new();
    for family in ["books", "inventory"] {
        let mut files: Vec<_> = std::fs::read_dir(dir.join(family))
            .map_err(|e| format!("{}: {e}", dir.join(family).display()))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "yml" || x == "yaml"))
            .collect();
        files.sort();
        for f in files {
            docs.push(Doc::read(family, &f)?);
        }
    }
    Ok(docs)
}
