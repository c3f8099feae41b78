//! Prints docs/OPERATIONS.md as the table makes it; `-- --write` writes the file.
//! `cargo run --example operations`.

mod operations;

fn main() {
    let text = operations::render();
    if std::env::args().any(|a| a == "--write") {
        std::fs::write(operations::DOC, text).expect("docs/OPERATIONS.md");
        eprintln!("written: {}", operations::DOC);
    } else {
        print!("{text}");
    }
}
