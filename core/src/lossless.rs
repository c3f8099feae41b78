//! A one-pass JSON scanner that checks syntax and rewrites identifiers and inexact numbers.
//!
//! Every value under a key that names an id (`id`, `*_id`, `ids`, `*_ids`, `contact_persons`)
//! that the server sent as a number is written back as a string of the same digits, so
//! `JSON.parse` on the result never rounds an id. Any other number that a JS double cannot hold
//! (`exact::holds`) is written as the exact-number marker `{"$svc_exact":"<its text>"}`, and a
//! document with a key of that name is refused, so a marker is always the core's. Everything else
//! is copied byte for byte.

use crate::exact::{self, EXACT};

/// A member of the top-level object: its raw key (without quotes), the span of its value, and
/// what the scan saw of its items when the value is an array.
pub struct Member<'a> {
    pub key: &'a str,
    pub value: &'a str,
    pub items: Option<Items<'a>>,
}

/// What one scan sees of an array's items: how many, the first, and the first that is not an object.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Items<'a> {
    pub count: usize,
    pub first: Option<&'a str>,
    /// The first item that is not an object, with its index.
    pub stray: Option<(usize, &'a str)>,
}

impl<'a> Items<'a> {
    /// The only item of a one-element array.
    pub fn only(&self) -> Option<&'a str> {
        self.first.filter(|_| self.count == 1)
    }
}

pub fn is_id_key(key: &str) -> bool {
    names_an_id(key.as_bytes())
}

#[inline(always)]
fn names_an_id(key: &[u8]) -> bool {
    match key {
        [.., b'i', b'd'] => key.len() == 2 || key[key.len() - 3] == b'_',
        [.., b'i', b'd', b's'] => key.len() == 3 || key[key.len() - 4] == b'_',
        _ => key == b"contact_persons",
    }
}

const MAX_DEPTH: usize = 128;

/// The bytes that end the plain run of a string: the closing quote, a backslash, a control character.
static STOPS_A_STRING: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = true;
        c += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// Where the plain run of a string starting at `i` ends (`STOPS_A_STRING`), eight bytes at a time
