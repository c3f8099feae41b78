//! The vendor's own books requests against the rules.

use super::support::{assert_ok, run};
use crate::issue::Issue;

const JOURNAL_BODIES: [&str; 2] = ["createJournal", "updateJournal"];

#[test]
fn vendor_journals_fail_only_on_their_placeholders_in_value_sets() {
    for id in JOURNAL_BODIES {
        let op = crate::catalog::find(id).unwrap();
        let params = crate::examples::sample(op).params;
        let got: Vec<String> = run(id, &params).iter().map(Issue::path_string).collect();
        assert_eq!(
            got,
            [
                "vat_treatment",
                "product_type",
                "line_items[0].tax_exemption_type",
                "tax_exemption_type"
            ],
            "{id}"
        );
    }
}

#[test]
fn vendor_requests_of_the_other_books_operations_pass_whole() {
    let books = crate::catalog::operations()
        .iter()
        .filter(|op| op.family == crate::family::Family::Books && !JOURNAL_BODIES.contains(&op.id));
    for op in books {
        let sample = crate::examples::sample(op);
        if sample.vendor.is_some() {
            assert_ok(op.id, &sample.params);
        }
    }
}
