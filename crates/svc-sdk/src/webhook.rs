//! Receiving: notification-channel callbacks (with their token checked in constant time) and billing events.

use subtle::ConstantTimeEq;
use svc_core::error::{Error, ErrorKind};
use svc_core::lossless;
use svc_core::model::billing::{Event, EVENT_TYPES};
use svc_core::model::crm::WatchNotification;
use svc_json::Json;

/// Whether two byte strings are equal, in a time that does not depend on where they differ
/// (`subtle`; strings of different lengths are unequal at once).
pub fn constant_time_eq(expected: &[u8], given: &[u8]) -> bool {
    expected.ct_eq(given).into()
}

fn decode_error(what: &str, e: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::Decode,
        format!("the {what} could not be read: {e}"),
    )
}

type FieldCheck<'a> = (&'a str, bool, fn(&Json) -> bool, &'a str);

fn is_string(v: &Json) -> bool {
    matches!(v, Json::Str(_))
}

fn is_number(v: &Json) -> bool {
    matches!(v, Json::Num(_))
}

fn is_array(v: &Json) -> bool {
    matches!(v, Json::Arr(_))
}

fn is_object(v: &Json) -> bool {
    matches!(v, Json::Obj(_))
}

/// Checks that the fields of a JSON object have their JSON types: (name, required, test, expected).
fn check_fields(what: &str, v: &Json, fields: &[FieldCheck]) -> Result<(), Error> {
    let obj = v
        .as_object()
        .ok_or_else(|| decode_error(what, "it is not a JSON object"))?;
    for (name, required, ok, expected) in fields {
        match obj.get(name) {
            None | Some(Json::Null) if !required => {}
            Some(x) if ok(x) => {}
            _ => return Err(decode_error(what, format!("`{name}` must be {expected}"))),
        }
    }
    Ok(())
}

/// A callback body posted to a channel's notify_url, as JSON text with every id a string.
/// With `token`, the body's token must match it (kind `verification` otherwise).
pub fn watch_notification_text(body: &str, token: Option<&str>) -> Result<String, Error> {
    let text = lossless::rewrite(body.trim()).map_err(|e| decode_error("notification", e))?;
    let v = svc_json::parse(&text).map_err(|e| decode_error("notification", e))?;
    check_fields(
        "notification",
        &v,
        &[
            ("module", true, is_string, "a string"),
            ("operation", true, is_string, "a string"),
            ("channel_id", true, is_string, "an id"),
            ("token", false, is_string, "a string"),
            ("server_time", false, is_number, "a number"),
            ("ids", false, is_array, "an array"),
            ("affected_values", false, is_array, "an array"),
            ("affected_fields", false, is_array, "an array"),
            ("query_params", false, is_object, "an object"),
        ],
    )?;
    if let Some(expected) = token {
        let given = v.get("token").and_then(Json::as_str).unwrap_or("");
        if !constant_time_eq(expected.as_bytes(), given.as_bytes()) {
            return Err(Error::new(
                ErrorKind::Verification,
                "the notification's token does not match the channel's token",
            ));
        }
    }
    Ok(text)
}

/// `watch_notification_text`, typed.
pub fn parse_watch_notification(
    body: &str,
    token: Option<&str>,
) -> Result<WatchNotification, Error> {
    let text = watch_notification_text(body, token)?;
    let v = svc_json::parse(&text).map_err(|e| decode_error("notification", e))?;
    svc_json::from_json(&v).map_err(|e| decode_error("notification", e))
}

/// A billing event, as a webhook body or a `GET /events/{id}` answer (`{ event: {...} }`), as JSON
/// text with every id a string. Its event_type must be one of the 24 documented types.
pub fn event_text(body: &str) -> Result<String, Error> {
    let members = lossless::members(body.trim()).map_err(|e| decode_error("event", e))?;
    let raw = match members
        .iter()
        .find(|m| m.key == "event" && m.value.starts_with('{'))
    {
        Some(m) => m.value,
        None => body.trim(),
    };
    let text = lossless::rewrite(raw).map_err(|e| decode_error("event", e))?;
    let v = svc_json::parse(&text).map_err(|e| decode_error("event", e))?;
    check_fields(
        "event",
        &v,
        &[
            ("event_id", true, is_string, "an id"),
            ("event_type", true, is_string, "a string"),
            ("event_time", false, is_string, "a string"),
            ("webhooks", false, is_array, "an array"),
        ],
    )?;
    let kind = v
        .get("event_type")
        .and_then(Json::as_str)
        .unwrap_or_default();
    if !EVENT_TYPES.contains(&kind) {
        return Err(decode_error(
            "event",
            format!(
                "event_type {} is not one of the 24 documented types",
                svc_core::echo::quoted(kind)
            ),
        ));
    }
    Ok(text)
}

