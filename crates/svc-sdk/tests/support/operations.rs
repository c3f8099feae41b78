//! docs/OPERATIONS.md as the table makes it: every operation by family, with where it is documented.

use svc_sdk::catalog::{operations, Source};
use svc_sdk::family::Family;

/// Where the list is kept.
pub const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/OPERATIONS.md");

pub fn render() -> String {
    let count = |s: Source| operations().iter().filter(|op| op.source == s).count();
    let mut out = String::new();
    out.push_str("# Operations\n\n");
    out.push_str("Written by `cargo run --example operations -- --write` from the table in `crates/svc-core/src/catalog.rs`; a test\n");
    out.push_str("checks that it is current. Each operation is one method of `Client`, with the path values first,\n");
    out.push_str("then the params. `operations()` reports the same, `source` included.\n\n");
    out.push_str(&format!(
        "{} operations: {} from the spec, {} that only the vendor's published examples document (their\n",
        operations().len(),
        count(Source::Spec),
        count(Source::Vendor)
    ));
    out.push_str("rules are the spec's where it names the model, else the field types of the vendor's example), and\n");
    out.push_str(&format!(
        "{} generated from the vendor's OpenAPI documents by `cargo run -p xtask -- operations` (their rules are\n",
        count(Source::Published)
    ));
    out.push_str(
        "what the documents state, with the corrections of `crates/xtask/overrides.yml`).\n",
    );
    for family in Family::ALL {
        let ops: Vec<_> = operations()
            .iter()
            .filter(|op| op.family == family)
            .collect();
        out.push_str(&format!("\n## {} ({})\n\n", family.name(), ops.len()));
        out.push_str("| operation | method and path | scope | source |\n|---|---|---|---|\n");
        for op in ops {
            let source = match op.source {
                Source::Spec => "spec",
                Source::Vendor => "vendor example",
                Source::Published => "OpenAPI document",
            };
            out.push_str(&format!(
                "| `{}` | `{} {}` | `{}` | {} |\n",
                op.id,
                op.method.as_str(),
                op.path,
                op.scope,
                source
            ));
        }
    }
    out
}
