//! Pure request construction: method, URL, headers and body of a call, with no I/O.

use crate::catalog::{BodyKind, Method, Operation};
use crate::error::Error;
use crate::family::{normalize_api_domain, region_domain, Family, OrgPlacement};
use crate::issue::{Issue, Problem};
use crate::json::{self, Json, Obj, ToJson};
use crate::placement::{in_query, issue, scalar_text, wire_issues};
use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde::Serialize;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Where calls go: the API domain, the organization and the CRM version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub api_domain: String,
    pub organization_id: Option<String>,
    pub crm_version: String,
    /// Calls go to a proxy that adds the token and the organization (a browser client).
    pub via_proxy: bool,
}

impl Target {
    /// From the client options: `apiDomain` wins over `region` (default "us").
    pub fn new(
        region: Option<&str>,
        api_domain: Option<&str>,
        organization_id: Option<&str>,
        crm_version: Option<&str>,
    ) -> Result<Target, Error> {
        let api_domain = match api_domain {
            Some(d) => normalize_api_domain(d)?,
            None => region_domain(region.unwrap_or("us"))?.to_string(),
        };
        if let Some(org) = organization_id {
            if org.is_empty() || org.chars().any(char::is_control) {
                return Err(Error::config(
                    "organizationId must be a non-empty string without control characters",
                ));
            }
        }
        let crm_version = crm_version.unwrap_or("v8");
        if crm_version.is_empty() || !crm_version.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(Error::config(format!(
                "crmVersion must be letters and digits such as \"v8\", got {}",
                crate::echo::quoted(crm_version)
            )));
        }
        Ok(Target {
            api_domain,
            organization_id: organization_id.map(str::to_string),
            crm_version: crm_version.to_string(),
            via_proxy: false,
        })
    }
}

/// The host (and port) of a URL the core built (`https://host/...`), for messages.
pub fn host_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest.split(['/', '?', '#']).next().unwrap_or(rest)
}

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

/// Every byte but those RFC 3986 leaves unreserved in a path segment or query value.
const ESCAPED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

pub fn percent_encode(s: &str, out: &mut String) {
    out.extend(utf8_percent_encode(s, ESCAPED));
}

/// Decodes `%XX` escapes (and `+` as a space in query text); `None` when malformed or not UTF-8.
pub fn percent_decode(s: &str, plus_is_space: bool) -> Option<String> {
    let well_formed = s.split('%').skip(1).all(|after| {
        after
            .as_bytes()
            .get(..2)
            .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
    });
    if !well_formed {
        return None;
    }
    let spaced;
    let s = if plus_is_space && s.contains('+') {
        spaced = s.replace('+', " ");
        &spaced
    } else {
        s
    };
    percent_decode_str(s)
        .decode_utf8()
        .ok()
        .map(Cow::into_owned)
}

/// The pairs of a query string, decoded (`+` is a space); `None` when one is malformed.
pub fn parse_query(q: &str) -> Option<Vec<(String, String)>> {
    q.split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            Some((percent_decode(k, true)?, percent_decode(v, true)?))
        })
        .collect()
}

/// Encodes one path segment. `.` and `..` are refused before this: URL parsers treat them,
/// and their percent-encoded forms, as dot segments that climb the path.
pub fn encode_segment(s: &str, out: &mut String) {
    percent_encode(s, out);
}

fn push_query(url: &mut String, first: &mut bool, key: &str, value: &str) {
    url.push(if *first { '?' } else { '&' });
    *first = false;
    percent_encode(key, url);
    url.push('=');
    percent_encode(value, url);
}

/// Builds the request of an operation. `params` has already passed validation;
/// the checks here are those that keep the request well-formed whatever it holds.
pub fn build(
    op: &Operation,
    target: &Target,
    path_params: &[&str],
    params: &Value,
) -> Result<Prepared, Error> {
    build_json(op, target, path_params, &json::of_value(params))
}

