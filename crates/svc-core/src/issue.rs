//! One problem with the params of a call: where it is, a message, and its problem: the code with that code's details.

use crate::declare::{self, Declared, Member};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::borrow::Cow;
use svc_json::write::{self, Members, ToJson};

/// One step of an issue's path: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum PathSeg {
    /// A key: the rules' own names are borrowed, so that walking valid params allocates no path.
    Key(Cow<'static, str>),
    Index(usize),
}

/// A bound of a range: a number, or a date or time written as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Int(i64),
    Text(Cow<'static, str>),
}

impl Member for Bound {
    const TS: &'static str = "number | string";

    fn write(&self, out: &mut String) {
        match self {
            Bound::Int(n) => write::integer(out, *n),
            Bound::Text(s) => write::string(out, s),
        }
    }
}

impl From<i64> for Bound {
    fn from(n: i64) -> Bound {
        Bound::Int(n)
    }
}

impl From<String> for Bound {
    fn from(s: String) -> Bound {
        Bound::Text(Cow::Owned(s))
    }
}

/// Declares the problems: each code's variant with its details, its name, and its TypeScript.
macro_rules! problems {
    ($(
        #[doc = $doc:literal]
        $variant:ident $name:literal { $($field:ident: $ty:ty),* }
    )*) => {
        /// What is wrong, with the details of its code (the table of docs/REFERENCE.md, "Issues").
        #[derive(Clone, Debug, PartialEq)]
        pub enum Problem {
            $(#[doc = $doc] $variant { $($field: $ty),* },)*
        }

        /// The code of an issue, as the public contract (docs/REFERENCE.md, "Issues") names it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum IssueCode {
            $($variant,)*
        }

        impl IssueCode {
            pub const ALL: &'static [IssueCode] = &[$(IssueCode::$variant),*];

            /// The code as JSON and docs/REFERENCE.md write it.
            pub fn name(self) -> &'static str {
                match self {
                    $(IssueCode::$variant => $name,)*
                }
            }

            /// What the code means, and the details an issue of it carries.
            fn declared(self) -> (&'static str, &'static str, Vec<Declared>) {
                match self {
                    $(IssueCode::$variant => (
                        stringify!($variant),
                        $doc.trim(),
                        vec![$(Declared::of::<$ty>(stringify!($field), "")),*],
                    ),)*
                }
            }
        }

        impl Problem {
            pub fn code(&self) -> IssueCode {
                match self {
                    $(Problem::$variant { .. } => IssueCode::$variant,)*
                }
            }

            /// Each detail's name and value, in their order, those left out skipped.
            fn each(&self, mut f: impl FnMut(&'static str, &dyn Detail)) {
                match self {
                    $(Problem::$variant { $($field),* } => {
                        $(if Member::present($field) {
                            f(stringify!($field), $field);
                        })*
                    })*
                }
            }
        }
    };
}

