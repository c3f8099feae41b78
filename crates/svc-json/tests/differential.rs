//! svc-json against serde_json: odd texts, texts drawn at random from JSON's tokens, the vendor's
//! answers and every cut of them, each read as serde_json reads it and written back as it writes it
//! (`harness::same_as_serde_json`, the oracle of the cargo-fuzz target `read`), and every input of
//! `fuzz/regressions/read/` (seeds, and any input the fuzzer ever failed on) replayed through that
//! target, so a fixed bug stays fixed.

#[path = "../fuzz/src/lib.rs"]
mod harness;

use harness::same_as_serde_json;
use std::path::PathBuf;
use svc_json::{parse, ToJson};

#[test]
fn a_repeated_key_keeps_its_place_and_its_last_value_as_serde_json_does() {
    for n in [3, 40] {
        let mut text = String::from("{");
        for i in 0..n {
            text.push_str(&format!("\"k{i}\":{i},"));
        }
        text.push_str("\"k1\":\"last\"}");
        same_as_serde_json(&text);
        let ours = parse(&text).unwrap();
        let keys: Vec<&str> = ours.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), n);
        assert_eq!(keys[1], "k1");
        assert_eq!(ours["k1"].as_str(), Some("last"));
    }
}

#[test]
fn written_as_serde_json_writes_its_value() {
    let text = r#"{"a":[1,-2,1.5,"x\"y",null,true],"b":{"c":{}},"a2":"é"}"#;
    let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
    let ours = parse(text).unwrap();
    assert_eq!(serde_json::to_string(&ours).unwrap(), theirs.to_string());
    assert_eq!(ours.to_json_text(), theirs.to_string());
    let rest = ours
        .as_object()
        .unwrap()
        .without(|k| k == "b")
        .to_json_text();
    assert_eq!(rest, r#"{"a":[1,-2,1.5,"x\"y",null,true],"a2":"é"}"#);
}

#[test]
fn odd_texts_are_read_as_serde_json_reads_them() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let deep_objects = |n: usize| format!("{}1{}", r#"{"a":"#.repeat(n), "}".repeat(n));
    let texts = [
        "0",
        "-0",
        "-0.0",
        "1e400",
        "-1e400",
        "1e-400",
        "1E-7",
        "1e+2",
        "1.5e308",
        "2e308",
        "123456789012345678901234567890",
        "-123456789012345678901234567890",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "0.1",
        "0.30000000000000004",
        "1.7976931348623157e308",
        "4.9e-324",
        "2.2250738585072014e-308",
        "0.000001",
        "123.456e-2",
        "1.00000000000000000000000000001",
        "0e999999999999",
        "1e999999999999",
        "1e-999999999999",
        "01",
        "-",
        "-a",
        "1.",
        "1.e3",
        ".5",
        "1e",
        "1e+",
        "+1",
        "1x",
        "0x10",
        "--1",
        "1.5.5",
        r#""a\u0041\n\t\"\\\/\b\f\r""#,
        r#""\ud83d\ude00""#,
        r#""\ud800""#,
        r#""\udc00""#,
        r#""\ud800\u0041""#,
        r#""\ud800x""#,
        r#""\ud800\n""#,
        r#""\u00e9""#,
        r#""\uD83D\uDE00""#,
        r#""\u12""#,
        r#""\u12G4""#,
        r#""\x""#,
        "\"a\u{1}b\"",
        "\"tab\there\"",
        "\"é ü 😀\"",
        "\"unterminated",
        "\"\\",
        "[1,]",
        "[1,,2]",
        "[,1]",
        "{\"a\":1,}",
        "{,}",
        "{\"a\" 1}",
        "{\"a\":}",
        "{1:2}",
        "{\"a\":1 \"b\":2}",
        "[1 2]",
        "[",
        "{",
        "{\"a\"",
        "{\"a\":1",
        "[1",
        "tru",
        "trux",
        "nul",
        "nulll",
        "false ",
        " \n\t[ 1 , {\"x\" : null} ]\r\n",
        "",
        " ",
        "[]]",
        "{}x",
        "\n\n  [1,\n  x]",
        "/* c */ 1",
        "[1] // c",
        "NaN",
        "Infinity",
        "{\"a\":1,\"a\":2,\"b\":3}",
        "\u{feff}1",
    ];
    for text in texts {
        same_as_serde_json(text);
    }
    for n in [126, 127, 128, 129, 200] {
        same_as_serde_json(&deep(n));
        same_as_serde_json(&deep_objects(n));
    }
}

#[test]
fn texts_drawn_at_random_from_json_tokens_are_read_as_serde_json_reads_them() {
    const TOKENS: [&str; 32] = [
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"k\"",
        "\"",
        "\\",
        "\\u",
        "d83d",
        "de00",
        "00e9",
        "1",
        "-",
        "0",
        "9",
        ".",
        "e",
        "E",
        "+",
        "18446744073709551616",
        " ",
        "\n",
        "true",
        "nul",
        "null",
        "x",
        "é",
        "\u{1}",
        "\\n",
        "2e308",
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..200_000 {
        let len = 1 + next() % 14;
        let text: String = (0..len).map(|_| TOKENS[(next() % 32) as usize]).collect();
        same_as_serde_json(&text);
    }
}

#[test]
fn the_vendor_fixtures_and_every_cut_of_them_are_read_as_serde_json_reads_them() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/vendor");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut read = 0;
    for file in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "json"))
    {
        let text = std::fs::read_to_string(file).unwrap();
        same_as_serde_json(&text);
        let compact = serde_json::from_str::<serde_json::Value>(&text)
            .unwrap()
            .to_string();
        same_as_serde_json(&compact);
        for (i, _) in text.char_indices().step_by(23) {
            same_as_serde_json(&text[..i]);
            let mut changed = text.clone();
            changed.replace_range(
                i..i + text[i..].chars().next().map_or(0, char::len_utf8),
                "\"",
            );
            same_as_serde_json(&changed);
        }
        read += 1;
    }
    assert!(read > 100, "{read}");
}

#[test]
fn the_fuzz_inputs_replay() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions/read");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(files.len() >= 3, "too few inputs in {}", dir.display());
    let mut failed = Vec::new();
    for file in &files {
        let data = std::fs::read(file).unwrap();
        if std::panic::catch_unwind(|| harness::read(&data)).is_err() {
            failed.push(file.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    assert!(failed.is_empty(), "failing inputs {failed:?}");
}

#[test]
fn empty_tiny_and_broken_inputs() {
    for data in [
        &b""[..],
        b" ",
        b"\x00",
        b"\xff",
        b"\"\xff\"",
        b"[1e400, 2]",
        b"\xef\xbb\xbf{}",
    ] {
        harness::read(data);
    }
}
