//! The JSON reader: one pass over the bytes of the text that accepts and refuses what serde_json
//! does, with its messages and positions (except that a number out of a double's range is read, its
//! text kept, as every number's is), and hands what it reads to a `Sink`: the borrowed tree
//! (`parse`), or a caller's own (svc-core's `lossless`, the spans that the text for JS is written from).

use super::{Json, Num, Obj, MAX_NESTING};
use std::borrow::Cow;

use super::error::Code;
pub use super::error::Error;

type Result<T> = std::result::Result<T, Error>;

/// A sink's refusal of a key (`Sink::key`): the text is not read past it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused;

/// What a pass over JSON text makes of the values it reads, innermost first.
pub trait Sink<'a> {
    type Value;
    type Items;
    type Members;
    /// Whether strings are decoded (a tree) or only checked and kept as their raw text.
    const DECODES: bool;
    /// A key's text without its quotes (as written, escapes and all, when the sink does not decode;
    /// a decoding sink is asked only of keys without escapes): whether the values under it are
    /// marked (the sink's own meaning: a number right under it, or in arrays under it, is handed to
    /// `number` with `marked`), or `Err(Refused)` to refuse the text there (an error that
    /// `Error::is_refused` tells, at the key, for the caller to word with `Error::message_as`).
    fn key(&mut self, raw: &'a str) -> std::result::Result<bool, Refused>;
    fn literal(&mut self, v: Json<'a>) -> Self::Value;
    /// A number's text; `marked` when it sits under a key that `key` marked.
    fn number(&mut self, text: &'a str, marked: bool) -> Self::Value;
    /// A string: decoded, or its raw contents when `DECODES` is false.
    fn string(&mut self, s: Cow<'a, str>) -> Self::Value;
    fn items(&mut self) -> Self::Items;
    /// An item of an array and its text.
    fn item(&mut self, items: &mut Self::Items, item: Self::Value, text: &'a str);
    fn array(&mut self, items: Self::Items) -> Self::Value;
    fn members(&mut self) -> Self::Members;
    /// A member of an object: its key (as `string` gives it), its value and the value's text.
    fn member(&mut self, m: &mut Self::Members, key: Cow<'a, str>, v: Self::Value, text: &'a str);
    fn object(&mut self, m: Self::Members) -> Self::Value;
}

/// The borrowed tree.
struct Tree;

impl<'a> Sink<'a> for Tree {
    type Value = Json<'a>;
    type Items = Vec<Json<'a>>;
    type Members = Vec<(Cow<'a, str>, Json<'a>)>;
    const DECODES: bool = true;

    fn key(&mut self, _: &'a str) -> std::result::Result<bool, Refused> {
        Ok(false)
    }
    fn literal(&mut self, v: Json<'a>) -> Json<'a> {
        v
    }
    fn number(&mut self, text: &'a str, _: bool) -> Json<'a> {
        Json::Num(Cow::Borrowed(text))
    }
    fn string(&mut self, s: Cow<'a, str>) -> Json<'a> {
        Json::Str(s)
    }
    fn items(&mut self) -> Vec<Json<'a>> {
        Vec::new()
    }
    fn item(&mut self, items: &mut Vec<Json<'a>>, item: Json<'a>, _: &'a str) {
        items.push(item);
    }
    fn array(&mut self, items: Vec<Json<'a>>) -> Json<'a> {
        Json::Arr(items)
    }
    fn members(&mut self) -> Self::Members {
        Vec::new()
    }
    fn member(&mut self, m: &mut Self::Members, key: Cow<'a, str>, v: Json<'a>, _: &'a str) {
        m.push((key, v));
    }
    fn object(&mut self, m: Self::Members) -> Json<'a> {
        Json::Obj(Obj::from_members(m))
    }
}

/// Reads JSON text into a `Json` that borrows it.
pub fn parse(text: &str) -> Result<Json<'_>> {
    read(text, &mut Tree, false)
}

/// Reads JSON text whole (one value and blanks), handing what it reads to `sink`; `marked` when the
/// value is to be read as if under a key that `Sink::key` marked.
pub fn read<'a, S: Sink<'a>>(text: &'a str, sink: &mut S, marked: bool) -> Result<S::Value> {
    let mut r = Reader::new(text);
    let value = r.value(sink, marked)?;
    match r.whitespace() {
        Some(_) => Err(r.peek_error(Code::TrailingCharacters)),
        None => Ok(value),
    }
}

/// `read` for a text that must hold an object.
pub fn read_object<'a, S: Sink<'a>>(text: &'a str, sink: &mut S) -> Result<S::Value> {
    let mut r = Reader::new(text);
    if r.whitespace() != Some(b'{') {
        return Err(r.peek_error(Code::ExpectedObject));
    }
    read(text, sink, false)
}

/// The number that JSON number text stands for, as serde_json classifies it; one beyond a double's
/// range is an infinity of its sign.
pub fn number(text: &str) -> Option<Num> {
    let mut r = Reader::new(text);
    let positive = r.bytes.first() != Some(&b'-');
    r.i = usize::from(!positive);
    let n = match r.integer(positive) {
        Ok(n) => n,
        Err(e) if e.code == Code::NumberOutOfRange => {
            r.skip_digits();
            Num::F(if positive {
                f64::INFINITY
            } else {
                f64::NEG_INFINITY
            })
        }
        Err(_) => return None,
    };
    (r.i == r.bytes.len()).then_some(n)
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    i: usize,
    depth: usize,
}

macro_rules! overflow {
    ($a:ident * 10 + $b:ident, $c:expr) => {
        $a >= $c / 10 && ($a > $c / 10 || $b > $c % 10)
    };
}

/// The bytes that end the plain run of a string: the closing quote, a backslash, a control character.
static STOPS_A_STRING: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = true;
        c += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// Where the plain run of a string starting at `i` ends (`STOPS_A_STRING`), eight bytes at a time
/// while eight are left: a byte is flagged when it is a quote, a backslash or below 0x20, and the
/// lowest flag is exact (a borrow only flags bytes above a flagged one).
#[inline(always)]
fn plain_run(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    while let Some(chunk) = b.get(i..i + 8) {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        let flags = below(x ^ (ONES * u64::from(b'"')), 1)
            | below(x ^ (ONES * u64::from(b'\\')), 1)
            | below(x, 0x20);
        if flags != 0 {
            return i + (flags.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while b.get(i).is_some_and(|&c| !STOPS_A_STRING[c as usize]) {
        i += 1;
    }
    i
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Reader<'a> {
        Reader {
            text,
            bytes: text.as_bytes(),
            i: 0,
            depth: MAX_NESTING,
        }
    }

    #[cold]
    fn error_at(&self, code: Code, at: usize) -> Error {
        let before = &self.bytes[..at];
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        Error {
            code,
            line: 1 + before[..start].iter().filter(|&&b| b == b'\n').count(),
            column: at - start,
        }
    }

    /// An error at the byte just read.
    fn error(&self, code: Code) -> Error {
        self.error_at(code, self.i)
    }

    /// An error at the byte about to be read.
    fn peek_error(&self, code: Code) -> Error {
        self.error_at(code, (self.i + 1).min(self.bytes.len()))
    }

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }

    #[inline(always)]
    fn peek_or_null(&self) -> u8 {
        self.peek().unwrap_or(0)
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.i += 1;
        Some(b)
    }

    /// Skips digits.
    #[inline(always)]
    fn skip_digits(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.i += 1;
        }
    }

    #[inline(always)]
    fn whitespace(&mut self) -> Option<u8> {
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\n' | b'\t' | b'\r' => self.i += 1,
                _ => return Some(b),
            }
        }
        None
    }

    fn value<S: Sink<'a>>(&mut self, sink: &mut S, marked: bool) -> Result<S::Value> {
        let Some(peek) = self.whitespace() else {
            return Err(self.peek_error(Code::EofValue));
        };
        match peek {
            b'"' => {
                self.i += 1;
                let s = self.string::<S>()?;
                Ok(sink.string(s))
            }
            b'-' | b'0'..=b'9' => {
                let start = self.i;
                self.skip_number()?;
                Ok(sink.number(&self.text[start..self.i], marked))
            }
            b'{' => {
                self.enter()?;
                let members = self.object(sink);
                self.depth += 1;
                members.map(|m| sink.object(m))
            }
            b'[' => {
                self.enter()?;
                let items = self.array(sink, marked);
                self.depth += 1;
                items.map(|items| sink.array(items))
            }
            b'n' => {
                self.i += 1;
                self.ident(b"ull").map(|_| sink.literal(Json::Null))
            }
            b't' => {
                self.i += 1;
                self.ident(b"rue").map(|_| sink.literal(Json::Bool(true)))
            }
            b'f' => {
                self.i += 1;
                self.ident(b"alse").map(|_| sink.literal(Json::Bool(false)))
            }
            _ => Err(self.peek_error(Code::ExpectedValue)),
        }
    }

    fn enter(&mut self) -> Result<()> {
        self.depth -= 1;
        if self.depth == 0 {
            return Err(self.peek_error(Code::RecursionLimitExceeded));
        }
        self.i += 1;
        Ok(())
    }

    fn ident(&mut self, rest: &[u8]) -> Result<()> {
        for &want in rest {
            match self.next() {
                None => return Err(self.error(Code::EofValue)),
                Some(b) if b != want => return Err(self.error(Code::ExpectedIdent)),
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// An array's items after its opening bracket; `marked` passes on to them.
    #[inline]
    fn array<S: Sink<'a>>(&mut self, sink: &mut S, marked: bool) -> Result<S::Items> {
        let mut items = sink.items();
        let mut first = true;
        loop {
            let Some(peek) = self.whitespace() else {
                return Err(self.peek_error(Code::EofList));
            };
            if peek == b']' {
                self.i += 1;
                return Ok(items);
            }
            if !first {
                if peek != b',' {
                    return Err(self.peek_error(Code::ExpectedListCommaOrEnd));
                }
                self.i += 1;
                match self.whitespace() {
                    Some(b']') => return Err(self.peek_error(Code::TrailingComma)),
                    Some(_) => {}
                    None => return Err(self.peek_error(Code::EofValue)),
                }
            }
            first = false;
            let start = self.i;
            let item = self.value(sink, marked)?;
            sink.item(&mut items, item, &self.text[start..self.i]);
        }
    }

    /// An object's members after its opening brace.
    #[inline]
    fn object<S: Sink<'a>>(&mut self, sink: &mut S) -> Result<S::Members> {
        let mut members = sink.members();
        let mut first = true;
        loop {
            let Some(peek) = self.whitespace() else {
                return Err(self.peek_error(Code::EofObject));
            };
            if peek == b'}' {
                self.i += 1;
                return Ok(members);
            }
            if first {
                if peek != b'"' {
                    return Err(self.peek_error(Code::KeyMustBeAString));
                }
            } else if peek == b',' {
                self.i += 1;
                match self.whitespace() {
                    Some(b'"') => {}
                    Some(b'}') => return Err(self.peek_error(Code::TrailingComma)),
                    Some(_) => return Err(self.peek_error(Code::KeyMustBeAString)),
                    None => return Err(self.peek_error(Code::EofValue)),
                }
            } else {
                return Err(self.peek_error(Code::ExpectedObjectCommaOrEnd));
            }
            first = false;
            let at = self.i;
            self.i += 1;
            let key = self.string::<S>()?;
            let marked = match &key {
                Cow::Borrowed(raw) => sink.key(raw),
                Cow::Owned(_) => Ok(false),
            }
            .map_err(|Refused| self.error_at(Code::Refused, at + 1))?;
            match self.whitespace() {
                Some(b':') => self.i += 1,
                Some(_) => return Err(self.peek_error(Code::ExpectedColon)),
                None => return Err(self.peek_error(Code::EofObject)),
            }
            self.whitespace();
            let start = self.i;
            let value = self.value(sink, marked)?;
            sink.member(&mut members, key, value, &self.text[start..self.i]);
        }
    }

    /// A string after its opening quote: decoded (borrowed from the text unless it holds an
    /// escape), or, for a sink that does not decode, its raw contents with its escapes checked.
    #[inline(always)]
    fn string<S: Sink<'a>>(&mut self) -> Result<Cow<'a, str>> {
        let mut start = self.i;
        let begin = self.i;
        let mut owned: Option<String> = None;
        loop {
            self.i = plain_run(self.bytes, self.i);
            let Some(b) = self.peek() else {
                return Err(self.error(Code::EofString));
            };
            self.i += 1;
            match b {
                b'"' if !S::DECODES => return Ok(Cow::Borrowed(&self.text[begin..self.i - 1])),
                b'"' => {
                    let run = &self.text[start..self.i - 1];
                    return Ok(match owned {
                        None => Cow::Borrowed(run),
                        Some(mut s) => {
                            s.push_str(run);
                            Cow::Owned(s)
                        }
                    });
                }
                b'\\' if !S::DECODES => self.check_escape()?,
                b'\\' => {
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(&self.text[start..self.i - 1]);
                    self.escape(s)?;
                    start = self.i;
                }
                _ => return Err(self.error(Code::ControlCharacter)),
            }
        }
    }

    /// Checks an escape without decoding it (a `\u` escape's four hex digits; JS takes a lone
    /// surrogate).
    fn check_escape(&mut self) -> Result<()> {
        match self.next() {
            None => Err(self.error(Code::EofString)),
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(()),
            Some(b'u') => self.hex4().map(drop),
            Some(_) => Err(self.error(Code::InvalidEscape)),
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<()> {
        let Some(b) = self.next() else {
            return Err(self.error(Code::EofString));
        };
        out.push(match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => self.unicode_escape()?,
            _ => return Err(self.error(Code::InvalidEscape)),
        });
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32> {
        let Some(digits) = self.bytes.get(self.i..self.i + 4) else {
            self.i = self.bytes.len();
            return Err(self.error(Code::EofString));
        };
        self.i += 4;
        let mut n = 0;
        for &d in digits {
            let v = match d {
                b'0'..=b'9' => d - b'0',
                b'a'..=b'f' => d - b'a' + 10,
                b'A'..=b'F' => d - b'A' + 10,
                _ => return Err(self.error(Code::InvalidEscape)),
            };
            n = n * 16 + u32::from(v);
        }
        Ok(n)
    }

    /// The character of a `\u` escape (a surrogate pair is two escapes; a lone surrogate is an error).
    fn unicode_escape(&mut self) -> Result<char> {
        let n = self.hex4()?;
        if (0xDC00..=0xDFFF).contains(&n) {
            return Err(self.error(Code::LoneLeadingSurrogate));
        }
        if !(0xD800..=0xDBFF).contains(&n) {
            return char::from_u32(n).ok_or_else(|| self.error(Code::InvalidEscape));
        }
        for want in [b'\\', b'u'] {
            match self.peek() {
                None => return Err(self.error(Code::EofString)),
                Some(b) => {
                    self.i += 1;
                    if b != want {
                        return Err(self.error(Code::UnexpectedEndOfHexEscape));
                    }
                }
            }
        }
        let n2 = self.hex4()?;
        if !(0xDC00..=0xDFFF).contains(&n2) {
            return Err(self.error(Code::LoneLeadingSurrogate));
        }
        char::from_u32((((n - 0xD800) << 10) | (n2 - 0xDC00)) + 0x1_0000)
            .ok_or_else(|| self.error(Code::InvalidEscape))
    }

    /// Skips a number's text, refusing what serde_json refuses with its error (its value is read
    /// apart, by `number`, when it is asked for).
    #[inline(always)]
    fn skip_number(&mut self) -> Result<()> {
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.next() {
            None => return Err(self.error(Code::EofValue)),
            Some(b'0') => {
                if self.peek_or_null().is_ascii_digit() {
                    return Err(self.peek_error(Code::InvalidNumber));
                }
            }
            Some(b'1'..=b'9') => self.skip_digits(),
            Some(_) => return Err(self.error(Code::InvalidNumber)),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            match self.peek() {
                Some(b'0'..=b'9') => self.skip_digits(),
                Some(_) => return Err(self.peek_error(Code::InvalidNumber)),
                None => return Err(self.peek_error(Code::EofValue)),
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            match self.next() {
                None => return Err(self.error(Code::EofValue)),
                Some(b'0'..=b'9') => self.skip_digits(),
                Some(_) => return Err(self.error(Code::InvalidNumber)),
            }
        }
        Ok(())
    }

    /// A number after its sign, read as serde_json reads it (its float arithmetic included).
    fn integer(&mut self, positive: bool) -> Result<Num> {
        let Some(first) = self.next() else {
            return Err(self.error(Code::EofValue));
        };
        match first {
            b'0' => match self.peek_or_null() {
                b'0'..=b'9' => Err(self.peek_error(Code::InvalidNumber)),
                _ => self.after_integer(positive, 0),
            },
            b'1'..=b'9' => {
                let mut significand = u64::from(first - b'0');
                loop {
                    match self.peek_or_null() {
                        c @ b'0'..=b'9' => {
                            let digit = u64::from(c - b'0');
                            if overflow!(significand * 10 + digit, u64::MAX) {
                                return self.long_integer(positive, significand).map(Num::F);
                            }
                            self.i += 1;
                            significand = significand * 10 + digit;
                        }
                        _ => return self.after_integer(positive, significand),
                    }
                }
            }
            _ => Err(self.error(Code::InvalidNumber)),
        }
    }

    fn after_integer(&mut self, positive: bool, significand: u64) -> Result<Num> {
        Ok(match self.peek_or_null() {
            b'.' => Num::F(self.decimal(positive, significand, 0)?),
            b'e' | b'E' => Num::F(self.exponent(positive, significand, 0)?),
            _ if positive => Num::U(significand),
            _ => {
                let neg = (significand as i64).wrapping_neg();
                if neg >= 0 {
                    Num::F(-(significand as f64))
                } else {
                    Num::I(neg)
                }
            }
        })
    }

    fn decimal(&mut self, positive: bool, mut significand: u64, before: i32) -> Result<f64> {
        self.i += 1;
        let mut after = 0;
        while let c @ b'0'..=b'9' = self.peek_or_null() {
            let digit = u64::from(c - b'0');
            if overflow!(significand * 10 + digit, u64::MAX) {
                while let b'0'..=b'9' = self.peek_or_null() {
                    self.i += 1;
                }
                return match self.peek_or_null() {
                    b'e' | b'E' => self.exponent(positive, significand, before + after),
                    _ => self.float_of_parts(positive, significand, before + after),
                };
            }
            self.i += 1;
            significand = significand * 10 + digit;
            after -= 1;
        }
        if after == 0 {
            return Err(match self.peek() {
                Some(_) => self.peek_error(Code::InvalidNumber),
                None => self.peek_error(Code::EofValue),
            });
        }
        match self.peek_or_null() {
            b'e' | b'E' => self.exponent(positive, significand, before + after),
            _ => self.float_of_parts(positive, significand, before + after),
        }
    }

    fn exponent(&mut self, positive: bool, significand: u64, starting: i32) -> Result<f64> {
        self.i += 1;
        let positive_exp = match self.peek_or_null() {
            b'+' => {
                self.i += 1;
                true
            }
            b'-' => {
                self.i += 1;
                false
            }
            _ => true,
        };
        let mut exp = match self.next() {
            None => return Err(self.error(Code::EofValue)),
            Some(c @ b'0'..=b'9') => i32::from(c - b'0'),
            Some(_) => return Err(self.error(Code::InvalidNumber)),
        };
        while let c @ b'0'..=b'9' = self.peek_or_null() {
            self.i += 1;
            let digit = i32::from(c - b'0');
            if overflow!(exp * 10 + digit, i32::MAX) {
                if significand != 0 && positive_exp {
                    return Err(self.error(Code::NumberOutOfRange));
                }
                while let b'0'..=b'9' = self.peek_or_null() {
                    self.i += 1;
                }
                return Ok(if positive { 0.0 } else { -0.0 });
            }
            exp = exp * 10 + digit;
        }
        let exp = if positive_exp {
            starting.saturating_add(exp)
        } else {
            starting.saturating_sub(exp)
        };
        self.float_of_parts(positive, significand, exp)
    }

    fn long_integer(&mut self, positive: bool, significand: u64) -> Result<f64> {
        let mut exponent = 0;
        loop {
            match self.peek_or_null() {
                b'0'..=b'9' => {
                    self.i += 1;
                    exponent += 1;
                }
                b'.' => return self.decimal(positive, significand, exponent),
                b'e' | b'E' => return self.exponent(positive, significand, exponent),
                _ => return self.float_of_parts(positive, significand, exponent),
            }
        }
    }

    fn float_of_parts(&self, positive: bool, significand: u64, mut exponent: i32) -> Result<f64> {
        let mut f = significand as f64;
        loop {
            match POW10.get(exponent.unsigned_abs() as usize) {
                Some(&pow) => {
                    if exponent >= 0 {
                        f *= pow;
                        if f.is_infinite() {
                            return Err(self.error(Code::NumberOutOfRange));
                        }
                    } else {
                        f /= pow;
                    }
                    break;
                }
                None => {
                    if f == 0.0 {
                        break;
                    }
                    if exponent >= 0 {
                        return Err(self.error(Code::NumberOutOfRange));
                    }
                    f /= 1e308;
                    exponent += 308;
                }
            }
        }
        Ok(if positive { f } else { -f })
    }
}

/// 1e0 ..= 1e308, for reading a decimal number as serde_json reads it.
#[rustfmt::skip]
static POW10: [f64; 309] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23,
    1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31,
    1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38, 1e39,
    1e40, 1e41, 1e42, 1e43, 1e44, 1e45, 1e46, 1e47,
    1e48, 1e49, 1e50, 1e51, 1e52, 1e53, 1e54, 1e55,
    1e56, 1e57, 1e58, 1e59, 1e60, 1e61, 1e62, 1e63,
    1e64, 1e65, 1e66, 1e67, 1e68, 1e69, 1e70, 1e71,
    1e72, 1e73, 1e74, 1e75, 1e76, 1e77, 1e78, 1e79,
    1e80, 1e81, 1e82, 1e83, 1e84, 1e85, 1e86, 1e87,
    1e88, 1e89, 1e90, 1e91, 1e92, 1e93, 1e94, 1e95,
    1e96, 1e97, 1e98, 1e99, 1e100, 1e101, 1e102, 1e103,
    1e104, 1e105, 1e106, 1e107, 1e108, 1e109, 1e110, 1e111,
    1e112, 1e113, 1e114, 1e115, 1e116, 1e117, 1e118, 1e119,
    1e120, 1e121, 1e122, 1e123, 1e124, 1e125, 1e126, 1e127,
    1e128, 1e129, 1e130, 1e131, 1e132, 1e133, 1e134, 1e135,
    1e136, 1e137, 1e138, 1e139, 1e140, 1e141, 1e142, 1e143,
    1e144, 1e145, 1e146, 1e147, 1e148, 1e149, 1e150, 1e151,
    1e152, 1e153, 1e154, 1e155, 1e156, 1e157, 1e158, 1e159,
    1e160, 1e161, 1e162, 1e163, 1e164, 1e165, 1e166, 1e167,
    1e168, 1e169, 1e170, 1e171, 1e172, 1e173, 1e174, 1e175,
    1e176, 1e177, 1e178, 1e179, 1e180, 1e181, 1e182, 1e183,
    1e184, 1e185, 1e186, 1e187, 1e188, 1e189, 1e190, 1e191,
    1e192, 1e193, 1e194, 1e195, 1e196, 1e197, 1e198, 1e199,
    1e200, 1e201, 1e202, 1e203, 1e204, 1e205, 1e206, 1e207,
    1e208, 1e209, 1e210, 1e211, 1e212, 1e213, 1e214, 1e215,
    1e216, 1e217, 1e218, 1e219, 1e220, 1e221, 1e222, 1e223,
    1e224, 1e225, 1e226, 1e227, 1e228, 1e229, 1e230, 1e231,
    1e232, 1e233, 1e234, 1e235, 1e236, 1e237, 1e238, 1e239,
    1e240, 1e241, 1e242, 1e243, 1e244, 1e245, 1e246, 1e247,
    1e248, 1e249, 1e250, 1e251, 1e252, 1e253, 1e254, 1e255,
    1e256, 1e257, 1e258, 1e259, 1e260, 1e261, 1e262, 1e263,
    1e264, 1e265, 1e266, 1e267, 1e268, 1e269, 1e270, 1e271,
    1e272, 1e273, 1e274, 1e275, 1e276, 1e277, 1e278, 1e279,
    1e280, 1e281, 1e282, 1e283, 1e284, 1e285, 1e286, 1e287,
    1e288, 1e289, 1e290, 1e291, 1e292, 1e293, 1e294, 1e295,
    1e296, 1e297, 1e298, 1e299, 1e300, 1e301, 1e302, 1e303,
    1e304, 1e305, 1e306, 1e307, 1e308,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks the text and refuses the key `no` (without escapes) wherever it stands.
    struct RefuseNo;

    impl<'a> Sink<'a> for RefuseNo {
        type Value = ();
        type Items = ();
        type Members = ();
        const DECODES: bool = false;
        fn key(&mut self, raw: &'a str) -> std::result::Result<bool, Refused> {
            if raw == "no" {
                Err(Refused)
            } else {
                Ok(false)
            }
        }
        fn literal(&mut self, _: Json<'a>) {}
        fn number(&mut self, _: &'a str, _: bool) {}
        fn string(&mut self, _: Cow<'a, str>) {}
        fn items(&mut self) {}
        fn item(&mut self, _: &mut (), _: (), _: &'a str) {}
        fn array(&mut self, _: ()) {}
        fn members(&mut self) {}
        fn member(&mut self, _: &mut (), _: Cow<'a, str>, _: (), _: &'a str) {}
        fn object(&mut self, _: ()) {}
    }

    #[test]
    fn a_refused_key_is_an_error_at_the_key_that_the_caller_words() {
        let e = read("{\"a\":[1,\n {\"no\":2}]}", &mut RefuseNo, false).unwrap_err();
        assert!(e.is_refused());
        assert_eq!(
            e.message_as("the key \"no\""),
            "the key \"no\" at line 2 column 3"
        );
        assert_eq!(e.message(), "a key refused at line 2 column 3");
        assert!(read(r#"{"n\u006f":2,"yes":[]}"#, &mut RefuseNo, false).is_ok());
        let syntax = read(r#"{"a":}"#, &mut RefuseNo, false).unwrap_err();
        assert!(!syntax.is_refused());
        assert!(read_object("[]", &mut RefuseNo).is_err());
    }

    #[test]
    fn a_plain_run_ends_at_the_first_quote_backslash_or_control_character() {
        let stops = (0u8..0x20).chain([b'"', b'\\']);
        for stop in stops {
            for at in 0..20 {
                for start in 0..3.min(at + 1) {
                    let mut b = vec![b'a'; 24];
                    b[at] = stop;
                    b[at.saturating_sub(1)] = if at > 0 { 0xe9 } else { stop };
                    b[at] = stop;
                    b.extend([b'"', 0x1f, b'\\']);
                    assert_eq!(plain_run(&b, start), at, "{stop:#x} at {at} from {start}");
                }
            }
        }
        assert_eq!(plain_run(b"abc", 0), 3);
        assert_eq!(plain_run("é\u{7f}\u{ff}xyzéèà".as_bytes(), 0), 14);
    }
}
