//! What a handler receives and answers: the call and the reply in the row's response shape.

use crate::error::ApiError;
use crate::multipart::Part;
use crate::record::Record;
use crate::record::Value;
use crate::store::Store;
use svc_core::catalog::{Operation, Shape};

/// One call as a handler sees it: the operation, the organization, path values, params and files.
pub struct Req<'a> {
    pub op: &'static Operation,
    /// The organization the call addresses; empty for calls without one.
    pub org: &'a str,
    pub path: &'a [(String, String)],
    pub params: &'a Record,
    pub files: &'a [Part],
    pub now_ms: i64,
    /// `http://127.0.0.1:PORT`, for URLs in responses.
    pub base: &'a str,
    /// The organizations the caller reaches (what listOrganizations lists).
    pub reach: &'a crate::accounts::Reach,
}

impl Req<'_> {
    /// The value of a path parameter (empty when the route has none of that name).
    pub fn path(&self, name: &str) -> &str {
        self.path
            .iter()
            .find(|(k, _)| k == name)
            .map_or("", |(_, v)| v.as_str())
    }

    pub fn text(&self, name: &str) -> Option<&str> {
        self.params.get(name).and_then(Value::as_str)
    }
}

pub type Handler = fn(&mut Store, &Req) -> Result<Reply, ApiError>;

/// The resource part of a successful answer.
#[derive(Debug)]
pub enum Body {
    Record(Value),
    Page {
        items: Vec<Value>,
        context: Record,
    },
    Nothing,
    File {
        content_type: String,
        name: String,
        bytes: Vec<u8>,
    },
}

#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub message: String,
    pub body: Body,
    /// Members added next to the resource key.
    pub extra: Record,
}

impl Reply {
    fn new(status: u16, message: impl Into<String>, body: Body) -> Reply {
        Reply {
            status,
            message: message.into(),
            body,
            extra: Record::new(),
        }
    }

    pub fn ok(message: impl Into<String>, record: impl Into<Value>) -> Reply {
        Reply::new(200, message, Body::Record(record.into()))
    }

    pub fn created(message: impl Into<String>, record: impl Into<Value>) -> Reply {
        Reply::new(201, message, Body::Record(record.into()))
    }

    pub fn done(message: impl Into<String>) -> Reply {
        Reply::new(200, message, Body::Nothing)
    }

    pub fn page(items: Vec<Value>, context: Record) -> Reply {
        Reply::new(200, "success", Body::Page { items, context })
    }

    pub fn file(content_type: &str, name: &str, bytes: Vec<u8>) -> Reply {
        let body = Body::File {
            content_type: content_type.into(),
            name: name.into(),
            bytes,
        };
        Reply::new(200, "success", body)
    }

    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Reply {
        self.extra.insert(key.to_string().into(), value.into());
        self
    }

    /// The JSON answer in the operation's documented shape, or bytes for `Binary`.
    pub fn shape(self, shape: Shape) -> Result<Shaped, String> {
        let mut env = Record::new();
        env.insert("code".into(), 0.into());
        env.insert("message".into(), self.message.into());
        match (shape, self.body) {
            (Shape::Key(keys) | Shape::KeyArray(keys), Body::Record(v)) => {
                env.insert(keys[0].into(), v);
            }
            (Shape::KeyOrOneElementArray(key), Body::Record(v)) => {
                let v = if v.is_array() { v } else { Value::Arr(vec![v]) };
                env.insert(key.into(), v);
            }
            (Shape::TopLevel, Body::Record(Value::Obj(fields))) => {
                env.extend(
                    fields
                        .into_iter()
                        .filter(|(k, _)| k != "code" && k != "message"),
                );
            }
            (Shape::List(key), Body::Page { items, context }) => {
                env.insert(key.into(), Value::Arr(items));
                env.insert("page_context".into(), Value::Obj(context));
            }
            (Shape::Empty, Body::Nothing) => {}
            (
                Shape::Binary,
                Body::File {
                    content_type,
                    name,
                    bytes,
                },
            ) => {
                return Ok(Shaped::File {
                    content_type,
                    name,
                    bytes,
                });
            }
            (shape, body) => return Err(format!("a {body:?} cannot be answered as {shape:?}")),
        }
        env.extend(self.extra);
        Ok(Shaped::Json(self.status, Value::Obj(env)))
    }
}

pub enum Shaped {
    Json(u16, Value),
    File {
        content_type: String,
        name: String,
        bytes: Vec<u8>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use svc_json::json;

    fn json_of(shaped: Shaped) -> Value {
        match shaped {
            Shaped::Json(_, v) => v,
            Shaped::File { .. } => panic!("a file"),
        }
    }

    #[test]
    fn each_shape_wraps_the_resource_as_documented() {
        let rec = json!({"id": "1", "code": "x"});
        let v = json_of(
            Reply::ok("m", rec.clone())
                .shape(Shape::Key(&["plan"]))
                .unwrap(),
        );
        assert_eq!(v, json!({"code": 0, "message": "m", "plan": rec}));
        let v = json_of(
            Reply::ok("m", rec.clone())
                .shape(Shape::KeyOrOneElementArray("package"))
                .unwrap(),
        );
        assert_eq!(v["package"], json!([rec]));
        let v = json_of(Reply::ok("m", rec.clone()).shape(Shape::TopLevel).unwrap());
        assert_eq!(v, json!({"code": 0, "message": "m", "id": "1"}));
        let v = json_of(
            Reply::page(vec![rec.clone()], Record::new())
                .shape(Shape::List("packagea"))
                .unwrap(),
        );
        assert_eq!(v["packagea"], json!([rec]));
        assert_eq!(v["page_context"], json!({}));
        let v = json_of(Reply::done("gone").shape(Shape::Empty).unwrap());
        assert_eq!(v, json!({"code": 0, "message": "gone"}));
        assert!(matches!(
            Reply::file("application/pdf", "r.pdf", vec![1]).shape(Shape::Binary),
            Ok(Shaped::File { .. })
        ));
        assert!(Reply::done("x").shape(Shape::List("a")).is_err());
    }
}
