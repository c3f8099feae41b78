//! The sandbox's requests and answers as plain data, and its loopback client (hyper, on the binary).

use crate::record::Value;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

pub const MAX_HEAD: usize = 64 * 1024;
pub const MAX_BODY: usize = 32 * 1024 * 1024;
/// Why a head over `MAX_HEAD` is answered 431.
pub const HEAD_TOO_LARGE: &str = "the request head is too large";
/// Why a body over `MAX_BODY` is answered 413.
pub const BODY_TOO_LARGE: &str = "the body is too large";
/// What `Keep-Alive: timeout=` advertises; the server waits longer than this before closing.
pub const KEEP_ALIVE_SECS: u64 = 30;

#[derive(Debug)]
pub struct Request {
    pub method: String,
    /// The path as sent, still percent-encoded.
    pub path: String,
    /// The query without its `?`, still percent-encoded.
    pub query: String,
    pub http10: bool,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }

    pub fn keep_alive(&self) -> bool {
        let has = |token: &str| {
            self.header("connection")
                .is_some_and(|c| c.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
        };
        if self.http10 {
            has("keep-alive")
        } else {
            !has("close")
        }
    }
}

/// The first header of that name (case-insensitive).
pub fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

pub use svc_core::request::{parse_query, percent_decode};

/// An answer to write.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn new(status: u16) -> Response {
        Response {
            status,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    pub fn json(status: u16, v: &Value) -> Response {
        Response {
            status,
            headers: vec![(
                "Content-Type".into(),
                "application/json;charset=UTF-8".into(),
            )],
            body: v.to_string().into_bytes(),
        }
    }

    pub fn with(mut self, name: &str, value: impl Into<String>) -> Response {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }
}

/// An answer received by the client.
#[derive(Debug)]
pub struct ClientResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl ClientResponse {
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }

    /// The body as JSON, or `Null` when it is not JSON.
    pub fn json(&self) -> Value {
        crate::record::parse(&self.body).unwrap_or(Value::Null)
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod client;
#[cfg(not(target_arch = "wasm32"))]
pub use client::send;

/// Where a loopback `http://` URL points.
#[derive(Debug, PartialEq)]
pub struct LoopbackUrl {
    pub addr: SocketAddr,
    /// The `Host` header value.
    pub host: String,
    /// Path and query, as sent in the request line.
    pub target: String,
    /// The query without its `?`.
    pub query: String,
}

/// Parses an `http://` URL whose host is a loopback address; anything else is refused.
pub fn loopback_url(url: &str) -> Result<LoopbackUrl, String> {
    let rest = url
        .get(..7)
        .filter(|s| s.eq_ignore_ascii_case("http://"))
        .map(|_| &url[7..])
        .ok_or("only http:// URLs on a loopback host are delivered to")?;
    let rest = rest.split('#').next().unwrap_or("");
    if rest.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("the URL holds white space or control characters".into());
    }
    let cut = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(cut);
    if authority.contains('@') {
        return Err("the URL may not carry user info".into());
    }
    let (host, port) = match authority.strip_prefix('[') {
        Some(v6) => {
            let (h, after) = v6.split_once(']').ok_or("the host is malformed")?;
            (format!("[{h}]"), after.strip_prefix(':'))
        }
        None => match authority.rsplit_once(':') {
            Some((h, p)) => (h.to_string(), Some(p)),
            None => (authority.to_string(), None),
        },
    };
    if !svc_core::family::is_loopback(&host) {
        return Err(format!(
            "{host:?} is not a loopback host; the sandbox only delivers to loopback URLs"
        ));
    }
    let port = match port {
        Some(p) => p.parse::<u16>().map_err(|_| "the port is malformed")?,
        None => 80,
    };
    let ip = match host.to_ascii_lowercase().as_str() {
        "[::1]" => IpAddr::V6(Ipv6Addr::LOCALHOST),
        h if h == "localhost" || h.ends_with(".localhost") => IpAddr::V4(Ipv4Addr::LOCALHOST),
        h => IpAddr::V4(h.parse().map_err(|_| "the host is malformed")?),
    };
    let target = match tail {
        "" => "/".to_string(),
        t if t.starts_with('?') => format!("/{t}"),
        t => t.to_string(),
    };
    let query = target
        .split_once('?')
        .map(|(_, q)| q.to_string())
        .unwrap_or_default();
    Ok(LoopbackUrl {
        addr: SocketAddr::new(ip, port),
        host: authority.into(),
        target,
        query,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_and_escapes() {
        assert_eq!(
            parse_query("a=1&b=x+y%2Fz&c&&d=").unwrap(),
            vec![
                ("a".into(), "1".into()),
                ("b".into(), "x y/z".into()),
                ("c".into(), "".into()),
                ("d".into(), "".into())
            ]
        );
        assert!(parse_query("a=%zz").is_none());
        assert_eq!(percent_decode("a+b%2F", false).as_deref(), Some("a+b/"));
        assert!(percent_decode("%ff", false).is_none());
    }

    #[test]
    fn only_loopback_urls_are_delivered_to() {
        let u = loopback_url("http://127.0.0.1:9000/hook?token=abc&x=1").unwrap();
        assert_eq!(u.addr, "127.0.0.1:9000".parse().unwrap());
        assert_eq!(
            (u.target.as_str(), u.query.as_str()),
            ("/hook?token=abc&x=1", "token=abc&x=1")
        );
        assert_eq!(loopback_url("http://localhost").unwrap().target, "/");
        assert_eq!(loopback_url("http://[::1]:81?a").unwrap().target, "/?a");
        for bad in [
            "https://127.0.0.1/x",
            "http://example.com/x",
            "http://10.0.0.1/",
            "http://127.0.0.1.evil.com/",
            "http://u@127.0.0.1/",
            "http://127.0.0.1:99999/",
            "ftp://127.0.0.1/",
        ] {
            assert!(loopback_url(bad).is_err(), "{bad}");
        }
    }
}
