//! The building of a call that is not in the table (`client.request`).

use super::build::{Body, Prepared};
use super::encode::{percent_encode, push_query};
use super::target::Target;
use crate::catalog::Method;
use crate::error::Error;
use crate::family::{Family, OrgPlacement};
use crate::placement::scalar_text;
use svc_json::{Json, Obj, ToJson};

/// Builds a call that is not in the table (`client.request`): a path below a family root.
#[cfg(any(test, feature = "serde_json"))]
pub fn build_raw(
    method: Method,
    family: Family,
    path: &str,
    target: &Target,
    query: &serde_json::Map<String, serde_json::Value>,
    body: Option<&serde_json::Value>,
) -> Result<Prepared, Error> {
    let query = serde_json::Value::Object(query.clone());
    let query = svc_json::of_value(&query);
    let empty = Obj::default();
    let query = query.as_object().unwrap_or(&empty);
    let body = body.map(svc_json::of_value);
    build_raw_json(method, family, path, target, query, body.as_ref())
}

/// `build_raw` for a query and body read from JSON text (`json::parse`).
pub fn build_raw_json(
    method: Method,
    family: Family,
    path: &str,
    target: &Target,
    query: &Obj,
    body: Option<&Json>,
) -> Result<Prepared, Error> {
    let mut url = raw_url(family, path, target)?;
    let mut headers = Vec::new();
    let mut first = true;
    match (family.org_placement(), target.organization_id.as_deref()) {
        (OrgPlacement::Query(name), Some(org)) if !query.contains_key(name) => {
            push_query(&mut url, &mut first, name, org)
        }
        (OrgPlacement::Header(name), Some(org)) => {
            headers.push((name.to_string(), org.to_string()))
        }
        _ => {}
    }
    let mut issues = Vec::new();
    for (name, value) in query.iter() {
        match scalar_text(name, value) {
            Ok(text) => push_query(&mut url, &mut first, name, &text),
            Err(e) => issues.push(*e),
        }
    }
    if !issues.is_empty() {
        return Err(Error::validation(issues));
    }
    let body = match body {
        Some(v) if method.has_body() => {
            headers.push(("Content-Type".into(), "application/json".into()));
            Body::Json(v.to_json_text())
        }
        Some(_) => {
            return Err(Error::config(format!(
                "{} requests carry no body",
                method.as_str()
            )))
        }
        None => Body::None,
    };
    headers.push(("Accept".into(), "application/json".into()));
    Ok(Prepared {
        method,
        url,
        headers,
        body,
    })
}

/// The URL of a path below the family root: a path with a query, fragment, white space or a dot
/// segment is a `config` error; what the caller escaped is kept.
fn raw_url(family: Family, path: &str, target: &Target) -> Result<String, Error> {
    if !path.starts_with('/')
        || path.contains(['?', '#'])
        || path.chars().any(|c| c.is_control() || c.is_whitespace())
    {
        return Err(Error::config(format!(
            "path must start with / and carry no query, fragment or white space, got {}",
            crate::echo::quoted(path)
        )));
    }
    // URL parsers read `%2e` as a dot too: `/%2e%2e/` would climb out of the family root.
    let dots = |seg: &str| {
        matches!(
            seg.to_ascii_lowercase().replace("%2e", ".").as_str(),
            "." | ".."
        )
    };
    if path.split('/').any(dots) {
        return Err(Error::config("path may not contain . or .. segments"));
    }
    let mut url = format!("{}{}", target.api_domain, family.root(&target.crm_version));
    for seg in path.split('/').skip(1) {
        url.push('/');
        // Keep what the caller escaped; escape anything else outside unreserved and sub-delims.
        for ch in seg.chars() {
            if ch.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@%".contains(ch) {
                url.push(ch);
            } else {
                let mut buf = [0u8; 4];
                percent_encode(ch.encode_utf8(&mut buf), &mut url);
            }
        }
    }
    Ok(url)
}
