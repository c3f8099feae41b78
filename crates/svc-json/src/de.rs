//! `from_json`: a typed value read from the borrowed tree through serde's data model.

use super::{Json, Num};
use serde::de::value::{Error, MapDeserializer, SeqDeserializer};
use serde::de::{self, Deserialize, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;

/// `T` read from `value`, as serde_json reads it from the same text.
pub fn from_json<'a, T: Deserialize<'a>>(value: &'a Json<'a>) -> Result<T, Error> {
    T::deserialize(Reader(value))
}

/// A view of a value that serde's derived types read.
#[derive(Clone, Copy)]
pub struct Reader<'j, 'a>(&'j Json<'a>);

impl<'j, 'a> IntoDeserializer<'j, Error> for Reader<'j, 'a> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'j, 'a> de::Deserializer<'j> for Reader<'j, 'a> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'j>>(self, v: V) -> Result<V::Value, Error> {
        match self.0 {
            Json::Null => v.visit_unit(),
            Json::Bool(b) => v.visit_bool(*b),
            Json::Num(_) => match self.0.as_num() {
                Some(Num::U(u)) => v.visit_u64(u),
                Some(Num::I(i)) => v.visit_i64(i),
                Some(Num::F(f)) => v.visit_f64(f),
                None => v.visit_unit(),
            },
            Json::Str(s) => v.visit_str(s),
            Json::Arr(items) => {
                let mut seq = SeqDeserializer::new(items.iter().map(Reader));
                let out = v.visit_seq(&mut seq)?;
                seq.end().map(|()| out)
            }
            Json::Obj(m) => {
                let mut map = MapDeserializer::new(m.iter().map(|(k, x)| (k, Reader(x))));
                let out = v.visit_map(&mut map)?;
                map.end().map(|()| out)
            }
        }
    }

    fn deserialize_option<V: Visitor<'j>>(self, v: V) -> Result<V::Value, Error> {
        match self.0 {
            Json::Null => v.visit_none(),
            _ => v.visit_some(self),
        }
    }

    fn deserialize_enum<V: Visitor<'j>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Json::Str(s) => v.visit_enum(s.as_ref().into_deserializer()),
            _ => self
                .deserialize_any(v)
                .map_err(|_| de::Error::custom(format_args!("{name} must be one of {variants:?}"))),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'j>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_newtype_struct(self)
    }

    forward_to_deserialize_any! {
        <W: Visitor<'j>>
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}
