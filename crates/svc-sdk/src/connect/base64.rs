//! Base64 as the seals and states use it: written URL-safe without padding, read in either alphabet with or without padding.

const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `bytes` in the URL-safe alphabet, unpadded.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(char::from(URL_SAFE[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

fn value(c: u8) -> Option<u32> {
    Some(u32::from(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' | b'-' => 62,
        b'/' | b'_' => 63,
        _ => return None,
    }))
}

/// The bytes of `text` (standard or URL-safe, padded or not); `None` for anything else.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=').as_bytes();
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            n |= value(*c)? << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::{decode, encode};

    #[test]
    fn it_round_trips_every_length_and_reads_both_alphabets() {
        for len in 0..70u8 {
            let bytes: Vec<u8> = (0..len)
                .map(|i| i.wrapping_mul(97).wrapping_add(251))
                .collect();
            assert_eq!(
                decode(&encode(&bytes)).as_deref(),
                Some(&bytes[..]),
                "{len}"
            );
        }
        assert_eq!(encode(b"\xfb\xff"), "-_8");
        assert_eq!(decode("+/8=").as_deref(), Some(&b"\xfb\xff"[..]));
        assert_eq!(decode("c2hvcnQ=").as_deref(), Some(&b"short"[..]));
        assert_eq!(encode(b"short"), "c2hvcnQ");
        assert_eq!(decode("a"), None);
        assert_eq!(decode("ab!c"), None);
    }
}
