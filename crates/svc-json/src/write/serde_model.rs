//! `to_string`: the writer's front for serde's data model (derived `Serialize` types), as serde_json
//! writes them (no floats).

use super as write;
use serde::ser::{self, Impossible, Serialize};
use std::fmt;

/// Why a value could not be written: a float, or a serializer's own error (its words are not kept).
#[derive(Debug)]
pub struct SerError;

impl fmt::Display for SerError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("the value cannot be written as JSON")
    }
}

impl std::error::Error for SerError {}

impl ser::Error for SerError {
    fn custom<T: fmt::Display>(_: T) -> Self {
        SerError
    }
}

/// `value` as compact JSON text, byte for byte what `serde_json::to_string` gives for values
/// without floats; empty if it holds a float or its serializer fails.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = String::new();
    match value.serialize(Writer { out: &mut out }) {
        Ok(()) => out,
        Err(_) => String::new(),
    }
}

struct Writer<'o> {
    out: &'o mut String,
}

/// A sequence or map being written: whether an item was written yet.
pub struct Compound<'o> {
    out: &'o mut String,
    first: bool,
    /// Closes an enum variant's wrapping object too.
    variant: bool,
}

impl<'o> Compound<'o> {
    fn open(out: &'o mut String, bracket: char, variant: bool) -> Compound<'o> {
        out.push(bracket);
        Compound {
            out,
            first: true,
            variant,
        }
    }

    fn comma(&mut self) {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
    }

    fn key(&mut self, key: &str) {
        self.comma();
        write::string(self.out, key);
        self.out.push(':');
    }

    fn close(self, bracket: char) -> Result<(), SerError> {
        self.out.push(bracket);
        if self.variant {
            self.out.push('}');
        }
        Ok(())
    }
}

fn variant_open<'o>(out: &'o mut String, variant: &str, bracket: char) -> Compound<'o> {
    out.push('{');
    write::string(out, variant);
    out.push(':');
    Compound::open(out, bracket, true)
}

impl<'o> ser::Serializer for Writer<'o> {
    type Ok = ();
    type Error = SerError;
    type SerializeSeq = Compound<'o>;
    type SerializeTuple = Compound<'o>;
    type SerializeTupleStruct = Compound<'o>;
    type SerializeTupleVariant = Compound<'o>;
    type SerializeMap = Compound<'o>;
    type SerializeStruct = Compound<'o>;
    type SerializeStructVariant = Compound<'o>;

    fn serialize_bool(self, v: bool) -> Result<(), SerError> {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), SerError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), SerError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), SerError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), SerError> {
        write::integer(self.out, v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), SerError> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), SerError> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), SerError> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), SerError> {
        write::unsigned(self.out, v);
        Ok(())
    }
    fn serialize_f32(self, _: f32) -> Result<(), SerError> {
        Err(SerError)
    }
    fn serialize_f64(self, _: f64) -> Result<(), SerError> {
        Err(SerError)
    }
    fn serialize_char(self, v: char) -> Result<(), SerError> {
        let mut buf = [0u8; 4];
        self.serialize_str(v.encode_utf8(&mut buf))
    }
    fn serialize_str(self, v: &str) -> Result<(), SerError> {
        write::string(self.out, v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), SerError> {
        let mut seq = Compound::open(self.out, '[', false);
        for b in v {
            seq.comma();
            write::unsigned(seq.out, (*b).into());
        }
        seq.close(']')
    }
    fn serialize_none(self) -> Result<(), SerError> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), SerError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), SerError> {
        self.out.push_str("null");
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), SerError> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), SerError> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), SerError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), SerError> {
        self.out.push('{');
        write::string(self.out, variant);
        self.out.push(':');
        value.serialize(Writer { out: self.out })?;
        self.out.push('}');
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'o>, SerError> {
        Ok(Compound::open(self.out, '[', false))
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'o>, SerError> {
        Ok(Compound::open(self.out, '[', false))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'o>, SerError> {
        Ok(Compound::open(self.out, '[', false))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'o>, SerError> {
        Ok(variant_open(self.out, variant, '['))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'o>, SerError> {
        Ok(Compound::open(self.out, '{', false))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'o>, SerError> {
        Ok(Compound::open(self.out, '{', false))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'o>, SerError> {
        Ok(variant_open(self.out, variant, '{'))
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = SerError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        self.comma();
        value.serialize(Writer { out: self.out })
    }
    fn end(self) -> Result<(), SerError> {
        self.close(']')
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = SerError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<(), SerError> {
        self.close(']')
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = SerError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<(), SerError> {
        self.close(']')
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = SerError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<(), SerError> {
        self.close(']')
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = SerError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), SerError> {
        self.comma();
        key.serialize(KeyWriter { out: self.out })?;
        self.out.push(':');
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        value.serialize(Writer { out: self.out })
    }
    fn end(self) -> Result<(), SerError> {
        self.close('}')
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = SerError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), SerError> {
        self.key(key);
        value.serialize(Writer { out: self.out })
    }
    fn end(self) -> Result<(), SerError> {
        self.close('}')
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = SerError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), SerError> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    fn end(self) -> Result<(), SerError> {
        self.close('}')
    }
}

/// A map key: strings as they are, integers and bools quoted (as serde_json writes keys).
struct KeyWriter<'o> {
    out: &'o mut String,
}

impl KeyWriter<'_> {
    fn quoted(self, write: impl FnOnce(&mut String)) -> Result<(), SerError> {
        self.out.push('"');
        write(self.out);
        self.out.push('"');
        Ok(())
    }
}

