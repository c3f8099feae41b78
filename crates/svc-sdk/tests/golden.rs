//! The golden corpus: the Rust engine finds, on every generated case, exactly the issues it found
//! when the corpus was written (path, code, message, details, order, byte for byte). Cases are found
//! by their key, so a row added to the table leaves every other case where it was.

mod support {
    pub mod cases;
}

use support::cases;

use std::collections::{BTreeSet, HashSet};

#[test]
fn every_case_has_the_issues_of_the_golden_corpus() {
    let golden = cases::golden();
    let pinned: HashSet<&str> = golden.keys().filter_map(|k| k.split('|').next()).collect();
    let (mut count, mut invalid) = (0, 0);
    let mut seen = HashSet::new();
    let mut differ = Vec::new();
    let mut new_rows = BTreeSet::new();
    cases::each(|case| {
        count += 1;
        let got = cases::issues_line(&case);
        invalid += usize::from(got != "[]");
        match golden.get(&case.key) {
            Some(want) if *want == got => {}
            Some(want) if differ.len() < 5 => differ.push(format!(
                "{} {}\n  want {want}\n  got  {got}",
                case.key, case.params
            )),
            Some(_) => {}
            None if cases::moves_with_the_table(&case.key) => {}
            None => {
                assert!(
                    !pinned.contains(case.op.id),
                    "{}: a case of a row the corpus holds is not in it (rules changed? check, then bless)",
                    case.key
                );
                new_rows.insert(case.op.id);
            }
        }
        seen.insert(case.key);
    });
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    let gone: Vec<&String> = golden
        .keys()
        .filter(|k| !seen.contains(*k) && !cases::moves_with_the_table(k))
        .take(5)
        .collect();
    assert!(
        gone.is_empty(),
        "cases of the corpus no longer generated: {gone:?} (bless)"
    );
    assert!(
        new_rows.is_empty(),
        "rows with no case in the corpus: {new_rows:?}; check their cases, then bless them with \
         `cargo run -p xtask -- golden` and commit tests/golden/ with the rows"
    );
    assert!(count > 50_000, "only {count} cases");
    assert!(
        invalid > count / 2 && invalid < count,
        "{invalid} of {count} cases have issues"
    );
}

#[test]
fn the_core_reads_and_writes_the_params_of_every_case_as_serde_json_does() {
    use svc_json::ToJson;
    let mut count = 0;
    cases::each(|case| {
        count += 1;
        let text = serde_json::to_string(case.params).expect("params are JSON");
        let ours = svc_json::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", case.key));
        assert_eq!(ours.to_json_text(), text, "{}", case.key);
        let theirs: serde_json::Value = serde_json::from_str(&text).expect("serde_json reads it");
        assert_eq!(
            serde_json::to_string(&ours).unwrap(),
            theirs.to_string(),
            "{}: the values differ",
            case.key
        );
    });
    assert!(count > 50_000, "only {count} cases");
}
