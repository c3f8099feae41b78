//! The members of the shapes the Rust hands to JS (errors, issues, options), written as JSON and declared as TypeScript from one list.

use std::borrow::Cow;
use svc_json::write::{self, Members, ToJson};

/// A value that is a member of a declared shape: its TypeScript type, and whether and how it is written.
pub trait Member {
    const TS: &'static str;
    /// Left out when absent (an `Option`), so optional in TypeScript.
    const OPTIONAL: bool = false;

    /// Whether it is written: not when absent, nor a member that JS sets apart from the JSON.
    fn present(&self) -> bool {
        true
    }

    fn write(&self, out: &mut String);

    /// `key: value` into `m`, unless absent.
    fn member(&self, m: &mut Members, key: &str) {
        if self.present() {
            self.write(m.key(key));
        }
    }
}

impl<T: Member> Member for Option<T> {
    const TS: &'static str = T::TS;
    const OPTIONAL: bool = true;

    fn present(&self) -> bool {
        self.as_ref().is_some_and(Member::present)
    }

    fn write(&self, out: &mut String) {
        if let Some(v) = self {
            v.write(out);
        }
    }
}

impl<T: Member> Member for Box<T> {
    const TS: &'static str = T::TS;
    const OPTIONAL: bool = T::OPTIONAL;

    fn present(&self) -> bool {
        (**self).present()
    }

    fn write(&self, out: &mut String) {
        (**self).write(out);
    }
}

impl Member for u16 {
    const TS: &'static str = "number";

    fn write(&self, out: &mut String) {
        write::integer(out, i64::from(*self));
    }
}

impl Member for i64 {
    const TS: &'static str = "number";

    fn write(&self, out: &mut String) {
        write::integer(out, *self);
    }
}

impl Member for u64 {
    const TS: &'static str = "number";

    fn write(&self, out: &mut String) {
        write::unsigned(out, *self);
    }
}

impl Member for usize {
    const TS: &'static str = "number";

    fn write(&self, out: &mut String) {
        write::unsigned(out, *self as u64);
    }
}

impl Member for Cow<'static, str> {
    const TS: &'static str = "string";

    fn write(&self, out: &mut String) {
        write::string(out, self);
    }
}

impl Member for bool {
    const TS: &'static str = "boolean";

    fn write(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
}

impl Member for &'static [&'static str] {
    const TS: &'static str = "string[]";

    fn write(&self, out: &mut String) {
        self.write_json(out);
    }
}

/// One member as TypeScript declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declared {
    pub name: &'static str,
    pub ts: &'static str,
    pub optional: bool,
    pub doc: &'static str,
    /// The default its doc states where it writes `{default}`: the value the code applies.
    pub default: Option<Shown>,
    /// What its value must be, as the options' reader checks it.
    pub accepts: Accepts,
}

/// What an option's value must be: the options' reader checks each member by it, its own code the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accepts {
    /// Read by code of its own (an object, a union, a token).
    Own,
    /// A whole number from `min` to `max`.
    Whole { min: u8, max: u32 },
    /// A string.
    Text,
    /// A function.
    Function,
    /// `true` or `false`.
    Flag,
}

/// A default as a doc states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// A number as it is written.
    Number(u64),
    /// A size in bytes: in MiB when it is whole MiB.
    Bytes(u64),
}

impl Shown {
    pub fn text(self) -> String {
        const MIB: u64 = 1 << 20;
        match self {
            Shown::Number(n) => n.to_string(),
            Shown::Bytes(n) if n >= MIB && n % MIB == 0 => format!("{} MiB", n / MIB),
            Shown::Bytes(n) => format!("{n} bytes"),
        }
    }
}

impl Declared {
    pub const fn new(name: &'static str, ts: &'static str) -> Declared {
        Declared {
            name,
            ts,
            optional: false,
            doc: "",
            default: None,
            accepts: Accepts::Own,
        }
    }

    /// A whole number from `min` to `max`.
    pub const fn whole(self, min: u8, max: u32) -> Declared {
        Declared {
            accepts: Accepts::Whole { min, max },
            ..self
        }
    }

    /// Its value is read as `accepts` says.
    pub const fn accepts(self, accepts: Accepts) -> Declared {
        Declared { accepts, ..self }
    }

    /// The default as a number, for the reader (0 when it has none).
    pub const fn default_number(&self) -> u64 {
        match self.default {
            Some(Shown::Number(n) | Shown::Bytes(n)) => n,
            None => 0,
        }
    }

    /// The default its doc states at `{default}`.
    pub const fn default(self, shown: Shown) -> Declared {
        Declared {
            default: Some(shown),
            ..self
        }
    }

