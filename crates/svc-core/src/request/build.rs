//! What a call sends, and its building from a row of the table and its params.

use super::encode::{encode_segment, push_query};
use super::target::Target;
use crate::catalog::{BodyKind, Method, Operation};
use crate::error::Error;
use crate::family::OrgPlacement;
use crate::issue::{Issue, Problem};
use crate::placement::{in_query, issue, scalar_text, wire_issues};
use serde::Serialize;
use svc_json::{Json, Obj, ToJson};

/// What is sent, short of the Authorization header.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Prepared {
    pub method: Method,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Body,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Body {
    None,
    /// JSON text.
    Json(String),
    /// multipart/form-data: the files go under `field`; the transport adds their bytes.
    Multipart {
        field: &'static str,
    },
}

/// Builds the request of an operation. `params` has already passed validation;
/// the checks here are those that keep the request well-formed whatever it holds.
#[cfg(any(test, feature = "serde_json"))]
pub fn build(
    op: &Operation,
    target: &Target,
    path_params: &[&str],
    params: &serde_json::Value,
) -> Result<Prepared, Error> {
    build_json(op, target, path_params, &svc_json::of_value(params))
}

/// `build` for params read from JSON text (`json::parse`).
pub fn build_json(
    op: &Operation,
    target: &Target,
    path_params: &[&str],
    params: &Json,
) -> Result<Prepared, Error> {
    let empty = Obj::default();
    let params = params_object(params, &empty)?;
    let mut issues = path_issues(op, path_params)?;
    let mut url = path_url(op, target, path_params);
    let mut headers: Vec<(String, String)> = Vec::new();
    let mut first = true;
    if op.org {
        place_organization(op, target, &mut url, &mut first, &mut headers)?;
    }
    issues.extend(wire_issues(op, params));
    for (name, value) in params.iter().filter(|(n, v)| in_query(op, n, v)) {
        let items = match value {
            Json::Arr(items) => items.as_slice(),
            one => std::slice::from_ref(one),
        };
        for text in items.iter().filter_map(|v| scalar_text(name, v).ok()) {
            push_query(&mut url, &mut first, name, &text);
        }
    }
    for (param, header) in op.headers {
        if let Some(text) = params.get(param).and_then(|v| scalar_text(param, v).ok()) {
            headers.push((header.to_string(), text));
        }
    }
    if !issues.is_empty() {
        return Err(Error::validation(issues).with_operation(op.id));
    }
    let body = body_of(op, params, &mut headers);
    headers.push(("Accept".into(), "application/json".into()));
    Ok(Prepared {
        method: op.method,
        url,
        headers,
        body,
    })
}

/// The params as an object (`null` is none), or the issue of params of another type.
fn params_object<'p, 'a>(params: &'p Json<'a>, empty: &'p Obj<'a>) -> Result<&'p Obj<'a>, Error> {
    match params {
        Json::Null => Ok(empty),
        Json::Obj(m) => Ok(m),
        other => Err(Error::validation(vec![Issue {
            path: vec![],
            message: format!(
                "params must be an object, got {}",
                crate::validate::type_name(other)
            ),
            problem: Problem::InvalidType {
                expected: "object".into(),
            },
        }])),
    }
}

/// The issues of the path parameters (blank, or a dot segment), or the error of a wrong count.
fn path_issues(op: &Operation, path_params: &[&str]) -> Result<Vec<Issue>, Error> {
    let expected: Vec<&str> = op.path_params().collect();
    if expected.len() != path_params.len() {
        return Err(Error::config(format!(
            "{} takes {} path parameter(s) ({}), got {}",
            op.id,
            expected.len(),
            expected.join(", "),
            path_params.len()
        )));
    }
    let mut issues = Vec::new();
    for (name, value) in expected.iter().zip(path_params) {
        if value.is_empty() {
            issues.push(issue(
                name,
                format!("path parameter {name} is required"),
                Problem::Required {},
            ));
        } else if *value == "." || *value == ".." {
            issues.push(issue(
                name,
                format!("path parameter {name} cannot be \"{value}\": it would change the path"),
                Problem::InvalidFormat {
                    format: "path segment".into(),
                    allowed: None,
                },
            ));
        }
    }
    Ok(issues)
}

/// The URL of the row's path, its parameters encoded in their places.
fn path_url(op: &Operation, target: &Target, path_params: &[&str]) -> String {
    let mut url = String::with_capacity(128);
    url.push_str(&target.api_domain);
    url.push_str(&op.family.root(&target.crm_version));
    let mut values = path_params.iter();
    for seg in op.path.split('/').skip(1) {
        url.push('/');
        if seg.starts_with('{') {
            encode_segment(values.next().copied().unwrap_or_default(), &mut url);
        } else {
            url.push_str(seg);
        }
    }
    url
}

/// The organization where its family places it (query or header); a missing one is a `config`
/// error unless a proxy adds it.
fn place_organization(
    op: &Operation,
    target: &Target,
    url: &mut String,
    first: &mut bool,
    headers: &mut Vec<(String, String)>,
) -> Result<(), Error> {
    match (op.family.org_placement(), target.organization_id.as_deref()) {
        (OrgPlacement::None, _) => {}
        (_, None) if target.via_proxy => {}
        (_, None) => {
            return Err(Error::config(format!(
                "organizationId is required for {} operations such as {}",
                op.family.name(),
                op.id
            )))
        }
        (OrgPlacement::Query(name), Some(org)) => push_query(url, first, name, org),
        (OrgPlacement::Header(name), Some(org)) => {
            headers.push((name.to_string(), org.to_string()))
        }
    }
    Ok(())
}

/// The body of the row's kind: the params not sent in the query or a header, as JSON.
fn body_of(op: &Operation, params: &Obj, headers: &mut Vec<(String, String)>) -> Body {
    match op.body {
        BodyKind::Query => Body::None,
        BodyKind::Multipart { field, .. } => Body::Multipart { field },
        BodyKind::Json => {
            let moved = |k: &str| op.query.contains(&k) || op.headers.iter().any(|(p, _)| *p == k);
            let text = if params.keys().any(moved) {
                params.without(moved).to_json_text()
            } else {
                params.to_json_text()
            };
            headers.push(("Content-Type".into(), "application/json".into()));
            Body::Json(text)
        }
    }
}
