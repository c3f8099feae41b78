//! Typed fields read out of a `Json` object: how a crate reads back the texts it writes itself (svc-sdk's fleet
//! state, steps and replies) without serde's derived readers.

use super::{Json, Obj};

/// A value a field may hold, and how a message names what was expected.
pub trait Field<'j, 'a>: Sized {
    const EXPECTED: &'static str;
    fn of(value: &'j Json<'a>) -> Option<Self>;
}

macro_rules! integer_field {
    ($($t:ty => $via:ident),*) => {$(
        impl<'j, 'a> Field<'j, 'a> for $t {
            const EXPECTED: &'static str = concat!("a whole number (", stringify!($t), ")");
            fn of(value: &'j Json<'a>) -> Option<$t> {
                value.$via().and_then(|n| <$t>::try_from(n).ok())
            }
        }
    )*};
}
integer_field!(u64 => as_u64, u32 => as_u64, i64 => as_i64);

impl<'j, 'a> Field<'j, 'a> for bool {
    const EXPECTED: &'static str = "true or false";
    fn of(value: &'j Json<'a>) -> Option<bool> {
        match value {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

impl<'j, 'a> Field<'j, 'a> for &'j str {
    const EXPECTED: &'static str = "a string";
    fn of(value: &'j Json<'a>) -> Option<&'j str> {
        value.as_str()
    }
}

impl<'j, 'a> Field<'j, 'a> for &'j Obj<'a> {
    const EXPECTED: &'static str = "an object";
    fn of(value: &'j Json<'a>) -> Option<&'j Obj<'a>> {
        value.as_object()
    }
}

impl<'j, 'a> Field<'j, 'a> for &'j [Json<'a>] {
    const EXPECTED: &'static str = "an array";
    fn of(value: &'j Json<'a>) -> Option<&'j [Json<'a>]> {
        value.as_array()
    }
}

/// `value` as a `T`, or a message naming `what` it is and what it should have been.
pub fn expect<'j, 'a, T: Field<'j, 'a>>(value: &'j Json<'a>, what: &str) -> Result<T, String> {
    T::of(value).ok_or_else(|| format!("{what} is not {}", T::EXPECTED))
}

impl<'a> Obj<'a> {
    /// The member `key` as a `T`; a message if it is missing or of another type.
    pub fn field<'j, T: Field<'j, 'a>>(&'j self, key: &str) -> Result<T, String> {
        match self.get(key) {
            Some(value) => expect(value, &format!("`{key}`")),
            None => Err(format!("`{key}` is missing")),
        }
    }

    /// The member `key` as a `T`, `None` if it is missing or null; a message if it is of another type.
    pub fn optional<'j, T: Field<'j, 'a>>(&'j self, key: &str) -> Result<Option<T>, String> {
        match self.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(value) => expect(value, &format!("`{key}`")).map(Some),
        }
    }
}

impl<'a> Json<'a> {
    /// An externally tagged variant as serde writes it: `"name"`, or `{"name": content}`.
    pub fn variant(&self) -> Result<(&str, Option<&Json<'a>>), String> {
        match self {
            Json::Str(name) => Ok((name, None)),
            Json::Obj(o) if o.len() == 1 => {
                let (name, content) = o.iter().next().ok_or("an empty object")?;
                Ok((name, Some(content)))
            }
            _ => Err("not a variant: a name, or an object with one member".to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::parse;

    #[test]
    fn fields_are_read_with_their_types_and_wrong_ones_are_named() {
        let v =
            parse(r#"{"a":1,"b":-2,"c":"x","d":true,"e":null,"f":1.5,"g":4294967296}"#).unwrap();
        let o = v.as_object().unwrap();
        assert_eq!(o.field::<u64>("a"), Ok(1));
        assert_eq!(o.field::<i64>("b"), Ok(-2));
        assert_eq!(o.field::<&str>("c"), Ok("x"));
        assert_eq!(o.field::<bool>("d"), Ok(true));
        assert_eq!(o.optional::<u32>("e"), Ok(None));
        assert_eq!(o.optional::<u32>("zz"), Ok(None));
        assert_eq!(
            o.field::<u64>("b").unwrap_err(),
            "`b` is not a whole number (u64)"
        );
        assert!(o.field::<i64>("f").is_err());
        assert!(o.field::<u32>("g").is_err(), "beyond u32");
        assert_eq!(o.field::<u64>("zz").unwrap_err(), "`zz` is missing");
    }

    #[test]
    fn variants_are_a_name_or_an_object_of_one_member() {
        assert_eq!(parse(r#""state""#).unwrap().variant().unwrap().0, "state");
        let v = parse(r#"{"acquire":{"x":1}}"#).unwrap();
        let (name, content) = v.variant().unwrap();
        assert_eq!(
            (name, content.and_then(|c| c.get("x")?.as_u64())),
            ("acquire", Some(1))
        );
        assert!(parse(r#"{"a":1,"b":2}"#).unwrap().variant().is_err());
        assert!(parse("3").unwrap().variant().is_err());
    }
}
