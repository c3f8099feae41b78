//! An answer decoded by its row's shape: the resource found, checked and written with every id a string.

use super::envelope::{code_is_success, envelope_code, find, is_json};
use super::error::{error_from, json_error};
use super::page::PageContext;
use crate::catalog::{Operation, Shape};
use crate::error::Error;
use crate::lossless;
use crate::lossless::{Items, Member};

/// What a successful response decodes to.
#[derive(Clone, Debug, PartialEq)]
pub enum Decoded {
    /// JSON text of the result, every id a string.
    Json(String),
    /// The body is the result (a file); the transport hands it over as it came.
    Binary,
}

/// Decodes the response of an operation from its status, content type and body.
pub fn decode(
    op: &Operation,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) -> Result<Decoded, Error> {
    decode_shape(op.response, status, content_type, body).map_err(|e| e.with_operation(op.id))
}

/// Where a shape's resource sits and what it must be, in words, for the messages of a bad answer.
fn expected(shape: Shape) -> String {
    match shape {
        Shape::Key(keys) => format!("`{}` (an object) was expected", keys[0]),
        Shape::KeyArray(keys) => format!("`{}` (an array) was expected", keys[0]),
        Shape::KeyOrOneElementArray(key) => format!("`{key}` (an object) was expected"),
        Shape::List(key) => format!("`{key}` (an array) was expected"),
        Shape::TopLevel => {
            "the resource's fields next to `code` and `message` were expected".into()
        }
        Shape::Empty | Shape::Binary => "an answer was expected".into(),
    }
}

/// The JSON type of a value's text, in words.
fn json_type(value: &str) -> &'static str {
    match value.as_bytes().first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

/// A 2xx answer that does not hold what its row says: a `decode` error.
fn off_row(status: u16, message: String) -> Error {
    Error::decode(message).with_status(status)
}

/// Decodes an answer whose row says `shape`: an error answer (or a 2xx with a non-zero code) is
/// its error, a file is handed over, any other is written with every id a string.
pub fn decode_shape(
    shape: Shape,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) -> Result<Decoded, Error> {
    if !(200..300).contains(&status) {
        return Err(error_from(status, body));
    }
    if shape == Shape::Binary {
        return binary(status, content_type, body);
    }
    let text = std::str::from_utf8(body)
        .map_err(|_| Error::decode("the response is not UTF-8 text").with_status(status))?;
    if text.trim().is_empty() {
        return empty(shape, status);
    }
    let doc = lossless::Document::parse(text).map_err(|e| {
        Error::decode(format!("the response is not a JSON object: {e}")).with_status(status)
    })?;
    if !code_is_success(&envelope_code(&doc.members)) {
        return Err(error_from(status, body));
    }
    let answer = Answer {
        shape,
        status,
        doc: &doc,
    };
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    match shape {
        Shape::Key(keys) | Shape::KeyArray(keys) => answer.key(keys, &mut out)?,
        Shape::KeyOrOneElementArray(key) => answer.key_or_one(key, &mut out)?,
        Shape::TopLevel => answer.top_level(&mut out)?,
        Shape::List(key) => answer.list(key, &mut out)?,
        Shape::Empty => doc.write_value(text.trim(), &mut out),
        Shape::Binary => unreachable!("handled above"),
    }
    Ok(Decoded::Json(out))
}

/// A file: handed over as it came, unless it is a JSON error envelope.
fn binary(status: u16, content_type: Option<&str>, body: &[u8]) -> Result<Decoded, Error> {
    if is_json(content_type) {
        if let Some(err) = json_error(status, body) {
            return Err(err);
        }
    }
    Ok(Decoded::Binary)
}

