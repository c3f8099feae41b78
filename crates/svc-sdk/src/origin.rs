//! Origins: a redirect's target named by its origin alone (redirects are never followed), and the origins a proxy takes requests from.

use svc_core::echo::quoted;
use svc_core::error::{Error, ErrorKind};

/// The origin of `url` as a browser writes it (`scheme://host[:port]`, lower-case, the default
/// port and any user info left out), a relative `url` read against `base`. `None` for a URL
/// that is not http(s) with a plain host.
pub fn of(url: &str, base: &str) -> Option<String> {
    // As URL parsers read it: tabs and line breaks dropped, `\` a `/`.
    let url: String = url
        .trim()
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .map(|c| if c == '\\' { '/' } else { c })
        .collect();
    let scheme_end = url
        .find(':')
        .filter(|&i| !url[..i].contains(['/', '?', '#']));
    let (scheme, rest) = match scheme_end {
        Some(i) => (&url[..i], &url[i + 1..]),
        None if url.starts_with("//") => (base.split_once(':')?.0, url.as_str()),
        None if base.is_empty() => return None,
        None => return of(base, ""),
    };
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "https" && scheme != "http" {
        return None;
    }
    let rest = rest.trim_start_matches('/');
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
    let host = svc_core::family::host_of(authority)?;
    let port = &authority[host.len()..];
    let default = if scheme == "https" { ":443" } else { ":80" };
    let port = if port == default { "" } else { port };
    Some(format!("{scheme}://{}{port}", host.to_ascii_lowercase()))
}

/// How an answer came back, as the runtime tells it, for `redirected`.
#[derive(Clone, Copy, Debug)]
pub struct Came<'a> {
    pub status: u16,
    /// The Response's `type`: a browser's redirect not followed is `"opaqueredirect"`.
    pub response_type: &'a str,
    /// The Response's `redirected`: a `fetch` option that followed one anyway.
    pub followed: bool,
    /// The answer's URL (where a followed redirect ended).
    pub url: &'a str,
    pub location: Option<&'a str>,
}

/// Who a request goes to, in the words of its errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Upstream {
    /// The API (`apiDomain`, the region's, or a grant's `api_domain`).
    Service,
    /// The accounts server of the OAuth grant (`oauth.accountsUrl`, or the region's).
    Accounts,
}

impl Upstream {
    fn name(self) -> &'static str {
        match self {
            Upstream::Service => "the service",
            Upstream::Accounts => "the accounts server",
        }
    }

    fn what_to_do(self) -> &'static str {
        match self {
            Upstream::Service => "point apiDomain at the host that answers without redirecting",
            Upstream::Accounts => "point oauth.accountsUrl (or region) at the accounts server that answers without redirecting",
        }
    }
}

/// The `api` error of an answer that is a redirect, which is never followed (its body and the
/// organization would go to another host, and its answer be taken as data): a 3xx (with its
/// status), a browser's opaque redirect, or an answer a `fetch` option reached by following one.
/// The target is named by its origin only: its path and query may hold secrets. `None` for any
/// other answer.
pub fn redirected(came: &Came<'_>, request_url: &str, to: Upstream) -> Option<Error> {
    let (who, what_to_do) = (to.name(), to.what_to_do());
    let target = |url: Option<&str>| match url {
        None => "no Location".to_string(),
        Some(url) => of(url, request_url)
            .unwrap_or_else(|| "a location that is not an http(s) URL".to_string()),
    };
    let message = if (300..400).contains(&came.status) {
        format!(
            "{who} answered {} (a redirect to {}), which is not followed: {what_to_do}",
            came.status,
            target(came.location)
        )
    } else if came.response_type == "opaqueredirect" {
        format!("{who} answered with a redirect, which is not followed (the browser does not tell where to): {what_to_do}")
    } else if came.followed {
        format!(
            "the fetch option followed a redirect to {}, which the SDK never does (the request went there as it was): make it honour redirect: \"manual\", and {what_to_do}",
            target(Some(came.url))
        )
    } else {
        return None;
    };
    let e = Error::new(ErrorKind::Api, message);
    Some(match came.status {
        0 => e,
        status => e.with_status(status),
    })
}

