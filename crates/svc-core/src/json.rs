//! A JSON value that borrows its text: what the rules read, parsed in one pass with no map per object.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::borrow::Cow;
use std::fmt;

mod build;
mod de;
pub mod double;
pub mod error;
mod fields;
pub mod lossless;
mod read;
pub mod scan;
pub mod write;
pub use build::ToValue;
pub use de::from_json;
pub use fields::{expect, Field};
pub use read::{number, parse, Error};
pub use write::to_string;
pub use write::ToJson;

/// A JSON value whose strings borrow the text they were read from (unless they held escapes).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Json<'a> {
    #[default]
    Null,
    Bool(bool),
    /// A number as the text it was read from (`Json::as_num` reads its value).
    Num(Cow<'a, str>),
    Str(Cow<'a, str>),
    Arr(Vec<Json<'a>>),
    Obj(Obj<'a>),
}

/// A number as the JSON reader gives it: an integer when it is one and fits, else a float.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    U(u64),
    I(i64),
    F(f64),
}

/// The members of an object in their order; a key given twice keeps its first place and last value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Obj<'a>(Vec<(Cow<'a, str>, Json<'a>)>);

static NULL: Json<'static> = Json::Null;

/// The deepest nesting `parse` reads (serde_json's recursion limit).
pub const MAX_NESTING: usize = 128;

/// A `serde_json::Value` as the core's value (for tests and native callers).
#[cfg(any(test, feature = "serde_json"))]
pub fn of_value(value: &serde_json::Value) -> Json<'static> {
    Json::deserialize(value).unwrap_or(Json::Null)
}

impl Num {
    pub fn as_f64(self) -> f64 {
        match self {
            Num::U(u) => u as f64,
            Num::I(i) => i as f64,
            Num::F(f) => f,
        }
    }

    pub fn as_u64(self) -> Option<u64> {
        match self {
            Num::U(u) => Some(u),
            Num::I(i) => u64::try_from(i).ok(),
            Num::F(_) => None,
        }
    }

    pub fn as_i64(self) -> Option<i64> {
        match self {
            Num::U(u) => i64::try_from(u).ok(),
            Num::I(i) => Some(i),
            Num::F(_) => None,
        }
    }

    /// Whether JSON wrote it as an integer that fits 64 bits.
    pub fn is_integer(self) -> bool {
        !matches!(self, Num::F(_))
    }
}

impl<'a> Obj<'a> {
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json<'a>> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Sets member `key`: in the place of the member of that key, or last.
    pub fn insert(&mut self, key: Cow<'a, str>, value: Json<'a>) {
        match self.get_mut(&key) {
            Some(slot) => *slot = value,
            None => self.0.push((key, value)),
        }
    }

    pub fn into_members(self) -> impl Iterator<Item = (Cow<'a, str>, Json<'a>)> {
        self.0.into_iter()
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Json<'a>)> {
        self.0.iter().map(|(k, v)| (k.as_ref(), v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.as_ref())
    }

    pub fn values(&self) -> impl Iterator<Item = &Json<'a>> {
        self.0.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Json<'a>> {
        self.0.iter_mut().map(|(_, v)| v)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The object without the members whose key `drop` names, for writing.
    pub fn without<F: Fn(&str) -> bool>(&self, drop: F) -> Without<'_, 'a, F> {
        Without(self, drop)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Members read in order; a repeated key replaces the value where the key first stood.
    fn from_members(members: Vec<(Cow<'a, str>, Json<'a>)>) -> Obj<'a> {
        let n = members.len();
        let repeated = if n <= 16 {
            (1..n).any(|i| members[..i].iter().any(|(k, _)| *k == members[i].0))
        } else {
            let mut seen = Places::new(n);
            members
                .iter()
                .any(|(k, _)| seen.place(&members, k).is_some())
        };
        if !repeated {
            return Obj(members);
        }
        let mut out: Vec<(Cow<'a, str>, Json<'a>)> = Vec::with_capacity(n);
        let mut places = Places::new(n);
        for (k, v) in members {
            match places.place(&out, &k) {
                Some(i) => out[i].1 = v,
                None => out.push((k, v)),
            }
        }
        Obj(out)
    }
}

/// Where each key of a list of members first stands: an open-addressing hash table of their places.
struct Places {
    slots: Vec<u32>,
    count: u32,
}

impl Places {
    const EMPTY: u32 = u32::MAX;

    fn new(n: usize) -> Places {
        Places {
            slots: vec![Self::EMPTY; (n * 2).next_power_of_two().max(16)],
            count: 0,
        }
    }

    /// The place of an earlier member with this key, or `None` after taking the next place for it
    /// (the member's own: it is pushed, or already stands there).
    fn place<V>(&mut self, members: &[(Cow<str>, V)], key: &str) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let hash = key.bytes().fold(0x811c_9dc5u32, |h, b| {
            (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
        });
        let mut at = hash as usize & mask;
        loop {
            match self.slots[at] {
                Self::EMPTY => {
                    self.slots[at] = self.count;
                    self.count += 1;
                    return None;
                }
                i if members[i as usize].0 == key => return Some(i as usize),
                _ => at = (at + 1) & mask,
            }
        }
    }
}

impl<'a> Json<'a> {
    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        self.as_object().and_then(|m| m.get(key))
    }

    pub fn as_object(&self) -> Option<&Obj<'a>> {
        match self {
            Json::Obj(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json<'a>]> {
        match self {
            Json::Arr(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The value of a number, as serde_json classifies it.
    pub fn as_num(&self) -> Option<Num> {
        match self {
            Json::Num(text) => number(text),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        self.as_num().map(Num::as_f64)
    }

    pub fn as_u64(&self) -> Option<u64> {
        self.as_num().and_then(Num::as_u64)
    }

    pub fn as_i64(&self) -> Option<i64> {
        self.as_num().and_then(Num::as_i64)
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    pub fn is_string(&self) -> bool {
        matches!(self, Json::Str(_))
    }
}

impl<'a> std::ops::Index<&str> for Json<'a> {
    type Output = Json<'a>;

    /// The member `key`, or null, as `serde_json::Value` indexes.
    fn index(&self, key: &str) -> &Json<'a> {
        self.get(key).unwrap_or(&NULL)
    }
}

impl Serialize for Json<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => s.serialize_unit(),
            Json::Bool(b) => s.serialize_bool(*b),
            Json::Num(_) => match self.as_num() {
                Some(Num::U(u)) => s.serialize_u64(u),
                Some(Num::I(i)) => s.serialize_i64(i),
                Some(Num::F(f)) => s.serialize_f64(f),
                None => s.serialize_unit(),
            },
            Json::Str(text) => s.serialize_str(text),
            Json::Arr(items) => s.collect_seq(items),
            Json::Obj(m) => m.serialize(s),
        }
    }
}

impl Serialize for Obj<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.without(|_| false).serialize(s)
    }
}

/// An object with the members whose key `drop` names left out, for writing.
pub struct Without<'o, 'a, F>(&'o Obj<'a>, F);

impl<F: Fn(&str) -> bool> Serialize for Without<'_, '_, F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        for (k, v) in self.0.iter().filter(|(k, _)| !(self.1)(k)) {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'a> std::ops::Index<&str> for Obj<'a> {
    type Output = Json<'a>;

    /// The member `key`, or null.
    fn index(&self, key: &str) -> &Json<'a> {
        self.get(key).unwrap_or(&NULL)
    }
}

/// An owned value, for the fields of a model that hold any JSON (its strings and keys owned).
pub type Value = Json<'static>;

/// An owned object, for the members a model does not name.
pub type Map = Obj<'static>;

impl<'de, 'a> Deserialize<'de> for Json<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json<'a>, D::Error> {
        d.deserialize_any(JsonVisitor(std::marker::PhantomData))
    }
}

