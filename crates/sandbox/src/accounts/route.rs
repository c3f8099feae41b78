//! The accounts server over HTTP: the token endpoint, and its admin routes below `/__sandbox/accounts`.

use super::{answer, Accounts, Fields};
use crate::error::{code, ApiError};
use crate::http::{Request, Response};
use svc_core::echo::shorten;
use svc_core::request::{parse_query, percent_decode};

/// The admin routes, below `/__sandbox/accounts`, as the sandbox's index lists them.
pub const ADMIN: &[&str] = &[
    "GET /__sandbox/accounts",
    "POST /__sandbox/accounts/refresh-tokens/{refresh_token}/revoke",
    "POST /__sandbox/accounts/access-tokens/{access_token}/revoke",
];

/// A JSON answer of the accounts server or its routes.
pub fn json(status: u16, text: String) -> Response {
    Response {
        status,
        headers: vec![(
            "Content-Type".into(),
            "application/json;charset=UTF-8".into(),
        )],
        body: text.into_bytes(),
    }
}

/// A request's form body (when the body is a form, or has no type) then its query, in that order;
/// a part that is not well-formed reads as none.
pub fn params(req: &Request) -> Vec<(String, String)> {
    let form = req
        .header("content-type")
        .map(|t| t.trim().to_ascii_lowercase())
        .is_none_or(|t| t.starts_with("application/x-www-form-urlencoded"));
    let body = form
        .then(|| std::str::from_utf8(&req.body).ok().and_then(parse_query))
        .flatten()
        .unwrap_or_default();
    let query = parse_query(&req.query).unwrap_or_default();
    body.into_iter().chain(query).collect()
}

/// The fields of a token request: the form body's, else the query's, the first of each name.
pub fn fields(req: &Request) -> Fields {
    let all = params(req);
    let get = |name: &str| all.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    Fields {
        grant_type: get("grant_type"),
        client_id: get("client_id"),
        client_secret: get("client_secret"),
        refresh_token: get("refresh_token"),
        code: get("code"),
        redirect_uri: get("redirect_uri"),
        scope: get("scope"),
    }
}

/// The sandbox's 405 for an accounts endpoint that takes POST only.
pub fn post_only(req: &Request) -> Result<(), ApiError> {
    if req.method == "POST" {
        return Ok(());
    }
    Err(ApiError::new(
        405,
        code::METHOD,
        format!(
            "{} is not allowed at {}; it takes POST.",
            req.method,
            shorten(&req.path)
        ),
    ))
}

/// `POST /oauth/v2/token` at `now`: the refresh-token or authorization-code grant, or a refusal, all
/// HTTP 200, as the vendor answers; `api_domain` is where the granted token's calls go, and `make`
/// makes a new user's organization. Another method is the sandbox's 405.
pub fn token(
    a: &mut Accounts,
    req: &Request,
    api_domain: &str,
    now: i64,
    make: &mut dyn FnMut(&str) -> String,
) -> Result<Response, ApiError> {
    post_only(req)?;
    let f = fields(req);
    let result = match f.grant_type.as_deref() {
        Some("authorization_code") => a.exchange(&f, now, make),
        _ => a.grant(&f, now),
    };
    let text = match result {
        Ok(g) => answer::granted(&g, api_domain, a.options().legacy_expires_in),
        Err(why) => answer::refused(why, &f, a.options().echo_secrets),
    };
    Ok(json(200, text).with("Cache-Control", "no-store"))
}

