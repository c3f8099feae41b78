//! Prints the TypeScript of the shapes the Rust owns (`svc_sdk::surface::declarations`): options,
//! log levels, hook infos, issues, errors, operation infos.
//! `cargo run -p svc-sdk --example declarations`; scripts/build.mjs splices it into the package's
//! declarations.

fn main() {
    print!("{}", svc_sdk::surface::declarations());
}
