//! The edge proxy's planning: which operation a forwarded request is, and its params.

use crate::catalog::{self, BodyKind, Operation};
use crate::error::{shorten, Error, ErrorKind};
use crate::headers::Headers;
use crate::request::parse_query;
use crate::route::{add_text_param, template, Found, Router};
use serde_json::{Map, Value};
use std::sync::OnceLock;

/// What the proxy forwards: the operation, its path values (in path order, the CRM version
/// left out) and its params, read from the query, the headers and a JSON body.
#[derive(Debug)]
pub struct Plan {
    pub op: &'static Operation,
    pub path_params: Vec<String>,
    pub params: Map<String, Value>,
}

/// The router of the catalog and the most segments any of its routes has.
fn router() -> Result<&'static (Router, usize), Error> {
    static ROUTER: OnceLock<Result<(Router, usize), String>> = OnceLock::new();
    ROUTER
        .get_or_init(|| {
            let most = catalog::OPERATIONS
                .iter()
                .map(|op| template(op).matches('/').count())
                .max()
                .unwrap_or(0);
            Router::new(catalog::OPERATIONS.iter()).map(|r| (r, most))
        })
        .as_ref()
        .map_err(|e| Error::config(e.clone()))
}

/// The tail of `path` that can hold a route: from the `/` before its last `most` segments (one
/// trailing `/` aside, as `Router::find` reads it), or from its first `/` when it has fewer.
/// Every earlier start has more segments than any route and is not found, so routing the tail
/// finds what routing the whole path finds, in time linear in the path (a 16 KB path of `/a`
/// segments took seconds), and the tail starts with `/` (a path that does not, or is empty,
/// cannot slice off a char boundary in `find_below_prefix`).
fn routable_tail(path: &str, most: usize) -> Option<&str> {
    let trimmed = match path.strip_suffix('/') {
        Some(p) if !p.is_empty() => p,
        _ => path,
    };
    let start = match most.checked_sub(1) {
        Some(n) => trimmed.rmatch_indices('/').nth(n).map(|(i, _)| i),
        None => None,
    };
    start.or_else(|| path.find('/')).map(|i| &path[i..])
}

/// A request the proxy answers itself with `status` (and code 1000 + `status`).
pub fn refuse(status: u16, message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Api, message).with_status(status)
}

/// The plan for a request the proxy received: its method, raw path (possibly below a prefix such
/// as `/api`), raw query (without `?`), its headers (`header` is asked with lower-case names) and
/// its body text. An error carries the status the proxy answers with: 404 for no operation at the
/// path, 405 for a method the path does not take, 400 for a query that is not well encoded or a
/// JSON body that is not an object.
pub fn plan(
    method: &str,
    path: &str,
    query: &str,
    header: impl Fn(&str) -> Option<String>,
    body: Option<&str>,
) -> Result<Plan, Error> {
    let (router, most) = router()?;
    let found = match routable_tail(path, *most) {
        Some(tail) => router.find_below_prefix(method, tail),
        None => Found::NotFound,
    };
    let (op, values) = match found {
        Found::Op(op, values) => (op, values),
        Found::NotFound => return Err(refuse(404, format!("no operation at {}", shorten(path)))),
        Found::MethodNotAllowed(m) => {
            return Err(refuse(
                405,
                format!("{method} is not allowed here; allowed: {}", m.join(", ")),
            ))
        }
    };
    let mut params = Map::new();
    let pairs = parse_query(query).ok_or_else(|| refuse(400, "the query is not well encoded"))?;
    for (k, v) in pairs {
        let wanted = if op.method.has_body() {
            op.query.contains(&k.as_str())
        } else {
            k != "organization_id"
        };
        if wanted {
            add_text_param(&mut params, op.params, &k, &v);
        }
    }
    for (param, name) in op.headers {
        if let Some(v) = header(&name.to_ascii_lowercase()) {
            add_text_param(&mut params, op.params, param, &v);
        }
    }
    if op.body == BodyKind::Json {
        let text = body.unwrap_or_default();
        if !text.trim().is_empty() {
            match serde_json::from_str::<Value>(text) {
                Ok(Value::Object(m)) => params.extend(m),
                _ => return Err(refuse(400, "the body must be a JSON object")),
            }
        }
    }
    let path_params = values
        .into_iter()
        .filter(|(k, _)| k != "version")
        .map(|(_, v)| v)
        .collect();
    Ok(Plan {
        op,
        path_params,
        params,
    })
}

