//! The repository's generators, one command each: `cargo run -p xtask -- <task>`. A task that writes
//! files the repository keeps writes those that changed, or with `--check` names the stale ones and
//! fails; a task whose text the build or a test reads prints it. The tasks:
//!
//! - `operations`: the generated rows, their TypeScript and their sample calls, from the vendor's
//!   OpenAPI documents (tests/fixtures/openapi) and the overrides;
//! - `docs`: docs/OPERATIONS.md and the rules of docs/VALIDATION.md, from the table;
//! - `golden`: the golden corpus of the rules (tests/golden/);
//! - `declarations`: prints the TypeScript the Rust owns, for scripts/build.mjs;
//! - `cases`: prints the golden corpus's cases, for tests/js/rules.test.mjs.
//!
//! They run on the machine that builds (src/main.rs calls `run`): for a wasm target the crate is empty.
#![cfg(not(target_arch = "wasm32"))]

mod client;
mod declarations;
mod docs;
mod encode;
mod examples;
mod golden;
mod openapi;
mod overrides;
mod rows;
mod shape;
mod typescript;

use std::path::{Path, PathBuf};

/// A file a task writes, relative to the repository's root, with its bytes.
type Output = (&'static str, Vec<u8>);

/// Every file `operations` writes: the rows read from the vendor's documents and the overrides.
fn operations(root: &Path) -> Result<Vec<Output>, String> {
    let docs = openapi::read_all(&root.join("tests/fixtures/openapi"))?;
    let overrides_text = std::fs::read_to_string(root.join("crates/xtask/overrides.yml"))
        .map_err(|e| format!("crates/xtask/overrides.yml: {e}"))?;
    let overrides = overrides::Overrides::read(&overrides_text)?;
    let (rows, _) = rows::rows(&docs, &overrides)?;
    Ok(vec![
        (
            "crates/svc-core/src/published/rows.txt",
            encode::write(&rows)?.into_bytes(),
        ),
        (
            "scripts/declarations/published.d.ts",
            typescript::write(&rows).into_bytes(),
        ),
        (
            "tests/fixtures/published/examples.json",
            examples::write(&rows).into_bytes(),
        ),
    ])
}

/// What a task does.
enum Task {
    /// Writes these files (or checks them).
    Writes(fn(&Path) -> Result<Vec<Output>, String>),
    /// Prints its text.
    Prints(fn() -> Result<(), String>),
}

/// Every task by its name.
const TASKS: [(&str, Task); 5] = [
    ("operations", Task::Writes(operations)),
    ("docs", Task::Writes(docs::outputs)),
    ("golden", Task::Writes(|_| golden::outputs())),
    (
        "declarations",
        Task::Prints(|| {
            print!("{}", declarations::json());
            Ok(())
        }),
    ),
    ("cases", Task::Prints(golden::print)),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Writes the outputs that differ from the files, or with `check` names them; the count of stale files.
fn write(name: &str, outputs: Vec<Output>, check: bool) -> Result<usize, String> {
    let root = root();
    let mut stale = 0;
    for (path, bytes) in outputs {
        let file = root.join(path);
        if std::fs::read(&file).is_ok_and(|old| old == bytes) {
            continue;
        }
        if check {
            eprintln!("{path} is stale: run `cargo run -p xtask -- {name}`");
            stale += 1;
            continue;
        }
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{path}: {e}"))?;
        }
        std::fs::write(&file, bytes).map_err(|e| format!("{path}: {e}"))?;
        println!("wrote {path}");
    }
    Ok(stale)
}

/// Runs the task the command line names.
pub fn run() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.iter().any(|a| a == "--check");
    let Some((name, task)) = TASKS
        .iter()
        .find(|(name, _)| args.first().map(String::as_str) == Some(name))
    else {
        let names: Vec<&str> = TASKS.iter().map(|(name, _)| *name).collect();
        eprintln!(
            "usage: cargo run -p xtask -- <task> [--check], a task of {}",
            names.join(", ")
        );
        std::process::exit(2);
    };
    let done = match task {
        Task::Writes(outputs) => outputs(&root()).and_then(|o| write(name, o, check)),
        Task::Prints(print) => print().map(|()| 0),
    };
    match done {
        Ok(0) => {}
        Ok(_) => std::process::exit(1),
        Err(e) => {
            eprintln!("xtask {name}: {e}");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Task, TASKS};

    /// The files the tasks keep (but the golden corpus, which svc-sdk's golden test checks case by case).
    #[test]
    fn the_generated_files_are_current() {
        let root = super::root();
        for (name, task) in TASKS.iter().filter(|(name, _)| *name != "golden") {
            let Task::Writes(outputs) = task else {
                continue;
            };
            for (path, bytes) in outputs(&root).unwrap() {
                let old = std::fs::read(root.join(path)).unwrap_or_default();
                assert!(
                    old == bytes,
                    "{path} is stale: run `cargo run -p xtask -- {name}`"
                );
            }
        }
    }
}
