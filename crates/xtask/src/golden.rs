//! The golden corpus of the rules: `cargo run -p xtask -- golden` writes it anew from the Rust engine
//! (`tests/golden/validation_issues.jsonl.gz`: each case's key and issues, one line each), and
//! `cargo run -p xtask -- cases` prints its cases, one JSON line each (`{ key, op, now, params }`),
//! for the test that runs them through the package (`tests/js/rules.test.mjs`). The cases are those
//! of svc-sdk's golden test (`crates/svc-sdk/tests/golden.rs`), which checks the corpus.

#[path = "../../svc-sdk/tests/support/cases.rs"]
#[allow(dead_code)]
mod cases;

use std::io::Write;

/// The corpus, relative to the repository's root, with its gzip bytes.
pub fn outputs() -> Result<Vec<(&'static str, Vec<u8>)>, String> {
    let mut out = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let mut failed = None;
    cases::each(|case| {
        if let Err(e) = writeln!(out, "{}\t{}", case.key, cases::issues_line(&case)) {
            failed.get_or_insert(e);
        }
    });
    if let Some(e) = failed {
        return Err(format!("the golden corpus: {e}"));
    }
    let bytes = out
        .finish()
        .map_err(|e| format!("the golden corpus: {e}"))?;
    Ok(vec![("tests/golden/validation_issues.jsonl.gz", bytes)])
}

/// Prints every case, one JSON line each, and their count on stderr.
pub fn print() -> Result<(), String> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut count = 0;
    let mut failed = None;
    cases::each(|case| {
        let line = serde_json::json!({ "key": case.key, "op": case.op.id, "now": case.now, "params": case.params });
        if let Err(e) = writeln!(out, "{line}") {
            failed.get_or_insert(e);
        }
        count += 1;
    });
    if let Some(e) = failed.or_else(|| out.flush().err()) {
        return Err(format!("stdout: {e}"));
    }
    eprintln!("{count} cases");
    Ok(())
}
