//! Percent-encoding and decoding of path segments and query text.

/// Characters left as they are in a path segment or query value (RFC 3986 unreserved).
fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

pub fn percent_encode(s: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in s.as_bytes() {
        if is_unreserved(b) {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 15) as usize] as char);
        }
    }
}

/// Decodes `%XX` escapes (and `+` as a space in query text); `None` when malformed or not UTF-8.
pub fn percent_decode(s: &str, plus_is_space: bool) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// The pairs of a query string, decoded (`+` is a space); `None` when one is malformed.
pub fn parse_query(q: &str) -> Option<Vec<(String, String)>> {
    q.split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            Some((percent_decode(k, true)?, percent_decode(v, true)?))
        })
        .collect()
}

/// Encodes one path segment. `.` and `..` are refused before this: URL parsers treat them,
/// and their percent-encoded forms, as dot segments that climb the path.
pub fn encode_segment(s: &str, out: &mut String) {
    percent_encode(s, out);
}

pub(super) fn push_query(url: &mut String, first: &mut bool, key: &str, value: &str) {
    url.push(if *first { '?' } else { '&' });
    *first = false;
    percent_encode(key, url);
    url.push('=');
    percent_encode(value, url);
}
