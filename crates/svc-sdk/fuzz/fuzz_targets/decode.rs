//! cargo-fuzz target `decode`: see `svc_sdk_fuzz::decode` for the input layout and the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| svc_sdk_fuzz::decode(data));
