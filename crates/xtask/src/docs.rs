//! `cargo run -p xtask -- docs`: the generated documents of the table, docs/OPERATIONS.md (every
//! operation by family, with where it is documented) and the rules of docs/VALIDATION.md (between its
//! markers, `svc_core::rules_doc`).

use svc_core::catalog::{operations, Source};
use svc_core::family::Family;

/// Every file the task writes, relative to the repository's root, with its text.
pub fn outputs(root: &std::path::Path) -> Result<Vec<(&'static str, Vec<u8>)>, String> {
    Ok(vec![
        ("docs/OPERATIONS.md", operations_md().into_bytes()),
        ("docs/VALIDATION.md", validation_md(root)?.into_bytes()),
    ])
}

/// docs/VALIDATION.md with its generated part, between `BEGIN` and `END`, written anew.
fn validation_md(root: &std::path::Path) -> Result<String, String> {
    use svc_core::rules_doc::{markdown, BEGIN, END};
    let doc = std::fs::read_to_string(root.join("docs/VALIDATION.md"))
        .map_err(|e| format!("docs/VALIDATION.md: {e}"))?;
    let (Some(a), Some(b)) = (doc.find(BEGIN), doc.find(END)) else {
        return Err(format!(
            "docs/VALIDATION.md has no {BEGIN} … {END} markers: put them where the rules go"
        ));
    };
    Ok(format!(
        "{}{}{}",
        &doc[..a],
        markdown(),
        &doc[b + END.len()..]
    ))
}

/// docs/OPERATIONS.md as the table makes it.
fn operations_md() -> String {
    let count = |s: Source| operations().iter().filter(|op| op.source == s).count();
    let mut out = String::new();
    out.push_str("# Operations\n\n");
    out.push_str("Written by `cargo run -p xtask -- docs` from the table in `crates/svc-core/src/catalog.rs`; a test\n");
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
