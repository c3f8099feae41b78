//! Prints, as JSON, what the declarations build (scripts/build.mjs) needs of each row: whether it is
//! a list, its TS types, whether its params are required. `cargo run -p svc-core --example types`.

use svc_core::catalog::{BodyKind, Shape, OPERATIONS};

fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn main() {
    let rows: Vec<String> = OPERATIONS
        .iter()
        .map(|op| {
            let list = matches!(op.response, Shape::List(_));
            let required = op.params.fields.iter().any(|f| f.required)
                || matches!(op.body, BodyKind::Multipart { .. });
            format!(
                "{}:{{\"list\":{list},\"params\":{},\"result\":{},\"paramsRequired\":{required}}}",
                quoted(op.id),
                quoted(&op.params_ts()),
                quoted(&op.result_ts())
            )
        })
        .collect();
    println!("{{{}}}", rows.join(","));
}
