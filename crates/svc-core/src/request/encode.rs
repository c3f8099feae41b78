//! Percent-encoding and decoding of path segments and query text.

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use std::borrow::Cow;

/// Every byte but those RFC 3986 leaves unreserved in a path segment or query value.
const ESCAPED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

pub fn percent_encode(s: &str, out: &mut String) {
    out.extend(utf8_percent_encode(s, ESCAPED));
}

/// Decodes `%XX` escapes (and `+` as a space in query text); `None` when malformed or not UTF-8.
pub fn percent_decode(s: &str, plus_is_space: bool) -> Option<String> {
    let well_formed = s.split('%').skip(1).all(|after| {
        after
            .as_bytes()
            .get(..2)
            .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
    });
    if !well_formed {
        return None;
    }
    let spaced;
    let s = if plus_is_space && s.contains('+') {
        spaced = s.replace('+', " ");
        &spaced
    } else {
        s
    };
    percent_decode_str(s)
        .decode_utf8()
        .ok()
        .map(Cow::into_owned)
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