/// while eight are left: a byte is flagged when it is a quote, a backslash or below 0x20, and the
/// lowest flag is exact (a borrow only flags bytes above a flagged one).
#[inline(always)]
fn plain_run(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    while let Some(chunk) = b.get(i..i + 8) {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        let flags = below(x ^ (ONES * u64::from(b'"')), 1)
            | below(x ^ (ONES * u64::from(b'\\')), 1)
            | below(x, 0x20);
        if flags != 0 {
            return i + (flags.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while b.get(i).is_some_and(|&c| !STOPS_A_STRING[c as usize]) {
        i += 1;
    }
    i
}

struct Scanner<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    /// Where numbers under id keys and inexact numbers start and end, when they are being collected.
    ids: Option<Spans>,
}

type R<T> = Result<T, String>;

impl<'a> Scanner<'a> {
    fn err<T>(&self, what: &str) -> R<T> {
        Err(format!("{what} at byte {}", self.i))
    }

    /// Refuses the key the string ending before `self.i` (contents from `start`) holds if it is the
    /// exact-number marker's, when spans are being collected (the text is going to JS).
    #[inline(always)]
    fn own_key(&self, start: usize) -> R<()> {
        let raw = &self.b[start..self.i - 1];
        if self.ids.is_none() || !matches!(raw.first(), Some(b'$' | b'\\')) {
            return Ok(());
        }
        let key = crate::json::parse(&self.s[start - 1..self.i]).ok();
        if key.as_ref().and_then(crate::json::Json::as_str) == Some(EXACT) {
            return Err(format!(
                "the key {EXACT:?}, which the SDK keeps for numbers a JS number cannot hold, at byte {start}"
            ));
        }
        Ok(())
    }

    #[inline(always)]
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// Skips a string starting at its opening quote; returns its raw contents.
    fn string(&mut self) -> R<&'a str> {
        let start = self.i + 1;
        self.skip_string()?;
        Ok(&self.s[start..self.i - 1])
    }

    /// Skips a string starting at its opening quote; returns where its contents start.
    #[inline(always)]
    fn skip_string(&mut self) -> R<usize> {
        let start = self.i + 1;
        self.i += 1;
        loop {
            self.i = plain_run(self.b, self.i);
            match self.peek() {
                None => return self.err("unterminated string"),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(start);
                }
                Some(b'\\') => match self.b.get(self.i + 1) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.i += 2,
                    Some(b'u') => {
                        let hex = self.b.get(self.i + 2..self.i + 6);
                        if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                            return self.err("bad \\u escape");
                        }
                        self.i += 6;
                    }
                    _ => return self.err("bad escape"),
                },
                Some(c) if c < 0x20 => return self.err("control character in string"),
                Some(_) => self.i += 1,
            }
        }
    }

    fn number(&mut self) -> R<()> {
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.i += 1;
                }
            }
            _ => return self.err("bad number"),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
                return self.err("bad number");
            }
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.i += 1;
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
                return self.err("bad number");
            }
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.i += 1;
            }
        }
        Ok(())
    }

    fn literal(&mut self, word: &[u8]) -> R<()> {
        if self.b[self.i..].starts_with(word) {
            self.i += word.len();
            Ok(())
        } else {
            self.err("unexpected character")
        }
    }

    /// Scans an array starting at its opening bracket (a value at `depth`), noting its items.
    fn array(&mut self, id: bool, depth: usize) -> R<Items<'a>> {
        let mut items = Items::default();
        self.i += 1;
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(items);
        }
        loop {
            let start = self.i;
            self.value(id, depth + 1)?;
            let item = self.s[start..self.i].trim_start_matches([' ', '\t', '\n', '\r']);
            if items.stray.is_none() && !item.starts_with('{') {
                items.stray = Some((items.count, item));
            }
            items.first.get_or_insert(item);
            items.count += 1;
            self.ws();
            match self.peek() {
                Some(b',') => {
                    self.i += 1;
                }
                Some(b']') => {
                    self.i += 1;
                    return Ok(items);
                }
                _ => return self.err("expected ',' or ']'"),
            }
        }
    }

    /// Scans one value, noting where numbers sit when `id` says the value is under an id key.
    fn value(&mut self, id: bool, depth: usize) -> R<()> {
        if depth > MAX_DEPTH {
            return self.err("nesting too deep");
        }
        self.ws();
        let start = self.i;
        match self.peek() {
            Some(b'{') => {
                self.i += 1;
                self.ws();
                if self.peek() == Some(b'}') {
                    self.i += 1;
                    return Ok(());
                }
                loop {
                    self.ws();
                    if self.peek() != Some(b'"') {
                        return self.err("expected a key");
                    }
                    let key = self.skip_string()?;
                    self.own_key(key)?;
                    let id = names_an_id(&self.b[key..self.i - 1]);
                    self.ws();
                    if self.peek() != Some(b':') {
                        return self.err("expected ':'");
                    }
                    self.i += 1;
                    self.value(id, depth + 1)?;
                    self.ws();
                    match self.peek() {
                        Some(b',') => {
                            self.i += 1;
                        }
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(());
                        }
                        _ => return self.err("expected ',' or '}'"),
                    }
                }
            }
            Some(b'[') => self.array(id, depth).map(drop),
            Some(b'"') => self.skip_string().map(drop),
            Some(b'-' | b'0'..=b'9') => {
                self.number()?;
                if let Some(spans) = &mut self.ids {
                    if id {
                        spans.push((start, self.i, Mark::Id));
                    } else if !exact::holds(&self.s[start..self.i]) {
                        spans.push((start, self.i, Mark::Exact));
                    }
                }
                Ok(())
            }
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            None => self.err("unexpected end"),
            _ => self.err("unexpected character"),
        }
    }
}

/// The members of a JSON object document, checking the whole document's syntax.
pub fn members(doc: &str) -> R<Vec<Member<'_>>> {
    Ok(scan_object(doc, false)?.0)
}

