//! What a call checks before anything is sent: its params (`params::issues`) and an upload's files,
//! split off the params.

use super::js::{self, get};
use super::params;
use svc_core::catalog::{BodyKind, Operation};
use svc_core::issue::{Issue, PathSeg, Problem};
use svc_core::validate::{self, Source};
use svc_json::Json;
use wasm_bindgen::prelude::*;

/// Params that passed, read once: the value checked, which is the value sent (`Json::Null` when
/// there are none), and an upload's files.
pub struct Checked<'t> {
    pub value: Json<'t>,
    pub files: JsValue,
}

/// What a call of `op` checks before anything is sent: the params, read once from their text, and
/// an upload's files; `then` is given them when they pass.
pub fn check<R>(
    op: &Operation,
    params: &JsValue,
    max: usize,
    then: impl FnOnce(Checked<'_>) -> R,
) -> Result<R, Vec<Issue>> {
    let text = params::text_of(op, params, max).map_err(|issue| vec![issue])?;
    let value = match text.as_deref() {
        Some(text) => params::read(text, Source::Js).map_err(|issue| vec![issue])?,
        None => Json::Null,
    };
    let mut found = validate::check(op, &value, svc_core::clock::now_ms(), Source::Js);
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
    match found.is_empty() {
        true => Ok(then(Checked { value, files })),
        false => Err(found),
    }
}

/// What a proxied call checks: params that arrived as JSON text, read once exact as the sender
/// wrote them; `then` is given them when they pass.
#[cfg(feature = "server")]
pub fn check_text<R>(
    op: &Operation,
    text: &str,
    max: usize,
    then: impl FnOnce(Checked<'_>) -> R,
) -> Result<R, Vec<Issue>> {
    if text.len() > max {
        return Err(params::issues_of_text(op, text, max));
    }
    let value = params::read(text, Source::Json).map_err(|issue| vec![issue])?;
    let found = validate::check(op, &value, svc_core::clock::now_ms(), Source::Json);
    match found.is_empty() {
        true => Ok(then(Checked {
            value,
            files: JsValue::UNDEFINED,
        })),
        false => Err(found),
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
    accept: &'static [&'static str],
) -> (js_sys::Array, Vec<Issue>) {
    let mut found = Vec::new();
    let files = js_sys::Array::new();
    let raw = if params.is_undefined() || params.is_null() {
        JsValue::UNDEFINED
    } else {
        get(params, param)
    };
    let array = js::is_array(&raw).then(|| {
        js::members(&raw).unwrap_or_else(|_| {
            found.push(Issue {
                path: at(param, None),
                message: format!("{param} could not be read: reading its members threw"),
                problem: Problem::InvalidType {
                    expected: "array".into(),
                },
            });
            js_sys::Array::new()
        })
    });
    let array = array.as_ref();
    if !many && array.is_some() {
        found.push(Issue {
            path: at(param, None),
            message: format!("{param} takes one file"),
            problem: Problem::InvalidType {
                expected: "file".into(),
            },
        });
    }
    if raw.is_undefined() || array.is_some_and(|a| a.length() == 0) {
        found.push(Issue {
            path: at(param, None),
            message: format!("{param} needs at least one file"),
            problem: Problem::Required {},
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
                message: "a file must be a Blob, a File or { name, data }".into(),
                problem: Problem::InvalidType {
                    expected: "file".into(),
                },
            });
            continue;
        }
        let name = get(&file, "name").as_string().unwrap_or_default();
        if name.is_empty() {
            let mut path = at(param, index);
            path.push(PathSeg::Key("name".into()));
            found.push(Issue {
                path,
                message: "the file needs a name with its extension".into(),
                problem: Problem::Required {},
            });
            continue;
        }
        found.extend(validate::file_type_issue(param, index, &name, accept));
        files.push(&file);
    }
    (files, found)
}
