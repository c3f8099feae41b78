//! The sample call and the summary of every row, for tests and the declarations' docs: the vendor's
//! published example of the row's family, method and path where there is one, else a sample written
//! here, keyed by operation id.

use crate::catalog::{BodyKind, Operation, Source};
use crate::schema::Kind;
use serde_json::{json, Map, Value};
use std::sync::OnceLock;

const VENDOR_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/vendor");

/// Samples of the rows whose operation the vendor publishes no example of: their summary, path values
/// and params.
const SAMPLES: &[(&str, &str, &[&str], &str)] = &[
    (
        "createPackage",
        "Create a package",
        &[],
        r#"{"salesorder_id":"5","date":"2024-01-02","line_items":[{"so_line_item_id":"9","quantity":1}]}"#,
    ),
    (
        "listPackages",
        "List packages",
        &[],
        r#"{"status":"Shipped"}"#,
    ),
    ("getPackage", "Get a package", &["9007199254740993"], "{}"),
    (
        "updatePackage",
        "Update a package",
        &["9007199254740993"],
        r#"{"notes":"n"}"#,
    ),
    (
        "createCompositeItem",
        "Create a composite item",
        &[],
        r#"{"name":"Kit","mapped_items":[{"item_id":"1","quantity":2}]}"#,
    ),
    ("listCompositeItems", "List composite items", &[], "{}"),
    (
        "updateCompositeItem",
        "Update a composite item",
        &["c#1"],
        r#"{"name":"Kit"}"#,
    ),
    (
        "uploadCompositeItemImage",
        "Upload a composite item's image",
        &["c1"],
        "{}",
    ),
    (
        "createPlan",
        "Create a plan",
        &[],
        r#"{"plan_code":"basic","name":"Basic","recurring_price":10,"interval":1,"interval_unit":"months"}"#,
    ),
    (
        "listPlans",
        "List plans",
        &[],
        r#"{"filter_by":"PlanStatus.ACTIVE"}"#,
    ),
    (
        "updatePlan",
        "Update a plan",
        &["basic plan"],
        r#"{"name":"Basic"}"#,
    ),
    ("getEvent", "Get an event", &["e1"], "{}"),
    ("listEvents", "List events", &[], r#"{"page":3}"#),
    (
        "updateNotificationChannels",
        "Update notification channels",
        &[],
        r#"{"watch":[{"channel_id":1000000068001,"events":["Deals.all"],"notify_url":"https://hooks.example.com/svc"}]}"#,
    ),
];

/// One published example of the vendor: its file name and contents.
#[derive(Debug)]
pub struct VendorFile {
    pub name: String,
    pub json: Value,
}

impl VendorFile {
    /// The family a file stands for: `books-as-invoice__...` stands in for the invoice family.
    fn family(&self) -> &str {
        let prefix = self.name.split("__").next().unwrap_or("");
        prefix.rsplit("-as-").next().unwrap_or(prefix)
    }

    pub fn is_of(&self, op: &Operation) -> bool {
        self.family() == op.family.name()
            && self.json["method"] == op.method.as_str()
            && self.json["path"] == op.path
    }

    /// The JSON paths where the vendor's request holds a type placeholder instead of an example.
    pub fn placeholders(&self) -> Vec<String> {
        self.json["type_placeholders_used"]["request"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p.as_str().map(String::from))
            .collect()
    }
}

/// Every vendor file, read once, sorted by name.
pub fn vendor_files() -> &'static [VendorFile] {
    static FILES: OnceLock<Vec<VendorFile>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut files: Vec<VendorFile> = std::fs::read_dir(VENDOR_DIR)
            .unwrap_or_else(|e| panic!("the vendor examples are in tests/fixtures/vendor: {e}"))
            .filter_map(|e| {
                let path = e.ok()?.path();
                let name = path
                    .file_name()?
                    .to_str()?
                    .strip_suffix(".json")?
                    .to_string();
                let text = std::fs::read_to_string(&path).ok()?;
                let json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
                Some(VendorFile { name, json })
            })
            .collect();
        files.sort_by(|a, b| a.name.cmp(&b.name));
        files
    })
}

