//! cargo-fuzz target `proxy`: see `svc_sdk_fuzz::proxy` for the input layout and the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| svc_sdk_fuzz::proxy(data));