/// A JSON object document in one pass: its members, and where every number under an id key and
/// every number a double cannot hold sits.
pub struct Document<'a> {
    pub text: &'a str,
    pub members: Vec<Member<'a>>,
    ids: Spans,
}

impl<'a> Document<'a> {
    pub fn parse(text: &'a str) -> R<Document<'a>> {
        let (members, ids) = scan_object(text, true)?;
        Ok(Document { text, members, ids })
    }

    /// Copies a member's value (a slice of `text`) with its id numbers quoted and its inexact
    /// numbers marked.
    pub fn write_value(&self, value: &str, out: &mut String) {
        let start = value.as_ptr() as usize - self.text.as_ptr() as usize;
        let end = start + value.len();
        let first = self.ids.partition_point(|(a, _, _)| *a < start);
        let spans = self.ids[first..].iter().take_while(|(a, _, _)| *a < end);
        write_spans(self.text, start, end, spans, out);
    }
}

/// What a span of a number is written as.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mark {
    /// A number under an id key: a string of its digits.
    Id,
    /// A number a double cannot hold: the exact-number marker.
    Exact,
}

/// Byte ranges of the numbers to rewrite, in document order.
type Spans = Vec<(usize, usize, Mark)>;

/// Copies `text[start..end]` with the numbers of `spans` (all inside it) rewritten.
fn write_spans<'s>(
    text: &str,
    start: usize,
    end: usize,
    spans: impl Iterator<Item = &'s (usize, usize, Mark)>,
    out: &mut String,
) {
    let mut copied = start;
    for &(a, b, mark) in spans {
        out.push_str(&text[copied..a]);
        match mark {
            Mark::Id => out.push('"'),
            Mark::Exact => {
                out.push_str("{\"");
                out.push_str(EXACT);
                out.push_str("\":\"");
            }
        }
        out.push_str(&text[a..b]);
        out.push_str(if mark == Mark::Id { "\"" } else { "\"}" });
        copied = b;
    }
    out.push_str(&text[copied..end]);
}

fn scan_object(doc: &str, collect: bool) -> R<(Vec<Member<'_>>, Spans)> {
    let mut sc = Scanner {
        s: doc,
        b: doc.as_bytes(),
        i: 0,
        ids: collect.then(Vec::new),
    };
    sc.ws();
    if sc.peek() != Some(b'{') {
        return sc.err("expected a JSON object");
    }
    sc.i += 1;
    let mut out = Vec::new();
    sc.ws();
    if sc.peek() == Some(b'}') {
        sc.i += 1;
    } else {
        loop {
            sc.ws();
            if sc.peek() != Some(b'"') {
                return sc.err("expected a key");
            }
            let key = sc.string()?;
            sc.own_key(sc.i - 1 - key.len())?;
            sc.ws();
            if sc.peek() != Some(b':') {
                return sc.err("expected ':'");
            }
            sc.i += 1;
            sc.ws();
            let start = sc.i;
            let id = is_id_key(key);
            let items = if sc.peek() == Some(b'[') {
                Some(sc.array(id, 1)?)
            } else {
                sc.value(id, 1)?;
                None
            };
            out.push(Member {
                key,
                value: &doc[start..sc.i],
                items,
            });
            sc.ws();
            match sc.peek() {
                Some(b',') => sc.i += 1,
                Some(b'}') => {
                    sc.i += 1;
                    break;
                }
                _ => return sc.err("expected ',' or '}'"),
            }
        }
    }
    sc.ws();
    if sc.i != sc.b.len() {
        return sc.err("trailing characters");
    }
    Ok((out, sc.ids.unwrap_or_default()))
}

/// The members of a JSON array value, as spans.
pub fn array_items(value: &str) -> R<Vec<&str>> {
    let mut sc = Scanner {
        s: value,
        b: value.as_bytes(),
        i: 0,
        ids: None,
    };
    sc.ws();
    if sc.peek() != Some(b'[') {
        return sc.err("expected an array");
    }
    sc.i += 1;
    let mut out = Vec::new();
    sc.ws();
    if sc.peek() == Some(b']') {
        return Ok(out);
    }
    loop {
        sc.ws();
        let start = sc.i;
        sc.value(false, 1)?;
        out.push(&value[start..sc.i]);
        sc.ws();
        match sc.peek() {
            Some(b',') => sc.i += 1,
            Some(b']') => return Ok(out),
            _ => return sc.err("expected ',' or ']'"),
        }
    }
}

