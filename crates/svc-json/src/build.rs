//! Owned JSON trees built in Rust: `json!`, conversions into `Json`, and the edits of an owned tree (the
//! sandbox's store keeps its records in them).

use super::{Json, Obj};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

/// A `Json` value written in JSON's own syntax, as `serde_json::json!` writes one: `null`,
/// `[..]`, `{"key": value, ..}` nest, and any other value is an expression whose value is copied
/// (`ToValue`) into an owned tree.
#[macro_export]
macro_rules! json {
    (null) => { $crate::Json::Null };
    ([ $($items:tt)* ]) => {
        $crate::Json::Arr($crate::json!(@items [] () ($($items)*)))
    };
    ({ $($members:tt)* }) => {{
        #[allow(unused_mut)]
        let mut members = $crate::Obj::new();
        $crate::json!(@members members () ($($members)*));
        $crate::Json::Obj(members)
    }};
    (@items [$($done:expr,)*] () ()) => { ::std::vec![$($done),*] };
    (@items [$($done:expr,)*] ($($item:tt)+) ()) => {
        ::std::vec![$($done,)* $crate::json!($($item)+)]
    };
    (@items [$($done:expr,)*] ($($item:tt)+) (, $($rest:tt)*)) => {
        $crate::json!(@items [$($done,)* $crate::json!($($item)+),] () ($($rest)*))
    };
    (@items [$($done:expr,)*] ($($item:tt)*) ($next:tt $($rest:tt)*)) => {
        $crate::json!(@items [$($done,)*] ($($item)* $next) ($($rest)*))
    };
    (@members $m:ident () ()) => {};
    (@members $m:ident () ($key:literal : $($rest:tt)*)) => {
        $crate::json!(@value $m [$key] () ($($rest)*));
    };
    (@members $m:ident () (($key:expr) : $($rest:tt)*)) => {
        $crate::json!(@value $m [$key] () ($($rest)*));
    };
    (@value $m:ident [$key:expr] ($($value:tt)+) ()) => {
        $m.insert(::std::convert::Into::<::std::borrow::Cow<'static, str>>::into($key), $crate::json!($($value)+));
    };
    (@value $m:ident [$key:expr] ($($value:tt)+) (, $($rest:tt)*)) => {
        $m.insert(::std::convert::Into::<::std::borrow::Cow<'static, str>>::into($key), $crate::json!($($value)+));
        $crate::json!(@members $m () ($($rest)*));
    };
    (@value $m:ident [$key:expr] ($($value:tt)*) ($next:tt $($rest:tt)*)) => {
        $crate::json!(@value $m [$key] ($($value)* $next) ($($rest)*));
    };
    ($value:expr) => { $crate::ToValue::to_value(&$value) };
}

/// A Rust value copied into an owned `Json` tree (what `json!` does with an expression).
pub trait ToValue {
    fn to_value(&self) -> Json<'static>;
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Json<'static> {
        (**self).to_value()
    }
}

impl ToValue for Json<'_> {
    fn to_value(&self) -> Json<'static> {
        self.clone().into_owned()
    }
}

impl ToValue for Obj<'_> {
    fn to_value(&self) -> Json<'static> {
        Json::Obj(self.clone().into_owned())
    }
}

impl ToValue for str {
    fn to_value(&self) -> Json<'static> {
        Json::Str(Cow::Owned(self.to_owned()))
    }
}

impl ToValue for String {
    fn to_value(&self) -> Json<'static> {
        self.as_str().to_value()
    }
}

impl ToValue for Cow<'_, str> {
    fn to_value(&self) -> Json<'static> {
        self.as_ref().to_value()
    }
}

impl ToValue for bool {
    fn to_value(&self) -> Json<'static> {
        Json::Bool(*self)
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Json<'static> {
        self.as_ref().map_or(Json::Null, T::to_value)
    }
}

impl<T: ToValue> ToValue for [T] {
    fn to_value(&self) -> Json<'static> {
        Json::Arr(self.iter().map(T::to_value).collect())
    }
}

impl<T: ToValue, const N: usize> ToValue for [T; N] {
    fn to_value(&self) -> Json<'static> {
        self.as_slice().to_value()
    }
}

impl<T: ToValue> ToValue for Vec<T> {
    fn to_value(&self) -> Json<'static> {
        self.as_slice().to_value()
    }
}

/// A pair as an array of two, as serde writes a tuple.
impl<A: ToValue, B: ToValue> ToValue for (A, B) {
    fn to_value(&self) -> Json<'static> {
        Json::Arr(vec![self.0.to_value(), self.1.to_value()])
    }
}

impl<K: AsRef<str>, V: ToValue> ToValue for BTreeMap<K, V> {
    fn to_value(&self) -> Json<'static> {
        Json::Obj(
            self.iter()
                .map(|(k, v)| (k.as_ref().to_owned(), v.to_value()))
                .collect(),
        )
    }
}