impl<'de, 'a> Deserialize<'de> for Obj<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Obj<'a>, D::Error> {
        match Json::deserialize(d)? {
            Json::Obj(m) => Ok(m),
            _ => Err(serde::de::Error::custom("expected an object")),
        }
    }
}

struct JsonVisitor<'a>(std::marker::PhantomData<Json<'a>>);

impl<'de, 'a> Visitor<'de> for JsonVisitor<'a> {
    type Value = Json<'a>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON")
    }

    fn visit_unit<E>(self) -> Result<Json<'a>, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json<'a>, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Json<'a>, D::Error> {
        Json::deserialize(d)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json<'a>, E> {
        Ok(Json::Bool(b))
    }

    fn visit_u64<E>(self, u: u64) -> Result<Json<'a>, E> {
        Ok(Json::Num(Cow::Owned(u.to_string())))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Json<'a>, E> {
        Ok(Json::Num(Cow::Owned(i.to_string())))
    }

    /// A float without its text is written as serde_json writes it.
    fn visit_f64<E>(self, f: f64) -> Result<Json<'a>, E> {
        Ok(Json::from(f))
    }

    fn visit_str<E>(self, s: &str) -> Result<Json<'a>, E> {
        Ok(Json::Str(Cow::Owned(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<Json<'a>, E> {
        Ok(Json::Str(Cow::Owned(s)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'a>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Arr(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'a>, A::Error> {
        let mut members = Vec::with_capacity(map.size_hint().unwrap_or(8).min(64));
        while let Some(key) = map.next_key::<String>()? {
            members.push((Cow::Owned(key), map.next_value()?));
        }
        Ok(Json::Obj(Obj::from_members(members)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_without_escapes_borrow_the_text() {
        let text = r#"{"a":"plain","b":"esc\u0041ped","n":[1,-2,1.5,18446744073709551615]}"#;
        let v = parse(text).unwrap();
        assert!(matches!(
            v.get("a"),
            Some(Json::Str(Cow::Borrowed("plain")))
        ));
        assert!(matches!(v.get("b"), Some(Json::Str(Cow::Owned(s))) if s == "escAped"));
        let n = v["n"].as_array().unwrap();
        assert_eq!(n[0].as_num(), Some(Num::U(1)));
        assert_eq!(n[1].as_num(), Some(Num::I(-2)));
        assert_eq!(n[2].as_num(), Some(Num::F(1.5)));
        assert!(matches!(n[2], Json::Num(Cow::Borrowed("1.5"))));
        assert_eq!(n[3].as_u64(), Some(u64::MAX));
        assert!(v["missing"].is_null());
    }

    #[test]
    fn a_repeated_key_keeps_its_place_and_its_last_value_as_serde_json_does() {
        for n in [3, 40] {
            let mut text = String::from("{");
            for i in 0..n {
                text.push_str(&format!("\"k{i}\":{i},"));
            }
            text.push_str("\"k1\":\"last\"}");
            let ours = parse(&text).unwrap();
            let theirs: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(ours, of_value(&theirs));
            let keys: Vec<&str> = ours.as_object().unwrap().keys().collect();
            assert_eq!(keys.len(), n);
            assert_eq!(keys[1], "k1");
            assert_eq!(ours["k1"].as_str(), Some("last"));
        }
    }

    #[test]
    fn many_keys_with_one_repeated_are_read_in_linear_time() {
        let mut text = String::from("{");
        for i in 0..200_000 {
            text.push_str(&format!("\"k{i}\":{i},"));
        }
        text.push_str("\"k7\":true}");
        let v = parse(&text).unwrap();
        let m = v.as_object().unwrap();
        assert_eq!(m.len(), 200_000);
        assert_eq!(m.iter().nth(7), Some(("k7", &Json::Bool(true))));
    }

    #[test]
    fn numbers_are_written_as_the_text_they_were_read_from() {
        for text in [
            "0",
            "-1",
            "9007199254740993",
            "1.5",
            "1.50",
            "1e21",
            "1E+21",
            "-0.0",
            "1e-7",
        ] {
            assert_eq!(parse(text).unwrap().to_json_text(), text);
        }
    }

    #[test]
    fn written_as_serde_json_writes_its_value() {
        let text = r#"{"a":[1,-2,1.5,"x\"y",null,true],"b":{"c":{}},"a2":"é"}"#;
        let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
        let ours = parse(text).unwrap();
        assert_eq!(serde_json::to_string(&ours).unwrap(), theirs.to_string());
        assert_eq!(ours.to_json_text(), theirs.to_string());
        let rest = ours
            .as_object()
            .unwrap()
            .without(|k| k == "b")
            .to_json_text();
        assert_eq!(rest, r#"{"a":[1,-2,1.5,"x\"y",null,true],"a2":"é"}"#);
    }

    /// Whether our reading of a text is serde_json's: the same values (numbers as serde_json
    /// classifies and rounds them, keys in the same order), or the same error message.
    fn same_as_serde_json(text: &str) {
        fn same(ours: &Json, theirs: &serde_json::Value) -> bool {
            use serde_json::Value;
            match (ours, theirs) {
                (Json::Null, Value::Null) => true,
                (Json::Bool(a), Value::Bool(b)) => a == b,
                (Json::Str(a), Value::String(b)) => a == b,
                (Json::Num(_), Value::Number(n)) => match ours.as_num() {
                    Some(Num::U(u)) => n.as_u64() == Some(u) && n.is_u64(),
                    Some(Num::I(i)) => n.as_i64() == Some(i) && n.is_i64() && !n.is_u64(),
                    Some(Num::F(f)) => {
                        n.is_f64() && n.as_f64().map(f64::to_bits) == Some(f.to_bits())
                    }
                    None => false,
                },
                (Json::Arr(a), Value::Array(b)) => {
                    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
                }
                (Json::Obj(a), Value::Object(b)) => {
                    a.len() == b.len()
                        && a.iter().zip(b).all(|((k, x), (l, y))| k == l && same(x, y))
                }
                _ => false,
            }
        }
        match (parse(text), serde_json::from_str::<serde_json::Value>(text)) {
            (Ok(ours), Ok(theirs)) => {
                assert!(same(&ours, &theirs), "{text:?}: {ours:?} vs {theirs:?}");
                let written = ours.to_json_text();
                assert!(same(&parse(&written).unwrap(), &theirs), "{written:?}");
                fn has_float(v: &serde_json::Value) -> bool {
                    match v {
                        serde_json::Value::Number(n) => n.is_f64(),
                        serde_json::Value::Array(a) => a.iter().any(has_float),
                        serde_json::Value::Object(m) => m.values().any(has_float),
                        _ => false,
                    }
                }
                if !has_float(&theirs) {
                    assert_eq!(written, theirs.to_string(), "{text:?}");
                }
            }
            // Past a number beyond a double's range, which serde_json refuses, ours reads on.
            (Err(_), Err(theirs)) if theirs.to_string().starts_with("number out of range") => {}
            (Err(ours), Err(theirs)) => assert_eq!(ours.message(), theirs.to_string(), "{text:?}"),
            // A number beyond a double's range is read with its text, where serde_json refuses it.
            (Ok(ours), Err(theirs)) if theirs.to_string().starts_with("number out of range") => {
                assert_eq!(ours.to_json_text(), text.trim(), "{text:?}")
            }
            (ours, theirs) => panic!("{text:?}: {ours:?} vs {theirs:?}"),
        }
    }

    #[test]
    fn odd_texts_are_read_as_serde_json_reads_them() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        let deep_objects = |n: usize| format!("{}1{}", r#"{"a":"#.repeat(n), "}".repeat(n));
        let texts = [
            "0",
            "-0",
            "-0.0",
            "1e400",
            "-1e400",
            "1e-400",
            "1E-7",
            "1e+2",
            "1.5e308",
            "2e308",
            "123456789012345678901234567890",
            "-123456789012345678901234567890",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "0.1",
            "0.30000000000000004",
            "1.7976931348623157e308",
            "4.9e-324",
            "2.2250738585072014e-308",
            "0.000001",
            "123.456e-2",
            "1.00000000000000000000000000001",
            "0e999999999999",
            "1e999999999999",
            "1e-999999999999",
            "01",
            "-",
            "-a",
            "1.",
            "1.e3",
            ".5",
            "1e",
            "1e+",
            "+1",
            "1x",
            "0x10",
            "--1",
            "1.5.5",
            r#""a\u0041\n\t\"\\\/\b\f\r""#,
            r#""\ud83d\ude00""#,
            r#""\ud800""#,
            r#""\udc00""#,
            r#""\ud800\u0041""#,
            r#""\ud800x""#,
            r#""\ud800\n""#,
            r#""\u00e9""#,
            r#""\uD83D\uDE00""#,
            r#""\u12""#,
            r#""\u12G4""#,
            r#""\x""#,
            "\"a\u{1}b\"",
            "\"tab\there\"",
            "\"é ü 😀\"",
            "\"unterminated",
            "\"\\",
            "[1,]",
            "[1,,2]",
            "[,1]",
            "{\"a\":1,}",
            "{,}",
            "{\"a\" 1}",
            "{\"a\":}",
            "{1:2}",
            "{\"a\":1 \"b\":2}",
            "[1 2]",
            "[",
            "{",
            "{\"a\"",
            "{\"a\":1",
            "[1",
            "tru",
            "trux",
            "nul",
            "nulll",
            "false ",
            " \n\t[ 1 , {\"x\" : null} ]\r\n",
            "",
            " ",
            "[]]",
            "{}x",
            "\n\n  [1,\n  x]",
            "/* c */ 1",
            "[1] // c",
            "NaN",
            "Infinity",
            "{\"a\":1,\"a\":2,\"b\":3}",
            "\u{feff}1",
        ];
        for text in texts {
            same_as_serde_json(text);
        }
        for n in [126, 127, 128, 129, 200] {
            same_as_serde_json(&deep(n));
            same_as_serde_json(&deep_objects(n));
        }
    }

    #[test]
    fn texts_drawn_at_random_from_json_tokens_are_read_as_serde_json_reads_them() {
        const TOKENS: [&str; 32] = [
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"k\"",
            "\"",
            "\\",
            "\\u",
            "d83d",
            "de00",
            "00e9",
            "1",
            "-",
            "0",
            "9",
            ".",
            "e",
            "E",
            "+",
            "18446744073709551616",
            " ",
            "\n",
            "true",
            "nul",
            "null",
            "x",
            "é",
            "\u{1}",
            "\\n",
            "2e308",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..200_000 {
            let len = 1 + next() % 14;
            let text: String = (0..len).map(|_| TOKENS[(next() % 32) as usize]).collect();
            same_as_serde_json(&text);
        }
    }

    #[test]
    fn the_vendor_fixtures_and_every_cut_of_them_are_read_as_serde_json_reads_them() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/vendor");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let mut read = 0;
        for file in files
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == "json"))
        {
            let text = std::fs::read_to_string(file).unwrap();
            same_as_serde_json(&text);
            let compact = serde_json::from_str::<serde_json::Value>(&text)
                .unwrap()
                .to_string();
            same_as_serde_json(&compact);
            for (i, _) in text.char_indices().step_by(23) {
                same_as_serde_json(&text[..i]);
                let mut changed = text.clone();
                changed.replace_range(
                    i..i + text[i..].chars().next().map_or(0, char::len_utf8),
                    "\"",
                );
                same_as_serde_json(&changed);
            }
            read += 1;
        }
        assert!(read > 100, "{read}");
    }

    #[test]
    fn malformed_or_too_deep_text_is_an_error() {
        assert!(parse("{").is_err());
        assert!(parse(&"[".repeat(200)).is_err());
        assert!(parse(&format!("{}{}", "[".repeat(100), "]".repeat(100))).is_ok());
    }
}
