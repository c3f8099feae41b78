//! Prints the TypeScript of the sandbox's options (`svc_testing::surface::declarations`), their
//! defaults and the plans' names read from the sandbox. `cargo run -p svc-testing --example
//! declarations`; scripts/declarations.mjs puts it in the package's testing.d.ts.

fn main() {
    print!("{}", svc_testing::surface::declarations());
}
