//! Params from JS values: checked to be an object, an upload's files split off, read as JSON text
//! and run through the one rule engine (`crate::validate`).

use super::js::{self, get};
use crate::catalog::{BodyKind, Operation};
use crate::issue::{details, Issue, IssueCode, PathSeg};
use crate::json::{self, Json};
use crate::validate::{self, Source};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Params that passed: their JSON text (None when absent) and an upload's files.
pub struct Checked {
    pub text: Option<String>,
    pub files: JsValue,
}

/// Why JS params could not be written as JSON text: what `JSON.stringify` threw, explained.
pub(super) fn unwritable(e: &JsValue) -> Issue {
    let message = super::message_of(e);
    let why = if e.is_instance_of::<js_sys::RangeError>() {
        format!(
            "they are nested too deeply (at most {} levels of nesting)",
            json::MAX_NESTING
        )
    } else if message.to_ascii_lowercase().contains("circular") {
        "they contain a circular reference".into()
    } else {
        message
    };
    unreadable(format!("params could not be read: {why}"))
}

/// An issue at the top of the params.
fn top(code: IssueCode, message: String, d: serde_json::Map<String, serde_json::Value>) -> Issue {
    Issue {
        path: vec![],
        code,
        message,
        details: d,
    }
}

/// The issue of params that could not be read as JSON (a cycle, too deep, a throwing getter).
pub(super) fn unreadable(message: String) -> Issue {
    top(
        IssueCode::InvalidFormat,
        message,
        details([("format", "JSON".into())]),
    )
}

fn not_an_object(op: &Operation) -> Issue {
    top(
        IssueCode::InvalidType,
        format!("params of {} must be an object", op.id),
        details([("expected", "object".into())]),
    )
}

/// The params of `op` as JSON text, at most `max` bytes, files left out; or the issues that stop them.
fn text_of(op: &Operation, params: &JsValue, max: usize) -> Result<Option<String>, Issue> {
    if !js::is_params(params) {
        return Err(not_an_object(op));
    }
    if params.is_undefined() || params.is_null() {
        return Ok(None);
    }
    let params = match op.body {
        BodyKind::Multipart { param, .. } => js::without(params, param),
        _ => params.clone(),
    };
    let wire = js::to_wire(&params).map_err(|e| unwritable(&e))?;
    if wire.length() as usize > max {
        return Err(top(
            IssueCode::TooLong,
            format!("params are more than maxRequestBytes ({max}) as JSON"),
            details([("maximum", max.into())]),
        ));
    }
    String::from_utf8(wire.to_vec())
        .map(Some)
        .map_err(|_| unreadable("params could not be read: they are not Unicode text".into()))
}

/// Every issue of the params of `op` (files aside), with their text when there is none.
pub fn issues(op: &Operation, params: &JsValue, max: usize) -> (Vec<Issue>, Option<String>) {
    let text = match text_of(op, params, max) {
        Ok(text) => text,
        Err(issue) => return (vec![issue], None),
    };
    let value = match text.as_deref().map(json::parse) {
        None => Json::Null,
        Some(Ok(v)) => v,
        Some(Err(e)) => {
            let message = format!(
                "params could not be read: {e} (at most {} levels of nesting)",
                json::MAX_NESTING
            );
            return (vec![unreadable(message)], None);
        }
    };
    let found = validate::check(op, &value, crate::clock::now_ms(), Source::Js);
    (found, text)
}

/// What a call of `op` checks before anything is sent: the params and an upload's files.
pub fn check(op: &Operation, params: &JsValue, max: usize) -> Result<Checked, Vec<Issue>> {
    let (mut found, text) = issues(op, params, max);
    let mut files = JsValue::UNDEFINED;
    if let BodyKind::Multipart {
        param,
        many,
        accept,
        ..
    } = op.body
    {
        if js::is_params(params) {
            let (list, file_issues) = split_files(params, param, many, accept);
            found.extend(file_issues);
            files = list.into();
        }
    }
    if found.is_empty() {
        Ok(Checked { text, files })
    } else {
        Err(found)
    }
}

fn at(param: &str, index: Option<usize>) -> Vec<PathSeg> {
    let mut path = vec![PathSeg::Key(param.to_string().into())];
    path.extend(index.map(PathSeg::Index));
    path
}

/// The files of an upload (`[{ name, blob }]`) out of its params, and the issues of those that are not.
fn split_files(
    params: &JsValue,
    param: &str,
    many: bool,
    accept: &[&str],
) -> (js_sys::Array, Vec<Issue>) {
    let mut found = Vec::new();
    let files = js_sys::Array::new();
    let raw = if params.is_undefined() || params.is_null() {
        JsValue::UNDEFINED
    } else {
        get(params, param)
    };
    let array = raw.dyn_ref::<js_sys::Array>();
    if !many && array.is_some() {
        found.push(Issue {
            path: at(param, None),
            code: IssueCode::InvalidType,
            message: format!("{param} takes one file"),
            details: details([("expected", "file".into())]),
        });
    }
    if raw.is_undefined() || array.is_some_and(|a| a.length() == 0) {
        found.push(Issue {
            path: at(param, None),
            code: IssueCode::Required,
            message: format!("{param} needs at least one file"),
            details: Default::default(),
        });
    }
    let list: Vec<JsValue> = match array {
        Some(a) if many => a.iter().collect(),
        Some(_) => vec![],
        None if raw.is_undefined() => vec![],
        None => vec![raw.clone()],
    };
    for (i, f) in list.iter().enumerate() {
        let index = many.then_some(i);
        let file = js::file_of(f);
        if file.is_null() {
            found.push(Issue {
                path: at(param, index),
                code: IssueCode::InvalidType,
                message: "a file must be a Blob, a File or { name, data }".into(),
                details: details([("expected", "file".into())]),
            });
            continue;
        }
        let name = get(&file, "name").as_string().unwrap_or_default();
        if name.is_empty() {
            let mut path = at(param, index);
            path.push(PathSeg::Key("name".into()));
            found.push(Issue {
                path,
                code: IssueCode::Required,
                message: "the file needs a name with its extension".into(),
                details: Default::default(),
            });
            continue;
        }
        found.extend(validate::file_type_issue(param, index, &name, accept));
        files.push(&file);
    }
    (files, found)
}
