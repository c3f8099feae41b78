//! The fuzz harness of svc-json: `read`, the function of the cargo-fuzz target `read`, and its oracle
//! `same_as_serde_json`, shared with `tests/differential.rs`, which runs the oracle on its texts and
//! `read` on every input of `fuzz/regressions/read/`.
//!
//! Nothing may panic except these asserts. The test includes this file with `#[path]`, so it uses
//! only `svc_json` and `serde_json` and runs on stable Rust.
#![forbid(unsafe_code)]

use serde_json::Value;
use svc_json::{parse, Json, Num, ToJson};

/// Any bytes, read as text (a byte that is not UTF-8 replaced): `same_as_serde_json`.
pub fn read(data: &[u8]) {
    same_as_serde_json(&String::from_utf8_lossy(data));
}

/// svc-json reads `text` as serde_json does: the same values (numbers as serde_json classifies and
/// rounds them, keys in the same order) or the same error message, at the same line and column. The
/// one difference is meant: a number beyond a double's range, which serde_json refuses, is read with
/// its text. What is read is written back as it was read (`round_trip`).
pub fn same_as_serde_json(text: &str) {
    match (parse(text), serde_json::from_str::<Value>(text)) {
        (Ok(ours), Ok(theirs)) => {
            assert!(same(&ours, &theirs), "{text:?}: {ours:?} vs {theirs:?}");
            let written = round_trip(&ours);
            assert!(same(&parse(&written).unwrap(), &theirs), "{written:?}");
            assert_eq!(
                svc_json::from_json::<Value>(&ours).ok().as_ref(),
                Some(&theirs),
                "{text:?}: serde's data model, read from the tree"
            );
            if !has_float(&theirs) {
                assert_eq!(written, theirs.to_string(), "{text:?}");
                assert_eq!(
                    svc_json::to_string(&ours),
                    written,
                    "{text:?}: serde's data model"
                );
                assert_eq!(
                    serde_json::to_string(&ours).ok().as_ref(),
                    Some(&written),
                    "{text:?}: the tree's Serialize"
                );
            }
        }
        // Past a number beyond a double's range, which serde_json refuses, ours reads on.
        (Err(_), Err(theirs)) if theirs.to_string().starts_with("number out of range") => {}
        (Err(ours), Err(theirs)) => assert_eq!(ours.message(), theirs.to_string(), "{text:?}"),
        // A number beyond a double's range is read with its text, where serde_json refuses it.
        (Ok(ours), Err(theirs)) if theirs.to_string().starts_with("number out of range") => {
            let written = round_trip(&ours);
            assert!(written.len() <= text.trim().len(), "{text:?}: {written:?}");
        }
        (ours, theirs) => panic!("{text:?}: {ours:?} vs {theirs:?}"),
    }
}

/// The compact text of what was read, which reads back as the same tree (every number's text and
/// every string kept) and writes again as the same text; an owned copy is the same tree too.
fn round_trip(ours: &Json) -> String {
    let written = ours.to_json_text();
    let again = parse(&written).unwrap_or_else(|e| panic!("{written:?}: {e}"));
    assert_eq!(&again, ours, "{written:?}");
    assert_eq!(again.to_json_text(), written);
    assert_eq!(&ours.clone().into_owned(), ours);
    written
}

/// Whether a tree is serde_json's value: the same kinds, numbers of the same class and bits, and
/// the same keys in the same order.
fn same(ours: &Json, theirs: &Value) -> bool {
    match (ours, theirs) {
        (Json::Null, Value::Null) => true,
        (Json::Bool(a), Value::Bool(b)) => a == b,
        (Json::Str(a), Value::String(b)) => a == b,
        (Json::Num(_), Value::Number(n)) => match ours.as_num() {
            Some(Num::U(u)) => n.as_u64() == Some(u) && n.is_u64(),
            Some(Num::I(i)) => n.as_i64() == Some(i) && n.is_i64() && !n.is_u64(),
            Some(Num::F(f)) => n.is_f64() && n.as_f64().map(f64::to_bits) == Some(f.to_bits()),
            None => false,
        },
        (Json::Arr(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (Json::Obj(a), Value::Object(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|((k, x), (l, y))| k == l && same(x, y))
        }
        _ => false,
    }
}

/// Whether serde_json read a float anywhere in the value (which it writes with its own printer).
fn has_float(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.is_f64(),
        Value::Array(a) => a.iter().any(has_float),
        Value::Object(m) => m.values().any(has_float),
        _ => false,
    }
}
