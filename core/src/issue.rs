//! One problem with the params of a call: where it is, its code, a message and the details of its code.

use crate::json::write::{self, Members, ToJson};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::borrow::Cow;

/// One step of an issue's path: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum PathSeg {
    /// A key: the rules' own names are borrowed, so that walking valid params allocates no path.
    Key(Cow<'static, str>),
    Index(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum IssueCode {
    Required,
    InvalidType,
    TooLong,
    TooShort,
    OutOfRange,
    InvalidValue,
    InvalidFormat,
    TooMany,
    NotAllowed,
}

impl IssueCode {
    /// The code as JSON and API.md write it.
    pub fn name(self) -> &'static str {
        match self {
            IssueCode::Required => "required",
            IssueCode::InvalidType => "invalid_type",
            IssueCode::TooLong => "too_long",
            IssueCode::TooShort => "too_short",
            IssueCode::OutOfRange => "out_of_range",
            IssueCode::InvalidValue => "invalid_value",
            IssueCode::InvalidFormat => "invalid_format",
            IssueCode::TooMany => "too_many",
            IssueCode::NotAllowed => "not_allowed",
        }
    }
}

/// One problem with the params, with the details of its code.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Issue {
    pub path: Vec<PathSeg>,
    pub code: IssueCode,
    pub message: String,
    #[serde(flatten)]
    pub details: Details,
}

/// The details of an issue's code, in their order: `expected`, `minimum`, `allowed`...
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Details(Vec<(&'static str, Detail)>);

/// The value of one detail: the rules' bounds are integers, so no float is ever written.
#[derive(Clone, Debug, PartialEq)]
pub enum Detail {
    Text(Cow<'static, str>),
    Int(i64),
    List(Vec<String>),
}

impl Details {
    pub fn get(&self, key: &str) -> Option<&Detail> {
        self.0.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &Detail)> {
        self.0.iter().map(|(k, v)| (*k, v))
    }
}

impl Issue {
    pub fn path_string(&self) -> String {
        if self.path.is_empty() {
            return "params".into();
        }
        let mut s = String::new();
        for seg in &self.path {
            match seg {
                PathSeg::Key(k) if s.is_empty() => s.push_str(k),
                PathSeg::Key(k) => {
                    s.push('.');
                    s.push_str(k);
                }
                PathSeg::Index(i) => {
                    s.push('[');
                    write::integer(&mut s, *i as i64);
                    s.push(']');
                }
            }
        }
        s
    }
}

/// The details of an issue from its pairs.
pub fn details<const N: usize>(pairs: [(&'static str, Detail); N]) -> Details {
    Details(pairs.into())
}

impl From<&'static str> for Detail {
    fn from(s: &'static str) -> Detail {
        Detail::Text(Cow::Borrowed(s))
    }
}

impl From<String> for Detail {
    fn from(s: String) -> Detail {
        Detail::Text(Cow::Owned(s))
    }
}

macro_rules! int_detail {
    ($($t:ty),*) => {$(
        impl From<$t> for Detail {
            fn from(n: $t) -> Detail {
                Detail::Int(n as i64)
            }
        }
    )*};
}
int_detail!(i32, u32, i64, u64, usize);

impl<'s> FromIterator<&'s str> for Detail {
    fn from_iter<I: IntoIterator<Item = &'s str>>(items: I) -> Detail {
        Detail::List(items.into_iter().map(String::from).collect())
    }
}

impl ToJson for Detail {
    fn write_json(&self, out: &mut String) {
        match self {
            Detail::Text(s) => write::string(out, s),
            Detail::Int(n) => write::integer(out, *n),
            Detail::List(items) => write::array(out, items, |out, s| write::string(out, s)),
        }
    }
}

impl ToJson for PathSeg {
    fn write_json(&self, out: &mut String) {
        match self {
            PathSeg::Key(k) => write::string(out, k),
            PathSeg::Index(i) => write::integer(out, *i as i64),
        }
    }
}

impl ToJson for Issue {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::new(out);
        m.value("path", &self.path);
        m.str("code", self.code.name());
        m.str("message", &self.message);
        for (k, v) in &self.details.0 {
            m.value(k, v);
        }
        m.end();
    }
}

impl Serialize for Detail {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Detail::Text(t) => s.serialize_str(t),
            Detail::Int(n) => s.serialize_i64(*n),
            Detail::List(items) => s.collect_seq(items),
        }
    }
}

impl Serialize for Details {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}
