//! The cases of the golden corpus, one JSON line each (`{ key, op, now, params }`), for the test that runs
//! them through the package (`tests/js/rules.test.mjs`); `-- --bless` writes the corpus anew from
//! the Rust engine instead (`tests/golden/validation_issues.jsonl.gz`). `cargo run --example validation_cases`.

mod cases;

use std::io::Write;

fn main() {
    if std::env::args().any(|a| a == "--bless") {
        let file = std::fs::File::create(cases::GOLDEN).expect("the golden corpus");
        let mut out = flate2::write::GzEncoder::new(file, flate2::Compression::best());
        let mut count = 0;
        cases::each(|case| {
            writeln!(out, "{}\t{}", case.key, cases::issues_line(&case))
                .expect("the golden corpus");
            count += 1;
        });
        out.finish().expect("the golden corpus");
        eprintln!("{count} cases written to {}", cases::GOLDEN);
        return;
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut count = 0;
    cases::each(|case| {
        let line = serde_json::json!({ "key": case.key, "op": case.op.id, "now": case.now, "params": case.params });
        writeln!(out, "{line}").expect("stdout");
        count += 1;
    });
    out.flush().expect("stdout");
    eprintln!("{count} cases");
}
