//! The rules of an operation as JSON data, for the JS engine that runs them in the package.

use super::{Field, Kind, Rule, Schema};
use crate::catalog::{BodyKind, Operation};
use serde_json::{json, Value};

/// `{ id, index, path_params, body, query, headers, files, schemas }`: `index` is the operation's
/// place in the table, `path_params` the names of its path parameters in order; `schemas[0]` is
/// the params' schema; an object kind
/// names another schema by its index, so shared and recursive schemas are written once. `files` is
/// the upload's param (`{ param, many, accept }`), which the rules leave out.
pub fn operation_rules(op: &Operation) -> Value {
    let mut out = Schemas::default();
    out.schema(op.params);
    let files = match op.body {
        BodyKind::Multipart {
            param,
            many,
            accept,
            ..
        } => json!({ "param": param, "many": many, "accept": accept }),
        _ => Value::Null,
    };
    json!({
        "id": op.id,
        "index": crate::catalog::OPERATIONS.iter().position(|o| o.id == op.id),
        "path_params": op.path_params().collect::<Vec<_>>(),
        "body": op.method.has_body(),
        "query": op.query,
        "headers": op.headers.iter().map(|(p, h)| json!([p, h])).collect::<Vec<_>>(),
        "files": files,
        "schemas": out.written,
    })
}

#[derive(Default)]
struct Schemas {
    seen: Vec<*const Schema>,
    written: Vec<Value>,
}

impl Schemas {
    fn schema(&mut self, schema: &'static Schema) -> usize {
        if let Some(i) = self.seen.iter().position(|s| std::ptr::eq(*s, schema)) {
            return i;
        }
        let i = self.seen.len();
        self.seen.push(schema);
        self.written.push(Value::Null);
        let fields: Vec<Value> = schema.fields.iter().map(|f| self.field(f)).collect();
        let checks: Vec<Value> = schema
            .checks
            .iter()
            .map(|c| {
                let below: Vec<usize> = c.schemas().iter().map(|s| self.schema(s)).collect();
                json!([c.name(), below])
            })
            .collect();
        self.written[i] = json!({ "fields": fields, "checks": checks });
        i
    }

    /// `[name, kind, required, rules]`.
    fn field(&mut self, field: &'static Field) -> Value {
        let kind = match field.kind {
            Kind::Str => "str".into(),
            Kind::Num => "num".into(),
            Kind::Int => "int".into(),
            Kind::Bool => "bool".into(),
            Kind::Id => "id".into(),
            Kind::StrOrNum => "strnum".into(),
            Kind::BoolLike => "boollike".into(),
            Kind::Any => "any".into(),
            Kind::Obj(schema) => self.schema(schema).into(),
            Kind::Arr(member) => json!(["arr", self.field(member)]),
        };
        let rules: Vec<Value> = field.rules.iter().map(rule).collect();
        json!([field.name, kind, field.required, rules])
    }
}

fn rule(rule: &Rule) -> Value {
    match *rule {
        Rule::MaxLen(n) => json!(["max_len", n]),
        Rule::LenBetween(a, b) => json!(["len_between", a, b]),
        Rule::Range(a, b) => json!(["range", a, b]),
        Rule::OneOf(values) => json!(["one_of", values]),
        Rule::OneOfUnlessBlank(values) => json!(["one_of_unless_blank", values]),
        Rule::Format(f) => json!(["format", f.name(), f.describe()]),
        Rule::MaxItems(n) => json!(["max_items", n]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{find, OPERATIONS};

    #[test]
    fn every_operation_exports_its_rules() {
        for op in OPERATIONS {
            let out = operation_rules(op);
            assert_eq!(out["id"], op.id);
            assert_eq!(
                OPERATIONS[out["index"].as_u64().unwrap() as usize].id,
                op.id
            );
            assert_eq!(
                out["path_params"].as_array().unwrap().len(),
                op.path_params().count()
            );
            assert!(out["schemas"][0]["fields"].is_array(), "{}", op.id);
        }
    }

    #[test]
    fn recursive_schemas_are_written_once_and_named_by_index() {
        let out = operation_rules(find("updateNotificationChannels").unwrap());
        let schemas = out["schemas"].as_array().unwrap();
        let group = schemas
            .iter()
            .position(|s| s["checks"][0][0] == "group_members")
            .expect("the group schema");
        let below = schemas[group]["checks"][0][1].as_array().unwrap();
        assert_eq!(below[1], group, "a nested group is the group schema itself");
        assert_eq!(
            schemas.len(),
            schemas
                .iter()
                .map(|s| s.to_string())
                .collect::<std::collections::HashSet<_>>()
                .len()
        );
    }

    #[test]
    fn rules_and_kinds_are_spelled_for_the_js_engine() {
        let out = operation_rules(find("createOrganization").unwrap());
        let portal = out["schemas"][0]["fields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f[0] == "portal_name")
            .unwrap();
        assert_eq!(
            *portal,
            json!([
                "portal_name",
                "str",
                true,
                [
                    ["len_between", 5, 30],
                    ["format", "alphanumeric", "letters and digits only"]
                ]
            ])
        );
        let upload = operation_rules(find("addExpenseAttachment").unwrap());
        assert_eq!(upload["files"]["param"], "files");
        assert_eq!(upload["files"]["many"], true);
    }
}
