//! The vendor mark of each row of the table: a row is marked `.vendor()` exactly when the spec's
//! endpoint tables (tests/fixtures/spec/endpoints.txt) do not list it, and then the vendor's example
//! of it (tests/fixtures/vendor) is what documents it.

use crate::catalog::{op, operations, Method, Operation, Source};
use crate::examples::vendor_of;
use crate::family::Family;

const SPEC: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/spec/endpoints.txt"
));

/// The spec's operations as `family METHOD path`.
fn spec() -> Vec<&'static str> {
    SPEC.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

fn key(row: &Operation) -> String {
    format!("{} {} {}", row.family.name(), row.method.as_str(), row.path)
}

/// Why the mark of `row` is wrong, if it is.
fn mark_error(row: &Operation) -> Option<String> {
    let listed = spec().contains(&key(row).as_str());
    let id = row.id;
    match (row.source, listed) {
        (Source::Spec, false) => Some(format!(
            "{id} ({}) is not in the spec's endpoint tables: mark it .vendor()",
            key(row)
        )),
        (Source::Vendor, true) => Some(format!(
            "{id} ({}) is in the spec: take its .vendor() mark off",
            key(row)
        )),
        (Source::Vendor, false) if vendor_of(row).is_none() => Some(format!(
            "{id} ({}) is marked .vendor() but no vendor example documents it",
            key(row)
        )),
        _ => None,
    }
}

#[test]
fn every_row_is_marked_vendor_exactly_when_the_spec_does_not_list_it() {
    let wrong: Vec<String> = operations().iter().filter_map(mark_error).collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_operation_of_the_spec_has_its_row() {
    let rows: Vec<String> = operations().iter().map(key).collect();
    let missing: Vec<&str> = spec()
        .into_iter()
        .filter(|s| !rows.iter().any(|r| r == s))
        .collect();
    assert!(missing.is_empty(), "no row for {missing:?}");
}

#[test]
fn a_row_among_the_spec_rows_without_its_vendor_mark_is_found() {
    let unmarked = op(
        Family::Books,
        Method::Get,
        "/journals/{journal_id}",
        "SvcBooks.accountants.READ",
    )
    .named("getJournal");
    assert!(mark_error(&unmarked).is_some_and(|e| e.contains("mark it .vendor()")));
    assert_eq!(mark_error(&unmarked.vendor()), None);
    let invented = op(
        Family::Books,
        Method::Get,
        "/nowhere",
        "SvcBooks.accountants.READ",
    )
    .named("getNowhere")
    .vendor();
    assert!(mark_error(&invented).is_some_and(|e| e.contains("no vendor example")));
}
