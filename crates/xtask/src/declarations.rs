//! `cargo run -p xtask -- declarations`: the TypeScript the Rust owns, as one JSON object, for the
//! package's declarations (scripts/build.mjs runs it and hands it to scripts/declarations.mjs): of each
//! row (`rows`) whether it is a list, its name in its family's namespace, its TS types, whether its
//! params are required, its summary and a one-line call; each request type's declaration with its
//! rules as JSDoc (`requests`); the shapes of svc-sdk's surface (`surface`: options, errors, issues, log
//! records, hook and operation infos, `svc_sdk::surface`); and the sandbox's options with their
//! defaults (`sandbox`, `svc_testing::surface`).

use serde_json::{json, Map, Value};
use svc_core::catalog::{local_name, operations, BodyKind, Shape};
use svc_core::{examples, jsdoc};

/// The JSON text the build reads.
pub fn json() -> String {
    let mut rows = Map::new();
    for op in operations() {
        let required = op.params.fields.iter().any(|f| f.required)
            || matches!(op.body, BodyKind::Multipart { .. });
        rows.insert(
            op.id.into(),
            json!({
                "list": matches!(op.response, Shape::List(_)),
                "local": local_name(op),
                "params": op.params_ts(),
                "result": op.result_ts(),
                "paramsRequired": required,
                "summary": examples::summary(op),
                "example": examples::call_line(op),
            }),
        );
    }
    let requests: Map<String, Value> = jsdoc::requests()
        .iter()
        .map(|r| (r.name.to_string(), Value::from(jsdoc::declaration(r))))
        .collect();
    json!({
        "rows": rows,
        "requests": requests,
        "surface": svc_sdk::surface::declarations(),
        "sandbox": svc_testing::surface::declarations(),
    })
    .to_string()
}