/// The vendor's example of a row, if the vendor publishes one.
pub fn vendor_of(op: &Operation) -> Option<&'static VendorFile> {
    vendor_files().iter().find(|f| f.is_of(op))
}

/// A call of a row as a user writes it: path values in order, and params.
#[derive(Debug)]
pub struct Sample {
    pub path: Vec<String>,
    pub params: Value,
    /// The vendor file it comes from, if any.
    pub vendor: Option<&'static VendorFile>,
}

const PUBLISHED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/published/examples.json"
);

/// The generated rows' sample calls and answers (`cargo run -p xtask -- operations`).
pub fn published() -> &'static Map<String, Value> {
    static ALL: OnceLock<Map<String, Value>> = OnceLock::new();
    ALL.get_or_init(|| {
        let text =
            std::fs::read_to_string(PUBLISHED).unwrap_or_else(|e| panic!("{PUBLISHED}: {e}"));
        match serde_json::from_str(&text) {
            Ok(Value::Object(m)) => m,
            _ => panic!("{PUBLISHED} is not a JSON object"),
        }
    })
}

/// The sample call of a row. Panics for a row that has neither a vendor example nor a sample here.
pub fn sample(op: &Operation) -> Sample {
    if op.source == Source::Published {
        let e = &published()[op.id];
        return Sample {
            path: e["path"]
                .as_array()
                .map(|p| p.iter().map(text_of).collect())
                .unwrap_or_default(),
            params: e["params"].clone(),
            vendor: None,
        };
    }
    if let Some(file) = vendor_of(op) {
        let path = op
            .path_params()
            .map(|p| text_of(&file.json["path_params_example"][p]))
            .collect();
        return Sample {
            path,
            params: vendor_params(op, file),
            vendor: Some(file),
        };
    }
    let (_, _, path, params) = SAMPLES
        .iter()
        .find(|(id, ..)| *id == op.id)
        .unwrap_or_else(|| panic!("{}: no vendor example in tests/fixtures/vendor and no sample: add its summary, path values and params to SAMPLES in crates/svc-core/src/examples.rs", op.id));
    Sample {
        path: path.iter().map(|s| s.to_string()).collect(),
        params: serde_json::from_str(params)
            .unwrap_or_else(|e| panic!("{}: its sample params are not JSON: {e}", op.id)),
        vendor: None,
    }
}

/// What a row does in a few words: the vendor's summary, else the one written with its sample.
pub fn summary(op: &Operation) -> String {
    if op.source == Source::Published {
        return crate::catalog::in_words(&crate::catalog::local_name(op));
    }
    if let Some(file) = vendor_of(op) {
        if let Some(s) = file.json["summary"].as_str() {
            return s.to_string();
        }
    }
    SAMPLES
        .iter()
        .find(|(id, ..)| *id == op.id)
        .map(|(_, summary, ..)| summary.to_string())
        .unwrap_or_default()
}

