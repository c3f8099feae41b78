//! The vocabulary of the rules, as data: the kind a field takes, the rules on its value, the checks
//! across an object's fields; and the traits by which a request type declares its own schema.

use crate::format::Format;

/// The JSON type a field takes.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Str,
    Num,
    Int,
    Bool,
    /// An identifier: a string, or an integer number as some examples send.
    Id,
    /// A string or a number (the spec types some values loosely, e.g. `rate` as a string in requests).
    StrOrNum,
    /// A boolean or the strings "true"/"false".
    BoolLike,
    Obj(&'static Schema),
    /// An array whose members are described by the field (its name is not used).
    Arr(&'static Field),
    /// Anything JSON.
    Any,
}

/// A check on a present, well-typed value.
#[derive(Clone, Copy, Debug)]
pub enum Rule {
    /// At most this many characters.
    MaxLen(usize),
    /// Between these numbers of characters, both included.
    LenBetween(usize, usize),
    /// A number between these bounds, both included.
    Range(f64, f64),
    /// One of these strings.
    OneOf(&'static [&'static str]),
    /// One of these strings, or a blank string for "not set" (as the vendor's own examples send).
    OneOfUnlessBlank(&'static [&'static str]),
    Format(Format),
    /// An array with at most this many members.
    MaxItems(usize),
}

#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub name: &'static str,
    pub kind: Kind,
    pub required: bool,
    pub rules: &'static [Rule],
}

/// How a loose integer may be written as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntText {
    /// Digits after an optional minus sign, blanks around them ignored (`" -12 "`).
    Signed,
    /// Digits only (`"1000000068001"`).
    Digits,
}

impl IntText {
    pub(crate) fn allows(self, s: &str) -> bool {
        match self {
            IntText::Signed => {
                let t = s.trim();
                let digits = t.strip_prefix('-').unwrap_or(t);
                t.is_empty() || (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            }
            IntText::Digits => s.trim().is_empty() || s.bytes().all(|b| b.is_ascii_digit()),
        }
    }

    pub(crate) fn describe(self) -> &'static str {
        match self {
            IntText::Signed => "an integer",
            IntText::Digits => "an integer or a string of digits",
        }
    }
}

/// A check that looks at the fields of one object, run in the schema's order after its fields and
/// its unknown keys. The kinds are data; the last three are one-offs of the crm watch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// `field` (of `Kind::Any`), when given, is an integer or its text as `text` allows; a blank is
    /// not given.
    LooseInteger { field: &'static str, text: IntText },
    /// A list that needs a member: an empty `field` is `required`.
    NotEmpty(&'static str),
    /// `field` may not be given while `when` is `equals` (as sent): it applies only to `applies_to`.
    NotAllowedWhen {
        field: &'static str,
        when: &'static str,
        equals: &'static str,
        applies_to: &'static str,
    },
    /// `field` may be given only while `when` is `equals` (blanks around it ignored); a `when`
    /// outside its own value set is reported on its own and lets `field` be.
    NotAllowedUnless {
        field: &'static str,
        when: &'static str,
        equals: &'static str,
    },
    /// At most `max` `{field}` members in the group (`{group_operator, group}`) under `field`,
    /// however deeply nested.
    MaxFieldsNested { field: &'static str, max: usize },
    /// Each `events` entry is `{module_api_name}.{operation}`.
    EventsNameModuleAndOperation,
    /// `channel_expiry` lies between now and one week from now.
    ExpiryWithinAWeek,
    /// Each member of `group` is a `{field}` or a nested group, and is checked as that.
    GroupMembers,
}

/// The fields of one object and the checks across them.
#[derive(Clone, Copy, Debug)]
pub struct Schema {
    pub fields: &'static [Field],
    pub checks: &'static [Check],
}

impl Schema {
    pub const EMPTY: Schema = Schema {
        fields: &[],
        checks: &[],
    };

    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

pub const fn opt(name: &'static str, kind: Kind) -> Field {
    Field {
        name,
        kind,
        required: false,
        rules: &[],
    }
}

pub const fn req(name: &'static str, kind: Kind) -> Field {
    Field {
        name,
        kind,
        required: true,
        rules: &[],
    }
}

impl Field {
    pub const fn with(self, rules: &'static [Rule]) -> Field {
        Field { rules, ..self }
    }

    /// The field taking `kind` instead of its type's.
    pub const fn kind(self, kind: Kind) -> Field {
        Field { kind, ..self }
    }

    /// The strings the field's value set allows, when it has one.
    pub(crate) fn value_set(&self) -> Option<&'static [&'static str]> {
        self.rules.iter().find_map(|rule| match rule {
            Rule::OneOf(set) | Rule::OneOfUnlessBlank(set) => Some(*set),
            _ => None,
        })
    }
}

/// The highest page number or page size (the page context carries them as u32; the documents give none).
pub const PAGE_MAX: f64 = u32::MAX as f64;

/// The kind and the rules a Rust type gives a field of a request, unless the field says its own.
pub trait Shape {
    const KIND: Kind;
    const RULES: &'static [Rule] = &[];

    /// Adds to `out` the request types this type is or holds, each once.
    #[cfg(not(target_arch = "wasm32"))]
    fn requests(_out: &mut Vec<Request>) {}
}

/// A request type as the TypeScript declarations build takes it: its name, its declaration as
/// tsify writes it, and its schema.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy, Debug)]
pub struct Request {
    pub name: &'static str,
    pub decl: &'static str,
    pub schema: &'static Schema,
}

/// A request type whose declaration (`wire!`) carries its fields' rules: its schema.
pub trait Params: Shape {
    const SCHEMA: &'static Schema;
}

macro_rules! shape {
    ($($t:ty => $k:expr),* $(,)?) => {
        $(impl Shape for $t {
            const KIND: Kind = $k;
        })*
    };
}

shape! {
    String => Kind::Str,
    bool => Kind::Bool,
    f64 => Kind::Num,
    i64 => Kind::Int,
    i32 => Kind::Int,
    u32 => Kind::Int,
    svc_json::Value => Kind::Any,
}

impl<T: Shape> Shape for Vec<T> {
    const KIND: Kind = Kind::Arr(&Field {
        name: "",
        kind: T::KIND,
        required: false,
        rules: T::RULES,
    });

    #[cfg(not(target_arch = "wasm32"))]
    fn requests(out: &mut Vec<Request>) {
        T::requests(out);
    }
}

/// The field `name` of type `T`: its kind and rules as the type gives them.
pub const fn of<T: Shape>(name: &'static str, required: bool) -> Field {
    let raw = name.as_bytes();
    let name = match raw {
        [b'r', b'#', ..] => name.split_at(2).1,
        _ => name,
    };
    Field {
        name,
        kind: T::KIND,
        required,
        rules: T::RULES,
    }
}
