//! The accounts server's answers as JSON text, in the vendor's shapes, member for member.

use super::{spell, Accounts, Fields, Granted, Refusal, DEMO_CLIENT_ID, DEMO_REFRESH_TOKEN};
use svc_json::write::{string, unsigned, Members};

/// The Access Denied answer's description, the vendor's words.
pub const TOO_MANY: &str =
    "You have made too many requests continuously. Please try again after some time.";

/// `{"access_token","refresh_token"?,"api_domain","token_type":"Bearer","expires_in"}` in seconds (whole, rounded
/// down: never more time than the token has); the legacy shape puts `expires_in_sec` first and
/// `expires_in` in milliseconds.
pub fn granted(g: &Granted, api_domain: &str, legacy: bool) -> String {
    let mut out = String::new();
    let mut m = Members::new(&mut out);
    m.str("access_token", &g.access_token);
    if let Some(r) = &g.refresh_token {
        m.str("refresh_token", r);
    }
    if legacy {
        unsigned(m.key("expires_in_sec"), g.lifetime_ms / 1000);
    }
    m.str("api_domain", api_domain);
    m.str("token_type", "Bearer");
    unsigned(
        m.key("expires_in"),
        if legacy {
            g.lifetime_ms
        } else {
            g.lifetime_ms / 1000
        },
    );
    m.end();
    out
}