/// The admin routes at `segs` (the path's segments after `/__sandbox/accounts`).
pub fn admin(
    a: &mut Accounts,
    method: &str,
    segs: &[&str],
    path: &str,
    now: i64,
) -> Result<Response, ApiError> {
    let decoded = |s: &str| {
        percent_decode(s, false)
            .ok_or_else(|| ApiError::bad(code::BAD_REQUEST, "The token in the path is malformed."))
    };
    match (method, segs) {
        ("GET", []) => Ok(json(200, answer::counters(a, now))),
        ("POST", ["refresh-tokens", t, "revoke"]) => {
            let t = decoded(t)?;
            let n = a.revoke_refresh_token(&t, now).ok_or_else(|| {
                ApiError::not_found(format!("There is no refresh token {:?}.", shorten(&t)))
            })?;
            Ok(json(
                200,
                answer::ok(
                    "The refresh token and its live access tokens are revoked.",
                    &[("access_tokens_revoked", n as u64)],
                ),
            ))
        }
        ("POST", ["access-tokens", t, "revoke"]) => {
            let t = decoded(t)?;
            let live = a.revoke_access_token(&t, now).ok_or_else(|| {
                ApiError::not_found(format!(
                    "The accounts server minted no access token {:?}.",
                    shorten(&t)
                ))
            })?;
            Ok(json(
                200,
                answer::ok(
                    "The access token is revoked.",
                    &[("was_live", u64::from(live))],
                ),
            ))
        }
        (_, [] | ["refresh-tokens", _, "revoke"] | ["access-tokens", _, "revoke"]) => {
            Err(ApiError::new(
                405,
                code::METHOD,
                format!("{method} is not allowed at {}.", shorten(path)),
            ))
        }
        _ => Err(ApiError::new(
            404,
            code::NO_ROUTE,
            format!("There is no sandbox endpoint at {}.", shorten(path)),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::{Options, DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, DEMO_REFRESH_TOKEN};

    fn request(method: &str, query: &str, content_type: Option<&str>, body: &str) -> Request {
        Request {
            method: method.into(),
            path: super::super::TOKEN_PATH.into(),
            query: query.into(),
            http10: false,
            headers: content_type
                .map(|t| ("Content-Type".to_string(), t.to_string()))
                .into_iter()
                .collect(),
            body: body.as_bytes().to_vec(),
        }
    }

    fn text(r: &Response) -> &str {
        std::str::from_utf8(&r.body).unwrap()
    }

    fn demo_form() -> String {
        format!(
            "grant_type=refresh_token&client_id={}&client_secret={}&refresh_token={}",
            DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, DEMO_REFRESH_TOKEN
        )
    }

    #[test]
    fn the_form_or_the_query() {
        let form = "application/x-www-form-urlencoded;charset=UTF-8";
        let f = fields(&request(
            "POST",
            "client_id=q&x=1",
            Some(form),
            "client_id=b%2Bc+d&grant_type=refresh_token",
        ));
        assert_eq!(
            f.client_id.as_deref(),
            Some("b+c d"),
            "the body first, decoded"
        );
        assert_eq!(f.grant_type.as_deref(), Some("refresh_token"));
        let q = fields(&request("POST", "refresh_token=1000.x%26y", None, ""));
        assert_eq!(q.refresh_token.as_deref(), Some("1000.x&y"));
        let json = fields(&request(
            "POST",
            "",
            Some("application/json"),
            "client_id=b",
        ));
        assert_eq!(json.client_id, None, "a body that is no form is not read");
        let broken = fields(&request("POST", "client_id=q", None, "client_id=%zz"));
        assert_eq!(broken.client_id.as_deref(), Some("q"));
    }

    #[test]
    fn the_endpoint_answers_200_either_way() {
        let mut a = Accounts::new(Options::default(), 1);
        let r = token(
            &mut a,
            &request("POST", "", None, &demo_form()),
            "http://h",
            0,
            &mut |_| String::new(),
        )
        .unwrap();
        assert_eq!(r.status, 200);
        assert!(text(&r)
            .contains(r#""api_domain":"http://h","token_type":"Bearer","expires_in":3600}"#));
        let r = token(
            &mut a,
            &request(
                "POST",
                &demo_form().replace("client_id=", "client_id=x"),
                None,
                "",
            ),
            "h",
            0,
            &mut |_| String::new(),
        )
        .unwrap();
        assert_eq!((r.status, text(&r)), (200, r#"{"error":"invalid_client"}"#));
        let e = token(
            &mut a,
            &request("GET", &demo_form(), None, ""),
            "h",
            0,
            &mut |_| String::new(),
        )
        .unwrap_err();
        assert_eq!(e.status, 405);
        assert_eq!(a.tally().granted, 1);
    }

    #[test]
    fn admin_routes() {
        let mut a = Accounts::new(Options::default(), 1);
        let r = token(
            &mut a,
            &request("POST", "", None, &demo_form()),
            "h",
            0,
            &mut |_| String::new(),
        )
        .unwrap();
        let body = text(&r).to_string();
        let v = svc_json::parse(&body).unwrap();
        let t = v["access_token"].as_str().unwrap();
        let got = admin(&mut a, "POST", &["access-tokens", t, "revoke"], "p", 0).unwrap();
        assert_eq!(
            text(&got),
            r#"{"code":0,"message":"The access token is revoked.","was_live":1}"#
        );
        let rt = DEMO_REFRESH_TOKEN.replace('.', "%2E");
        let got = admin(&mut a, "POST", &["refresh-tokens", &rt, "revoke"], "p", 0).unwrap();
        assert!(text(&got).ends_with(r#""access_tokens_revoked":0}"#));
        let counters = admin(&mut a, "GET", &[], "p", 0).unwrap();
        assert!(text(&counters).contains(r#""revoked":true"#));
        for (method, segs, status) in [
            ("POST", &["refresh-tokens", "nope", "revoke"][..], 404),
            ("POST", &["access-tokens", "nope", "revoke"], 404),
            ("POST", &[], 405),
            ("GET", &["access-tokens", "x", "revoke"], 405),
            ("GET", &["elsewhere"], 404),
            ("POST", &["access-tokens", "%zz", "revoke"], 400),
        ] {
            let e = admin(&mut a, method, segs, "p", 0).unwrap_err();
            assert_eq!(e.status, status, "{method} {segs:?}");
        }
    }
}
