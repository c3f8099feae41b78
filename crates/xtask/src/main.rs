//! The repository's generators. `cargo run -p xtask -- operations` reads the vendor's OpenAPI
//! documents (tests/fixtures/openapi) and the overrides, and writes the published rows, their
//! TypeScript, and their sample calls (docs/OPERATIONS.md is the table's, `cargo run --example operations -- --write`); `--check` says which of them are stale.

mod encode;
mod examples;
mod openapi;
mod overrides;
mod rows;
mod shape;
mod typescript;

use std::path::{Path, PathBuf};

/// Every file the generator writes, relative to the repository's root, with its text.
pub fn outputs(root: &Path) -> Result<Vec<(&'static str, String)>, String> {
    let docs = openapi::read_all(&root.join("tests/fixtures/openapi"))?;
    let overrides_text = std::fs::read_to_string(root.join("crates/xtask/overrides.yml"))
        .map_err(|e| format!("crates/xtask/overrides.yml: {e}"))?;
    let overrides = overrides::Overrides::read(&overrides_text)?;
    let (rows, _) = rows::rows(&docs, &overrides)?;
    Ok(vec![
        (
            "crates/svc-core/src/published/rows.txt",
            encode::write(&rows)?,
        ),
        (
            "scripts/declarations/published.d.ts",
            typescript::write(&rows),
        ),
        (
            "tests/fixtures/published/examples.json",
            examples::write(&rows),
        ),
    ])
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.iter().any(|a| a == "--check");
    if args.first().map(String::as_str) != Some("operations") {
        eprintln!("usage: cargo run -p xtask -- operations [--check]");
        std::process::exit(2);
    }
    let root = root();
    let outputs = match outputs(&root) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("xtask operations: {e}");
            std::process::exit(1);
        }
    };
    let mut stale = 0;
    for (path, text) in outputs {
        let file = root.join(path);
        let same = std::fs::read_to_string(&file).is_ok_and(|old| old == text);
        if same {
            continue;
        }
        if check {
            eprintln!("{path} is stale: run `cargo run -p xtask -- operations`");
            stale += 1;
        } else {
            if let Some(dir) = file.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            if let Err(e) = std::fs::write(&file, text) {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            }
            println!("wrote {path}");
        }
    }
    if stale > 0 {
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_generated_files_are_current() {
        let root = super::root();
        for (path, text) in super::outputs(&root).unwrap() {
            let old = std::fs::read_to_string(root.join(path)).unwrap_or_default();
            assert!(
                old == text,
                "{path} is stale: run `cargo run -p xtask -- operations`"
            );
        }
    }
}
