//! The edge proxy's planning: which operation a forwarded request is, and its params.

use std::sync::OnceLock;
use svc_core::catalog::{self, BodyKind, Operation};
use svc_core::echo::{quoted, shorten};
use svc_core::error::{Error, ErrorKind};
use svc_core::headers::Headers;
use svc_core::request::parse_query;
use svc_core::route::{add_text_param, template, Found, Router};
use svc_json::{Json, Obj, ToJson};

/// What the proxy forwards: the operation, its path values (in path order, the CRM version
/// left out) and its params as JSON text, read from the query, the headers and a JSON body.
#[derive(Debug)]
pub struct PlanText {
    pub op: &'static Operation,
    pub path_params: Vec<String>,
    pub params: String,
}

/// The router of the catalog and the most segments any of its routes has.
fn router() -> Result<&'static (Router, usize), Error> {
    static ROUTER: OnceLock<Result<(Router, usize), String>> = OnceLock::new();
    ROUTER
        .get_or_init(|| {
            let most = catalog::operations()
                .iter()
                .map(|op| template(op).matches('/').count())
                .max()
                .unwrap_or(0);
            Router::new(catalog::operations().iter()).map(|r| (r, most))
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

/// How long the proxy waits for a request's body: the most ms it may send nothing (`timeoutMs`; 0:
/// no limit), and when it must have all arrived (ms since the epoch, with `deadlineMs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BodyWait {
    pub idle_ms: u32,
    pub deadline: Option<(i64, u32)>,
}

impl BodyWait {
    /// The bounds of a body whose reading starts at `now`.
    pub fn new(now: i64, timeout_ms: u32, deadline_ms: u32) -> BodyWait {
        BodyWait {
            idle_ms: timeout_ms,
            deadline: (deadline_ms > 0)
                .then(|| (now.saturating_add(i64::from(deadline_ms)), deadline_ms)),
        }
    }

    /// How long to wait, from `now`, for the next chunk: the idle time, or what is left of the
    /// deadline when that is less; `None` without either.
    pub fn next(&self, now: i64) -> Option<u64> {
        let left = self.left(now);
        match (self.idle_ms, left) {
            (0, left) => left,
            (idle, Some(left)) => Some(left.min(idle.into())),
            (idle, None) => Some(idle.into()),
        }
    }

    /// The 408 of a chunk that did not come within the wait `next` gave at `began`: the deadline's
    /// when that wait was what was left of it, else the idle time's.
    pub fn missed(&self, began: i64) -> Error {
        match (self.deadline, self.left(began)) {
            (Some((_, ms)), Some(left)) if self.idle_ms == 0 || left <= u64::from(self.idle_ms) => {
                refuse(
                    408,
                    format!("the request body had not all arrived within the deadline of {ms} ms (deadlineMs); it was not forwarded"),
                )
            }
            _ => refuse(
                408,
                format!("the request body stopped arriving: nothing came for {} ms (timeoutMs); it was not forwarded", self.idle_ms),
            ),
        }
    }

    fn left(&self, now: i64) -> Option<u64> {
        self.deadline
            .map(|(at, _)| at.saturating_sub(now).max(0) as u64)
    }
}

/// An operation found for a request the proxy received, with its path values.
#[derive(Debug)]
pub struct Routed {
    pub op: &'static Operation,
    values: Vec<(String, String)>,
}

/// The operation at a request's method and raw path (possibly below a prefix such as `/api`): 404
/// for none at the path, 405 for a method the path does not take.
pub fn route(method: &str, path: &str) -> Result<Routed, Error> {
    let (router, most) = router()?;
    let found = match routable_tail(path, *most) {
        Some(tail) => router.find_below_prefix(method, tail),
        None => Found::NotFound,
    };
    match found {
        Found::Op(op, values) => Ok(Routed { op, values }),
        Found::NotFound => Err(refuse(404, format!("no operation at {}", shorten(path)))),
        Found::MethodNotAllowed(m) => Err(refuse(
            405,
            format!("{method} is not allowed here; allowed: {}", m.join(", ")),
        )),
    }
}

/// The media type of a Content-Type value: lower-case, without its parameters.
pub fn media_type(content_type: &str) -> String {
    let essence = content_type.split(';').next().unwrap_or_default();
    essence.trim().to_ascii_lowercase()
}

impl Routed {
    /// 415 unless a request that may carry a body (POST, PUT, PATCH) has the media type of the
    /// operation's body: `application/json`, or `multipart/form-data` for an upload. Either one
    /// makes a browser ask (preflight) before sending it cross-site, which a form or a plain
    /// `fetch` with `text/plain` or no Content-Type does not.
    pub fn admit(&self, content_type: Option<&str>) -> Result<(), Error> {
        if !self.op.method.has_body() {
            return Ok(());
        }
        let (want, what) = match self.op.body {
            BodyKind::Multipart { .. } => ("multipart/form-data", "its files as a FormData"),
            _ => ("application/json", "a JSON object"),
        };
        if content_type.map(media_type).as_deref() == Some(want) {
            return Ok(());
        }
        let got = content_type.map_or_else(|| "none".to_string(), quoted);
        Err(refuse(
            415,
            format!(
                "{} takes {what} with Content-Type: {want} (this one has {got}); nothing else is forwarded",
                self.op.id
            ),
        ))
    }

    /// The plan: the params read from the raw query (without `?`), the headers (`header` is
    /// asked with lower-case names) and the body text; 400 for a query that is not well encoded or
    /// a JSON body that is not an object.
    pub fn plan_text(
        self,
        query: &str,
        header: impl Fn(&str) -> Option<String>,
        body: Option<&str>,
    ) -> Result<PlanText, Error> {
        let Routed { op, values } = self;
        let mut params = Obj::default();
        let pairs =
            parse_query(query).ok_or_else(|| refuse(400, "the query is not well encoded"))?;
        for (k, v) in pairs {
            let wanted = if op.method.has_body() {
                op.query.contains(&k.as_str())
            } else {
                !names_the_organization(&k)
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
                match svc_json::parse(text) {
                    Ok(Json::Obj(m)) => {
                        for (k, v) in m.into_members() {
                            if !names_the_organization(&k) {
                                params.insert(k, v);
                            }
                        }
                    }
                    _ => return Err(refuse(400, "the body must be a JSON object")),
                }
            }
        }
        let path_params = values
            .into_iter()
            .filter(|(k, _)| k != "version")
            .map(|(_, v)| v)
            .collect();
        Ok(PlanText {
            op,
            path_params,
            params: params.to_json_text(),
        })
    }
}

/// Whether a key the browser sent (decoded once) names the organization, in any spelling a server
/// may read as it (`placement::names_organization`: case, blanks, brackets, a NUL...), decoded again
/// as a server that decodes twice would: the proxy adds its own and lets no other through.
fn names_the_organization(key: &str) -> bool {
    let mut key = key.to_string();
    for _ in 0..4 {
        if svc_core::placement::names_organization(&key) {
            return true;
        }
        match svc_core::request::percent_decode(&key, true) {
            Some(decoded) if decoded != key => key = decoded,
            _ => return false,
        }
    }
    svc_core::placement::names_organization(&key)
}

/// The plan for a request the proxy received, in one step: `route`, `Routed::admit` with its
/// Content-Type (read through `header`), and `Routed::plan_text`.
pub fn plan(
    method: &str,
    path: &str,
    query: &str,
    header: impl Fn(&str) -> Option<String>,
    body: Option<&str>,
) -> Result<PlanText, Error> {
    let routed = route(method, path)?;
    routed.admit(header("content-type").as_deref())?;
    routed.plan_text(query, header, body)
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
        let value = secret.map_or_else(|| value.to_string(), |s| svc_core::redact::text(value, s));
        Some((name.to_string(), value))
    };
    Headers(PASSED_BACK.iter().filter_map(pass).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn params(p: &PlanText) -> Value {
        serde_json::from_str(&p.params).unwrap()
    }

    #[test]
    fn a_body_waits_for_each_chunk_its_idle_time_and_for_all_of_it_its_deadline() {
        assert_eq!(BodyWait::new(0, 0, 0).next(5_000), None, "no bound");
        let idle = BodyWait::new(0, 300, 0);
        assert_eq!(idle.next(1_000_000), Some(300));
        let e = idle.missed(1_000_000);
        assert_eq!(e.status(), Some(408));
        assert!(
            e.message
                .contains("nothing came for 300 ms (timeoutMs); it was not forwarded"),
            "{}",
            e.message
        );
        let both = BodyWait::new(1_000, 300, 500);
        assert_eq!(both.next(1_000), Some(300), "the idle time is the nearer");
        assert!(both
            .missed(1_000)
            .message
            .contains("nothing came for 300 ms"));
        assert_eq!(
            both.next(1_350),
            Some(150),
            "what is left of the deadline is"
        );
        let e = both.missed(1_350);
        assert_eq!(e.status(), Some(408));
        assert!(
            e.message
                .contains("within the deadline of 500 ms (deadlineMs); it was not forwarded"),
            "{}",
            e.message
        );
        assert_eq!(both.next(9_000), Some(0), "never below zero");
        let deadline = BodyWait::new(0, 0, 500);
        assert_eq!(deadline.next(100), Some(400));
        assert!(deadline.missed(100).message.contains("deadline of 500 ms"));
    }

    #[test]
    fn a_proxy_hands_back_only_its_headers_with_the_token_redacted() {
        let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
        let answer = Headers(vec![
            pair("set-cookie", "s=1"),
            pair("content-type", "application/json"),
            pair("x-rate-limit-remaining", "7"),
            pair("retry-after", ""),
            pair(
                "content-disposition",
                "attachment; filename=\"tok-1\\u002d.pdf\"",
            ),
        ]);
        let passed = passed_back(&answer, Some("tok-1"));
        assert_eq!(
            passed.0,
            [
                pair("content-type", "application/json"),
                pair(
                    "content-disposition",
                    "attachment; filename=\"[redacted]\\u002d.pdf\""
                ),
                pair("x-rate-limit-remaining", "7"),
            ]
        );
        assert_eq!(
            passed_back(&answer, None).get("content-disposition"),
            answer.get("content-disposition")
        );
    }

    fn no_headers(_: &str) -> Option<String> {
        None
    }

    fn json_body(name: &str) -> Option<String> {
        (name == "content-type").then(|| "application/json".into())
    }

    fn status(r: Result<PlanText, Error>) -> (u16, String) {
        let e = r.expect_err("an error");
        assert_eq!(e.kind(), ErrorKind::Api);
        (e.status().expect("a status"), e.message)
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
            params(&p),
            json!({"page": 2, "filter_by": "Status.All", "flag": ""})
        );
    }

    #[test]
    fn the_organization_the_browser_names_in_any_spelling_is_left_out() {
        let routed = |m: &str, p: &str| route(m, p).unwrap();
        let get = routed("GET", "/books/v3/chartofaccounts")
            .plan_text(
                "organization_id+=6&Organization_ID=7&%20organization_id=8&organization_idx=1\
                 &organization_id%5B%5D=9&organization_id[0]=10&organization_id%00=11\
                 &organization_id%00x=12&organization%255Fid=13&organization.id=14\
                 &ORGAN%C4%B0ZAT%C4%B0ON_%C4%B0D=15&organ%E2%80%8Bization_id=16\
                 &%EF%BD%8Frganization_id=17&organizationId=18&organization_id_2=19",
                no_headers,
                None,
            )
            .unwrap();
        assert_eq!(
            get.params,
            r#"{"organization_idx":"1","organization_id_2":"19"}"#
        );
        let op = catalog::find("createExpense").unwrap();
        let post = routed("POST", &svc_core::route::template(op))
            .plan_text(
                "organization_id=5",
                json_body,
                Some(
                    r#"{"organization_id":"666"," ORGANIZATION_ID ":1,"organization_id[]":2,"organization_id\u0000":3,"amount":1}"#,
                ),
            )
            .unwrap();
        assert_eq!(post.params, r#"{"amount":1}"#);
    }

    #[test]
    fn a_planned_body_keeps_every_number_as_the_sender_wrote_it() {
        let op = catalog::find("createFixedAsset").unwrap();
        let body = r#"{"asset_cost":9007199254740993,"salvage_value":1000.00000000000000000000000001,"current_asset_value":-0,"x":1e400,"y":1.50}"#;
        let planned = route("POST", &svc_core::route::template(op))
            .unwrap()
            .plan_text("", json_body, Some(body))
            .unwrap();
        assert_eq!(planned.params, body);
    }

    #[test]
    fn a_post_takes_its_json_body_and_only_its_query_params() {
        let op = catalog::find("createExpense").unwrap();
        let path = svc_core::route::template(op);
        let p = plan(
            "post",
            &path,
            "page=2",
            json_body,
            Some(r#" {"amount": 12.5, "account_id": "460000000000000012345"} "#),
        )
        .unwrap();
        assert_eq!(p.op.id, "createExpense");
        assert!(p.path_params.is_empty());
        assert_eq!(
            params(&p),
            json!({"amount": 12.5, "account_id": "460000000000000012345"})
        );
        // No body, or a blank one, is no params.
        for body in [None, Some(""), Some(" \n")] {
            assert!(plan("POST", &path, "", json_body, body).unwrap().params == "{}");
        }
    }

    #[test]
    fn header_params_are_read_by_their_lower_case_name() {
        let op = catalog::operations()
            .iter()
            .find(|op| !op.headers.is_empty() && op.path_param_count() == 0)
            .expect("an operation with a header param");
        let (param, name) = op.headers[0];
        let path = svc_core::route::template(op).replace("{version}", "v8");
        let asked = std::cell::RefCell::new(Vec::new());
        let p = plan(
            op.method.as_str(),
            &path,
            "",
            |n| {
                asked.borrow_mut().push(n.to_string());
                Some(
                    if n == "content-type" {
                        "Application/JSON; charset=utf-8"
                    } else {
                        "true"
                    }
                    .into(),
                )
            },
            None,
        )
        .unwrap();
        assert_eq!(p.op.id, op.id);
        assert!(params(&p).get(param).is_some(), "{:?}", p.params);
        assert!(asked.borrow().contains(&name.to_ascii_lowercase()));
    }

    #[test]
    fn a_body_that_is_not_an_object_is_400() {
        let op = catalog::find("createExpense").unwrap();
        let path = svc_core::route::template(op);
        for body in ["[1]", "\"x\"", "12", "null", "{", "{\"a\":1} x"] {
            assert_eq!(
                status(plan("POST", &path, "", json_body, Some(body))),
                (400, "the body must be a JSON object".to_string()),
                "{body}"
            );
        }
    }

    #[test]
    fn a_body_is_forwarded_only_with_the_media_type_of_its_operation() {
        let path = |id: &str| svc_core::route::template(catalog::find(id).unwrap());
        let with = |ct: Option<&'static str>| {
            move |n: &str| ct.filter(|_| n == "content-type").map(String::from)
        };
        let json = path("createExpense");
        let upload = path("addExpenseAttachment").replace("{expense_id}", "1");
        for ct in [
            "application/json",
            "APPLICATION/Json ; charset=UTF-8",
            "application/json;x=1",
        ] {
            assert!(
                plan("POST", &json, "", with(Some(ct)), Some("{}")).is_ok(),
                "{ct}"
            );
        }
        let ok = plan(
            "POST",
            &upload,
            "",
            with(Some("multipart/form-data; boundary=x")),
            None,
        );
        assert_eq!(ok.unwrap().op.id, "addExpenseAttachment");
        for (path, ct, message) in [
            (&json, None, "createExpense takes a JSON object with Content-Type: application/json (this one has none); nothing else is forwarded"),
            (&json, Some("text/plain;charset=UTF-8"), "createExpense takes a JSON object with Content-Type: application/json (this one has \"text/plain;charset=UTF-8\"); nothing else is forwarded"),
            (&json, Some("application/x-www-form-urlencoded"), ""),
            (&json, Some("multipart/form-data; boundary=x"), ""),
            (&json, Some("application/json-seq"), ""),
            (&json, Some("application/jsonx"), ""),
            (&json, Some("application/json, text/plain"), ""),
            (&json, Some(""), ""),
            (&upload, None, "addExpenseAttachment takes its files as a FormData with Content-Type: multipart/form-data (this one has none); nothing else is forwarded"),
            (&upload, Some("application/json"), ""),
            (&upload, Some("text/plain"), ""),
        ] {
            let (code, got) = status(plan("POST", path, "", with(ct), Some("{}")));
            assert_eq!(code, 415, "{ct:?}");
            assert!(got.contains(message), "{got}");
        }
        // A request that takes no body needs no Content-Type, whatever it says.
        let get = path("listExpenses");
        for ct in [None, Some("text/plain")] {
            assert!(plan("GET", &get, "", with(ct), Some("x")).is_ok());
        }
        // 404 and 405 come first.
        assert_eq!(
            status(plan("POST", "/nothing", "", no_headers, None)).0,
            404
        );
        assert_eq!(status(plan("PATCH", &json, "", no_headers, None)).0, 405);
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
                    (Found::NotFound, Err(e)) => assert_eq!(e.status(), Some(404), "{path:?}"),
                    (Found::MethodNotAllowed(_), Err(e)) => {
                        assert_eq!(e.status(), Some(405), "{path:?}")
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
                "/invoice/v3/settings/currencies/1",
                "",
                no_headers,
                None
            )),
            (
                405,
                "PATCH is not allowed here; allowed: DELETE, GET, PUT".to_string()
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
