//! The validation cases of the golden corpus: the vendor's params against every hand-written row
//! (`ROWS`: the rows generated from the OpenAPI documents have their own tests), every field of each
//! set to awkward values, the fuzz regression inputs, and params generated from seeded bytes by the
//! fuzz harness; each as a JS program would hand it over.

#[path = "../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod harness;

use serde_json::{json, Map, Value};
use svc_core::catalog::{BodyKind, Operation, ROWS};
use svc_core::validate::{self, Kind, Schema, UNREPRESENTABLE};

/// 2024-05-01T10:40:00Z.
const NOW: i64 = 1_714_560_000_000;

/// Values every field is set to in turn: each edge the rules have, and the types they refuse.
fn awkward() -> Vec<Value> {
    let mut values = vec![
        json!(null),
        json!(""),
        json!(" "),
        json!("\u{85}"),
        json!("\u{feff}x"),
        json!("x".repeat(30)),
        json!("x".repeat(51)),
        json!("x".repeat(101)),
        json!("é".repeat(100)),
        json!("😀".repeat(60)),
        json!("x".repeat(2001)),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(100),
        json!(101),
        json!(4_294_967_296u64),
        json!(1e21),
        json!(true),
        json!("true"),
        json!([]),
        json!([null]),
        json!([1, "a", {}]),
        json!({}),
        json!({ UNREPRESENTABLE: "NaN" }),
        json!([{ UNREPRESENTABLE: "undefined" }]),
        json!({ "x": { UNREPRESENTABLE: "a function" } }),
        json!("abc12"),
        json!("ab_c"),
        json!("2024-02-29"),
        json!("2023-02-29"),
        json!("0050-03-01"),
        json!("12:30"),
        json!("10:60"),
        json!("9:30"),
        json!("2024-05-01T10:40:00Z"),
        json!("2024-05-03T00:00:00+05:30"),
        json!("2024-05-09T10:40:01Z"),
        json!("2024-04-30T23:59:59-0100"),
        json!("2024-05-01T10:39:59.999Z"),
        json!("https://hooks.example.com/a?b#c"),
        json!("HTTP://user@host:1/x"),
        json!("http://@:80"),
        json!("ftp://x"),
        json!("https://a b"),
        json!("Leads.create"),
        json!("Custom_1.all"),
        json!("Leads.update"),
        json!("1Leads.edit"),
        json!("1234"),
        json!(" 12 "),
        json!("-5"),
        json!("+.5e1"),
        json!("1e400"),
        json!("line\r\nX: 1"),
        json!([{ "field": { "api_name": "A", "id": "1" } }]),
        json!([{ "group_operator": "and", "group": [] }]),
        json!([{ "other": 1 }]),
    ];
    for set in [
        "straight_line",
        "declining_method",
        "odometer",
        "manual",
        "field_selection",
        "and",
        "small scale",
        "AccountType.All",
        "Status.Active",
    ] {
        values.push(json!(set));
    }
    values
}

fn vendor_params() -> Vec<Value> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/vendor");
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .expect("the vendor fixtures")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    names
        .iter()
        .filter_map(|p| {
            let file: Value = serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok()?;
            match file["method"].as_str() {
                Some("POST" | "PUT" | "PATCH") => Some(file["request_body"].clone()),
                _ => Some(file["query_params_example"].clone()),
            }
        })
        .filter(|v| !v.is_null())
        .collect()
}

/// The paths of every field below a schema (keys and the first member of arrays), as in a body.
fn field_paths(schema: &'static Schema, prefix: &[Value], depth: usize, out: &mut Vec<Vec<Value>>) {
    if depth > 4 {
        return;
    }
    for f in schema.fields {
        let mut path = prefix.to_vec();
        path.push(f.name.into());
        out.push(path.clone());
        let mut kind = &f.kind;
        if let Kind::Arr(member) = kind {
            path.push(0.into());
            kind = &member.kind;
        }
        if let Kind::Obj(inner) = kind {
            field_paths(inner, &path, depth + 1, out);
        }
    }
}

/// `base` with `v` at `path`, made as needed (arrays get one member).
fn set(base: &Value, path: &[Value], v: Value) -> Value {
    let mut out = base.clone();
    let mut at = &mut out;
    for seg in path {
        at = match seg {
            Value::String(k) => {
                if !at.is_object() {
                    *at = Value::Object(Map::new());
                }
                at.as_object_mut()
                    .unwrap()
                    .entry(k.clone())
                    .or_insert(Value::Null)
            }
            _ => {
                if !matches!(at, Value::Array(items) if !items.is_empty()) {
                    *at = json!([{}]);
                }
                &mut at[0]
            }
        };
    }
    *at = v;
    out
}

/// Whether a JS value can be this value: not an integer beyond 2^53 (JS cannot hold it), nor a float
/// with an integer value such as `1.0` or `-0.0` (in JS that is the integer, and JSON writes it so).
fn js_exact(v: &Value) -> bool {
    const MAX: u64 = 1 << 53;
    match v {
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => u <= MAX,
            (_, Some(i), _) => i.unsigned_abs() <= MAX,
            (_, _, Some(f)) => f.fract() != 0.0 || f.abs() >= 18_446_744_073_709_551_616.0,
            _ => true,
        },
        Value::Array(items) => items.iter().all(js_exact),
        Value::Object(m) => m.values().all(js_exact),
        _ => true,
    }
}