macro_rules! integers {
    ($write:ident as $wide:ty: $($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Json<'static> {
                Json::from(*self)
            }
        }
        impl<'a> From<$t> for Json<'a> {
            fn from(n: $t) -> Json<'a> {
                let mut text = String::new();
                super::write::$write(&mut text, n as $wide);
                Json::Num(Cow::Owned(text))
            }
        }
    )*};
}
integers!(integer as i64: i8, i16, i32, i64, isize);
integers!(unsigned as u64: u8, u16, u32, u64, usize);

impl ToValue for f64 {
    fn to_value(&self) -> Json<'static> {
        Json::from(*self)
    }
}

/// A double as serde_json writes it (`2.0`, `0.1`, `1e21`); NaN and the infinities are null.
impl<'a> From<f64> for Json<'a> {
    fn from(f: f64) -> Json<'a> {
        if f.is_finite() {
            Json::Num(Cow::Owned(zmij::Buffer::new().format_finite(f).to_owned()))
        } else {
            Json::Null
        }
    }
}

impl<'a> From<bool> for Json<'a> {
    fn from(b: bool) -> Json<'a> {
        Json::Bool(b)
    }
}

/// A copy of the text (`Json::Str(Cow::Borrowed(s))` borrows it).
impl<'a> From<&str> for Json<'a> {
    fn from(s: &str) -> Json<'a> {
        Json::Str(Cow::Owned(s.to_owned()))
    }
}

impl<'a> From<String> for Json<'a> {
    fn from(s: String) -> Json<'a> {
        Json::Str(Cow::Owned(s))
    }
}

impl<'a> From<Cow<'a, str>> for Json<'a> {
    fn from(s: Cow<'a, str>) -> Json<'a> {
        Json::Str(s)
    }
}

impl<'a> From<Vec<Json<'a>>> for Json<'a> {
    fn from(items: Vec<Json<'a>>) -> Json<'a> {
        Json::Arr(items)
    }
}

impl<'a> From<Obj<'a>> for Json<'a> {
    fn from(m: Obj<'a>) -> Json<'a> {
        Json::Obj(m)
    }
}

impl<'a, T: Into<Json<'a>>> From<Option<T>> for Json<'a> {
    fn from(v: Option<T>) -> Json<'a> {
        v.map_or(Json::Null, Into::into)
    }
}

/// The value as compact JSON text (`ToJson`), as `serde_json::Value` displays.
impl fmt::Display for Json<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&super::ToJson::to_json_text(self))
    }
}

impl<'a> std::ops::Index<usize> for Json<'a> {
    type Output = Json<'a>;

    /// Item `i` of an array, or null, as `serde_json::Value` indexes.
    fn index(&self, i: usize) -> &Json<'a> {
        self.as_array()
            .and_then(|items| items.get(i))
            .unwrap_or(&super::NULL)
    }
}

impl<'a> Json<'a> {
    /// The value with every text copied, free of the text it was read from.
    pub fn into_owned(self) -> Json<'static> {
        match self {
            Json::Null => Json::Null,
            Json::Bool(b) => Json::Bool(b),
            Json::Num(text) => Json::Num(Cow::Owned(text.into_owned())),
            Json::Str(s) => Json::Str(Cow::Owned(s.into_owned())),
            Json::Arr(items) => Json::Arr(items.into_iter().map(Json::into_owned).collect()),
            Json::Obj(m) => Json::Obj(m.into_owned()),
        }
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json<'a>> {
        self.as_object_mut().and_then(|m| m.get_mut(key))
    }

    pub fn as_object_mut(&mut self) -> Option<&mut Obj<'a>> {
        match self {
            Json::Obj(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Json<'a>>> {
        match self {
            Json::Arr(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn is_array(&self) -> bool {
        matches!(self, Json::Arr(_))
    }

    pub fn is_object(&self) -> bool {
        matches!(self, Json::Obj(_))
    }

    pub fn is_number(&self) -> bool {
        matches!(self, Json::Num(_))
    }

    /// The value, leaving null in its place.
    pub fn take(&mut self) -> Json<'a> {
        std::mem::take(self)
    }
}

impl<'a> Obj<'a> {
    pub fn new() -> Obj<'a> {
        Obj::default()
    }

    /// The object with every text copied.
    pub fn into_owned(self) -> Obj<'static> {
        Obj(self
            .0
            .into_iter()
            .map(|(k, v)| (Cow::Owned(k.into_owned()), v.into_owned()))
            .collect())
    }

    /// Takes member `key` out; the members after it keep their order.
    pub fn remove(&mut self, key: &str) -> Option<Json<'a>> {
        let at = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.remove(at).1)
    }

    /// Keeps the members `keep` says yes to, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&str, &mut Json<'a>) -> bool) {
        self.0.retain_mut(|(k, v)| keep(k, v));
    }

    /// Member `key`, set to `value()` first if the object has no such member.
    pub fn or_insert_with(
        &mut self,
        key: impl Into<Cow<'a, str>>,
        value: impl FnOnce() -> Json<'a>,
    ) -> &mut Json<'a> {
        let key = key.into();
        let at = match self.0.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                self.0.push((key, value()));
                self.0.len() - 1
            }
        };
        &mut self.0[at].1
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&str, &mut Json<'a>)> {
        self.0.iter_mut().map(|(k, v)| (&**k, v))
    }
}

