//! Prints the generated part of docs/VALIDATION.md (the rules of every operation, from the table's
//! schemas), or with `--write` puts it in place between its markers.
//! `cargo run -p svc-core --example validation_doc -- --write`.

use svc_core::rules_doc::{markdown, BEGIN, END};

fn main() {
    let generated = markdown();
    if std::env::args().nth(1).as_deref() != Some("--write") {
        println!("{generated}");
        return;
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/VALIDATION.md");
    let doc = std::fs::read_to_string(path).expect("docs/VALIDATION.md");
    let (Some(a), Some(b)) = (doc.find(BEGIN), doc.find(END)) else {
        panic!("docs/VALIDATION.md has no {BEGIN} … {END} markers: put them where the rules go");
    };
    let written = format!("{}{generated}{}", &doc[..a], &doc[b + END.len()..]);
    std::fs::write(path, written).expect("docs/VALIDATION.md written");
}
