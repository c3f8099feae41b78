//! Replays every file under `fuzz/regressions/<target>/` (seeds and every crash the fuzzers
//! found) through the same harness the cargo-fuzz targets run, on stable Rust: no panic, and
//! every invariant of `fuzz/src/lib.rs` holds.

#[path = "../fuzz/src/lib.rs"]
mod harness;

use std::path::PathBuf;

fn replay(target: &str, run: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(
        files.len() >= 3,
        "{target}: too few inputs in {}",
        dir.display()
    );
    let mut failed = Vec::new();
    for file in &files {
        let data = std::fs::read(file).unwrap();
        if std::panic::catch_unwind(|| run(&data)).is_err() {
            failed.push(file.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    assert!(failed.is_empty(), "{target}: failing inputs {failed:?}");
}

#[test]
fn decode_inputs_replay() {
    replay("decode", harness::decode);
}

#[test]
fn validate_inputs_replay() {
    replay("validate", harness::validate);
}

#[test]
fn webhook_inputs_replay() {
    replay("webhook", harness::webhook);
}

#[test]
fn request_inputs_replay() {
    replay("request", harness::request);
}

#[test]
fn proxy_inputs_replay() {
    replay("proxy", harness::proxy);
}

#[test]
fn numbers_inputs_replay() {
    replay("numbers", harness::numbers);
}

/// The layouts read past the end as zeros, so even an empty input is a valid case.
#[test]
fn empty_and_tiny_inputs() {
    for data in [&b""[..], b"\x00", b"\xff", b"\xff\xff\xff\xff\xff"] {
        harness::decode(data);
        harness::validate(data);
        harness::webhook(data);
        harness::request(data);
        harness::proxy(data);
        harness::numbers(data);
    }
    assert_eq!(harness::SEP, 0xFF);
}
