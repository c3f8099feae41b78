//! The example answers of the generated rows (tests/fixtures/published/examples.json), read once;
//! the wasm build goes without them and answers from its records alone.

use crate::record::Value;
use svc_core::catalog::Operation;

#[cfg(not(target_arch = "wasm32"))]
fn all() -> Option<&'static Value> {
    static TEXT: &str = include_str!("../../../../tests/fixtures/published/examples.json");
    static ALL: std::sync::OnceLock<Option<Value>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| svc_json::parse(TEXT).ok()).as_ref()
}

#[cfg(target_arch = "wasm32")]
fn all() -> Option<&'static Value> {
    None
}

/// The example answer of a row, whole (`code`, `message` and the resource).
pub fn answer(op: &Operation) -> Option<&'static Value> {
    all()?.get(op.id)?.get("answer").filter(|a| a.is_object())
}

/// The member of a row's example answer under `key`.
pub fn member(op: &Operation, key: &str) -> Option<Value> {
    answer(op)?.get(key).cloned()
}