/// `build` for params read from JSON text (`json::parse`).
pub fn build_json(
    op: &Operation,
    target: &Target,
    path_params: &[&str],
    params: &Json,
) -> Result<Prepared, Error> {
    let empty = Obj::default();
    let params = match params {
        Json::Null => &empty,
        Json::Obj(m) => m,
        other => {
            return Err(Error::validation(vec![Issue {
                path: vec![],
                message: format!(
                    "params must be an object, got {}",
                    crate::validate::type_name(other)
                ),
                problem: Problem::InvalidType {
                    expected: "object".into(),
                },
            }]))
        }
    };
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

    let mut headers: Vec<(String, String)> = Vec::new();
    let mut first = true;
    if op.org {
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
            (OrgPlacement::Query(name), Some(org)) => push_query(&mut url, &mut first, name, org),
            (OrgPlacement::Header(name), Some(org)) => {
                headers.push((name.to_string(), org.to_string()))
            }
        }
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

    let body = match op.body {
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
    };
    headers.push(("Accept".into(), "application/json".into()));
    Ok(Prepared {
        method: op.method,
        url,
        headers,
        body,
    })
}

/// Builds a call that is not in the table (`client.request`): a path below a family root.
pub fn build_raw(
    method: Method,
    family: Family,
    path: &str,
    target: &Target,
    query: &Map<String, Value>,
    body: Option<&Value>,
) -> Result<Prepared, Error> {
    let query = Value::Object(query.clone());
    let query = json::of_value(&query);
    let empty = Obj::default();
    let query = query.as_object().unwrap_or(&empty);
    let body = body.map(json::of_value);
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

/// The Authorization header value for a token; refuses tokens that a header cannot carry as they are.
pub fn authorization(token: &str) -> Result<String, Error> {
    let refuse = |why: &str| Err(Error::config(format!("the access token {why}")));
    if token.is_empty() {
        return refuse("is empty");
    }
    if token.chars().any(|c| c.is_control()) {
        return refuse("contains control characters (such as a line break) and cannot be sent");
    }
    if !token.bytes().all(|b| b.is_ascii_graphic()) {
        return refuse(
            "may hold only visible ASCII characters (no spaces, no accents or other Unicode): \
             an HTTP header cannot carry it as it is",
        );
    }
    let n = token.len();
    let length = match n {
        1 => "1 character long".to_string(),
        n => format!("{n} characters long"),
    };
    if n < TOKEN_MIN {
        return refuse(&format!(
            "is {length}, too short to be a token the service issued (one has at least {TOKEN_MIN}): \
             is it a placeholder?"
        ));
    }
    if n > TOKEN_MAX {
        return refuse(&format!(
            "is {length}, more than the {TOKEN_MAX} a request header can carry to the service"
        ));
    }
    Ok(format!("{AUTHORIZATION_SCHEME} {token}"))
}

/// The fewest characters of an access token: a shorter one is no token the service issued, and
/// its redaction would cut its letters out of every message.
pub const TOKEN_MIN: usize = 8;
/// The most characters of an access token: a longer one is more than a service reads in a header.
pub const TOKEN_MAX: usize = 16_384;

/// The headers a call adds (`headers` of its options), checked: a header name, a value a header
/// can carry as it is, and none of the headers the client sets for its token and organization.
pub fn extra_headers(headers: &[(String, String)]) -> Result<(), Error> {
    let own = |name: &str| {
        name.eq_ignore_ascii_case("authorization")
            || Family::ALL.iter().any(|f| match f.org_placement() {
                OrgPlacement::Header(h) => name.eq_ignore_ascii_case(h),
                _ => false,
            })
    };
    let refuse = |name: &str, why: &str| {
        Err(Error::config(format!(
            "headers: {} {why}",
            crate::echo::quoted(name)
        )))
    };
    for (name, value) in headers {
        let tchar = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
        if name.is_empty() || !name.bytes().all(tchar) {
            return refuse(name, "is not a header name");
        }
        if own(name) {
            return refuse(
                name,
                "is set by the client (from accessToken and organizationId) and cannot be given per call",
            );
        }
        if forbidden(name, value) {
            return refuse(
                name,
                "is a header that fetch does not let a program set (a forbidden request header of the \
                 Fetch standard): one runtime refuses it, another drops it, so the call was not sent",
            );
        }
        if !value
            .bytes()
            .all(|b| b == b'\t' || (b' '..=b'~').contains(&b))
        {
            return refuse(
                name,
                "may hold only printable ASCII characters (no line breaks, no accents or other Unicode)",
            );
        }
    }
    Ok(())
}

/// The request headers of the Fetch standard that a program may not set (browsers drop them, Node's
/// fetch refuses some and drops others), the `proxy-` and `sec-` names, and the method-override
/// headers naming a method fetch refuses.
fn forbidden(name: &str, value: &str) -> bool {
    const NAMES: [&str; 21] = [
        "accept-charset",
        "accept-encoding",
        "access-control-request-headers",
        "access-control-request-method",
        "connection",
        "content-length",
        "cookie",
        "cookie2",
        "date",
        "dnt",
        "expect",
        "host",
        "keep-alive",
        "origin",
        "referer",
        "set-cookie",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "via",
    ];
    let lower = name.to_ascii_lowercase();
    let overrides = [
        "x-http-method",
        "x-http-method-override",
        "x-method-override",
    ];
    NAMES.contains(&lower.as_str())
        || lower.starts_with("proxy-")
        || lower.starts_with("sec-")
        || overrides.contains(&lower.as_str())
            && value.split(',').any(|m| {
                let m = m.trim();
                ["CONNECT", "TRACE", "TRACK"]
                    .iter()
                    .any(|f| m.eq_ignore_ascii_case(f))
            })
}

/// `extra` over `headers`: a name given in both keeps the extra value.
pub fn merge_headers(headers: &mut Vec<(String, String)>, extra: &[(String, String)]) {
    for (name, value) in extra {
        headers.retain(|(k, _)| !k.eq_ignore_ascii_case(name));
        headers.push((name.clone(), value.clone()));
    }
}

/// What precedes the token in the Authorization header.
pub const AUTHORIZATION_SCHEME: &str = "Svc-oauthtoken";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::find;
    use serde_json::json;

    fn target(org: Option<&str>) -> Target {
        Target::new(Some("eu"), None, org, None).unwrap()
    }

    /// Every byte but A-Z a-z 0-9 - . _ ~ is escaped, in upper-case hex, each byte of a character.
    #[test]
    fn the_escaped_set_is_everything_but_unreserved() {
        for c in (0u8..=0x7f).map(char::from).chain(['é', '€', '😀']) {
            let mut got = String::new();
            percent_encode(c.encode_utf8(&mut [0; 4]), &mut got);
            let unreserved = c.is_ascii_alphanumeric() || "-._~".contains(c);
            let want = if unreserved {
                c.to_string()
            } else {
                c.to_string().bytes().map(|b| format!("%{b:02X}")).collect()
            };
            assert_eq!(got, want, "{c:?}");
        }
    }

    #[test]
    fn malformed_escapes_are_refused() {
        for bad in ["%", "%4", "%zz", "%+f", "a%-1", "%ff", "%C3"] {
            assert_eq!(percent_decode(bad, true), None, "{bad}");
        }
        assert_eq!(percent_decode("a+b%2B%20", true).as_deref(), Some("a b+ "));
        assert_eq!(percent_decode("a+b", false).as_deref(), Some("a+b"));
        assert_eq!(
            percent_decode("%C3%A9%e2%82%ac", false).as_deref(),
            Some("é€")
        );
    }

    #[test]
    fn path_parameters_can_never_change_the_path() {
        let op = find("getTask").unwrap();
        for (id, enc) in [
            ("../x", "..%2Fx"),
            ("a/b?c#d", "a%2Fb%3Fc%23d"),
            ("...", "..."),
            ("%2e%2e", "%252e%252e"),
            ("100%", "100%25"),
            ("é", "%C3%A9"),
            ("a\r\nb", "a%0D%0Ab"),
        ] {
            let p = build(op, &target(Some("1")), &["p", id], &json!({})).unwrap();
            assert_eq!(
                p.url,
                format!("https://www.svcapis.eu/billing/v1/projects/p/tasks/{enc}")
            );
        }
    }

    #[test]
    fn dot_segments_are_refused() {
        for dots in [".", ".."] {
            let e = build(
                find("getTask").unwrap(),
                &target(Some("1")),
                &["p", dots],
                &json!({}),
            )
            .unwrap_err();
            assert_eq!(e.issues()[0].code(), crate::issue::IssueCode::InvalidFormat);
            assert_eq!(e.issues()[0].path_string(), "task_id");
        }
    }

    #[test]
    fn extra_headers_are_checked_and_merged() {
        let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
        assert!(
            extra_headers(&[pair("X-Trace-Id", "abc 123"), pair("Idempotency-Key", "k")]).is_ok()
        );
        for (bad, why) in [
            (pair("authorization", "x"), "is set by the client"),
            (pair("AUTHORIZATION", "x"), "is set by the client"),
            (pair("X-Bad Name", "1"), "is not a header name"),
            (pair("", "1"), "is not a header name"),
            (pair("X-A", "a\r\nInjected: 1"), "printable ASCII"),
            (pair("X-A", "é"), "printable ASCII"),
            (pair("X-A:", "1"), "is not a header name"),
            (pair("X-Ä", "1"), "is not a header name"),
        ] {
            let e = extra_headers(std::slice::from_ref(&bad)).unwrap_err();
            assert!(e.message.contains(why), "{bad:?}: {}", e.message);
        }
        // Every family's organization header, in any case, whichever family the call is of.
        let org_headers: Vec<&str> = Family::ALL
            .iter()
            .filter_map(|f| match f.org_placement() {
                OrgPlacement::Header(h) => Some(h),
                _ => None,
            })
            .collect();
        assert_eq!(org_headers.len(), 2);
        for name in org_headers {
            for name in [
                name.to_string(),
                name.to_ascii_lowercase(),
                name.to_ascii_uppercase(),
            ] {
                let e = extra_headers(&[pair("X-Trace-Id", "1"), pair(&name, "2")]).unwrap_err();
                assert_eq!(e.kind(), crate::error::ErrorKind::Config);
                assert!(e.message.contains("is set by the client"), "{name}");
            }
        }
        for name in [
            "Transfer-Encoding",
            "upgrade",
            "EXPECT",
            "content-length",
            "Host",
            "connection",
            "keep-alive",
            "te",
            "trailer",
            "cookie",
            "Cookie2",
            "set-cookie",
            "origin",
            "referer",
            "date",
            "dnt",
            "via",
            "accept-charset",
            "accept-encoding",
            "access-control-request-headers",
            "access-control-request-method",
            "Proxy-Authorization",
            "proxy-x",
            "Sec-Fetch-Mode",
            "sec-x",
        ] {
            let e = extra_headers(&[pair("X-Trace-Id", "1"), pair(name, "1")]).unwrap_err();
            assert_eq!(e.kind(), crate::error::ErrorKind::Config);
            assert!(e.message.contains(&format!("\"{name}\"")), "{}", e.message);
            assert!(e.message.contains("forbidden request header"), "{name}");
        }
        for (name, value) in [
            ("X-HTTP-Method", "TRACE"),
            ("x-http-method-override", "get, connect"),
            ("X-Method-Override", "track"),
        ] {
            assert!(
                extra_headers(&[pair(name, value)]).is_err(),
                "{name}: {value}"
            );
            assert!(extra_headers(&[pair(name, "PATCH")]).is_ok(), "{name}");
        }
        for fine in [
            "X-Host",
            "Hosts",
            "Proxy",
            "Secret",
            "Content-Language",
            "Idempotency-Key",
        ] {
            assert!(extra_headers(&[pair(fine, "1")]).is_ok(), "{fine}");
        }
        let mut headers = vec![pair("Accept", "application/json"), pair("X-A", "1")];
        merge_headers(
            &mut headers,
            &[pair("accept", "text/csv"), pair("X-B", "2")],
        );
        assert_eq!(
            headers,
            [
                pair("X-A", "1"),
                pair("accept", "text/csv"),
                pair("X-B", "2")
            ]
        );
    }

    #[test]
    fn header_values_with_line_breaks_are_refused() {
        let op = find("updateExpenseByUniqueField").unwrap();
        for bad in ["a\r\nX-Evil: 1", "a\nb", "a\rb"] {
            let e = build(
                op,
                &target(Some("1")),
                &[],
                &json!({"x_unique_identifier_value": bad}),
            )
            .unwrap_err();
            assert_eq!(e.kind(), crate::error::ErrorKind::Validation);
            assert_eq!(e.issues()[0].path_string(), "x_unique_identifier_value");
        }
        assert!(Target::new(None, None, Some("1\r\nX: y"), None).is_err());
        assert!(authorization("tok\r\nX: y").is_err());
        assert!(!format!("{:?}", authorization("s3cr3t\nx").unwrap_err()).contains("s3cr3t"));
    }

    #[test]
    fn a_token_too_short_or_too_long_is_refused_in_words_of_its_length() {
        let refused = |t: &str| authorization(t).unwrap_err();
        let e = refused("t");
        assert_eq!(e.kind(), crate::error::ErrorKind::Config);
        assert_eq!(
            e.message,
            "the access token is 1 character long, too short to be a token the service issued \
             (one has at least 8): is it a placeholder?"
        );
        assert!(refused("1234567")
            .message
            .contains("is 7 characters long, too short"));
        assert!(authorization("dev-token").is_ok());
        assert!(authorization(&"x".repeat(TOKEN_MIN)).is_ok());
        assert!(authorization(&"x".repeat(TOKEN_MAX)).is_ok());
        assert_eq!(
            refused(&"x".repeat(20_000)).message,
            "the access token is 20000 characters long, more than the 16384 a request header can carry to the service"
        );
    }

    #[test]
    fn the_organization_is_required_where_the_family_sends_it() {
        let e = build(find("listPlans").unwrap(), &target(None), &[], &json!({})).unwrap_err();
        assert_eq!(e.kind(), crate::error::ErrorKind::Config);
        assert!(
            e.message.contains("organizationId is required"),
            "{}",
            e.message
        );
        assert!(build(
            find("createOrganization").unwrap(),
            &target(None),
            &[],
            &json!({})
        )
        .is_ok());
        assert!(build(
            find("updateNotificationChannels").unwrap(),
            &target(None),
            &[],
            &json!({})
        )
        .is_ok());
    }

    #[test]
    fn behind_a_proxy_the_organization_is_left_to_it() {
        let mut t = Target::new(None, Some("http://127.0.0.1:9000/api"), None, None).unwrap();
        t.via_proxy = true;
        let p = build(find("listPlans").unwrap(), &t, &[], &json!({})).unwrap();
        assert_eq!(p.url, "http://127.0.0.1:9000/api/billing/v1/plans");
        assert!(p.headers.iter().all(|(n, _)| !n.starts_with("X-com-svc")));
    }

    #[test]
    fn wrong_path_parameter_counts_are_config_errors() {
        let e = build(
            find("getTask").unwrap(),
            &target(Some("1")),
            &["p"],
            &json!({}),
        )
        .unwrap_err();
        assert!(
            e.message
                .contains("takes 2 path parameter(s) (project_id, task_id), got 1"),
            "{}",
            e.message
        );
        let e = build(
            find("getTask").unwrap(),
            &target(Some("1")),
            &["", "t"],
            &json!({}),
        )
        .unwrap_err();
        assert_eq!(e.issues()[0].code(), crate::issue::IssueCode::Required);
    }

    #[test]
    fn query_values_are_encoded_and_objects_refused() {
        let op = find("listProjects").unwrap();
        let p = build(
            op,
            &target(Some("1")),
            &[],
            &json!({"customer_id": "a&b=c", "page": 2, "x": true, "y": null}),
        )
        .unwrap();
        assert!(
            p.url
                .ends_with("/projects?customer_id=a%26b%3Dc&page=2&x=true"),
            "{}",
            p.url
        );
        let e = build(op, &target(Some("1")), &[], &json!({"filter_by": {"a": 1}})).unwrap_err();
        assert_eq!(e.issues()[0].code(), crate::issue::IssueCode::InvalidType);
    }

    #[test]
    fn crm_version_and_raw_requests() {
        let t = Target::new(None, Some("http://127.0.0.1:8787/"), None, Some("v9")).unwrap();
        let p = build(
            find("updateNotificationChannels").unwrap(),
            &t,
            &[],
            &json!({"watch": []}),
        )
        .unwrap();
        assert_eq!(p.url, "http://127.0.0.1:8787/crm/v9/actions/watch");
        assert!(Target::new(None, None, None, Some("../v8")).is_err());
        let t = target(Some("42"));
        let p = build_raw(
            Method::Delete,
            Family::Invoice,
            "/projects/1",
            &t,
            &Map::new(),
            None,
        )
        .unwrap();
        assert_eq!(p.url, "https://www.svcapis.eu/invoice/v3/projects/1");
        assert!(p
            .headers
            .contains(&("X-com-svc-invoice-organizationid".into(), "42".into())));
        assert!(build_raw(Method::Get, Family::Books, "/a/../b", &t, &Map::new(), None).is_err());
        assert!(build_raw(Method::Get, Family::Books, "/a?b", &t, &Map::new(), None).is_err());
        let p = build_raw(
            Method::Get,
            Family::Books,
            "/journals",
            &t,
            &Map::new(),
            None,
        )
        .unwrap();
        assert_eq!(
            p.url,
            "https://www.svcapis.eu/books/v3/journals?organization_id=42"
        );
    }
}