problems! {
    /// A required field is missing or empty.
    Required "required" {}
    /// The value has the wrong JSON type.
    InvalidType "invalid_type" { expected: Cow<'static, str> }
    /// A string longer than its bound.
    TooLong "too_long" { maximum: usize }
    /// A string shorter than its bound.
    TooShort "too_short" { minimum: usize }
    /// A number or a date outside its range.
    OutOfRange "out_of_range" { minimum: Bound, maximum: Bound }
    /// Not one of the allowed values.
    InvalidValue "invalid_value" { allowed: &'static [&'static str] }
    /// Not in its format (a date, a duration, letters and digits, a file type: then the types allowed).
    InvalidFormat "invalid_format" { format: Cow<'static, str>, allowed: Option<&'static [&'static str]> }
    /// An array with more members than allowed.
    TooMany "too_many" { maximum: usize }
    /// A field that does not apply in this combination.
    NotAllowed "not_allowed" {}
}

/// A detail's value, as the core writes it.
trait Detail {
    fn write(&self, out: &mut String);
}

impl<T: Member> Detail for T {
    fn write(&self, out: &mut String) {
        Member::write(self, out);
    }
}

impl Problem {
    /// The details, as a JSON object (for tests).
    #[cfg(test)]
    pub fn details(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut out = serde_json::Map::new();
        self.each(|k, v| {
            let mut text = String::new();
            v.write(&mut text);
            out.insert(
                k.to_string(),
                serde_json::from_str(&text).unwrap_or_default(),
            );
        });
        out
    }
}

impl IssueCode {
    /// The TypeScript of `IssueCode` and of `Issue`: one interface per code with its details, and their union.
    pub fn declarations() -> String {
        let mut out = String::new();
        let names: Vec<&str> = IssueCode::ALL.iter().map(|c| c.name()).collect();
        declare::names_union(&mut out, "The code of an issue.", "IssueCode", &names);
        let base = [
            Declared::new("path", "(string | number)[]")
                .doc("Where in the params: keys and indexes."),
            Declared::new("code", "IssueCode"),
            Declared::new("message", "string"),
        ];
        declare::interface(&mut out, "What every issue has.", "IssueBase", &base);
        let mut every: Vec<&str> = Vec::new();
        for code in IssueCode::ALL {
            for d in code.declared().2 {
                if !every.contains(&d.name) {
                    every.push(d.name);
                }
            }
        }
        let mut union = Vec::new();
        for code in IssueCode::ALL {
            let (variant, about, mut details) = code.declared();
            for name in &every {
                if !details.iter().any(|d| d.name == *name) {
                    details.push(Declared::new(name, "undefined").optional());
                }
            }
            let name = format!("{variant}Issue");
            declare::doc(&mut out, "", about);
            out.push_str(&format!(
                "export interface {name} extends IssueBase {{\n  code: \"{}\";\n",
                code.name()
            ));
            declare::members(&mut out, &details, false);
            out.push_str("}\n");
            union.push(name);
        }
        declare::doc(
            &mut out,
            "",
            "One problem with the params: where it is, its code, a message and the details of its code.",
        );
        out.push_str(&format!("export type Issue = {};\n", union.join(" | ")));
        out
    }
}

/// One problem with the params, with the details of its code.
#[derive(Clone, Debug, PartialEq)]
pub struct Issue {
    pub path: Vec<PathSeg>,
    pub message: String,
    pub problem: Problem,
}

impl Issue {
    pub fn new(path: Vec<PathSeg>, message: impl Into<String>, problem: Problem) -> Issue {
        Issue {
            path,
            message: message.into(),
            problem,
        }
    }

    pub fn code(&self) -> IssueCode {
        self.problem.code()
    }

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
        m.str("code", self.code().name());
        m.str("message", &self.message);
        self.problem.each(|k, v| v.write(m.key(k)));
        m.end();
    }
}

impl Serialize for Issue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("path", &self.path)?;
        map.serialize_entry("code", self.code().name())?;
        map.serialize_entry("message", &self.message)?;
        let mut details = Vec::new();
        self.problem.each(|k, v| {
            let mut text = String::new();
            v.write(&mut text);
            details.push((k, text));
        });
        for (k, text) in &details {
            map.serialize_entry(k, &svc_json::parse(text).unwrap_or_default())?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_issue_writes_its_code_and_details_in_their_order() {
        let issue = Issue::new(
            vec![PathSeg::Key("files".into()), PathSeg::Index(1)],
            "no",
            Problem::InvalidFormat {
                format: "file type".into(),
                allowed: Some(&["png", "jpg"]),
            },
        );
        let text = issue.to_json_text();
        assert_eq!(
            text,
            r#"{"path":["files",1],"code":"invalid_format","message":"no","format":"file type","allowed":["png","jpg"]}"#
        );
        assert_eq!(text, serde_json::to_string(&issue).unwrap());
        let range = Problem::OutOfRange {
            minimum: "2024-01-01T00:00:00Z".to_string().into(),
            maximum: 5.into(),
        };
        assert_eq!(
            serde_json::Value::Object(range.details()),
            serde_json::json!({"minimum": "2024-01-01T00:00:00Z", "maximum": 5})
        );
    }

    #[test]
    fn each_code_is_declared_with_its_details() {
        let ts = IssueCode::declarations();
        assert!(ts.contains("export interface TooLongIssue extends IssueBase {\n  code: \"too_long\";\n  maximum: number;\n  expected?: undefined;\n"), "{ts}");
        assert!(
            ts.contains("  format: string;\n  allowed?: string[];\n"),
            "{ts}"
        );
        assert!(
            ts.contains("export type Issue = RequiredIssue | InvalidTypeIssue"),
            "{ts}"
        );
    }
}
