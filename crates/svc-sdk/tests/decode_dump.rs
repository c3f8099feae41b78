//! Dumps what decoding gives for every vendor fixture, cuts of it and odd texts (`DECODE_DUMP=<file>
//! cargo test --release --test decode_dump -- --ignored`), to compare the reader before and after a change.

use std::fmt::Write as _;
use std::io::Write as _;
use svc_core::catalog::{operations, Shape};
use svc_core::response::{self, Decoded};
use svc_json::ToJson;
use svc_sdk::webhook;

fn shown(r: Result<Decoded, svc_sdk::Error>) -> String {
    match r {
        Ok(Decoded::Json(t)) => format!("ok {t}"),
        Ok(Decoded::Binary) => "binary".into(),
        Err(e) => format!("err {}", e.to_json()),
    }
}

fn text(r: Result<String, svc_sdk::Error>) -> String {
    match r {
        Ok(t) => format!("ok {t}"),
        Err(e) => format!("err {}", e.to_json()),
    }
}

fn odd_texts() -> Vec<String> {
    let mut out: Vec<String> = [
        r#"{"code":0,"message":"ok","id":9007199254740993,"x_ids":[1,2e400,-0],"v":1e400,"w":0.1,"n":null}"#,
        r#"{"code":0,"a":"\ud800","b":"\udc00x","c":"\u00e9\n\"","d_id":"12"}"#,
        r#"{"code":0,"$svc_exact":"1"}"#,
        r#"{"code":0,"a":{"$svc_exact":1}}"#,
        r#"{"code":0,"a":{"\u0024svc_exact":1}}"#,
        r#"{"code":0,"message":"x","page_context":{"page":1,"has_more_page":false},"items":[]}"#,
        r#"{"code":1,"message":"bad"}"#,
        r#"{"code":"0","message":"ok"}"#,
        r#" { "code" : 0 , "message" : "ok" , "item" : { "item_id" : 123456789012345678901 } } "#,
        r#"{"code":0,"a":01}"#,
        r#"{"code":0,"a":1.}"#,
        r#"{"code":0,"a":-}"#,
        r#"{"code":0,"a":tru}"#,
        r#"{"code":0,"a":"\x"}"#,
        "{\"code\":0,\"a\":\"\u{1}\"}",
        r#"{"code":0,"a":1,}"#,
        r#"{"code":0,"a":1} x"#,
        r#"[]"#,
        r#""s""#,
        "",
        "   ",
        "{",
        r#"{"code":0,"a":"\u12"}"#,
        r#"{"code":0,"a":1 "b":2}"#,
        r#"{"code":0,"a":[1 2]}"#,
        r#"{"code":0,"a":{"b" 1}}"#,
        r#"{"code":0,"a":{1:2}}"#,
        r#"{"code":0,"a":[1,]}"#,
        r#"{"code":0,"a":[,1]}"#,
        r#"{"code":0,"a":{"b":1,}}"#,
        r#"{"code":0,"a":12345678901234567890123,"b":1.00000000000000000000001,"c":123e-2}"#,
        r#"{"code":0,"module":"invoice","operation":"update","channel_id":123456789012345678,"ids":[1,2],"token":"s3cret","server_time":1}"#,
        r#"{"event_id":900000000000000001,"event_type":"invoice_created","event_time":"2024","webhooks":[]}"#,
        r#"{"event":{"event_id":9,"event_type":"invoice_created"}}"#,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for n in [120, 126, 127, 128, 129, 130, 200] {
        out.push(format!(
            r#"{{"code":0,"a":{}1{}}}"#,
            "[".repeat(n),
            "]".repeat(n)
        ));
        out.push(format!(
            r#"{{"code":0,"a":{}{}}}"#,
            "[".repeat(n),
            "]".repeat(n)
        ));
        out.push(format!(
            r#"{{"code":0,"a":{}1{}}}"#,
            r#"{"b":"#.repeat(n),
            "}".repeat(n)
        ));
    }
    out
}

#[test]
#[ignore]
fn dump() {
    let Ok(path) = std::env::var("DECODE_DUMP") else {
        return;
    };
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/vendor");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut shapes: Vec<&svc_core::catalog::Operation> = Vec::new();
    for op in operations().iter() {
        let same = |o: &&svc_core::catalog::Operation| {
            std::mem::discriminant(&o.response) == std::mem::discriminant(&op.response)
        };
        if !shapes.iter().any(same) {
            shapes.push(op);
        }
    }
    let mut out = String::new();
    let mut bodies: Vec<(String, String, u16)> = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let whole = std::fs::read_to_string(file).unwrap();
        let v = svc_json::parse(&whole).unwrap();
        let status = v["response_status"].as_u64().unwrap_or(200) as u16;
        let body = v["response_body"].to_json_text();
        bodies.push((format!("{name}/whole"), whole, 200));
        bodies.push((format!("{name}/body"), body.clone(), status));
        bodies.push((format!("{name}/body200"), body, 200));
    }
    for (i, t) in odd_texts().into_iter().enumerate() {
        bodies.push((format!("odd{i}"), t, 200));
    }
    for (name, body, status) in &bodies {
        for op in operations().iter() {
            let r = response::decode(op, *status, Some("application/json"), body.as_bytes());
            writeln!(out, "{name} {} {}", op.id, shown(r)).unwrap();
        }
        let e = response::error_from(*status, body.as_bytes());
        writeln!(out, "{name} error_from {}", e.to_json()).unwrap();
        writeln!(
            out,
            "{name} notification {}",
            text(webhook::watch_notification_text(body, None))
        )
        .unwrap();
        writeln!(out, "{name} event {}", text(webhook::event_text(body))).unwrap();
        if name.ends_with("/body") {
            let chars: Vec<(usize, char)> = body.char_indices().collect();
            for &(i, c) in chars.iter().step_by(7) {
                let cut = &body[..i];
                let mut changed = body.clone();
                changed.replace_range(i..i + c.len_utf8(), "\"");
                for t in [cut, changed.as_str()] {
                    for op in &shapes {
                        let r = response::decode(op, 200, None, t.as_bytes());
                        writeln!(out, "{name}@{i} {} {}", op.id, shown(r)).unwrap();
                    }
                    writeln!(out, "{name}@{i} event {}", text(webhook::event_text(t))).unwrap();
                }
            }
        }
    }
    let _ = Shape::Empty;
    std::fs::File::create(path)
        .unwrap()
        .write_all(out.as_bytes())
        .unwrap();
}
