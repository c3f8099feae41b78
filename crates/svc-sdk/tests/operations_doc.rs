//! docs/OPERATIONS.md lists every operation of the table by family, with its source.

mod support {
    pub mod operations;
}

use support::operations;

#[test]
fn the_list_of_operations_is_the_table() {
    let doc = std::fs::read_to_string(operations::DOC).unwrap_or_default();
    assert!(
        doc == operations::render(),
        "docs/OPERATIONS.md is not the table's: cargo run --example operations -- --write"
    );
}