/// The secrets a request can carry: the client secret, a refresh token, a code (or device code).
fn secrets(f: &Fields) -> [(&'static str, &Option<String>); 3] {
    [
        ("client_secret", &f.client_secret),
        ("refresh_token", &f.refresh_token),
        ("code", &f.code),
    ]
}

/// The received secrets in every spelling, for `error_description`.
fn echoed(f: &Fields) -> String {
    let mut out = Vec::new();
    for (name, value) in secrets(f) {
        if let Some(v) = value {
            let spellings: Vec<String> = spell::all(v).into_iter().map(|(_, s)| s).collect();
            out.push(format!("{name} {}", spellings.join(" ")));
        }
    }
    format!("(received {})", out.join("; "))
}

/// A refusal: `{"error"}`, or Access Denied with its description and `"status":"failure"`. With
/// `echo`, the received client_secret, refresh_token and code are added in every spelling: in
/// `error_description`, and as members `<name>` (raw; and once more as JSON text that escapes every
/// character, `<name>_json_escaped`), `<name>_percent_encoded`, `<name>_unicode_escaped` (the text
/// `\uXXXX...`) and `<name>_base64`.
pub fn refused(why: Refusal, f: &Fields, echo: bool) -> String {
    let mut out = String::new();
    let mut m = Members::new(&mut out);
    m.str("error", why.error());
    let description = match (why, echo) {
        (Refusal::AccessDenied, false) => Some(TOO_MANY.to_string()),
        (Refusal::AccessDenied, true) => Some(format!("{TOO_MANY} {}", echoed(f))),
        (_, true) => Some(echoed(f)),
        (_, false) => None,
    };
    if let Some(d) = description {
        m.str("error_description", &d);
    }
    if why == Refusal::AccessDenied {
        m.str("status", "failure");
    }
    if echo {
        for (name, value) in secrets(f) {
            let Some(v) = value else { continue };
            for (spelling, s) in spell::all(v) {
                match spelling {
                    "raw" => m.str(name, &s),
                    _ => m.str(&format!("{name}_{spelling}"), &s),
                }
            }
            let text = m.key(&format!("{name}_json_escaped"));
            text.push('"');
            text.push_str(&spell::unicode_escaped(v));
            text.push('"');
        }
    }
    m.end();
    out
}

/// The API's message for an expired or revoked token; with `echo`, the token in every spelling.
pub fn invalid_token_message(token: &str, echo: bool) -> String {
    const INVALID: &str = "The access token is not valid.";
    if !echo {
        return INVALID.into();
    }
    let spellings: Vec<String> = spell::all(token).into_iter().map(|(_, s)| s).collect();
    format!("{INVALID} (received {})", spellings.join(" "))
}

/// The counters of codes, device codes and revocations, as members of `m`.
fn flows(m: &mut Members, t: &super::Tally) {
    for (name, members) in [
        (
            "codes",
            [
                ("issued", t.codes_issued),
                ("redeemed", t.codes_redeemed),
                ("declined", t.codes_declined),
            ],
        ),
        (
            "device_codes",
            [
                ("issued", t.device_codes_issued),
                ("approved", t.device_codes_approved),
                ("declined", t.device_codes_declined),
            ],
        ),
    ] {
        let mut group = Members::new(m.key(name));
        for (k, v) in members {
            unsigned(group.key(k), v);
        }
        group.end();
    }
    let mut revocations = Members::new(m.key("revocations"));
    unsigned(revocations.key("by_request"), t.revoked_by_request);
    unsigned(revocations.key("by_user_limit"), t.revoked_by_user_limit);
    revocations.end();
}

/// The counters route's answer at `now`:
/// `{"code":0,"message":"success","refreshes":{"granted","access_denied","invalid_code",
/// "invalid_client","unsupported_grant_type"},"revoked_by_cap","revoked_by_admin",
/// "api_401":{"expired","revoked"},"codes":{"issued","redeemed","declined"},"device_codes":{"issued",
/// "approved","declined"},"revocations":{"by_request","by_user_limit"} (refresh tokens),"refresh_tokens":{"<token>":{"client_id","revoked","granted",
/// "access_denied","live_tokens","peak_live_tokens","blocked_until_ms"}},"demo_client":{"client_id",
/// "client_secret","refresh_token"}}` (`blocked_until_ms`: null when refreshes are not denied now;
/// `demo_client`: null when it is not registered).
pub fn counters(a: &mut Accounts, now: i64) -> String {
    let t = a.tally().clone();
    let mut out = String::new();
    let mut m = Members::new(&mut out);
    unsigned(m.key("code"), 0);
    m.str("message", "success");
    let mut r = Members::new(m.key("refreshes"));
    for (k, v) in [
        ("granted", t.granted),
        ("access_denied", t.access_denied),
        ("invalid_code", t.invalid_code),
        ("invalid_client", t.invalid_client),
        ("unsupported_grant_type", t.unsupported_grant_type),
    ] {
        unsigned(r.key(k), v);
    }
    r.end();
    unsigned(m.key("revoked_by_cap"), t.revoked_by_cap);
    unsigned(m.key("revoked_by_admin"), t.revoked_by_admin);
    let mut api = Members::new(m.key("api_401"));
    unsigned(api.key("expired"), t.api_401_expired);
    unsigned(api.key("revoked"), t.api_401_revoked);
    api.end();
    flows(&mut m, &t);
    let mut tokens = Members::new(m.key("refresh_tokens"));
    for s in a.refresh_tokens(now) {
        let mut one = Members::new(tokens.key(s.refresh_token));
        one.str("client_id", s.client_id);
        one.value("revoked", &s.revoked);
        unsigned(one.key("granted"), s.granted);
        unsigned(one.key("access_denied"), s.access_denied);
        unsigned(one.key("live_tokens"), s.live_tokens as u64);
        unsigned(one.key("peak_live_tokens"), s.peak_live_tokens as u64);
        match s.blocked_until_ms {
            Some(ms) => svc_json::write::integer(one.key("blocked_until_ms"), ms),
            None => one.key("blocked_until_ms").push_str("null"),
        }
        one.end();
    }
    tokens.end();
    let demo = a.options().clients.iter().find(|c| c.id == DEMO_CLIENT_ID);
    match demo {
        Some(c) => {
            let mut d = Members::new(m.key("demo_client"));
            d.str("client_id", &c.id);
            d.str("client_secret", &c.secret);
            d.str("refresh_token", DEMO_REFRESH_TOKEN);
            d.end();
        }
        None => m.key("demo_client").push_str("null"),
    }
    m.end();
    out
}

/// A message as the sandbox's own routes answer it: `{"code":0,"message"}` and more members.
pub fn ok(message: &str, more: &[(&str, u64)]) -> String {
    let mut out = String::new();
    let mut m = Members::new(&mut out);
    unsigned(m.key("code"), 0);
    m.str("message", message);
    for (k, v) in more {
        unsigned(m.key(k), *v);
    }
    m.end();
    out
}

/// `s` as a JSON string (for tests and callers that write one member).
pub fn quoted(s: &str) -> String {
    let mut out = String::new();
    string(&mut out, s);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::{Options, DEMO_CLIENT_SECRET};

    fn token(ms: u64) -> Granted {
        Granted {
            access_token: "1000.a.b".into(),
            refresh_token: None,
            lifetime_ms: ms,
        }
    }

    #[test]
    fn a_grant_in_both_shapes() {
        assert_eq!(
            granted(&token(3_600_000), "http://127.0.0.1:1", false),
            r#"{"access_token":"1000.a.b","api_domain":"http://127.0.0.1:1","token_type":"Bearer","expires_in":3600}"#
        );
        assert_eq!(
            granted(&token(3_600_000), "http://h", true),
            r#"{"access_token":"1000.a.b","expires_in_sec":3600,"api_domain":"http://h","token_type":"Bearer","expires_in":3600000}"#
        );
        assert!(granted(&token(1500), "h", false).ends_with(r#""expires_in":1}"#));
        assert!(granted(&token(1500), "h", true).contains(r#""expires_in_sec":1,"#));
    }

    fn sent() -> Fields {
        Fields {
            grant_type: Some("refresh_token".into()),
            client_id: Some("c".into()),
            client_secret: Some("s&é".into()),
            refresh_token: Some("1000.r".into()),
            ..Fields::default()
        }
    }

    #[test]
    fn refusals_in_the_vendor_shape() {
        assert_eq!(
            refused(Refusal::AccessDenied, &sent(), false),
            r#"{"error":"Access Denied","error_description":"You have made too many requests continuously. Please try again after some time.","status":"failure"}"#
        );
        for (why, body) in [
            (Refusal::InvalidCode, r#"{"error":"invalid_code"}"#),
            (Refusal::InvalidClient, r#"{"error":"invalid_client"}"#),
            (
                Refusal::UnsupportedGrantType,
                r#"{"error":"unsupported_grant_type"}"#,
            ),
        ] {
            assert_eq!(refused(why, &sent(), false), body);
        }
    }

    #[test]
    fn echo_spells_the_secrets_every_way() {
        for why in [
            Refusal::AccessDenied,
            Refusal::InvalidCode,
            Refusal::InvalidClient,
            Refusal::UnsupportedGrantType,
        ] {
            let text = refused(why, &sent(), true);
            let v = svc_json::parse(&text).unwrap();
            assert_eq!(v["error"].as_str(), Some(why.error()));
            let d = v["error_description"].as_str().unwrap();
            for s in [
                "s&é",
                "s%26%C3%A9",
                "\\u0073\\u0026\\u00e9",
                "cybDqQ==",
                "1000.r",
                "MTAwMC5y",
            ] {
                assert!(d.contains(s), "{why:?}: {s} in {d}");
            }
            assert_eq!(v["client_secret"].as_str(), Some("s&é"));
            assert_eq!(
                v["client_secret_percent_encoded"].as_str(),
                Some("s%26%C3%A9")
            );
            assert_eq!(v["client_secret_base64"].as_str(), Some("cybDqQ=="));
            assert_eq!(v["client_secret_json_escaped"].as_str(), Some("s&é"));
            assert!(text.contains(r#""client_secret_json_escaped":"\u0073\u0026\u00e9""#));
            assert_eq!(
                v["refresh_token_unicode_escaped"].as_str().unwrap().len(),
                36
            );
        }
        let m = invalid_token_message("1000.t", true);
        assert!(m.starts_with("The access token is not valid. (received 1000.t 1000.t "));
        assert!(m.contains("MTAwMC50"));
        assert_eq!(
            invalid_token_message("1000.t", false),
            "The access token is not valid."
        );
    }

    #[test]
    fn the_counters() {
        let mut a = Accounts::new(Options::default(), 1);
        let f = Fields {
            grant_type: Some("refresh_token".into()),
            client_id: Some(DEMO_CLIENT_ID.into()),
            client_secret: Some(DEMO_CLIENT_SECRET.into()),
            refresh_token: Some(DEMO_REFRESH_TOKEN.into()),
            ..Fields::default()
        };
        a.grant(&f, 5).unwrap();
        assert_eq!(
            counters(&mut a, 5),
            format!(
                r#"{{"code":0,"message":"success","refreshes":{{"granted":1,"access_denied":0,"invalid_code":0,"invalid_client":0,"unsupported_grant_type":0}},"revoked_by_cap":0,"revoked_by_admin":0,"api_401":{{"expired":0,"revoked":0}},"codes":{{"issued":0,"redeemed":0,"declined":0}},"device_codes":{{"issued":0,"approved":0,"declined":0}},"revocations":{{"by_request":0,"by_user_limit":0}},"refresh_tokens":{{{}:{{"client_id":{},"revoked":false,"granted":1,"access_denied":0,"live_tokens":1,"peak_live_tokens":1,"blocked_until_ms":null}}}},"demo_client":{{"client_id":{},"client_secret":{},"refresh_token":{}}}}}"#,
                quoted(DEMO_REFRESH_TOKEN),
                quoted(DEMO_CLIENT_ID),
                quoted(DEMO_CLIENT_ID),
                quoted(DEMO_CLIENT_SECRET),
                quoted(DEMO_REFRESH_TOKEN)
            )
        );
        assert_eq!(
            ok("done", &[("n", 2)]),
            r#"{"code":0,"message":"done","n":2}"#
        );
        let mut none = Accounts::new(
            Options {
                clients: Vec::new(),
                ..Options::default()
            },
            1,
        );
        assert!(counters(&mut none, 5).ends_with(r#","demo_client":null}"#));
    }
}