/// What a scan of a JSON array value sees of its items; `None` when `value` is not an array.
pub fn items(value: &str) -> Option<Items<'_>> {
    let mut sc = Scanner {
        s: value,
        b: value.as_bytes(),
        i: 0,
        ids: None,
    };
    sc.ws();
    if sc.peek() != Some(b'[') {
        return None;
    }
    sc.array(false, 0).ok()
}

/// Copies a JSON value, ids as strings and inexact numbers marked. `id` says whether the value
/// itself sits under an id key.
pub fn rewrite_into(value: &str, id: bool, out: &mut String) -> R<()> {
    let mut sc = Scanner {
        s: value,
        b: value.as_bytes(),
        i: 0,
        ids: Some(Vec::new()),
    };
    sc.value(id, 0)?;
    sc.ws();
    if sc.i != sc.b.len() {
        return sc.err("trailing characters");
    }
    let spans = sc.ids.unwrap_or_default();
    write_spans(value, 0, value.len(), spans.iter(), out);
    Ok(())
}

pub fn rewrite(value: &str) -> R<String> {
    let mut out = String::with_capacity(value.len() + value.len() / 16);
    rewrite_into(value, false, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_become_exact_strings_known_or_unknown() {
        let src = r#"{"expense_id": 982000000030049123, "line_items":[{"line_item_id":10763000000140068,"amount":112.5}],
            "tag_ids":[1,12345678901234567890123],"x":{"id":-7,"some_new_id":9007199254740993},"rate":9007199254740993,
            "name":"a \"quoted\" _id: 5","contact_persons":[460000000026049]}"#;
        let out = rewrite(src).unwrap();
        let parsed: serde_json::Value = serde_json::from_str(&out).unwrap();
        let expected: serde_json::Value = serde_json::from_str(
            r#"{"expense_id":"982000000030049123","line_items":[{"line_item_id":"10763000000140068","amount":112.5}],"tag_ids":["1","12345678901234567890123"],"x":{"id":"-7","some_new_id":"9007199254740993"},"rate":{"$svc_exact":"9007199254740993"},"name":"a \"quoted\" _id: 5","contact_persons":["460000000026049"]}"#,
        )
        .unwrap();
        assert_eq!(parsed, expected);
        assert!(
            out.contains("\"expense_id\": \"982000000030049123\""),
            "whitespace is kept"
        );
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["x"]["some_new_id"], "9007199254740993");
    }

    #[test]
    fn numbers_a_double_cannot_hold_are_marked_with_their_text() {
        let src = r#"{"legacy_ref":12345678901234567891,"v":[1000.00000000000000000000000001,1e400,-0,1.5],"n":{"x_id":1e400,"ok":9007199254740991}}"#;
        let out = rewrite(src).unwrap();
        assert_eq!(
            out,
            r#"{"legacy_ref":{"$svc_exact":"12345678901234567891"},"v":[{"$svc_exact":"1000.00000000000000000000000001"},{"$svc_exact":"1e400"},-0,1.5],"n":{"x_id":"1e400","ok":9007199254740991}}"#
        );
        let doc = Document::parse(src).unwrap();
        let mut spliced = String::new();
        doc.write_value(doc.members[1].value, &mut spliced);
        assert_eq!(
            spliced,
            r#"[{"$svc_exact":"1000.00000000000000000000000001"},{"$svc_exact":"1e400"},-0,1.5]"#
        );
    }

    #[test]
    fn a_key_spelling_the_marker_is_refused_where_the_text_goes_to_js() {
        for src in [
            r#"{"$svc_exact":"9007199254740993"}"#,
            r#"{"a":{"$svc_exact":"9007199254740993"}}"#,
            r#"{"a":[{"$svc_exact":"1"}]}"#,
            r#"{"$svc_exact":1}"#,
        ] {
            let e = rewrite(src).err().unwrap_or_default();
            assert!(e.contains("keeps for numbers"), "{src}: {e}");
            assert!(Document::parse(src).is_err(), "{src}");
        }
        for src in [r#"{"$svc_exactly":1}"#, r#"{"$":1,"\\":2,"$x":3}"#] {
            assert!(rewrite(src).is_ok(), "{src}");
        }
        assert!(
            members(r#"{"$svc_exact":"1"}"#).is_ok(),
            "only a text going to JS is checked"
        );
    }

    #[test]
    fn id_keys_are_id_ids_their_suffixes_and_contact_persons() {
        for key in ["id", "ids", "_id", "item_id", "tax_ids", "contact_persons"] {
            assert!(is_id_key(key), "{key}");
        }
        for key in [
            "",
            "d",
            "s",
            "paid",
            "kids",
            "idx",
            "identity",
            "item_idz",
            "contact_person",
        ] {
            assert!(!is_id_key(key), "{key}");
        }
    }

    #[test]
    fn string_ids_and_other_values_are_copied_as_they_are() {
        let src = r#"{"a_id":"0012","b":[true,false,null,{"c":"\u00e9\n"}],"d":-0.5e-3}"#;
        assert_eq!(rewrite(src).unwrap(), src);
    }

    #[test]
    fn the_scan_notes_the_items_of_an_array_member() {
        let doc = Document::parse(r#"{"a":[ {"x":1} , 2, "s"],"b":[[{}]],"c":[],"d":{}}"#).unwrap();
        let items: Vec<_> = doc.members.iter().map(|m| m.items).collect();
        assert_eq!(
            items,
            vec![
                Some(Items {
                    count: 3,
                    first: Some(r#"{"x":1}"#),
                    stray: Some((1, "2"))
                }),
                Some(Items {
                    count: 1,
                    first: Some("[{}]"),
                    stray: Some((0, "[{}]"))
                }),
                Some(Items::default()),
                None,
            ]
        );
        assert_eq!(items[1].unwrap().only(), Some("[{}]"));
        assert_eq!(items[0].unwrap().only(), None);
        assert_eq!(super::items("[{}]").map(|i| i.count), Some(1));
        assert_eq!(super::items(" {}"), None);
    }

    #[test]
    fn a_plain_run_ends_at_the_first_quote_backslash_or_control_character() {
        let stops = (0u8..0x20).chain([b'"', b'\\']);
        for stop in stops {
            for at in 0..20 {
                for start in 0..3.min(at + 1) {
                    let mut b = vec![b'a'; 24];
                    b[at] = stop;
                    b[at.saturating_sub(1)] = if at > 0 { 0xe9 } else { stop };
                    b[at] = stop;
                    b.extend([b'"', 0x1f, b'\\']);
                    assert_eq!(plain_run(&b, start), at, "{stop:#x} at {at} from {start}");
                }
            }
        }
        assert_eq!(plain_run(b"abc", 0), 3);
        assert_eq!(plain_run("é\u{7f}\u{ff}xyzéèà".as_bytes(), 0), 14);
    }

    #[test]
    fn members_span_the_top_level() {
        let m = members(r#" {"code":0, "message":"ok", "task": {"task_id": 1} } "#).unwrap();
        let keys: Vec<_> = m.iter().map(|m| (m.key, m.value)).collect();
        assert_eq!(
            keys,
            vec![
                ("code", "0"),
                ("message", "\"ok\""),
                ("task", "{\"task_id\": 1}")
            ]
        );
    }

    #[test]
    fn malformed_documents_are_refused() {
        for bad in [
            "",
            "{",
            "[]",
            "{\"a\":}",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "{\"a\":01}",
            "{\"a\":1.}",
            "{\"a\":\"\\x\"}",
            "{\"a\":\"\u{1}\"}",
            "{\"a\":tru}",
            "{\"a\":1} x",
            "{\"a\":-}",
            "{\"a\":\"\\u12\"}",
        ] {
            assert!(members(bad).is_err(), "{bad:?} should be refused");
        }
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(200), "]".repeat(200));
        assert!(members(&deep).is_err());
    }
}
