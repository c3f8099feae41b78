//! Prints, as JSON, what the declarations build (scripts/build.mjs) needs: of each row (`rows`),
//! whether it is a list, its name in its family's namespace, its TS types, whether its params are
//! required, its summary and a one-line call; and each request type's declaration with its rules as
//! JSDoc (`requests`). `cargo run -p svc-core --features serde_json --example types`.

use svc_core::catalog::{operations, BodyKind, Shape};
use svc_core::{examples, jsdoc};

fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("a string")
}

fn main() {
    let rows: Vec<String> = operations()
        .iter()
        .map(|op| {
            let list = matches!(op.response, Shape::List(_));
            let required = op.params.fields.iter().any(|f| f.required)
                || matches!(op.body, BodyKind::Multipart { .. });
            format!(
                "{}:{{\"list\":{list},\"local\":{},\"params\":{},\"result\":{},\"paramsRequired\":{required},\"summary\":{},\"example\":{}}}",
                quoted(op.id),
                quoted(&svc_core::catalog::local_name(op)),
                quoted(&op.params_ts()),
                quoted(&op.result_ts()),
                quoted(&examples::summary(op)),
                quoted(&examples::call_line(op))
            )
        })
        .collect();
    let requests: Vec<String> = jsdoc::requests()
        .iter()
        .map(|r| format!("{}:{}", quoted(r.name), quoted(&jsdoc::declaration(r))))
        .collect();
    println!(
        "{{\"rows\":{{{}}},\"requests\":{{{}}}}}",
        rows.join(","),
        requests.join(",")
    );
}
