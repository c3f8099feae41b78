//! The words of every issue, as data: one line of text per message, its parts numbered (`{0}`, `{1}`...)
//! and put in by `Message::say`; the client, the validate entry and the sandbox word their issues with it.

use svc_json::write;

/// The messages, one a line in the order of `Message`.
const TEXT: &str = "\
{0} is required
{0} must be {1}, got {2}
members of {0} may not be null
{0} may have at most {1} characters, it has {2}
{0} needs at least {1} characters, it has {2}
{0} must be between {1} and {2}
{0} must be a number
{0} must be one of {1}, got {2}
{0} may have at most {1} members, it has {2}
{0} cannot be sent as JSON
{0} must be an object, got {1}
{0} must be an object
{0} needs at least one member
{0} applies only to {1}, not to {2}
{0} applies only when {1} is {2}
{0} must be an id (a string or an integer)
{0} is not an accepted file type; accepted: {1}
{0} is a JS number beyond 2^53 - 1, which JS holds as {1}: the digits written may have been lost before the SDK saw them; {2}
{0} must be between now ({1}) and one week from now ({2})
a {0} may hold at most {1} fields, however nested; it has {2}
the operation of {0} must be one of {1}
an event must be {0}, got {1}
params are more than maxRequestBytes ({0}) as JSON
{0} is longer than maxRequestBytes ({1}) and was not read
params could not be read: {0}";

/// A message, by what it says; `say` puts its parts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Message {
    Required,
    WrongType,
    NullMember,
    TooLong,
    TooShort,
    OutOfRange,
    NotANumber,
    NotOneOf,
    TooMany,
    NotJson,
    NotAnObjectGot,
    NotAnObject,
    NoMember,
    AppliesOnlyTo,
    AppliesOnlyWhen,
    NotAnId,
    FileType,
    Inexact,
    ExpiryWithinAWeek,
    TooManyNested,
    EventOperation,
    EventFormat,
    ParamsTooLarge,
    ArgTooLarge,
    Unreadable,
}

/// A part of a message: words or a number, written as they are.
pub trait Part {
    fn put(&self, out: &mut String);
}

impl Part for str {
    fn put(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl<T: Part + ?Sized> Part for &T {
    fn put(&self, out: &mut String) {
        (**self).put(out);
    }
}

impl Part for String {
    fn put(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Part for usize {
    fn put(&self, out: &mut String) {
        write::unsigned(out, *self as u64);
    }
}

impl Part for i64 {
    fn put(&self, out: &mut String) {
        write::integer(out, *self);
    }
}

impl Part for u64 {
    fn put(&self, out: &mut String) {
        write::unsigned(out, *self);
    }
}

impl Message {
    /// The message's template.
    pub fn template(self) -> &'static str {
        TEXT.lines().nth(self as usize).unwrap_or_default()
    }

    /// The message with `parts` put in its places; a place with no part stays empty.
    pub fn say(self, parts: &[&dyn Part]) -> String {
        let template = self.template();
        let mut out = String::with_capacity(template.len() + 32);
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let digit = rest.as_bytes().get(open + 1).map(|d| d.wrapping_sub(b'0'));
            if let Some(part) = digit.and_then(|d| parts.get(d as usize)) {
                part.put(&mut out);
            }
            rest = rest.get(open + 3..).unwrap_or_default();
        }
        out.push_str(rest);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_has_its_line_and_its_parts_put_in_their_places() {
        assert_eq!(TEXT.lines().count(), Message::Unreadable as usize + 1);
        assert_eq!(Message::Required.say(&[&"name"]), "name is required");
        assert_eq!(
            Message::TooLong.say(&[&"name", &100usize, &101usize]),
            "name may have at most 100 characters, it has 101"
        );
        assert_eq!(
            Message::OutOfRange.say(&[&"rate", &-5i64, &u64::MAX]),
            "rate must be between -5 and 18446744073709551615"
        );
        assert_eq!(
            Message::Unreadable.say(&[&"a {0} in a part".to_string()]),
            "params could not be read: a {0} in a part"
        );
        assert_eq!(Message::NotAnObject.say(&[]), " must be an object");
    }
}