/// The value with its keys in the order a JS object keeps them: array indices ascending first.
fn js_order(v: &Value) -> Value {
    let index = |k: &str| -> Option<u32> {
        let n: u32 = k.parse().ok().filter(|n| *n < u32::MAX)?;
        (n.to_string() == k).then_some(n)
    };
    match v {
        Value::Array(items) => Value::Array(items.iter().map(js_order).collect()),
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort_by_key(|k| index(k).map_or((1, 0), |n| (0, n)));
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), js_order(&m[k])))
                    .collect(),
            )
        }
        other => other.clone(),
    }
}

/// One case: its key (stable when rows are added: the operation and what the case is), the operation,
/// "now" (ms since the epoch), the params as a JS program holds them, and the params the rules check
/// (an upload's files are the transport's to check, so they are left out).
pub struct Case<'a> {
    pub key: String,
    pub op: &'static Operation,
    pub now: i64,
    pub params: &'a Value,
    pub checked: &'a Value,
}

/// Calls `each` on every case, always in the same order.
pub fn each(mut each: impl FnMut(Case)) {
    let mut case = |key: String, op: &'static Operation, now: i64, params: &Value| {
        if !js_exact(params) {
            return;
        }
        let params = &js_order(params);
        let checked = match (op.body, params) {
            (BodyKind::Multipart { param, .. }, Value::Object(m)) => {
                let mut m = m.clone();
                m.shift_remove(param);
                Value::Object(m)
            }
            _ => params.clone(),
        };
        each(Case {
            key,
            op,
            now,
            params,
            checked: &checked,
        });
    };
    let bases = vendor_params();
    let values = awkward();
    for op in ROWS {
        let id = op.id;
        case(format!("{id}|null"), op, NOW, &Value::Null);
        for (i, params) in bases.iter().enumerate() {
            case(format!("{id}|vendor|{i}"), op, NOW, params);
        }
        let base = bases
            .iter()
            .find(|b| validate::validate_at(op, b, NOW).is_empty())
            .cloned()
            .unwrap_or_else(|| json!({}));
        let mut paths = Vec::new();
        field_paths(op.params, &[], 0, &mut paths);
        paths.push(vec!["unknown_field".into()]);
        for path in &paths {
            let at = serde_json::to_string(path).expect("a path is JSON");
            for (i, v) in values.iter().enumerate() {
                case(
                    format!("{id}|{at}|{i}"),
                    op,
                    NOW,
                    &set(&base, path, v.clone()),
                );
            }
        }
    }
    let regressions = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../crates/svc-sdk/fuzz/regressions/validate"
    );
    let mut files: Vec<_> = std::fs::read_dir(regressions)
        .expect("the fuzz regressions")
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if let Some((op, now, params)) = harness::validation_input(&std::fs::read(&file).unwrap()) {
            case(format!("{}|regression|{name}", op.id), op, now, &params);
        }
    }
    for (index, op) in ROWS.iter().enumerate() {
        // Seeded by the operation's id, so that a row added elsewhere in the table changes no case.
        let mut seed = op.id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        for j in 0..GENERATED_PER_OPERATION {
            let mut bytes = vec![index as u8, 1];
            for _ in 0..160 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                bytes.push(seed as u8);
            }
            if let Some((op, now, params)) = harness::validation_input(&bytes) {
                case(format!("{}|generated|{j}", op.id), op, now, &params);
            }
        }
    }
}

/// Generated params per operation (about 20,000 over the 61 rows of the spec).
const GENERATED_PER_OPERATION: usize = 330;

/// The issues of a case as the golden corpus holds them: one line of JSON, written by the core's
/// own writer (what the validation wasm sends), which must match serde_json's byte for byte.
pub fn issues_line(case: &Case) -> String {
    let issues = validate::validate_from(case.op, case.checked, case.now, validate::Source::Js);
    let line = svc_json::ToJson::to_json_text(&issues);
    debug_assert_eq!(
        line,
        serde_json::to_string(&issues).expect("issues are JSON")
    );
    line
}

/// Where the golden corpus lives: the key and the issues of every case, one line each
/// (`key<TAB>issues`), gzip-compressed.
pub const GOLDEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/golden/validation_issues.jsonl.gz"
);

/// The golden corpus: the issues of each case by its key.
#[allow(dead_code)]
pub fn golden() -> std::collections::HashMap<String, String> {
    use std::io::{BufRead, BufReader};
    let file = std::fs::File::open(GOLDEN).expect("the golden corpus");
    BufReader::new(flate2::read::GzDecoder::new(file))
        .lines()
        .map(|line| {
            let line = line.expect("gzip");
            let (key, issues) = line.split_once('\t').expect("key<TAB>issues");
            (key.to_string(), issues.to_string())
        })
        .collect()
}

/// Whether a case's operation depends on the table's size (a fuzz regression picks its operation by
/// index), so that it may be missing from the corpus after rows were added.
#[allow(dead_code)]
pub fn moves_with_the_table(key: &str) -> bool {
    key.split('|').nth(1) == Some("regression")
}