    /// Its doc, the default written in.
    pub fn doc_text(&self) -> Cow<'static, str> {
        match self.default {
            Some(shown) => Cow::Owned(self.doc.replace("{default}", &shown.text())),
            None => Cow::Borrowed(self.doc),
        }
    }

    pub const fn optional(self) -> Declared {
        Declared {
            optional: true,
            ..self
        }
    }

    pub const fn doc(self, doc: &'static str) -> Declared {
        Declared { doc, ..self }
    }

    /// The member of type `T`, optional when `T` is.
    pub const fn of<T: Member + ?Sized>(name: &'static str, doc: &'static str) -> Declared {
        Declared {
            name,
            ts: T::TS,
            optional: T::OPTIONAL,
            doc,
            default: None,
            accepts: Accepts::Own,
        }
    }
}

/// What the options' reader needs of a member (its docs left to the declarations): its name, what it
/// accepts and its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reads {
    pub name: &'static str,
    pub accepts: Accepts,
    pub default: u32,
}

/// What the reader needs of each of `members`, in their order.
pub const fn reads<const N: usize>(members: &[Declared; N]) -> [Reads; N] {
    let mut out = [Reads {
        name: "",
        accepts: Accepts::Own,
        default: 0,
    }; N];
    let mut i = 0;
    while i < N {
        out[i] = Reads {
            name: members[i].name,
            accepts: members[i].accepts,
            default: members[i].default_number() as u32,
        };
        i += 1;
    }
    out
}

/// The names of `members`, in their order.
pub const fn names<const N: usize>(members: &[Declared; N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = members[i].name;
        i += 1;
    }
    out
}

/// `/** doc */` before a declaration indented by `indent` (a top-level one after a blank line);
/// nothing for an empty doc.
pub fn doc(out: &mut String, indent: &str, doc: &str) {
    if indent.is_empty() && !out.is_empty() {
        out.push('\n');
    }
    if doc.is_empty() {
        return;
    }
    let mut lines = doc.lines();
    if let (Some(line), None) = (lines.next(), lines.next()) {
        out.push_str(&format!("{indent}/** {line} */\n"));
        return;
    }
    out.push_str(&format!("{indent}/**\n"));
    for line in doc.lines() {
        out.push_str(&format!("{indent} * {line}\n"));
    }
    out.push_str(&format!("{indent} */\n"));
}

/// The members of an interface, each on its line (`readonly` when `readonly`).
pub fn members(out: &mut String, members: &[Declared], readonly: bool) {
    for m in members {
        doc(out, "  ", &m.doc_text());
        let q = if m.optional { "?" } else { "" };
        let r = if readonly { "readonly " } else { "" };
        out.push_str(&format!("  {r}{}{q}: {};\n", m.name, m.ts));
    }
}

/// `export interface name extends ... { members }`, after its doc.
pub fn interface(out: &mut String, about: &str, head: &str, list: &[Declared]) {
    doc(out, "", about);
    out.push_str(&format!("export interface {head} {{\n"));
    members(out, list, false);
    out.push_str("}\n");
}

/// `export type name = "a" | "b";`, after its doc.
pub fn names_union(out: &mut String, about: &str, name: &str, names: &[&str]) {
    doc(out, "", about);
    let items: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    out.push_str(&format!("export type {name} = {};\n", items.join(" | ")));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_default_is_written_into_its_doc() {
        let list = [
            Declared::new("a", "number")
                .doc("A (default {default}).")
                .default(Shown::Number(60_000)),
            Declared::new("b", "number")
                .doc("B, default {default}.")
                .default(Shown::Bytes(10 << 20)),
            Declared::new("c", "number")
                .doc("C: {default}")
                .default(Shown::Bytes(1000)),
        ];
        let mut out = String::new();
        interface(&mut out, "", "X", &list);
        assert!(out.contains("/** A (default 60000). */"), "{out}");
        assert!(out.contains("/** B, default 10 MiB. */"), "{out}");
        assert!(out.contains("/** C: 1000 bytes */"), "{out}");
    }

    #[test]
    fn members_are_declared_with_their_docs() {
        let list = [
            Declared::new("a", "string").doc("The a."),
            Declared::of::<Option<u64>>("b", "One\ntwo."),
        ];
        assert_eq!(names(&list), ["a", "b"]);
        let mut out = String::new();
        interface(&mut out, "", "X", &list);
        assert_eq!(
            out,
            "export interface X {\n  /** The a. */\n  a: string;\n  /**\n   * One\n   * two.\n   */\n  b?: number;\n}\n"
        );
    }
}
