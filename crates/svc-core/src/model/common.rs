//! Types shared by every family: identifiers, tags, custom fields, the page context.

use serde::{Deserialize, Deserializer, Serialize};
use svc_json::Map;
use tsify::Tsify;

/// An identifier: always the exact digits as a string, whether the server sent a string or a number.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Tsify)]
#[serde(transparent)]
pub struct Id(pub String);

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Id, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Id;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an id as a string or an integer")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Id, E> {
                Ok(Id(v.to_string()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Id, E> {
                Ok(Id(v.to_string()))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Id, E> {
                Ok(Id(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

impl crate::schema::Shape for Id {
    const KIND: crate::schema::Kind = crate::schema::Kind::Id;
}

impl From<&str> for Id {
    fn from(s: &str) -> Id {
        Id(s.to_string())
    }
}

impl std::fmt::Display for Id {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A page number or page size of a list: a whole number from 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Tsify)]
#[serde(transparent)]
pub struct PageNumber(pub u32);

impl crate::schema::Shape for PageNumber {
    const KIND: crate::schema::Kind = crate::schema::Kind::Int;
    const RULES: &'static [crate::schema::Rule] =
        &[crate::schema::Rule::Range(1.0, crate::schema::PAGE_MAX)];
}

/// A calendar date, `yyyy-mm-dd`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Tsify)]
#[serde(transparent)]
pub struct IsoDate(pub String);

impl crate::schema::Shape for IsoDate {
    const KIND: crate::schema::Kind = crate::schema::Kind::Str;
    const RULES: &'static [crate::schema::Rule] =
        &[crate::schema::Rule::Format(crate::format::Format::Date)];
}

/// The description of a line item: at most 2000 characters (the Limits table).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Tsify)]
#[serde(transparent)]
pub struct LineDescription(pub String);

impl crate::schema::Shape for LineDescription {
    const KIND: crate::schema::Kind = crate::schema::Kind::Str;
    const RULES: &'static [crate::schema::Rule] = &[crate::schema::Rule::MaxLen(2000)];
}

/// A number of a model: in JS a number, or an `ExactNumber` where a double cannot hold the number
/// the service sent (`crate::exact`); TypeScript names it `JsonNumber`.
pub type JsonNumber = f64;

/// An integer of a model, typed in JS as `JsonNumber` is (`JsonInteger`).
pub type JsonInteger = i64;

/// The TypeScript of `IdInput`, `JsonNumber` and `JsonInteger`.
pub const JSON_NUMBER_TS: &str = "/** An id as a call takes it: its digits as a string, or a BigInt (sent as the exact JSON number). Ids in answers are strings. */
export type IdInput = string | bigint;
/** A number as the service sent it: a JS number, or an ExactNumber (its text) where a double cannot hold it exactly. */
export type JsonNumber = number | ExactNumber;
/** An integer as the service sent it: a JS number, or an ExactNumber (its text) where a double cannot hold it exactly. */
export type JsonInteger = number | ExactNumber;";

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const JSON_NUMBER_SECTION: &str = JSON_NUMBER_TS;

/// A percentage: a number from 0 to 100.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(transparent)]
pub struct Percentage(pub f64);

impl crate::schema::Shape for Percentage {
    const KIND: crate::schema::Kind = crate::schema::Kind::Num;
    const RULES: &'static [crate::schema::Rule] = &[crate::schema::Rule::Range(0.0, 100.0)];
}

/// Fields that a type does not name, kept so a read-modify-write loses nothing.
pub type Extra = Map;

/// A tag pair as a request sends it: both ids.
impl crate::schema::Shape for Tag {
    const KIND: crate::schema::Kind = crate::schema::Kind::Obj(&crate::schema::Schema {
        fields: &[
            crate::schema::opt("tag_id", crate::schema::Kind::Id),
            crate::schema::opt("tag_option_id", crate::schema::Kind::Id),
        ],
        checks: &[],
    });
}

/// A tag pair; responses add its names.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Tsify)]
pub struct Tag {
    pub tag_id: Id,
    pub tag_option_id: Id,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub tag_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub tag_option_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub is_tag_mandatory: Option<bool>,
}

/// The page context of a list response.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Tsify)]
pub struct PageContext {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub page: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub per_page: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub has_more_page: Option<bool>,
    #[serde(flatten)]
    #[tsify(type = "unknown")]
    pub extra: Extra,
}

/// Declares a wire struct. `name?: T` is optional (omitted when absent), `name: T` is required.
/// A `response` keeps the fields it does not name in `extra`; a `request` has no `extra`, so
/// TypeScript catches a misspelt field. A `request` also declares its schema (`Params`): each field
/// takes the kind and rules its type gives (`Shape`), or the kind after `as` and the rules in `[...]`
/// it says itself; `checks [...]` after the braces are the checks across its fields. A request field
/// written `..name: T` is flattened: `T`'s fields and checks take its place in the schema. A
/// `request`'s TypeScript carries its rules as JSDoc (`Shape::requests`, `crate::jsdoc`). A request
/// followed by `all required Other` declares `Other` too, from the same fields, each of them required
/// (an update body that must restate every field of a create body). A response followed by
/// `and Other { ... }` declares `Other` too: the response's fields, then those (an answer that says more).
macro_rules! wire {
    ($(#[$m:meta])* response $name:ident { $($body:tt)* }) => {
        $crate::model::common::wire!(@munch [$(#[$m])*] $name [] $($body)*);
    };
    ($(#[$m:meta])* response $name:ident { $($body:tt)* } $(#[$m2:meta])* and $other:ident { $($more:tt)* }) => {
        $crate::model::common::wire!($(#[$m])* response $name { $($body)* });
        $crate::model::common::wire!($(#[$m2])* response $other { $($body)* $($more)* });
    };
    ($(#[$m:meta])* request $name:ident { $($body:tt)* } $(#[$m2:meta])* all required $other:ident) => {
        $crate::model::common::wire!($(#[$m])* request $name { $($body)* });
        $crate::model::common::wire!(@required [$(#[$m2])*] $other [] $($body)*);
    };
    (@required $m:tt $other:ident [$($acc:tt)*] $f:ident ? : $($rest:tt)*) => {
        $crate::model::common::wire!(@required $m $other [$($acc)* $f :] $($rest)*);
    };
    (@required $m:tt $other:ident [$($acc:tt)*] $t:tt $($rest:tt)*) => {
        $crate::model::common::wire!(@required $m $other [$($acc)* $t] $($rest)*);
    };
    (@required [$($m:tt)*] $other:ident [$($acc:tt)*]) => {
        $crate::model::common::wire!($($m)* request $other { $($acc)* });
    };
    ($(#[$m:meta])* request $name:ident { $($body:tt)* } $(checks [$($c:expr),* $(,)?])?) => {
        $crate::model::common::wire!(@request [$(#[$m])*] $name [$($($c),*)?] [] [] $($body)*);
    };
    (@munch $m:tt $name:ident [$($acc:tt)*] $(#[$fm:meta])* $f:ident ?: $t:ty, $($rest:tt)*) => {
        $crate::model::common::wire!(@munch $m $name [$($acc)*
            $(#[$fm])*
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[tsify(optional)]
            pub $f: Option<$t>,
        ] $($rest)*);
    };
    (@munch $m:tt $name:ident [$($acc:tt)*] $(#[$fm:meta])* $f:ident : $t:ty, $($rest:tt)*) => {
        $crate::model::common::wire!(@munch $m $name [$($acc)* $(#[$fm])* pub $f: $t,] $($rest)*);
    };
    (@munch [$($m:tt)*] $name:ident [$($acc:tt)*]) => {
        $($m)*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, tsify::Tsify)]
        pub struct $name {
            $($acc)*
            #[serde(flatten)]
            #[tsify(type = "Record<string, unknown>")]
            pub extra: $crate::model::common::Extra,
        }

        impl $crate::model::Named for $name {
            const NAME: &'static str = stringify!($name);
            #[cfg(test)]
            const DECODE: Option<$crate::model::Decode> =
                Some($crate::model::round_trip::<$name>);
        }
    };
    (@request $m:tt $name:ident $c:tt [$($acc:tt)*] [$($fields:tt)*]
        $(#[$fm:meta])* ..$f:ident : $t:ty, $($rest:tt)*) => {
        $crate::model::common::wire!(@request $m $name $c [$($acc)* $(#[$fm])* #[serde(flatten)] pub $f: $t,]
            [$($fields)* (<$t as $crate::schema::Params>::SCHEMA => $t),] $($rest)*);
    };
    (@request $m:tt $name:ident $c:tt [$($acc:tt)*] [$($fields:tt)*]
        $(#[$fm:meta])* $f:ident ?: $t:ty $(as $k:ident)? $([$($r:ident $(($($a:tt)*))?),* $(,)?])?, $($rest:tt)*) => {
        $crate::model::common::wire!(@request $m $name $c [$($acc)*
            $(#[$fm])*
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[tsify(optional)]
            pub $f: Option<$t>,
        ] [$($fields)*
            [$crate::schema::of::<$t>(stringify!($f), false)
                $(.kind($crate::schema::Kind::$k))?
                $(.with(&[$($crate::schema::Rule::$r $(($($a)*))?),*]))? => $t],
        ] $($rest)*);
    };
    (@request $m:tt $name:ident $c:tt [$($acc:tt)*] [$($fields:tt)*]
        $(#[$fm:meta])* $f:ident : $t:ty $(as $k:ident)? $([$($r:ident $(($($a:tt)*))?),* $(,)?])?, $($rest:tt)*) => {
        $crate::model::common::wire!(@request $m $name $c [$($acc)* $(#[$fm])* pub $f: $t,] [$($fields)*
            [$crate::schema::of::<$t>(stringify!($f), true)
                $(.kind($crate::schema::Kind::$k))?
                $(.with(&[$($crate::schema::Rule::$r $(($($a)*))?),*]))? => $t],
        ] $($rest)*);
    };
    (@part [$field:expr => $t:ty]) => { &[$field] };
    (@part ($schema:expr => $t:ty)) => { $schema.fields };
    (@checks [$field:expr => $t:ty]) => { &[] };
    (@checks ($schema:expr => $t:ty)) => { $schema.checks };
    (@requests $out:ident [$field:expr => $t:ty]) => { <$t as $crate::schema::Shape>::requests($out) };
    (@requests $out:ident ($schema:expr => $t:ty)) => { <$t as $crate::schema::Shape>::requests($out) };
    (@request [$($m:tt)*] $name:ident [$($c:expr),*] [$($acc:tt)*] [$($part:tt,)*]) => {
        $($m)*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, tsify::Tsify)]
        pub struct $name {
            $($acc)*
        }

        impl $crate::schema::Params for $name {
            const SCHEMA: &'static $crate::schema::Schema = {
                const FIELDS: &[&[$crate::schema::Field]] = &[$($crate::model::common::wire!(@part $part)),*];
                const CHECKS: &[&[$crate::schema::Check]] =
                    &[$($crate::model::common::wire!(@checks $part),)* &[$($c),*]];
                &$crate::schema::Schema {
                    fields: &$crate::model::common::concat::<$crate::schema::Field, { $crate::model::common::total(FIELDS) }>(
                        FIELDS,
                        $crate::schema::opt("", $crate::schema::Kind::Any),
                    ),
                    checks: &$crate::model::common::concat::<$crate::schema::Check, { $crate::model::common::total(CHECKS) }>(
                        CHECKS,
                        $crate::schema::Check::GroupMembers,
                    ),
                }
            };
        }

        impl $crate::model::Named for $name {
            const NAME: &'static str = stringify!($name);
        }

        impl $crate::schema::Shape for $name {
            const KIND: $crate::schema::Kind =
                $crate::schema::Kind::Obj(<$name as $crate::schema::Params>::SCHEMA);

            #[cfg(not(target_arch = "wasm32"))]
            fn requests(out: &mut Vec<$crate::schema::Request>) {
                if out.iter().any(|r| r.name == stringify!($name)) {
                    return;
                }
                out.push($crate::schema::Request {
                    name: stringify!($name),
                    decl: <$name as tsify::Tsify>::DECL,
                    schema: <$name as $crate::schema::Params>::SCHEMA,
                });
                $($crate::model::common::wire!(@requests out $part);)*
            }
        }
    };
}

/// Declares a value set: an enum whose TypeScript type is the union of its wire strings, with
/// `VALUES` (the same strings, for the validation rules) and `as_str`. A set declared `blank Name`
/// also lets a request send a blank string for "not set" (as the vendor's own examples do).
macro_rules! value_set {
    ($(#[$m:meta])* blank $name:ident { $($v:ident = $s:literal),* $(,)? }) => {
        $crate::model::common::value_set!(@set OneOfUnlessBlank $(#[$m])* $name { $($v = $s),* });
    };
    ($(#[$m:meta])* $name:ident { $($v:ident = $s:literal),* $(,)? }) => {
        $crate::model::common::value_set!(@set OneOf $(#[$m])* $name { $($v = $s),* });
    };
    (@set $rule:ident $(#[$m:meta])* $name:ident { $($v:ident = $s:literal),* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, tsify::Tsify)]
        pub enum $name {
            $(#[serde(rename = $s)] $v,)*
        }

        impl $name {
            pub const VALUES: &'static [&'static str] = &[$($s),*];

            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$v => $s,)*
                }
            }
        }

        impl $crate::schema::Shape for $name {
            const KIND: $crate::schema::Kind = $crate::schema::Kind::Str;
            const RULES: &'static [$crate::schema::Rule] = &[$crate::schema::Rule::$rule(Self::VALUES)];
        }
    };
}

/// How many members the parts hold together.
#[doc(hidden)]
pub const fn total<T>(parts: &[&[T]]) -> usize {
    let (mut i, mut n) = (0, 0);
    while i < parts.len() {
        n += parts[i].len();
        i += 1;
    }
    n
}

/// The parts' members in one array of `N` (their total); `filler` is never left in it.
#[doc(hidden)]
pub const fn concat<T: Copy, const N: usize>(parts: &[&[T]], filler: T) -> [T; N] {
    let mut out = [filler; N];
    let (mut i, mut n) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[n] = parts[i][j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(n == N);
    out
}

pub(crate) use {value_set, wire};
