//! The JSON writer: compact text, strings escaped exactly as serde_json escapes them, numbers as the
//! text they were read from (no float printer).

use super::{Json, Obj, Without};

mod serde_model;
pub use serde_model::to_string;

/// A value written as JSON text.
pub trait ToJson {
    fn write_json(&self, out: &mut String);

    fn to_json_text(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }
}

/// Writes `s` as a JSON string: `"` and `\` escaped, control characters as `\b \f \n \r \t` or
/// `\u00XX` (lower-case hex), nothing else.
pub fn string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escaped: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            0x0c => "\\f",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if escaped.is_empty() {
            out.push_str("\\u00");
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 0xf)] as char);
        } else {
            out.push_str(escaped);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Writes an integer in decimal.
pub fn integer(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    unsigned(out, n.unsigned_abs());
}

/// Writes a non-negative integer in decimal.
pub fn unsigned(out: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(d as char);
    }
}

/// Writes the items of a list as a JSON array.
pub fn array<T>(
    out: &mut String,
    items: impl IntoIterator<Item = T>,
    mut each: impl FnMut(&mut String, T),
) {
    out.push('[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        each(out, item);
    }
    out.push(']');
}

/// Writes the members of an object, one `key:value` after another, with the commas between them.
pub struct Members<'o> {
    out: &'o mut String,
    first: bool,
}

impl<'o> Members<'o> {
    pub fn new(out: &'o mut String) -> Members<'o> {
        out.push('{');
        Members { out, first: true }
    }

    /// The key of the next member, after which its value is written into the returned text.
    pub fn key(&mut self, key: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        string(self.out, key);
        self.out.push(':');
        self.out
    }

    pub fn str(&mut self, key: &str, value: &str) {
        string(self.key(key), value);
    }

    pub fn value<T: ToJson + ?Sized>(&mut self, key: &str, value: &T) {
        value.write_json(self.key(key));
    }

    pub fn end(self) {
        self.out.push('}');
    }
}

impl ToJson for str {
    fn write_json(&self, out: &mut String) {
        string(out, self);
    }
}

impl ToJson for &str {
    fn write_json(&self, out: &mut String) {
        string(out, self);
    }
}

impl ToJson for bool {
    fn write_json(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
}

impl<T: ToJson> ToJson for [T] {
    fn write_json(&self, out: &mut String) {
        array(out, self, |out, item| item.write_json(out));
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn write_json(&self, out: &mut String) {
        self.as_slice().write_json(out);
    }
}

impl ToJson for Json<'_> {
    fn write_json(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => b.write_json(out),
            Json::Num(text) => out.push_str(text),
            Json::Str(s) => string(out, s),
            Json::Arr(items) => items.write_json(out),
            Json::Obj(m) => m.write_json(out),
        }
    }
}

impl ToJson for Obj<'_> {
    fn write_json(&self, out: &mut String) {
        self.without(|_| false).write_json(out);
    }
}

impl<F: Fn(&str) -> bool> ToJson for Without<'_, '_, F> {
    fn write_json(&self, out: &mut String) {
        let mut m = Members::new(out);
        for (k, v) in self.0.iter().filter(|(k, _)| !(self.1)(k)) {
            m.value(k, v);
        }
        m.end();
    }
}
