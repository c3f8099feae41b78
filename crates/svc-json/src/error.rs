//! Why JSON text could not be read, and where: serde_json's words, with its line and column.

use std::fmt;

/// Why JSON text could not be read, and where (serde_json's words and line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub(crate) code: Code,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Code {
    EofList,
    EofObject,
    EofString,
    EofValue,
    ExpectedColon,
    ExpectedListCommaOrEnd,
    ExpectedObjectCommaOrEnd,
    ExpectedIdent,
    ExpectedValue,
    InvalidEscape,
    InvalidNumber,
    NumberOutOfRange,
    ControlCharacter,
    KeyMustBeAString,
    LoneLeadingSurrogate,
    TrailingComma,
    TrailingCharacters,
    UnexpectedEndOfHexEscape,
    RecursionLimitExceeded,
    ExpectedObject,
    /// A key the sink refused (`read::Sink::key`): the sink words why (`Error::message_as`).
    Refused,
}

impl Code {
    fn words(self) -> &'static str {
        match self {
            Code::EofList => "EOF while parsing a list",
            Code::EofObject => "EOF while parsing an object",
            Code::EofString => "EOF while parsing a string",
            Code::EofValue => "EOF while parsing a value",
            Code::ExpectedColon => "expected `:`",
            Code::ExpectedListCommaOrEnd => "expected `,` or `]`",
            Code::ExpectedObjectCommaOrEnd => "expected `,` or `}`",
            Code::ExpectedIdent => "expected ident",
            Code::ExpectedValue => "expected value",
            Code::InvalidEscape => "invalid escape",
            Code::InvalidNumber => "invalid number",
            Code::NumberOutOfRange => "number out of range",
            Code::ControlCharacter => {
                "control character (\\u0000-\\u001F) found while parsing a string"
            }
            Code::KeyMustBeAString => "key must be a string",
            Code::LoneLeadingSurrogate => "lone leading surrogate in hex escape",
            Code::TrailingComma => "trailing comma",
            Code::TrailingCharacters => "trailing characters",
            Code::UnexpectedEndOfHexEscape => "unexpected end of hex escape",
            Code::RecursionLimitExceeded => "recursion limit exceeded",
            Code::ExpectedObject => "expected a JSON object",
            Code::Refused => "a key refused",
        }
    }
}

impl Error {
    /// The message as serde_json writes it: `expected value at line 1 column 5`.
    pub fn message(&self) -> String {
        self.message_as(self.code.words())
    }

    /// Whether a sink refused a key (`read::Sink::key`), which the caller words (`message_as`).
    pub fn is_refused(&self) -> bool {
        self.code == Code::Refused
    }

    /// The message with `words` in place of the reader's: `<words> at line 1 column 5`.
    pub fn message_as(&self, words: &str) -> String {
        let mut out = String::from(words);
        out.push_str(" at line ");
        out.push_str(&self.line.to_string());
        out.push_str(" column ");
        out.push_str(&self.column.to_string());
        out
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for Error {}
