//! svc-json: the JSON of svc-sdk, its own (no serde_json in any production build). One reader
//! (`read`) accepts and refuses what serde_json does, with its messages, and hands what it reads to a
//! `read::Sink`: the borrowed tree `Json` (`parse`), or a sink of the caller's (svc-core's text for JS).
//! Every number keeps the text it was read from, so nothing is rounded on the way through; one writer
//! (`write`, `ToJson`) writes compact text, and serde's data model is read (`from_json`) and written
//! (`to_string`) both ways. Nothing here knows the SDK: its ids, markers and operations are svc-core's.
#![forbid(unsafe_code)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::borrow::Cow;
use std::fmt;

mod build;
mod de;
pub mod double;
pub mod error;
mod fields;
pub mod read;
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
    fn malformed_or_too_deep_text_is_an_error() {
        assert!(parse("{").is_err());
        assert!(parse(&"[".repeat(200)).is_err());
        assert!(parse(&format!("{}{}", "[".repeat(100), "]".repeat(100))).is_ok());
    }
}