/// `allowedOrigins` of a proxy, checked: each an origin exactly as browsers send it.
pub fn allowed(list: &[String]) -> Result<Vec<String>, Error> {
    list.iter()
        .map(|o| match of(o, "") {
            Some(origin) if origin == *o => Ok(origin),
            found => Err(Error::config(format!(
                "allowedOrigins: {} is not an origin as browsers send it (scheme://host, lower-case, a port only when not the default, no path or trailing /){}",
                quoted(o),
                found.map(|f| format!("; did you mean {f}?")).unwrap_or_default()
            ))),
        })
        .collect()
}

/// Whether a proxy takes a request whose `Origin` header is `origin`: without a list, any; with
/// one, a request without Origin (not sent cross-site by a browser) and one from a listed origin.
pub fn admitted(list: Option<&[String]>, origin: Option<&str>) -> Result<(), Error> {
    match (list, origin) {
        (Some(list), Some(origin)) if !list.iter().any(|o| o.eq_ignore_ascii_case(origin)) => {
            Err(crate::proxy::refuse(
                403,
                format!(
                    "this proxy does not take requests from the origin {} (allowedOrigins)",
                    quoted(origin)
                ),
            ))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "https://www.svcapis.com/books/v3/contacts?organization_id=1";

    #[test]
    fn an_origin_is_scheme_host_and_port_only() {
        for (url, want) in [
            (
                "https://evil.example/steal?token=x#f",
                Some("https://evil.example"),
            ),
            (
                "HTTPS://User:pass@Evil.Example:8443/p",
                Some("https://evil.example:8443"),
            ),
            ("http://127.0.0.1:9/x", Some("http://127.0.0.1:9")),
            ("https://a.example:443/", Some("https://a.example")),
            ("http://a.example:80", Some("http://a.example")),
            ("http://[::1]:8080/x", Some("http://[::1]:8080")),
            ("//other.example/x", Some("https://other.example")),
            ("\\\\other.example/x", Some("https://other.example")),
            ("https:\\\\other.example\\x", Some("https://other.example")),
            (" https://ev\til.example/x ", Some("https://evil.example")),
            (
                "/books/v3/elsewhere?secret=1",
                Some("https://www.svcapis.com"),
            ),
            ("elsewhere", Some("https://www.svcapis.com")),
            ("?page=2", Some("https://www.svcapis.com")),
            ("javascript:alert(1)", None),
            ("data:text/plain,x", None),
            ("https://", None),
            ("https://bad host/x", None),
            ("https://a.example:/", None),
        ] {
            assert_eq!(of(url, BASE).as_deref(), want, "{url:?}");
        }
        assert_eq!(of("/x", ""), None);
    }

    fn came(status: u16, location: Option<&str>) -> Came<'_> {
        Came {
            status,
            response_type: "basic",
            followed: false,
            url: BASE,
            location,
        }
    }

    #[test]
    fn a_redirect_of_the_accounts_server_names_it_and_oauth_accounts_url() {
        let e = redirected(
            &came(302, Some("https://x.example/")),
            BASE,
            Upstream::Accounts,
        )
        .unwrap();
        assert_eq!(
            e.message,
            "the accounts server answered 302 (a redirect to https://x.example), which is not followed: point oauth.accountsUrl (or region) at the accounts server that answers without redirecting"
        );
    }

    #[test]
    fn a_redirect_is_an_api_error_naming_its_origin_only() {
        for status in [301, 302, 303, 307, 308] {
            let e = redirected(
                &came(status, Some("https://evil.example:8443/p?token=s3cr3t")),
                BASE,
                Upstream::Service,
            )
            .expect("an error");
            assert_eq!((e.kind(), e.status()), (ErrorKind::Api, Some(status)));
            assert_eq!(
                e.message,
                format!("the service answered {status} (a redirect to https://evil.example:8443), which is not followed: point apiDomain at the host that answers without redirecting")
            );
        }
        let e = redirected(&came(302, None), BASE, Upstream::Service).unwrap();
        assert!(
            e.message.contains("(a redirect to no Location)"),
            "{}",
            e.message
        );
        let e = redirected(&came(307, Some("/other?secret=1")), BASE, Upstream::Service).unwrap();
        assert!(
            e.message.contains("to https://www.svcapis.com)"),
            "{}",
            e.message
        );
        assert!(!e.message.contains("secret"));
        let e = redirected(
            &came(308, Some("ftp://x.example/s3cr3t")),
            BASE,
            Upstream::Service,
        )
        .unwrap();
        assert!(e.message.contains("not an http(s) URL"), "{}", e.message);
        for status in [200, 204, 400, 401, 404, 429, 500] {
            assert_eq!(
                redirected(
                    &came(status, Some("https://x.example/")),
                    BASE,
                    Upstream::Service
                ),
                None
            );
        }
    }

    #[test]
    fn an_opaque_or_followed_redirect_is_an_api_error_too() {
        let opaque = Came {
            status: 0,
            response_type: "opaqueredirect",
            ..came(0, None)
        };
        let e = redirected(&opaque, BASE, Upstream::Service).unwrap();
        assert_eq!((e.kind(), e.status()), (ErrorKind::Api, None));
        assert!(e
            .message
            .starts_with("the service answered with a redirect, which is not followed"));
        let followed = Came {
            status: 200,
            followed: true,
            url: "https://evil.example/landing?code=s3cr3t",
            ..came(200, None)
        };
        let e = redirected(&followed, BASE, Upstream::Service).unwrap();
        assert_eq!((e.kind(), e.status()), (ErrorKind::Api, Some(200)));
        assert!(
            e.message
                .contains("followed a redirect to https://evil.example,"),
            "{}",
            e.message
        );
        assert!(!e.message.contains("s3cr3t"));
    }

    #[test]
    fn allowed_origins_are_origins_as_browsers_send_them() {
        let list = |l: &[&str]| allowed(&l.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            list(&[
                "https://app.example.com",
                "http://127.0.0.1:5173",
                "http://[::1]:8080"
            ])
            .unwrap(),
            [
                "https://app.example.com",
                "http://127.0.0.1:5173",
                "http://[::1]:8080"
            ]
        );
        assert_eq!(list(&[]).unwrap(), Vec::<String>::new());
        for (bad, hint) in [
            ("https://app.example.com/", Some("https://app.example.com")),
            ("https://App.example.com", Some("https://app.example.com")),
            (
                "https://app.example.com:443",
                Some("https://app.example.com"),
            ),
            (
                "https://app.example.com/path",
                Some("https://app.example.com"),
            ),
            ("app.example.com", None),
            ("*", None),
            ("null", None),
            ("", None),
            ("file:///x", None),
        ] {
            let e = list(&["https://ok.example", bad]).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Config);
            assert!(e.message.starts_with("allowedOrigins: "), "{}", e.message);
            match hint {
                Some(h) => assert!(
                    e.message.ends_with(&format!("; did you mean {h}?")),
                    "{}",
                    e.message
                ),
                None => assert!(!e.message.contains("did you mean"), "{}", e.message),
            }
        }
    }

    #[test]
    fn a_listed_origin_or_none_is_admitted() {
        let list = vec!["https://app.example.com".to_string()];
        assert!(admitted(None, Some("https://evil.example")).is_ok());
        assert!(admitted(Some(&list), None).is_ok());
        assert!(admitted(Some(&list), Some("https://app.example.com")).is_ok());
        assert!(admitted(Some(&list), Some("HTTPS://APP.EXAMPLE.COM")).is_ok());
        for origin in [
            "https://evil.example",
            "null",
            "",
            "https://app.example.com.evil.example",
        ] {
            let e = admitted(Some(&list), Some(origin)).unwrap_err();
            assert_eq!(
                (e.kind(), e.status()),
                (ErrorKind::Api, Some(403)),
                "{origin}"
            );
            assert!(e.message.contains("(allowedOrigins)"));
        }
        assert!(admitted(Some(&[]), Some("https://app.example.com")).is_err());
    }
}
