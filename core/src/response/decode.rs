//! What a successful answer decodes to, and the decoding of an operation's answer.

use super::shape::decode_shape;
use crate::catalog::Operation;
use crate::error::Error;

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