/// `event_text`, typed.
pub fn parse_event(body: &str) -> Result<Event, Error> {
    let text = event_text(body)?;
    let v = svc_json::parse(&text).map_err(|e| decode_error("event", e))?;
    svc_json::from_json(&v).map_err(|e| decode_error("event", e))
}

/// The query parameter of the webhook URL that carries its token, unless another is named.
pub const EVENT_TOKEN_PARAM: &str = "token";

/// The parameters of the query of the URL an event was posted to, percent-decoded (RFC 3986), not
/// form-decoded: the service posts to the URL exactly as it was registered, and a token pasted
/// into it as it is (base64 text, say) keeps its `+`, so a `+` is a `+`; a space is written `%20`.
/// `None` when an escape is malformed or not UTF-8.
pub fn event_url_query(url: &str) -> Option<Vec<(String, String)>> {
    let query = url
        .split('#')
        .next()
        .and_then(|u| u.split_once('?'))
        .map_or("", |(_, q)| q);
    let decode = |t: &str| svc_core::request::percent_decode(t, false);
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            Some((decode(k)?, decode(v)?))
        })
        .collect()
}

/// Checks the URL a billing event was posted to: the webhook URL registered with the service, the
/// token embedded in its query parameter `param` (the spec shows no signing, and the service posts
/// to the URL as it was given). The token must be there once and equal `expected`, compared in
/// constant time; anything else is kind `verification`, and no message quotes either token. An
/// empty `expected` is a `config` error.
pub fn verify_event_url(url: &str, param: &str, expected: &str) -> Result<(), Error> {
    if expected.is_empty() {
        return Err(Error::config(
            "the webhook's token is empty: an unset variable must not turn verification off",
        ));
    }
    let refused = |why: &str| {
        Error::new(
            ErrorKind::Verification,
            format!("the event's URL {why}: it was not posted to the webhook URL registered with its token"),
        )
    };
    let pairs =
        event_url_query(url).ok_or_else(|| refused("has a query that is not well encoded"))?;
    let mut given = pairs.iter().filter(|(k, _)| k == param).map(|(_, v)| v);
    let token = match (given.next(), given.next()) {
        (Some(token), None) => token,
        (None, _) => {
            return Err(refused(&format!(
                "has no {} parameter",
                svc_core::echo::quoted(param)
            )))
        }
        (Some(_), Some(_)) => {
            return Err(refused(&format!(
                "has its {} parameter more than once",
                svc_core::echo::quoted(param)
            )))
        }
    };
    if !constant_time_eq(expected.as_bytes(), token.as_bytes()) {
        return Err(refused(&format!(
            "holds a {} that is not the webhook's token",
            svc_core::echo::quoted(param)
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = r#"{"server_time":1710000000000,"query_params":{"a":"1"},"module":"Deals",
        "resource_uri":"https://www.svcapis.com/crm/v8/Deals","ids":[5000000000000000001],
        "affected_values":[{"record_id":5000000000000000001,"values":{"Stage":"Won"}}],
        "affected_fields":[{"5000000000000000001":["Stage"]}],"operation":"update",
        "channel_id":1000000068001,"token":"s3cret","x_new":1}"#;

    #[test]
    fn a_notification_with_the_right_token_decodes_losslessly() {
        let n = parse_watch_notification(BODY, Some("s3cret")).unwrap();
        let text = watch_notification_text(BODY, Some("s3cret")).unwrap();
        assert_eq!(n.channel_id.0, "1000000068001");
        assert_eq!(n.ids.unwrap()[0].0, "5000000000000000001");
        assert!(text.contains(r#""record_id":"5000000000000000001""#));
        assert!(text.contains(r#""x_new":1"#), "unknown fields are kept");
    }

    #[test]
    fn a_wrong_or_missing_token_is_a_verification_error() {
        for expected in ["s3creT", "s3cret!", "", "x"] {
            let e = parse_watch_notification(BODY, Some(expected)).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Verification, "{expected:?}");
            assert!(!e.message.contains("s3cret"));
        }
        let no_token = BODY.replace(r#","token":"s3cret""#, "");
        assert_eq!(
            parse_watch_notification(&no_token, Some("s3cret"))
                .unwrap_err()
                .kind(),
            ErrorKind::Verification
        );
        assert!(parse_watch_notification(&no_token, None).is_ok());
    }

    #[test]
    fn malformed_notifications_are_decode_errors() {
        for bad in [
            "",
            "[]",
            "{",
            r#"{"module":"Deals"}"#,
            r#"{"module":1,"operation":"x","channel_id":1}"#,
        ] {
            assert_eq!(
                parse_watch_notification(bad, None).unwrap_err().kind(),
                ErrorKind::Decode,
                "{bad:?}"
            );
        }
    }

    /// Every string over a small alphabet up to length 3 against every other, and long strings
    /// against their copies, one-byte changes at each place, and their cuts and extensions: the
    /// compare is true exactly when the bytes are equal.
    #[test]
    fn constant_time_comparison_is_equality() {
        let mut short: Vec<Vec<u8>> = vec![vec![]];
        for len in 1..=3 {
            let from = short.len() - 3usize.pow(len - 1);
            for i in from..short.len() {
                for b in [0x00, b'a', 0xff] {
                    let mut s = short[i].clone();
                    s.push(b);
                    short.push(s);
                }
            }
        }
        for a in &short {
            for b in &short {
                assert_eq!(constant_time_eq(a, b), a == b, "{a:?} {b:?}");
            }
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut byte = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        };
        for len in [1, 2, 15, 16, 17, 64, 255, 1024] {
            let a: Vec<u8> = (0..len).map(|_| byte()).collect();
            assert!(constant_time_eq(&a, &a.clone()));
            for i in 0..len {
                let mut b = a.clone();
                b[i] ^= 1 << (i % 8);
                assert!(!constant_time_eq(&a, &b), "{len} {i}");
                assert!(!constant_time_eq(&a, &a[..i]), "{len} cut at {i}");
            }
            let mut longer = a.clone();
            longer.push(byte());
            assert!(!constant_time_eq(&a, &longer));
            assert!(!constant_time_eq(&longer, &a));
        }
    }

    #[test]
    fn an_event_url_holds_the_webhook_token_once() {
        let ok = |url: &str, param: &str| verify_event_url(url, param, "hook s3cret/+");
        assert_eq!(
            ok(
                "https://app.example/hooks/events?token=hook%20s3cret%2F%2B",
                "token"
            ),
            Ok(())
        );
        assert_eq!(
            ok("/hooks/events?a=1&token=hook%20s3cret/+#x", "token"),
            Ok(())
        );
        // A `+` is a `+`, not a space: a token of base64 text holds them as it is.
        let b64 = "a+b/c+d==";
        assert_eq!(
            verify_event_url("https://h/e?token=a+b/c+d==", "token", b64),
            Ok(())
        );
        assert_eq!(
            verify_event_url("https://h/e?token=a%2Bb%2Fc%2Bd%3D%3D", "token", b64),
            Ok(())
        );
        assert!(verify_event_url("https://h/e?token=a b/c d==", "token", b64).is_err());
        let e = ok("https://h/e?token=hook+s3cret/%2B", "token").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Verification);
        assert_eq!(
            ok("https://h/e?k=hook%20s3cret%2F%2B&token=no", "k"),
            Ok(())
        );
        for (url, why) in [
            ("https://h/e", "has no \"token\" parameter"),
            (
                "https://h/e?tok=hook%20s3cret%2F%2B",
                "has no \"token\" parameter",
            ),
            (
                "https://h/e#token=hook%20s3cret%2F%2B",
                "has no \"token\" parameter",
            ),
            (
                "https://h/e?token=",
                "holds a \"token\" that is not the webhook's token",
            ),
            (
                "https://h/e?token=hook%20s3cret%2F",
                "holds a \"token\" that is not the webhook's token",
            ),
            (
                "https://h/e?token=HOOK%20S3CRET%2F%2B",
                "holds a \"token\" that is not the webhook's token",
            ),
            (
                "https://h/e?token=hook%20s3cret%2F%2B&token=x",
                "has its \"token\" parameter more than once",
            ),
            (
                "https://h/e?token=%zz",
                "has a query that is not well encoded",
            ),
        ] {
            let e = ok(url, "token").unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Verification, "{url}");
            assert_eq!(
                e.message,
                format!("the event's URL {why}: it was not posted to the webhook URL registered with its token"),
                "{url}"
            );
            assert!(!e.to_json().contains("s3cret"), "{url}");
        }
        let e = verify_event_url("https://h/e?token=", "token", "").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Config);
    }

    #[test]
    fn events_bare_or_enveloped() {
        let bare = r#"{"event_id":4000000000000000001,"event_type":"payment_thankyou","event_time":"2024-01-02T10:00:00+0530","payload":"{}","webhooks":[]}"#;
        let e = parse_event(bare).unwrap();
        let text = event_text(bare).unwrap();
        assert_eq!(e.event_id.0, "4000000000000000001");
        assert!(text.contains(r#""event_id":"4000000000000000001""#));
        let wrapped = format!(r#"{{"code":0,"message":"success","event":{bare}}}"#);
        assert_eq!(event_text(&wrapped).unwrap(), text);
        let unknown = bare.replace("payment_thankyou", "payment_teleported");
        assert_eq!(parse_event(&unknown).unwrap_err().kind(), ErrorKind::Decode);
        assert_eq!(parse_event("nope").unwrap_err().kind(), ErrorKind::Decode);
    }
}
