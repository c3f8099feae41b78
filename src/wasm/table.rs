//! What the package's build reads from the wasm: the regions (the rows' TypeScript types come from
//! `cargo run -p svc-core --example types`).

use super::json_to_js;
use wasm_bindgen::prelude::*;

/// The regions and their API domains, for the package's `regions` export.
#[wasm_bindgen(js_name = __regions, skip_typescript)]
pub fn regions() -> JsValue {
    let map: serde_json::Map<String, serde_json::Value> = crate::family::REGIONS
        .iter()
        .map(|(r, d)| (r.to_string(), (*d).into()))
        .collect();
    json_to_js(&serde_json::Value::Object(map).to_string())
}
