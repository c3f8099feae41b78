//! The headers a call adds: checked against the ones a program may not set, and merged.

use crate::error::Error;
use crate::family::{Family, OrgPlacement};

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
