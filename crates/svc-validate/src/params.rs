//! Params from JS values: checked to be an object, an upload's files left out, read as JSON text
//! and run through the one rule engine (`svc_core::validate`).

use crate::js;
use svc_core::catalog::{BodyKind, Operation};
use svc_core::error::Error;
use svc_core::issue::{Issue, PathSeg, Problem};
use svc_core::message::Message;
use svc_core::validate::{self, Source};
use svc_json::Json;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A path value of a call of `op` as a call takes it: a string of Unicode text of at most `max`
/// units, never copied into the core when longer, or another value an id field of a body takes (a
/// BigInt, a number a double holds exactly); else the SvcError of why not (`usage`: how to call).
pub fn path_value(
    op: &Operation,
    name: &'static str,
    arg: &JsValue,
    max: usize,
    usage: &dyn Fn() -> String,
) -> Result<String, JsValue> {
    let refused = |message: String, problem: Problem| {
        let issue = Issue {
            path: vec![PathSeg::Key(name.to_string().into())],
            message,
            problem,
        };
        js::to_js_error(&Error::validation(vec![issue]).with_operation(op.id))
    };
    let config = |message: String| js::to_js_error(&Error::config(message).with_operation(op.id));
    match arg.dyn_ref::<js_sys::JsString>() {
        Some(s) if s.length() as usize > max => Err(refused(
            Message::ArgTooLarge.say(&[&name, &max]),
            Problem::TooLong { maximum: max },
        )),
        Some(s) => js::unicode_text(s, name).map_err(|message| {
            let format = "Unicode text".into();
            refused(
                message,
                Problem::InvalidFormat {
                    format,
                    allowed: None,
                },
            )
        }),
        None if arg.is_undefined() => Err(config(format!("{name} is missing: call {}", usage()))),
        None => {
            let text = js::to_wire(arg).map(String::from).map_err(|e| {
                refused(
                    unwritable(&e).message,
                    Problem::InvalidType {
                        expected: "id (string or integer)".into(),
                    },
                )
            })?;
            validate::path::path_id(name, &text)
                .map_err(|issues| js::to_js_error(&Error::validation(issues).with_operation(op.id)))
        }
    }
}

/// Why JS params could not be written as JSON text: what `JSON.stringify` threw, explained.
pub fn unwritable(e: &JsValue) -> Issue {
    let message = crate::message_of(e);
    let why = if e.is_instance_of::<js_sys::RangeError>() {
        format!(
            "they are nested too deeply (at most {} levels of nesting)",
            svc_json::MAX_NESTING
        )
    } else if message.to_ascii_lowercase().contains("circular") {
        "they contain a circular reference".into()
    } else {
        message
    };
    unreadable(Message::Unreadable.say(&[&why]))
}

/// An issue at the top of the params.
fn top(message: String, problem: Problem) -> Issue {
    Issue::new(vec![], message, problem)
}

/// The issue of params that could not be read as JSON (a cycle, too deep, a throwing getter).
pub fn unreadable(message: String) -> Issue {
    top(
        message,
        Problem::InvalidFormat {
            format: "JSON".into(),
            allowed: None,
        },
    )
}

fn not_an_object(op: &Operation) -> Issue {
    top(
        Message::NotAnObject.say(&[&["params of ", op.id].concat()]),
        Problem::InvalidType {
            expected: "object".into(),
        },
    )
}

/// The params of `op` as JSON text, at most `max` bytes, files left out; or the issues that stop them.
pub fn text_of(op: &Operation, params: &JsValue, max: usize) -> Result<Option<String>, Issue> {
    if params.is_undefined() || params.is_null() {
        return Ok(None);
    }
    if !js::is_object_params(params) {
        return Err(not_an_object(op));
    }
    let params = match op.body {
        BodyKind::Multipart { param, .. } => js::without(params, param),
        _ => params.clone(),
    };
    let wire = js::to_wire(&params).map_err(|e| unwritable(&e))?;
    js::text_within(&wire, max)
        .map(Some)
        .ok_or_else(|| too_large(max))
}

/// The issue of params whose JSON text is longer than `max` bytes.
fn too_large(max: usize) -> Issue {
    top(
        Message::ParamsTooLarge.say(&[&max]),
        Problem::TooLong { maximum: max },
    )
}

/// Params' JSON text read once into the value that is checked and sent: as JS wrote it
/// (`Source::Js`, its exact-number markers read as numbers), or as a sender wrote it (`Source::Json`).
pub fn read(text: &str, source: Source) -> Result<Json<'_>, Issue> {
    let read = match source {
        Source::Js => svc_core::exact::read(text),
        Source::Json => svc_json::parse(text),
    };
    read.map_err(|e| {
        let why = match source {
            Source::Js => format!(
                "{} (at most {} levels of nesting)",
                e.message(),
                svc_json::MAX_NESTING
            ),
            Source::Json => e.to_string(),
        };
        unreadable(Message::Unreadable.say(&[&why]))
    })
}

/// Every issue of params that arrived as JSON text (a proxied body, exact as its sender wrote it).
pub fn issues_of_text(op: &Operation, text: &str, max: usize) -> Vec<Issue> {
    if text.len() > max {
        return vec![too_large(max)];
    }
    match read(text, Source::Json) {
        Ok(value) => validate::check(op, &value, svc_core::clock::now_ms(), Source::Json),
        Err(issue) => vec![issue],
    }
}

/// Every issue of the params of `op` (files aside).
pub fn issues(op: &Operation, params: &JsValue, max: usize) -> Vec<Issue> {
    let text = match text_of(op, params, max) {
        Ok(text) => text,
        Err(issue) => return vec![issue],
    };
    let value = match text.as_deref().map(|t| read(t, Source::Js)) {
        None => Json::Null,
        Some(Ok(v)) => v,
        Some(Err(issue)) => return vec![issue],
    };
    validate::check(op, &value, svc_core::clock::now_ms(), Source::Js)
}
