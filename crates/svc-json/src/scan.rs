//! Finding a byte in JSON text eight bytes at a time, where `str::contains` on wasm goes nearly byte by byte.

const ONES: u64 = u64::from_le_bytes([0x01; 8]);
const HIGH: u64 = u64::from_le_bytes([0x80; 8]);

/// Whether some `first` byte of `text` is followed by bytes that `then` accepts.
pub fn any_after(text: &str, first: u8, then: impl Fn(&[u8]) -> bool) -> bool {
    let b = text.as_bytes();
    let pattern = ONES * u64::from(first);
    let hit = |at: usize| b[at] == first && then(&b[at + 1..]);
    let mut i = 0;
    while let Some(chunk) = b.get(i..i + 8) {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or_default()) ^ pattern;
        if x.wrapping_sub(ONES) & !x & HIGH != 0 && (i..i + 8).any(hit) {
            return true;
        }
        i += 8;
    }
    (i..b.len()).any(hit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_is_found_at_every_place_of_a_chunk_and_after_the_last() {
        for pad in 0..20 {
            let text = format!("{}\\ud800", "é".repeat(pad));
            assert!(any_after(&text, b'\\', |r| r.starts_with(b"ud")), "{text}");
            assert!(!any_after(&text, b'\\', |r| r.starts_with(b"uD")), "{text}");
            assert!(!any_after(&text[..text.len() - 4], b'\\', |r| r.starts_with(b"ud")));
        }
        assert!(!any_after("", b'$', |_| true));
    }
}
