//! One problem with the params of a call: where it is, its code, a message and the details of its code.

use serde::Serialize;
use serde_json::{Map, Value};

/// One step of an issue's path: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum PathSeg {
    /// A key: the rules' own names are borrowed, so that walking valid params allocates no path.
    Key(std::borrow::Cow<'static, str>),
    Index(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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

/// One problem with the params, with the details of its code.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Issue {
    pub path: Vec<PathSeg>,
    pub code: IssueCode,
    pub message: String,
    #[serde(flatten)]
    pub details: Map<String, Value>,
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
                PathSeg::Index(i) => s.push_str(&format!("[{i}]")),
            }
        }
        s
    }
}

/// The details of an issue from its pairs.
pub fn details<const N: usize>(pairs: [(&str, Value); N]) -> Map<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}
