//! `cargo run -p xtask -- <task>`: the repository's generators (src/lib.rs), run natively.

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    xtask::run();
}
