//! What JSON cannot hold of a JS value: the words of each marker `params.js` puts in its place
//! (`UNREPRESENTABLE`), and text with a lone surrogate, which a JS string may hold and
//! Unicode cannot: its one check and its words.
//!
//! `JSON.stringify` writes a lone surrogate as its `\uD800`-style escape, which no reader of Unicode
//! text takes; in params the core marks a string holding one as a value JSON cannot hold, so the
//! rules report it at its path like a `NaN` or a function.

use std::borrow::Cow;

/// Marker that the JS side puts where a value cannot be JSON (a function, NaN, Infinity, a symbol).
pub const UNREPRESENTABLE: &str = "$svc_unrepresentable";

/// What text with a lone surrogate is called in a message.
pub const WORDS: &str = "text with a lone surrogate (not Unicode)";

/// The words of what `params.js` marked, by its tag (`function`, `Blob`...); `NaN`, `Infinity`,
/// `-Infinity` and `undefined` are their own words, and so is the core's own marker text.
pub fn words(tag: &str) -> &str {
    match tag {
        "function" => "a function",
        "symbol" => "a symbol",
        "Blob" => "a Blob",
        "binary" => "binary data",
        "Map" => "a Map",
        "Set" => "a Set",
        other => other,
    }
}

/// The message of a value named `name` (a path value, a path) that holds such text.
pub fn refused(name: &str) -> String {
    format!("{name} holds {WORDS}: it cannot be sent as it is")
}

/// `text`, JSON as `JSON.stringify` writes it, with every string value that holds a lone surrogate
/// (an escape from `\uD800` to `\uDFFF` that is not half of a pair) replaced by the marker of a value
/// JSON cannot hold; a key holding one is left for the reader to refuse. Borrowed when there is none.
pub fn marked(text: &str) -> Cow<'_, str> {
    let escape =
        |rest: &[u8]| rest.first() == Some(&b'u') && rest.get(1).map(|c| c | 0x20) == Some(b'd');
    if !svc_json::scan::any_after(text, b'\\', escape) {
        return Cow::Borrowed(text);
    }
    let b = text.as_bytes();
    let mut out = String::new();
    let (mut copied, mut i) = (0, 0);
    while i < b.len() {
        if b[i] != b'"' {
            i += 1;
            continue;
        }
        let (end, lone) = string_end(b, i + 1);
        let key = b[end..].iter().find(|c| !c.is_ascii_whitespace()) == Some(&b':');
        if lone && !key {
            out.push_str(&text[copied..i]);
            out.push_str(&format!("{{\"{}\":\"{WORDS}\"}}", UNREPRESENTABLE));
            copied = end;
        }
        i = end;
    }
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// The end (after the closing quote) of the string whose text starts at `i`, and whether it holds a
/// lone surrogate.
fn string_end(b: &[u8], mut i: usize) -> (usize, bool) {
    let mut lone = false;
    let unit = |at: usize| {
        let hex = b.get(at..at + 4)?;
        u16::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()
    };
    while i < b.len() {
        match b[i] {
            b'"' => return (i + 1, lone),
            b'\\' if b.get(i + 1) == Some(&b'u') => {
                let u = unit(i + 2).unwrap_or(0);
                let low = |at: usize| {
                    b.get(at..at + 2) == Some(b"\\u")
                        && unit(at + 2).is_some_and(|n| (0xDC00..=0xDFFF).contains(&n))
                };
                if (0xD800..=0xDBFF).contains(&u) && low(i + 6) {
                    i += 12;
                } else {
                    lone |= (0xD800..=0xDFFF).contains(&u);
                    i += 6;
                }
            }
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    (b.len(), lone)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MARK: &str = r#"{"$svc_unrepresentable":"text with a lone surrogate (not Unicode)"}"#;

    #[test]
    fn text_without_a_lone_surrogate_is_not_copied() {
        for text in [
            r#"{"a":"b","c":[1,"\n"]}"#,
            r#"{"a":"\ud83d\ude00"}"#,
            r#"{"a":"\\ud800"}"#,
        ] {
            assert!(
                matches!(marked(text), Cow::Borrowed(t) if t == text),
                "{text}"
            );
        }
    }

    #[test]
    fn each_string_value_with_a_lone_surrogate_is_the_marker() {
        let text =
            r#"{"a":"\ud800","b":["x\udc00y","ok"],"c":"\udbff\udbff","d":"\ud83d\ude00\ud800"}"#;
        let want = format!(r#"{{"a":{MARK},"b":[{MARK},"ok"],"c":{MARK},"d":{MARK}}}"#);
        assert_eq!(marked(text), want);
        assert_eq!(marked(r#""\uDFFF""#), MARK);
    }

    #[test]
    fn a_key_with_a_lone_surrogate_is_left_to_the_reader() {
        let text = r#"{"\ud800":1}"#;
        assert_eq!(marked(text), text);
        assert!(svc_json::parse(text).is_err());
    }

    #[test]
    fn marked_params_read_as_the_marker_where_the_text_was() {
        let text = marked(r#"{"x":["\ud800"]}"#);
        let v = svc_json::parse(&text).unwrap();
        let item = &v.as_object().unwrap().get("x").unwrap().as_array().unwrap()[0];
        let what = item.as_object().unwrap().get(UNREPRESENTABLE);
        assert_eq!(what.and_then(|w| w.as_str()), Some(WORDS));
    }
}
