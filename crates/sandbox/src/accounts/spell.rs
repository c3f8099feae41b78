//! The spellings a secret is echoed in when the accounts server echoes secrets: raw,
//! percent-encoded, JSON `\u`-escaped and base64.

use svc_core::request::percent_encode;

/// `s` percent-encoded as a form or URL carries it.
pub fn percent(s: &str) -> String {
    let mut out = String::new();
    percent_encode(s, &mut out);
    out
}

/// `s` with every UTF-16 unit written `\uXXXX`, as JSON text may spell it.
pub fn unicode_escaped(s: &str) -> String {
    s.encode_utf16().map(|u| format!("\\u{u:04x}")).collect()
}

/// `s` in standard base64, padded.
pub fn base64(s: &str) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in s.as_bytes().chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Every spelling of `s`, raw first, with the name of each.
pub fn all(s: &str) -> [(&'static str, String); 4] {
    [
        ("raw", s.to_string()),
        ("percent_encoded", percent(s)),
        ("unicode_escaped", unicode_escaped(s)),
        ("base64", base64(s)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings() {
        assert_eq!(percent("a b&c=d/é"), "a%20b%26c%3Dd%2F%C3%A9");
        assert_eq!(
            unicode_escaped("a\"é😀"),
            "\\u0061\\u0022\\u00e9\\ud83d\\ude00"
        );
        for (raw, b64) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("1000.x+y/z", "MTAwMC54K3kveg=="),
        ] {
            assert_eq!(base64(raw), b64, "{raw}");
        }
        assert_eq!(all("k")[0], ("raw", "k".to_string()));
    }
}
