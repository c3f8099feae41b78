//! cargo-fuzz target `read`: see `svc_json_fuzz::read` for what it asserts.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| svc_json_fuzz::read(data));
