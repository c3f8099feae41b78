//! `cargo run -p xtask -- declarations`: the TypeScript the Rust owns, as one JSON object, for the
//! package's declarations (scripts/build.mjs runs it and hands it to scripts/declarations.mjs).
//! `parts`, each put where its `// @generated <part>` marker is in a partial of
//! scripts/declarations/partials/: the shapes of svc-sdk's surface (`surface`: options, errors,
//! issues, log records, hook and operation infos, `svc_sdk::surface`), what follows from the rows
//! (`operations`, `client`, `families`: `crate::client`), and the sandbox's options with their
//! defaults (`sandbox`, `svc_testing::surface`). `requests`: each request type's declaration with its
//! rules as JSDoc (`svc_core::jsdoc`), which takes the place of tsify's among the models.

use serde_json::{json, Map, Value};
use svc_core::jsdoc;

/// The JSON text the build reads.
pub fn json() -> String {
    let requests: Map<String, Value> = jsdoc::requests()
        .iter()
        .map(|r| (r.name.to_string(), Value::from(jsdoc::declaration(r))))
        .collect();
    json!({
        "parts": {
            "surface": svc_sdk::surface::declarations(),
            "operations": crate::client::operation_types(),
            "client": crate::client::client_members(),
            "families": crate::client::family_interfaces(),
            "sandbox": svc_testing::surface::declarations(),
        },
        "requests": requests,
    })
    .to_string()
}
