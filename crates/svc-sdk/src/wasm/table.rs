//! What the package's build reads from the wasm: the regions, their accounts servers and the documented error codes (the rows' TypeScript types come from
//! `cargo run -p xtask -- declarations`).

use super::json_to_js;
use wasm_bindgen::prelude::*;

/// The regions and their API domains, for the package's `regions` export.
#[wasm_bindgen(js_name = __regions, skip_typescript)]
pub fn regions() -> JsValue {
    by_region(&svc_core::family::REGIONS)
}

/// The regions and their accounts servers, for the package's `accountsServers` export.
#[wasm_bindgen(js_name = __accountsServers, skip_typescript)]
pub fn accounts_servers() -> JsValue {
    by_region(&svc_core::family::ACCOUNTS_SERVERS)
}

fn by_region(rows: &[(&str, &str)]) -> JsValue {
    let mut text = String::new();
    let mut members = svc_json::write::Members::new(&mut text);
    for (region, url) in rows {
        members.str(region, url);
    }
    members.end();
    json_to_js(&text)
}

/// The service's documented error codes by name (`code::ALL`), for the package's `ErrorCode` export.
#[wasm_bindgen(js_name = __errorCodes, skip_typescript)]
pub fn error_codes() -> JsValue {
    json_to_js(&svc_core::code::to_json())
}