impl ser::Serializer for KeyWriter<'_> {
    type Ok = ();
    type Error = SerError;
    type SerializeSeq = Impossible<(), SerError>;
    type SerializeTuple = Impossible<(), SerError>;
    type SerializeTupleStruct = Impossible<(), SerError>;
    type SerializeTupleVariant = Impossible<(), SerError>;
    type SerializeMap = Impossible<(), SerError>;
    type SerializeStruct = Impossible<(), SerError>;
    type SerializeStructVariant = Impossible<(), SerError>;

    fn serialize_bool(self, v: bool) -> Result<(), SerError> {
        self.quoted(|o| o.push_str(if v { "true" } else { "false" }))
    }
    fn serialize_i8(self, v: i8) -> Result<(), SerError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), SerError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), SerError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), SerError> {
        self.quoted(|o| write::integer(o, v))
    }
    fn serialize_u8(self, v: u8) -> Result<(), SerError> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), SerError> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), SerError> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), SerError> {
        self.quoted(|o| write::unsigned(o, v))
    }
    fn serialize_f32(self, _: f32) -> Result<(), SerError> {
        Err(SerError)
    }
    fn serialize_f64(self, _: f64) -> Result<(), SerError> {
        Err(SerError)
    }
    fn serialize_char(self, v: char) -> Result<(), SerError> {
        let mut buf = [0u8; 4];
        self.serialize_str(v.encode_utf8(&mut buf))
    }
    fn serialize_str(self, v: &str) -> Result<(), SerError> {
        write::string(self.out, v);
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), SerError> {
        Err(SerError)
    }
    fn serialize_none(self) -> Result<(), SerError> {
        Err(SerError)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), SerError> {
        Err(SerError)
    }
    fn serialize_unit(self) -> Result<(), SerError> {
        Err(SerError)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), SerError> {
        Err(SerError)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), SerError> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), SerError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), SerError> {
        Err(SerError)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, SerError> {
        Err(SerError)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, SerError> {
        Err(SerError)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, SerError> {
        Err(SerError)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, SerError> {
        Err(SerError)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, SerError> {
        Err(SerError)
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, SerError> {
        Err(SerError)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, SerError> {
        Err(SerError)
    }
}

#[cfg(test)]
mod tests {
    use super::to_string;
    use serde::Serialize;
    use std::collections::BTreeMap;

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Inner {
        a_b: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        gone: Option<u8>,
        text: String,
        list: Vec<i64>,
        map: BTreeMap<String, bool>,
        keys: BTreeMap<u32, ()>,
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
    enum Kind {
        Plain,
        New(u64),
        Pair(i8, String),
        Shaped { one_two: Inner, empty: Vec<u8> },
    }

    #[test]
    fn written_as_serde_json_writes_it() {
        let inner = || Inner {
            a_b: None,
            gone: None,
            text: "q\"\\\n\u{1}é\u{2028}".into(),
            list: vec![i64::MIN, -1, 0, i64::MAX],
            map: [("x".to_string(), true), ("".to_string(), false)].into(),
            keys: [(7, ()), (u32::MAX, ())].into(),
        };
        let values = vec![
            Kind::Plain,
            Kind::New(u64::MAX),
            Kind::Pair(-3, "s".into()),
            Kind::Shaped {
                one_two: inner(),
                empty: vec![],
            },
        ];
        assert_eq!(to_string(&values), serde_json::to_string(&values).unwrap());
        assert_eq!(
            to_string(&inner()),
            serde_json::to_string(&inner()).unwrap()
        );
        assert_eq!(to_string(&Some(1.5)), "");
    }
}
