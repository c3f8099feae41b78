//! The text for JS, read in the reader's one pass: every value under a key that names an id (`id`,
//! `*_id`, `ids`, `*_ids`, `contact_persons`) that the server sent as a number is written back as a
//! string of the same digits, so `JSON.parse` on the result never rounds an id. Any other number
//! that a JS double cannot hold (`double::holds`) is written as the exact-number marker
//! `{"$svc_exact":"<its text>"}`, and a document with a key of that name is refused, so a marker is
//! always the core's. Everything else is copied byte for byte.

use crate::exact::EXACT;
use std::borrow::Cow;
use svc_json::double;
use svc_json::read::{self, Refused, Sink};
use svc_json::Json;

/// Why a text going to JS is refused when it has a key that spells the marker's (`read::Sink::key`
/// refuses it, `said` words it).
const MARKER_KEY: &str =
    "the key \"$svc_exact\", which the SDK keeps for numbers a JS number cannot hold,";

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

type R<T> = Result<T, String>;

/// What a number's span is written as.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mark {
    /// A number under an id key: a string of its digits.
    Id,
    /// A number a double cannot hold: the exact-number marker.
    Exact,
}

/// Byte ranges of the numbers to rewrite, in document order.
type Spans = Vec<(usize, usize, Mark)>;

/// The reader's sink for text going to JS: the top-level members, what each array held, and (when
/// `spans` is kept) where the numbers to rewrite sit.
struct Scan<'a> {
    text: &'a str,
    spans: Option<Spans>,
    /// How many objects and arrays enclose the value being read.
    level: usize,
    top: Vec<Member<'a>>,
}

impl<'a> Scan<'a> {
    fn new(text: &'a str, spans: bool) -> Scan<'a> {
        Scan {
            text,
            spans: spans.then(Vec::new),
            level: 0,
            top: Vec::new(),
        }
    }

    fn offset(&self, s: &str) -> usize {
        s.as_ptr() as usize - self.text.as_ptr() as usize
    }
}

impl<'a> Sink<'a> for Scan<'a> {
    /// What an array held (`None` for any other value).
    type Value = Option<Items<'a>>;
    type Items = Items<'a>;
    type Members = Vec<Member<'a>>;
    const DECODES: bool = false;

    #[inline(always)]
    fn key(&mut self, raw: &'a str) -> Result<bool, Refused> {
        if self.spans.is_some() && matches!(raw.as_bytes().first(), Some(b'$' | b'\\')) {
            let mut quoted = String::with_capacity(raw.len() + 2);
            quoted.push('"');
            quoted.push_str(raw);
            quoted.push('"');
            if read::parse(&quoted).ok().as_ref().and_then(Json::as_str) == Some(EXACT) {
                return Err(Refused);
            }
        }
        Ok(names_an_id(raw.as_bytes()))
    }
    fn literal(&mut self, _: Json<'a>) -> Self::Value {
        None
    }
    #[inline(always)]
    fn number(&mut self, text: &'a str, id: bool) -> Self::Value {
        if self.spans.is_some() {
            let start = self.offset(text);
            let mark = if id {
                Some(Mark::Id)
            } else {
                (!double::holds(text)).then_some(Mark::Exact)
            };
            if let (Some(mark), Some(spans)) = (mark, &mut self.spans) {
                spans.push((start, start + text.len(), mark));
            }
        }
        None
    }
    fn string(&mut self, _: Cow<'a, str>) -> Self::Value {
        None
    }
    fn items(&mut self) -> Items<'a> {
        self.level += 1;
        Items::default()
    }
    #[inline(always)]
    fn item(&mut self, items: &mut Items<'a>, _: Self::Value, text: &'a str) {
        if items.stray.is_none() && !text.starts_with('{') {
            items.stray = Some((items.count, text));
        }
        items.first.get_or_insert(text);
        items.count += 1;
    }
    fn array(&mut self, items: Items<'a>) -> Self::Value {
        self.level -= 1;
        Some(items)
    }
    fn members(&mut self) -> Vec<Member<'a>> {
        self.level += 1;
        Vec::new()
    }
    #[inline(always)]
    fn member(
        &mut self,
        m: &mut Vec<Member<'a>>,
        key: Cow<'a, str>,
        v: Self::Value,
        text: &'a str,
    ) {
        if self.level == 1 {
            if let Cow::Borrowed(key) = key {
                m.push(Member {
                    key,
                    value: text,
                    items: v,
                });
            }
        }
    }
    fn object(&mut self, m: Vec<Member<'a>>) -> Self::Value {
        self.level -= 1;
        if self.level == 0 {
            self.top = m;
        }
        None
    }
}

