//! The edge proxy's planning, bound for JS: `crate::proxy::plan` on the request's JsValues.

use super::js::{get, to_js_error};
use super::json_to_js;
use crate::catalog::BodyKind;
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// What the proxy's JS half needs of a plan.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Plan<'a> {
    op_id: &'static str,
    path_params: &'a [String],
    params: &'a serde_json::Map<String, Value>,
    files: Option<Files>,
}

/// Where an upload's files go among the params.
#[derive(serde::Serialize)]
struct Files {
    param: &'static str,
    many: bool,
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
    let body = body.as_string();
    let plan = crate::proxy::plan(
        &method,
        &path,
        &query,
        |name| get(&headers, name).as_string(),
        body.as_deref(),
    )
    .map_err(|e| to_js_error(&e))?;
    let files = match plan.op.body {
        BodyKind::Multipart { param, many, .. } => Some(Files { param, many }),
        _ => None,
    };
    let plan = Plan {
        op_id: plan.op.id,
        path_params: &plan.path_params,
        params: &plan.params,
        files,
    };
    let plan = serde_json::to_string(&plan).unwrap_or_default();
    Ok(json_to_js(&plan))
}

/// A proxied body's redaction as it streams (`crate::redact::Redactor`), for `runtime.js`'s stream.
#[wasm_bindgen(js_name = __Redactor, skip_typescript)]
pub struct Redactor(crate::redact::Redactor);

#[wasm_bindgen(js_class = __Redactor)]
impl Redactor {
    #[wasm_bindgen(constructor)]
    pub fn new(secret: &str) -> Redactor {
        Redactor(crate::redact::Redactor::new(secret))
    }

    /// The bytes that are sure, the secret redacted; the tail a match may go on in is held back.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<u8> {
        self.0.push(chunk)
    }

    /// What is left at the end of the body.
    pub fn finish(&mut self) -> Vec<u8> {
        self.0.finish()
    }
}

/// A header's value with every spelling of `secret` redacted.
#[wasm_bindgen(js_name = __redactText, skip_typescript)]
pub fn redact_text(value: &str, secret: &str) -> String {
    crate::redact::text(value, secret)
}