impl<'a, K: Into<Cow<'a, str>>> FromIterator<(K, Json<'a>)> for Obj<'a> {
    /// Members in order; a repeated key sets the value where it first stood.
    fn from_iter<I: IntoIterator<Item = (K, Json<'a>)>>(members: I) -> Obj<'a> {
        let mut m = Obj::new();
        m.extend(members);
        m
    }
}

impl<'a, K: Into<Cow<'a, str>>> Extend<(K, Json<'a>)> for Obj<'a> {
    /// Sets each member, as `insert` does.
    fn extend<I: IntoIterator<Item = (K, Json<'a>)>>(&mut self, members: I) {
        for (k, v) in members {
            self.insert(k.into(), v);
        }
    }
}

impl<'a> IntoIterator for Obj<'a> {
    type Item = (Cow<'a, str>, Json<'a>);
    type IntoIter = std::vec::IntoIter<(Cow<'a, str>, Json<'a>)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse, ToJson};

    #[test]
    fn json_builds_the_tree_its_text_reads_as() {
        let name = String::from("Vans");
        let items = vec![json!(1), json!("two")];
        let v = json!({
            "name": name,
            "count": -3,
            "ok": true,
            "none": null,
            "nested": { "list": [1, 2.5, null, { "k": "v" }], "empty": {} },
            "items": items,
            "sum": 1 + 2,
            "pairs": [("a", 1)],
            ("computed".to_string() + "key"): [],
        });
        let text = r#"{"name":"Vans","count":-3,"ok":true,"none":null,"nested":{"list":[1,2.5,null,{"k":"v"}],"empty":{}},"items":[1,"two"],"sum":3,"pairs":[["a",1]],"computedkey":[]}"#;
        assert_eq!(v, parse(text).unwrap());
        assert_eq!(v.to_string(), text);
        assert_eq!(json!([]), Json::Arr(Vec::new()));
        assert_eq!(v["nested"]["list"][3]["k"], json!("v"));
        assert!(v["nested"]["list"][9].is_null() && v["name"][0].is_null());
        assert_eq!(json!(null), Json::Null);
        assert_eq!(
            json!({"k": v["nested"]["empty"]}).to_string(),
            r#"{"k":{}}"#
        );
    }

    #[test]
    fn numbers_are_written_as_serde_json_writes_them() {
        for f in [
            0.0, -0.0, 1.0, 2.5, 0.1, 1e21, 1e-7, 123456.789, 1e300, 5e-324, -1.5e16,
        ] {
            assert_eq!(
                Json::from(f).to_json_text(),
                serde_json::json!(f).to_string()
            );
        }
        assert_eq!(Json::from(f64::NAN), Json::Null);
        for n in [0i64, -1, i64::MIN, i64::MAX] {
            assert_eq!(Json::from(n).to_json_text(), n.to_string());
        }
        assert_eq!(Json::from(u64::MAX).to_json_text(), u64::MAX.to_string());
    }

    #[test]
    fn an_owned_copy_keeps_the_text_of_each_number() {
        let text = String::from(
            r#"{"a":1e400,"b":[-0,12345678901234567891,1.000000000000000000000000000001]}"#,
        );
        let owned = parse(&text).unwrap().into_owned();
        drop(text);
        assert_eq!(
            owned.to_string(),
            r#"{"a":1e400,"b":[-0,12345678901234567891,1.000000000000000000000000000001]}"#
        );
    }

    #[test]
    fn members_are_removed_kept_and_defaulted_in_order() {
        let mut m: Obj = [
            ("a", json!(1)),
            ("b", json!(2)),
            ("c", json!(3)),
            ("a", json!(4)),
        ]
        .into_iter()
        .collect();
        assert_eq!(m.to_json_text(), r#"{"a":4,"b":2,"c":3}"#);
        assert_eq!(m.remove("b"), Some(json!(2)));
        assert_eq!(m.remove("b"), None);
        *m.or_insert_with("d", || json!(5)) = json!(6);
        m.or_insert_with("a", || json!(0));
        assert_eq!(m.to_json_text(), r#"{"a":4,"c":3,"d":6}"#);
        m.retain(|k, _| k != "c");
        m.extend([("e", Json::Bool(false))]);
        assert_eq!(m.to_json_text(), r#"{"a":4,"d":6,"e":false}"#);
        let mut v = Json::Obj(m);
        if let Some(a) = v.get_mut("a") {
            *a = json!("x");
        }
        assert_eq!(v.get_mut("a").map(Json::take), Some(json!("x")));
        assert_eq!(v["a"], Json::Null);
        assert_eq!(v.as_object_mut().map(|m| m.len()), Some(3));
    }
}
