//! A number that the service also sends as text.

use crate::model::common::{JsonInteger, JsonNumber};
use serde::{Deserialize, Serialize};
use tsify::Tsify;

/// A number that the service also sends as text (hours in `hh:mm` form, an empty budget).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(untagged)]
#[tsify(type = "number | string")]
pub enum NumberOrText {
    Int(JsonInteger),
    Float(JsonNumber),
    Text(String),
}

impl crate::schema::Shape for NumberOrText {
    const KIND: crate::schema::Kind = crate::schema::Kind::StrOrNum;
}