/// The headers of the service's answer that a proxy hands back; the others stay behind.
const PASSED_BACK: [&str; 6] = [
    "content-type",
    "content-disposition",
    "retry-after",
    "x-rate-limit-limit",
    "x-rate-limit-remaining",
    "x-rate-limit-reset",
];

/// The answer's headers a proxy hands back, each value with every spelling of `secret` redacted.
pub fn passed_back(headers: &Headers, secret: Option<&str>) -> Headers {
    let secret = secret.filter(|s| !s.is_empty());
    let pass = |name: &&str| {
        let value = headers.get(name).filter(|v| !v.is_empty())?;
        let value = secret.map_or_else(|| value.to_string(), |s| crate::redact::text(value, s));
        Some((name.to_string(), value))
    };
    Headers(PASSED_BACK.iter().filter_map(pass).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_proxy_hands_back_only_its_headers_with_the_token_redacted() {
        let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
        let answer = Headers(vec![
            pair("set-cookie", "s=1"),
            pair("content-type", "application/json"),
            pair("x-rate-limit-remaining", "7"),
            pair("retry-after", ""),
            pair("content-disposition", "attachment; filename=\"tok-1\\u002d.pdf\""),
        ]);
        let passed = passed_back(&answer, Some("tok-1"));
        assert_eq!(
            passed.0,
            [
                pair("content-type", "application/json"),
                pair("content-disposition", "attachment; filename=\"[redacted]\\u002d.pdf\""),
                pair("x-rate-limit-remaining", "7"),
            ]
        );
        assert_eq!(passed_back(&answer, None).get("content-disposition"), answer.get("content-disposition"));
    }

    fn no_headers(_: &str) -> Option<String> {
        None
    }

    fn status(r: Result<Plan, Error>) -> (u16, String) {
        let e = r.expect_err("an error");
        assert_eq!(e.kind, ErrorKind::Api);
        (e.status.expect("a status"), e.message)
    }

    #[test]
    fn a_routed_get_takes_its_query_but_not_the_organization() {
        let p = plan(
            "GET",
            "/api/billing/v1/projects/p%201/tasks",
            "page=2&filter_by=Status.All&organization_id=9&&flag",
            no_headers,
            Some("ignored"),
        )
        .unwrap();
        assert_eq!(p.op.id, "listTasks");
        assert_eq!(p.path_params, ["p 1"]);
        assert_eq!(
            Value::Object(p.params),
            json!({"page": 2, "filter_by": "Status.All", "flag": ""})
        );
    }

    #[test]
    fn a_post_takes_its_json_body_and_only_its_query_params() {
        let op = catalog::find("createExpense").unwrap();
        let path = crate::route::template(op);
        let p = plan(
            "post",
            &path,
            "page=2",
            no_headers,
            Some(r#" {"amount": 12.5, "account_id": "460000000000000012345"} "#),
        )
        .unwrap();
        assert_eq!(p.op.id, "createExpense");
        assert!(p.path_params.is_empty());
        assert_eq!(
            Value::Object(p.params),
            json!({"amount": 12.5, "account_id": "460000000000000012345"})
        );
        // No body, or a blank one, is no params.
        for body in [None, Some(""), Some(" \n")] {
            assert!(plan("POST", &path, "", no_headers, body)
                .unwrap()
                .params
                .is_empty());
        }
    }

    #[test]
    fn header_params_are_read_by_their_lower_case_name() {
        let op = catalog::OPERATIONS
            .iter()
            .find(|op| !op.headers.is_empty() && op.path_param_count() == 0)
            .expect("an operation with a header param");
        let (param, name) = op.headers[0];
        let path = crate::route::template(op).replace("{version}", "v8");
        let asked = std::cell::RefCell::new(Vec::new());
        let p = plan(
            op.method.as_str(),
            &path,
            "",
            |n| {
                asked.borrow_mut().push(n.to_string());
                Some("true".into())
            },
            None,
        )
        .unwrap();
        assert_eq!(p.op.id, op.id);
        assert!(p.params.contains_key(param), "{:?}", p.params);
        assert!(asked.borrow().contains(&name.to_ascii_lowercase()));
    }

    #[test]
    fn a_body_that_is_not_an_object_is_400() {
        let op = catalog::find("createExpense").unwrap();
        let path = crate::route::template(op);
        for body in ["[1]", "\"x\"", "12", "null", "{", "{\"a\":1} x"] {
            assert_eq!(
                status(plan("POST", &path, "", no_headers, Some(body))),
                (400, "the body must be a JSON object".to_string()),
                "{body}"
            );
        }
    }

    #[test]
    fn an_unknown_path_is_404() {
        assert_eq!(
            status(plan("GET", "/api/nothing", "", no_headers, None)),
            (404, "no operation at /api/nothing".to_string())
        );
        let long = format!("/{}", "x".repeat(100));
        let (code, message) = status(plan("GET", &long, "", no_headers, None));
        assert_eq!(code, 404);
        assert!(message.ends_with('…'), "{message}");
    }

    #[test]
    fn a_long_path_is_routed_from_its_tail_only() {
        // What the router finds below any prefix, plan finds, and fast for thousands of segments.
        let (router, most) = router().unwrap();
        let deep = format!("{}/billing/v1/projects/p1/tasks", "/a".repeat(50_000));
        for path in [
            "/api/billing/v1/projects/p1/tasks/",
            "/billing/v1/projects/p1/tasks",
            "x/billing/v1/projects/p1/tasks",
            "/books/v3/fixedassettypes/1",
            "/a/b/c/d/e/f/g/h/i/j/k",
            "/",
            "//",
            "",
            "no-slash",
            "é",
            "é/billing/v1/projects/p1/tasks",
            &deep,
        ] {
            let tail = routable_tail(path, *most);
            if let Some(t) = tail {
                assert!(t.starts_with('/') && path.ends_with(t), "{path:?}");
            }
            let planned = plan("GET", path, "", no_headers, None);
            if path.starts_with('/') && path.len() < 1000 {
                match (router.find_below_prefix("GET", path), &planned) {
                    (Found::Op(a, _), Ok(p)) => assert_eq!(a.id, p.op.id, "{path:?}"),
                    (Found::NotFound, Err(e)) => assert_eq!(e.status, Some(404), "{path:?}"),
                    (Found::MethodNotAllowed(_), Err(e)) => {
                        assert_eq!(e.status, Some(405), "{path:?}")
                    }
                    (other, planned) => panic!("{path:?}: {other:?} but {planned:?}"),
                }
            }
        }
        let p = plan("GET", &deep, "", no_headers, None).unwrap();
        assert_eq!(
            (p.op.id, p.path_params),
            ("listTasks", vec!["p1".to_string()])
        );
        let t = std::time::Instant::now();
        let _ = plan("GET", &"/a".repeat(2_000_000), "", no_headers, None);
        assert!(t.elapsed().as_secs() < 20, "{:?}", t.elapsed());
    }

    #[test]
    fn a_wrong_method_is_405_with_the_methods_allowed() {
        assert_eq!(
            status(plan(
                "PATCH",
                "/books/v3/fixedassettypes/1",
                "",
                no_headers,
                None
            )),
            (
                405,
                "PATCH is not allowed here; allowed: DELETE, PUT".to_string()
            )
        );
    }

    #[test]
    fn a_query_that_is_not_well_encoded_is_400() {
        for query in ["page=%zz", "%=1", "a=%C3%28"] {
            assert_eq!(
                status(plan(
                    "GET",
                    "/billing/v1/projects/p1/tasks",
                    query,
                    no_headers,
                    None
                )),
                (400, "the query is not well encoded".to_string()),
                "{query}"
            );
        }
    }
}