/// An empty answer: only an answer without a resource may be empty (a DELETE answered 204, say).
fn empty(shape: Shape, status: u16) -> Result<Decoded, Error> {
    if shape == Shape::Empty {
        return Ok(Decoded::Json(String::from(r#"{"code":0,"message":""}"#)));
    }
    let want = expected(shape);
    Err(off_row(
        status,
        format!("the response is empty, where {want}"),
    ))
}

/// A parsed 2xx answer with a success code, and the shape its row says it has.
struct Answer<'d> {
    shape: Shape,
    status: u16,
    doc: &'d lossless::Document<'d>,
}

impl<'d> Answer<'d> {
    /// The first of `keys` the answer has, or the `decode` error of its absence.
    fn found(&self, keys: &[&str]) -> Result<&'d Member<'d>, Error> {
        let members = &self.doc.members;
        keys.iter().find_map(|k| find(members, k)).ok_or_else(|| {
            let want = expected(self.shape);
            off_row(
                self.status,
                format!("the response has no `{}`, where {want}", keys[0]),
            )
        })
    }

    /// The `decode` error of a resource of the wrong JSON type.
    fn wrong(&self, key: &str, value: &str) -> Error {
        let want = expected(self.shape);
        off_row(
            self.status,
            format!(
                "the response's `{key}` is {}, where {want}",
                json_type(value)
            ),
        )
    }

    /// The object (`Key`) or array of objects (`KeyArray`) under the first of `keys` present.
    fn key(&self, keys: &[&str], out: &mut String) -> Result<(), Error> {
        let m = self.found(keys)?;
        let opening = if matches!(self.shape, Shape::Key(_)) {
            '{'
        } else {
            '['
        };
        if !m.value.starts_with(opening) {
            return Err(self.wrong(m.key, m.value));
        }
        if let Some(items) = &m.items {
            objects(self.status, m.key, items)?;
        }
        self.doc.write_value(m.value, out);
        Ok(())
    }

    /// The object under `key`, or the one object of an array there.
    fn key_or_one(&self, key: &str, out: &mut String) -> Result<(), Error> {
        let m = self.found(&[key])?;
        let (value, items) = match m.items.and_then(|items| items.only()) {
            Some(only) => (only, lossless::items(only)),
            None => (m.value, m.items),
        };
        if let Some(items) = items.filter(|items| items.count > 1) {
            objects(self.status, m.key, &items)?;
        } else if !value.starts_with('{') {
            return Err(self.wrong(m.key, value));
        }
        self.doc.write_value(value, out);
        Ok(())
    }

    /// The members next to `code` and `message`, as one object.
    fn top_level(&self, out: &mut String) -> Result<(), Error> {
        out.push('{');
        let mut first = true;
        for m in self
            .doc
            .members
            .iter()
            .filter(|m| m.key != "code" && m.key != "message")
        {
            if !first {
                out.push(',');
            }
            first = false;
            out.push('"');
            out.push_str(m.key);
            out.push_str("\":");
            self.doc.write_value(m.value, out);
        }
        out.push('}');
        if first {
            let want = expected(self.shape);
            return Err(off_row(
                self.status,
                format!("the response has only `code` and `message`, where {want}"),
            ));
        }
        Ok(())
    }

    /// The array of objects under `key` as `items`, with the `page_context` when it is read.
    fn list(&self, key: &str, out: &mut String) -> Result<(), Error> {
        let items = self.found(&[key])?;
        if !items.value.starts_with('[') {
            return Err(self.wrong(items.key, items.value));
        }
        objects(self.status, items.key, &items.items.unwrap_or_default())?;
        out.push_str("{\"items\":");
        self.doc.write_value(items.value, out);
        if let Some(pc) = find(&self.doc.members, "page_context") {
            // An object alone in an array is the object; anything else is said as it came.
            let value = pc
                .items
                .and_then(|items| items.only())
                .filter(|v| v.starts_with('{'))
                .unwrap_or(pc.value);
            let read = svc_json::parse(value)
                .map_err(|e| e.to_string())
                .and_then(|v| PageContext::read_json(&v));
            if let Err(why) = read {
                return Err(off_row(self.status, format!("the response's {why}")));
            }
            out.push_str(",\"page_context\":");
            self.doc.write_value(value, out);
        }
        out.push('}');
        Ok(())
    }
}

/// Checks that every member of an array under `key` (its `items`, as the scan saw them) is an
/// object: the first that is not is a `decode` error naming its index.
fn objects(status: u16, key: &str, items: &Items) -> Result<(), Error> {
    match items.stray {
        Some((at, item)) => Err(off_row(
            status,
            format!(
                "the response's `{key}[{at}]` is {}, where each member of `{key}` (an array) must be an object",
                json_type(item)
            ),
        )),
        None => Ok(()),
    }
}
