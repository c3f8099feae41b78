//! The edge proxy's planning: which operation a forwarded request is, and its params.

use super::js::{get, to_js_error};
use super::json_to_js;
use crate::catalog::{self, BodyKind};
use crate::error::{Error, ErrorKind};
use crate::request::percent_decode;
use crate::route::{add_text_param, Found, Router};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

thread_local! {
    static ROUTER: Result<Router, String> = Router::new(catalog::OPERATIONS.iter());
}

fn refuse(status: u16, message: String) -> JsValue {
    to_js_error(&Error::new(ErrorKind::Api, message).with_status(status))
}

/// `{ opId, pathParams, params, files? }` for a request the proxy received, or an SvcError
/// whose status (404, 405, 400) the proxy answers with.
#[wasm_bindgen(js_name = __proxyPlan, skip_typescript)]
pub fn proxy_plan(
    method: String,
    path: String,
    query: String,
    headers: JsValue,
    body: JsValue,
) -> Result<JsValue, JsValue> {
    let found = ROUTER.with(|r| match r {
        Ok(router) => Ok(router.find_below_prefix(&method, &path)),
        Err(e) => Err(to_js_error(&Error::config(e.clone()))),
    })?;
    let (op, values) = match found {
        Found::Op(op, values) => (op, values),
        Found::NotFound => {
            return Err(refuse(
                404,
                format!("no operation at {}", crate::error::shorten(&path)),
            ))
        }
        Found::MethodNotAllowed(m) => {
            return Err(refuse(
                405,
                format!("{method} is not allowed here; allowed: {}", m.join(", ")),
            ))
        }
    };
    let mut params = Map::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (Some(k), Some(v)) = (percent_decode(k, true), percent_decode(v, true)) else {
            return Err(refuse(400, "the query is not well encoded".into()));
        };
        let wanted = if op.method.has_body() {
            op.query.contains(&k.as_str())
        } else {
            k != "organization_id"
        };
        if wanted {
            add_text_param(&mut params, op.params, &k, &v);
        }
    }
    for (param, header) in op.headers {
        if let Some(v) = get(&headers, &header.to_ascii_lowercase()).as_string() {
            add_text_param(&mut params, op.params, param, &v);
        }
    }
    if op.body == BodyKind::Json {
        let text = body.as_string().unwrap_or_default();
        if !text.trim().is_empty() {
            match serde_json::from_str::<Value>(&text) {
                Ok(Value::Object(m)) => params.extend(m),
                _ => return Err(refuse(400, "the body must be a JSON object".into())),
            }
        }
    }
    let plan = serde_json::json!({
        "opId": op.id,
        "pathParams": values.into_iter().filter(|(k, _)| k != "version").map(|(_, v)| v).collect::<Vec<_>>(),
        "params": params,
        "files": match op.body {
            BodyKind::Multipart { param, many, .. } => serde_json::json!({ "param": param, "many": many }),
            _ => Value::Null,
        },
    });
    Ok(json_to_js(&plan.to_string()))
}
