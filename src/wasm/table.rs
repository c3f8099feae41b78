//! What the package's build reads from the wasm: the regions, and each operation's TypeScript types.

use super::json_to_js;
use crate::catalog;
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

/// Per operation, what the declarations generator needs: whether it is a list, and its TS types.
#[wasm_bindgen(js_name = __types, skip_typescript)]
pub fn types() -> JsValue {
    let map: serde_json::Map<String, serde_json::Value> = catalog::OPERATIONS
        .iter()
        .map(|op| {
            let list = matches!(op.response, catalog::Shape::List(_));
            let required = op.params.fields.iter().any(|f| f.required) || matches!(op.body, catalog::BodyKind::Multipart { .. });
            let result = if op.response == catalog::Shape::Binary { "Blob" } else { op.ts.1 };
            let info = serde_json::json!({ "list": list, "params": op.ts.0, "result": result, "paramsRequired": required });
            (op.id.to_string(), info)
        })
        .collect();
    json_to_js(&serde_json::Value::Object(map).to_string())
}