/// A one-line call of a row, as a user writes it: its sample's path values, then its params (those
/// required, or the first two when none is, unless the whole sample is short), or its files. What a
/// sample leaves blank or null (not given) and names its type does not know are left out; an id is
/// written as its digits in a string, as a user should.
pub fn call_line(op: &Operation) -> String {
    let s = sample(op);
    let mut args: Vec<String> = s
        .path
        .iter()
        .map(|p| js_literal(&Value::from(p.as_str())))
        .collect();
    let params = match (op.body, &s.params) {
        (BodyKind::Multipart { param, many, .. }, _) => Some(format!(
            "{{ {param}: {} }}",
            if many { "[file]" } else { "file" }
        )),
        (_, Value::Object(sample)) => {
            let field = |k: &str| op.params.fields.iter().find(|f| f.name == k);
            let typed = op.params.fields.iter().any(|f| !f.name.is_empty());
            let all: Map<String, Value> = sample
                .iter()
                .filter(|(k, v)| !v.is_null() && *v != "" && (!typed || field(k).is_some()))
                .map(|(k, v)| match (field(k).map(|f| f.kind), v) {
                    (Some(Kind::Id), Value::Number(n)) => (k.clone(), Value::from(n.to_string())),
                    _ => (k.clone(), v.clone()),
                })
                .collect();
            let required = |k: &str| field(k).is_some_and(|f| f.required);
            let some: Map<String, Value> = if all.keys().any(|k| required(k)) {
                all.iter()
                    .filter(|(k, _)| required(k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            } else {
                all.iter()
                    .take(2)
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            };
            let whole = js_literal(&Value::Object(all));
            match whole.len() {
                2 => None,
                0..=60 => Some(whole),
                _ => Some(js_literal(&Value::Object(some))),
            }
        }
        _ => None,
    };
    args.extend(params);
    format!("await client.{}({})", op.id, args.join(", "))
}

/// A JSON value as a JS literal: keys unquoted where they are names.
fn js_literal(v: &Value) -> String {
    match v {
        Value::Object(m) if m.is_empty() => "{}".into(),
        Value::Object(m) => {
            let members: Vec<String> = m
                .iter()
                .map(|(k, v)| {
                    let plain = !k.is_empty()
                        && !k.starts_with(|c: char| c.is_ascii_digit())
                        && k.chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
                    let key = if plain {
                        k.clone()
                    } else {
                        Value::from(k.as_str()).to_string()
                    };
                    format!("{key}: {}", js_literal(v))
                })
                .collect();
            format!("{{ {} }}", members.join(", "))
        }
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(js_literal).collect::<Vec<_>>().join(", ")
        ),
        other => other.to_string(),
    }
}

fn text_of(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), String::from)
}

/// The params a user passes for a vendor example: the body of a body method (the header values
/// under their param names, the query params the row sends in the query), else the query without
/// `organization_id`. A multipart upload's params are empty (its files are not in the example).
fn vendor_params(op: &Operation, file: &VendorFile) -> Value {
    let j = &file.json;
    let mut params = Map::new();
    let query = j["query_params_example"].as_object();
    if let BodyKind::Multipart { .. } = op.body {
        return json!({});
    }
    if op.method.has_body() {
        if let Some(body) = j["request_body"].as_object() {
            params.extend(body.clone());
        }
        for name in op.query {
            if let Some(v) = query.and_then(|q| q.get(*name)) {
                params.insert(name.to_string(), v.clone());
            }
        }
        let headers = j["request_headers_example"].as_object();
        for (param, header) in op.headers {
            if let Some(v) = headers.and_then(|h| h.get(*header)) {
                params.insert(param.to_string(), v.clone());
            }
        }
    } else if let Some(q) = query {
        params.extend(q.clone());
        params.remove("organization_id");
    }
    Value::Object(params)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::operations;

    #[test]
    fn every_row_has_a_sample_and_no_row_has_two_sources() {
        for op in operations() {
            let s = sample(op);
            assert_eq!(s.path.len(), op.path_param_count(), "{}", op.id);
            let hand = SAMPLES.iter().any(|(id, _, _, _)| *id == op.id);
            assert!(
                !(hand && s.vendor.is_some()),
                "{}: the vendor publishes an example; drop its sample from SAMPLES",
                op.id
            );
        }
        for (id, _, _, _) in SAMPLES {
            assert!(
                crate::catalog::find(id).is_some(),
                "SAMPLES names {id}, not a row"
            );
        }
    }

    #[test]
    fn each_vendor_file_stands_for_one_row() {
        assert!(vendor_files().len() >= 111);
        for file in vendor_files() {
            let rows = operations().iter().filter(|op| file.is_of(op)).count();
            assert_eq!(rows, 1, "{} stands for {rows} rows", file.name);
        }
    }

    #[test]
    fn a_row_typed_as_taking_no_params_is_sent_none_by_the_vendor() {
        let mut none = 0;
        for op in operations()
            .iter()
            .filter(|op| op.params_ts() == "NoParams")
        {
            none += 1;
            assert!(op.params.fields.is_empty(), "{}", op.id);
            let s = sample(op);
            assert_eq!(s.params, json!({}), "{}: give it a params type", op.id);
        }
        assert!(none >= 50, "{none} rows take no params");
    }
}
