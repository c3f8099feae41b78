//! The golden corpus: the Rust engine finds, on every generated case, exactly the issues it found
//! when the corpus was written (path, code, message, details, order, byte for byte).

#[path = "support/cases.rs"]
mod cases;

use std::io::{BufRead, BufReader};

#[test]
fn every_case_has_the_issues_of_the_golden_corpus() {
    let file = std::fs::File::open(cases::GOLDEN).expect("the golden corpus");
    let mut golden = BufReader::new(flate2::read::GzDecoder::new(file)).lines();
    let (mut count, mut invalid) = (0, 0);
    let mut differ = Vec::new();
    cases::each(|case| {
        count += 1;
        let want = golden.next().expect("a line per case").expect("gzip");
        let got = cases::issues_line(&case);
        invalid += usize::from(got != "[]");
        if got != want && differ.len() < 5 {
            differ.push(format!(
                "{} {}\n  want {want}\n  got  {got}",
                case.op.id, case.params
            ));
        }
    });
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    assert!(
        golden.next().is_none(),
        "the corpus has more lines than cases"
    );
    assert!(count > 50_000, "only {count} cases");
    assert!(
        invalid > count / 2 && invalid < count,
        "{invalid} of {count} cases have issues"
    );
}