/// A reader's error in words: a key the scan refused is the marker's key.
fn said(e: read::Error) -> String {
    if e.is_refused() {
        e.message_as(MARKER_KEY)
    } else {
        e.message()
    }
}

/// The members of a JSON object document, checking the whole document's syntax.
pub fn members(doc: &str) -> R<Vec<Member<'_>>> {
    let mut scan = Scan::new(doc, false);
    read::read_object(doc, &mut scan).map_err(said)?;
    Ok(scan.top)
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
        let mut scan = Scan::new(text, true);
        read::read_object(text, &mut scan).map_err(said)?;
        Ok(Document {
            text,
            members: scan.top,
            ids: scan.spans.unwrap_or_default(),
        })
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

/// The items of a JSON array value, as spans.
pub fn array_items(value: &str) -> R<Vec<&str>> {
    /// The items of the outermost array.
    struct Outer<'a> {
        level: usize,
        items: Vec<&'a str>,
    }
    impl<'a> Sink<'a> for Outer<'a> {
        type Value = ();
        type Items = ();
        type Members = ();
        const DECODES: bool = false;
        fn key(&mut self, _: &'a str) -> Result<bool, Refused> {
            Ok(false)
        }
        fn literal(&mut self, _: Json<'a>) {}
        fn number(&mut self, _: &'a str, _: bool) {}
        fn string(&mut self, _: Cow<'a, str>) {}
        fn items(&mut self) {
            self.level += 1;
        }
        fn item(&mut self, _: &mut (), _: (), text: &'a str) {
            if self.level == 1 {
                self.items.push(text);
            }
        }
        fn array(&mut self, _: ()) {
            self.level -= 1;
        }
        fn members(&mut self) {
            self.level += 1;
        }
        fn member(&mut self, _: &mut (), _: Cow<'a, str>, _: (), _: &'a str) {}
        fn object(&mut self, _: ()) {
            self.level -= 1;
        }
    }
    if !value.trim_start_matches(BLANKS).starts_with('[') {
        return Err("expected an array".into());
    }
    let mut outer = Outer {
        level: 0,
        items: Vec::new(),
    };
    read::read(value, &mut outer, false).map_err(said)?;
    Ok(outer.items)
}

const BLANKS: [char; 4] = [' ', '\t', '\n', '\r'];

/// What a scan of a JSON array value sees of its items; `None` when `value` is not an array.
pub fn items(value: &str) -> Option<Items<'_>> {
    if !value.trim_start_matches(BLANKS).starts_with('[') {
        return None;
    }
    read::read(value, &mut Scan::new(value, false), false)
        .ok()
        .flatten()
}

/// Copies a JSON value, ids as strings and inexact numbers marked. `id` says whether the value
/// itself sits under an id key.
pub fn rewrite_into(value: &str, id: bool, out: &mut String) -> R<()> {
    let mut scan = Scan::new(value, true);
    read::read(value, &mut scan, id).map_err(said)?;
    let spans = scan.spans.unwrap_or_default();
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
    fn the_refusal_names_the_markers_key() {
        assert!(MARKER_KEY.contains(&format!("\"{EXACT}\"")), "{MARKER_KEY}");
        let e = rewrite(r#"{"a":1,"$svc_exact":2}"#)
            .err()
            .unwrap_or_default();
        assert_eq!(e, format!("{MARKER_KEY} at line 1 column 8"));
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
