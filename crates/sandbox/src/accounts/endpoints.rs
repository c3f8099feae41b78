//! The accounts endpoints over HTTP beside the token grant: consent page, revocation, the device flow.

use super::consent::{Choice, AUTH_PATH};
use super::device::{self, Poll};
use super::route::{fields, json, params, post_only};
use super::{answer, html, Accounts};
use crate::error::ApiError;
use crate::http::{Request, Response};
use svc_json::write::{unsigned, Members};

/// Where refresh tokens are revoked.
pub const REVOKE_PATH: &str = "/oauth/v2/token/revoke";

/// Every path below `/oauth/` that this server answers.
pub const PATHS: &[&str] = &[
    super::TOKEN_PATH,
    REVOKE_PATH,
    AUTH_PATH,
    device::CODE_PATH,
    device::TOKEN_PATH,
    device::PAGE_PATH,
];

/// An HTML answer.
fn html(status: u16, text: String) -> Response {
    Response {
        status,
        headers: vec![
            ("Content-Type".into(), "text/html; charset=utf-8".into()),
            ("Cache-Control".into(), "no-store".into()),
            (
                "Content-Security-Policy".into(),
                "default-src 'none'; style-src 'unsafe-inline'".into(),
            ),
        ],
        body: text.into_bytes(),
    }
}

/// The answer of the endpoint at `req.path` (one of `PATHS`), or `None` for another path; `own` is
/// this server's URL, and `make` makes a new user's organization.
pub fn serve(
    a: &mut Accounts,
    req: &Request,
    own: &str,
    now: i64,
    make: &mut dyn FnMut(&str) -> String,
) -> Option<Result<Response, ApiError>> {
    let answer = match req.path.as_str() {
        super::TOKEN_PATH => super::route::token(a, req, own, now, make),
        REVOKE_PATH => post_only(req).map(|()| revoke(a, req, now)),
        AUTH_PATH => Ok(auth(a, req, own, now, make)),
        device::CODE_PATH => post_only(req).map(|()| device_code(a, req, own, now)),
        device::TOKEN_PATH => post_only(req).map(|()| device_token(a, req, own, now, make)),
        device::PAGE_PATH => Ok(device_page(a, req, now, make)),
        _ => return None,
    };
    Some(answer.map(|r| r.with("Cache-Control", "no-store")))
}

/// The first value of `name` in `all`.
fn get<'a>(all: &'a [(String, String)], name: &str) -> Option<&'a str> {
    all.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

/// `POST /oauth/v2/token/revoke?token=`: the refresh token revoked if it is one; success either way.
fn revoke(a: &mut Accounts, req: &Request, now: i64) -> Response {
    let all = params(req);
    if let Some(token) = get(&all, "token") {
        a.revoke_by_request(token, now);
    }
    json(200, r#"{"status":"success"}"#.into())
}

/// The user's choice in a posted form: the user radio (or the other email), the location, the button.
fn choice(all: &[(String, String)]) -> Choice {
    let user = get(all, "user")
        .filter(|u| !u.is_empty())
        .or_else(|| get(all, "email"));
    Choice {
        user: user.map(String::from),
        deny: get(all, "decision") == Some("decline"),
        location: get(all, "location").map(String::from),
    }
}

/// `GET /oauth/v2/auth`: the consent page, or an error page (400); `POST`: the redirect (302) of the
/// decision, or an error page.
fn auth(
    a: &mut Accounts,
    req: &Request,
    own: &str,
    now: i64,
    make: &mut dyn FnMut(&str) -> String,
) -> Response {
    let all = if req.method == "POST" {
        params(req)
    } else {
        svc_core::request::parse_query(&req.query).unwrap_or_default()
    };
    let checked = match a.auth_request(&all) {
        Ok(r) => r,
        Err(why) => return html(400, html::error(&why)),
    };
    match req.method.as_str() {
        "GET" | "HEAD" => html(
            200,
            html::consent(&checked, a.users().all(), &a.locations()),
        ),
        "POST" => match a.consent(&checked, &choice(&all), own, now, make) {
            Ok(to) => Response {
                status: 302,
                headers: vec![("Location".into(), to)],
                body: Vec::new(),
            },
            Err(why) => html(400, html::error(&why)),
        },
        _ => html(405, html::error("The consent page takes GET and POST.")),
    }
}

/// The device flow's polling interval in seconds, as exact as its milliseconds.
fn seconds(ms: u64) -> String {
    let text = format!("{}.{:03}", ms / 1000, ms % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `POST /oauth/v3/device/code`: `{device_code, user_code, verification_url, expires_in, interval}`.
fn device_code(a: &mut Accounts, req: &Request, own: &str, now: i64) -> Response {
    let f = fields(req);
    let issued = match a.device_code(&f, now) {
        Ok(issued) => issued,
        Err(why) => return json(200, answer::refused(why, &f, a.options().echo_secrets)),
    };
    let mut out = String::new();
    let mut m = Members::new(&mut out);
    m.str("device_code", &issued.device_code);
    m.str("user_code", &issued.user_code);
    m.str("verification_url", &format!("{own}{}", device::PAGE_PATH));
    unsigned(m.key("expires_in"), issued.expires_in_s);
    m.key("interval").push_str(&seconds(issued.interval_ms));
    m.end();
    json(200, out)
}

/// `POST /oauth/v3/device/token`: the tokens, a refusal, or `{"error":"other_dc","location",
/// "accounts-server","device_code"}` (poll that server with that code).
fn device_token(
    a: &mut Accounts,
    req: &Request,
    own: &str,
    now: i64,
    make: &mut dyn FnMut(&str) -> String,
) -> Response {
    let f = fields(req);
    let text = match a.device_poll(&f, own, now, make) {
        Poll::Granted(g) => answer::granted(&g, own, a.options().legacy_expires_in),
        Poll::Refused(why) => answer::refused(why, &f, a.options().echo_secrets),
        Poll::OtherDc {
            location,
            accounts_server,
            device_code,
        } => {
            let mut out = String::new();
            let mut m = Members::new(&mut out);
            m.str("error", "other_dc");
            m.str("location", &location);
            m.str("accounts-server", &accounts_server);
            m.str("device_code", &device_code);
            m.end();
            out
        }
    };
    json(200, text)
}

/// `GET /oauth/v3/device[?user_code=]`: the page to type a user code; `POST`: the approval or refusal.
fn device_page(
    a: &mut Accounts,
    req: &Request,
    now: i64,
    make: &mut dyn FnMut(&str) -> String,
) -> Response {
    let all = params(req);
    let typed = get(&all, "user_code").unwrap_or_default();
    match req.method.as_str() {
        "GET" | "HEAD" => {
            let asks = a.device_request(typed, now);
            html(
                200,
                html::device(typed, asks, a.users().all(), &a.locations()),
            )
        }
        "POST" => {
            let c = choice(&all);
            match a.approve_device(typed, &c, now, make) {
                Ok(()) if c.deny => html(
                    200,
                    html::result("Declined", "The device was refused access."),
                ),
                Ok(()) => html(
                    200,
                    html::result(
                        "Approved",
                        "The device is connected; you can close this page.",
                    ),
                ),
                Err(why) => html(400, html::error(&why)),
            }
        }
        _ => html(405, html::error("The device page takes GET and POST.")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_in_seconds() {
        assert_eq!(seconds(5000), "5");
        assert_eq!(seconds(100), "0.1");
        assert_eq!(seconds(1250), "1.25");
    }
}
