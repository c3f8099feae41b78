//! A small HTTP/1.1 layer on std: reading requests, writing answers, and a loopback client.

use crate::record::Value;
use std::io::{self, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::time::Duration;

pub const MAX_HEAD: usize = 64 * 1024;
pub const MAX_BODY: usize = 32 * 1024 * 1024;
/// Why a head over `MAX_HEAD` is answered 431.
pub const HEAD_TOO_LARGE: &str = "the request head is too large";
/// Why a body over `MAX_BODY` is answered 413.
pub const BODY_TOO_LARGE: &str = "the body is too large";
const MAX_LINE: usize = 8 * 1024;
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

#[derive(Debug)]
pub enum ReadError {
    /// The peer closed (or went idle) between requests.
    Closed,
    Io(io::Error),
    /// A malformed request: the status to answer and why.
    Bad(u16, String),
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> ReadError {
        ReadError::Io(e)
    }
}

fn bad(status: u16, why: &str) -> ReadError {
    ReadError::Bad(status, why.into())
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// A connection: its stream and the bytes read from it but not used yet.
pub struct Conn<S> {
    stream: S,
    buf: Vec<u8>,
    pos: usize,
}

impl<S: Read + Write> Conn<S> {
    pub fn new(stream: S) -> Conn<S> {
        Conn {
            stream,
            buf: Vec::new(),
            pos: 0,
        }
    }

    pub fn stream(&self) -> &S {
        &self.stream
    }

    pub fn stream_mut(&mut self) -> &mut S {
        &mut self.stream
    }

    fn pending(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    fn fill(&mut self) -> io::Result<usize> {
        if self.pos > 0 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        let mut chunk = [0u8; 16 * 1024];
        let n = self.stream.read(&mut chunk)?;
        self.buf.extend_from_slice(&chunk[..n]);
        Ok(n)
    }

    fn read_head(&mut self) -> Result<Vec<u8>, ReadError> {
        loop {
            while self.pending().starts_with(b"\r\n") {
                self.pos += 2;
            }
            if let Some(end) = find(self.pending(), b"\r\n\r\n") {
                let head = self.pending()[..end].to_vec();
                self.pos += end + 4;
                return Ok(head);
            }
            if self.pending().len() > MAX_HEAD {
                return Err(bad(431, HEAD_TOO_LARGE));
            }
            let idle = self.pending().is_empty();
            match self.fill() {
                Ok(0) if idle => return Err(ReadError::Closed),
                Ok(0) => {
                    return Err(bad(
                        400,
                        "the connection closed in the middle of a request head",
                    ))
                }
                Ok(_) => {}
                Err(e)
                    if idle
                        && matches!(
                            e.kind(),
                            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                        ) =>
                {
                    return Err(ReadError::Closed)
                }
                Err(e) => return Err(e.into()),
            }
        }
    }

    fn read_exact(&mut self, len: usize) -> Result<Vec<u8>, ReadError> {
        while self.pending().len() < len {
            if self.fill()? == 0 {
                return Err(bad(400, "the connection closed in the middle of a body"));
            }
        }
        let out = self.pending()[..len].to_vec();
        self.pos += len;
        Ok(out)
    }

    fn read_line(&mut self) -> Result<String, ReadError> {
        loop {
            if let Some(end) = find(self.pending(), b"\r\n") {
                let line = String::from_utf8_lossy(&self.pending()[..end]).into_owned();
                self.pos += end + 2;
                return Ok(line);
            }
            if self.pending().len() > MAX_LINE {
                return Err(bad(400, "a chunk line is too long"));
            }
            if self.fill()? == 0 {
                return Err(bad(
                    400,
                    "the connection closed in the middle of a chunked body",
                ));
            }
        }
    }

    fn read_chunked(&mut self) -> Result<Vec<u8>, ReadError> {
        let mut body = Vec::new();
        loop {
            let line = self.read_line()?;
            let size = line.split(';').next().unwrap_or("").trim();
            let size = usize::from_str_radix(size, 16)
                .map_err(|_| bad(400, "a chunk size is not hexadecimal"))?;
            if size == 0 {
                while !self.read_line()?.is_empty() {}
                return Ok(body);
            }
            if body.len() + size > MAX_BODY {
                return Err(bad(413, BODY_TOO_LARGE));
            }
            body.extend(self.read_exact(size)?);
            if self.read_exact(2)? != b"\r\n" {
                return Err(bad(400, "a chunk does not end with CRLF"));
            }
        }
    }

    fn read_body(
        &mut self,
        headers: &[(String, String)],
        continue_first: bool,
    ) -> Result<Vec<u8>, ReadError> {
        if let Some(te) = header(headers, "transfer-encoding") {
            let last = te.rsplit(',').next().unwrap_or("").trim();
            if !last.eq_ignore_ascii_case("chunked") {
                return Err(bad(501, "only the chunked transfer coding is supported"));
            }
            if continue_first {
                self.send_continue()?;
            }
            return self.read_chunked();
        }
        let mut length: Option<usize> = None;
        for (_, v) in headers
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        {
            let n = v
                .trim()
                .parse::<usize>()
                .map_err(|_| bad(400, "Content-Length is not a number"))?;
            if length.is_some_and(|l| l != n) {
                return Err(bad(400, "conflicting Content-Length headers"));
            }
            length = Some(n);
        }
        let len = length.unwrap_or(0);
        if len > MAX_BODY {
            return Err(bad(413, BODY_TOO_LARGE));
        }
        if continue_first && len > self.pending().len() {
            self.send_continue()?;
        }
        self.read_exact(len)
    }

    fn send_continue(&mut self) -> io::Result<()> {
        self.stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")?;
        self.stream.flush()
    }

    /// Reads the next request of the connection.
    pub fn read_request(&mut self) -> Result<Request, ReadError> {
        let head = self.read_head()?;
        let text = String::from_utf8_lossy(&head);
        let mut lines = text.split("\r\n");
        let line = lines.next().unwrap_or("");
        let parts: Vec<&str> = line.split(' ').collect();
        let [method, target, version] = parts[..] else {
            return Err(bad(400, "the request line is malformed"));
        };
        if method.is_empty() || !method.bytes().all(is_tchar) {
            return Err(bad(400, "the method is malformed"));
        }
        let http10 = match version {
            "HTTP/1.1" => false,
            "HTTP/1.0" => true,
            _ => return Err(bad(505, "only HTTP/1.0 and HTTP/1.1 are spoken here")),
        };
        let headers = parse_headers(lines)?;
        let (path, query) = split_target(target)?;
        let continue_first = !http10
            && header(&headers, "expect")
                .is_some_and(|e| e.trim().eq_ignore_ascii_case("100-continue"));
        let body = self.read_body(&headers, continue_first)?;
        Ok(Request {
            method: method.into(),
            path,
            query,
            http10,
            headers,
            body,
        })
    }

    /// Reads an answer (the client side): status, headers and the whole body.
    pub fn read_response(&mut self, head_only: bool) -> io::Result<ClientResponse> {
        let to_io = |e: ReadError| match e {
            ReadError::Io(e) => e,
            ReadError::Closed => {
                io::Error::new(io::ErrorKind::UnexpectedEof, "closed without an answer")
            }
            ReadError::Bad(_, why) => io::Error::new(io::ErrorKind::InvalidData, why),
        };
        loop {
            let head = self.read_head().map_err(to_io)?;
            let text = String::from_utf8_lossy(&head);
            let mut lines = text.split("\r\n");
            let line = lines.next().unwrap_or("");
            let status = line
                .strip_prefix("HTTP/1.")
                .and_then(|r| r.get(2..5))
                .and_then(|s| s.parse::<u16>().ok())
                .ok_or_else(|| {
                    io::Error::new(io::ErrorKind::InvalidData, "malformed status line")
                })?;
            let headers = parse_headers(lines).map_err(to_io)?;
            if (100..200).contains(&status) {
                continue;
            }
            let body = if head_only || status == 204 || status == 304 {
                Vec::new()
            } else if header(&headers, "transfer-encoding").is_some()
                || header(&headers, "content-length").is_some()
            {
                self.read_body(&headers, false).map_err(to_io)?
            } else {
                let mut rest = self.pending().to_vec();
                self.pos = self.buf.len();
                self.stream.read_to_end(&mut rest)?;
                rest
            };
            return Ok(ClientResponse {
                status,
                headers,
                body,
            });
        }
    }
}

fn parse_headers<'a>(
    lines: impl Iterator<Item = &'a str>,
) -> Result<Vec<(String, String)>, ReadError> {
    let mut headers = Vec::new();
    for line in lines {
        if line.starts_with([' ', '\t']) {
            return Err(bad(400, "obsolete header line folding is not accepted"));
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| bad(400, "a header line has no colon"))?;
        if name.is_empty() || !name.bytes().all(is_tchar) {
            return Err(bad(400, "a header name is malformed"));
        }
        let value = value.trim_matches([' ', '\t']);
        if value.chars().any(|c| c.is_control() && c != '\t') {
            return Err(bad(400, "a header value holds control characters"));
        }
        headers.push((name.to_string(), value.to_string()));
    }
    Ok(headers)
}

/// Path and query of a request target (origin form, or absolute form with its authority dropped).
fn split_target(target: &str) -> Result<(String, String), ReadError> {
    let target = target.split('#').next().unwrap_or("");
    let target = match target.split_once("://") {
        Some((scheme, rest))
            if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") =>
        {
            match rest.find(['/', '?']) {
                Some(i) if rest.as_bytes()[i] == b'/' => &rest[i..],
                Some(i) => return Ok(("/".into(), rest[i + 1..].into())),
                None => "/",
            }
        }
        _ => target,
    };
    if target == "*" {
        return Ok(("*".into(), String::new()));
    }
    if !target.starts_with('/') {
        return Err(bad(400, "the request target must start with /"));
    }
    Ok(match target.split_once('?') {
        Some((p, q)) => (p.into(), q.into()),
        None => (target.into(), String::new()),
    })
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

pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        413 => "Payload Too Large",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Unknown",
    }
}

pub fn write_response<W: Write>(
    w: &mut W,
    resp: &Response,
    keep_alive: bool,
    head_only: bool,
) -> io::Result<()> {
    let mut out = Vec::with_capacity(512 + resp.body.len());
    write!(out, "HTTP/1.1 {} {}\r\n", resp.status, reason(resp.status))?;
    for (k, v) in &resp.headers {
        write!(out, "{k}: {v}\r\n")?;
    }
    write!(out, "Content-Length: {}\r\n", resp.body.len())?;
    if keep_alive {
        write!(
            out,
            "Connection: keep-alive\r\nKeep-Alive: timeout={KEEP_ALIVE_SECS}\r\n\r\n"
        )?;
    } else {
        out.extend_from_slice(b"Connection: close\r\n\r\n");
    }
    if !head_only {
        out.extend_from_slice(&resp.body);
    }
    w.write_all(&out)?;
    w.flush()
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

/// Sends one request on a fresh connection (`Connection: close`) and reads the whole answer.
pub fn send(
    addr: SocketAddr,
    host: &str,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &[u8],
    timeout: Duration,
) -> io::Result<ClientResponse> {
    let mut stream = TcpStream::connect_timeout(&addr, timeout)?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    let mut out = format!("{method} {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    if !body.is_empty() || matches!(method, "POST" | "PUT" | "PATCH") {
        out.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    for (k, v) in headers {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    out.push_str("\r\n");
    let mut bytes = out.into_bytes();
    bytes.extend_from_slice(body);
    stream.write_all(&bytes)?;
    Conn::new(stream).read_response(method == "HEAD")
}

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
    use std::io::Cursor;

    /// A stream that reads from a script and records what is written.
    struct Duplex {
        input: Cursor<Vec<u8>>,
        output: Vec<u8>,
    }

    impl Read for Duplex {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(7);
            self.input.read(&mut buf[..n])
        }
    }

    impl Write for Duplex {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.output.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn conn(script: &str) -> Conn<Duplex> {
        Conn::new(Duplex {
            input: Cursor::new(script.as_bytes().to_vec()),
            output: Vec::new(),
        })
    }

    #[test]
    fn reads_pipelined_requests_with_both_body_framings() {
        let mut c = conn(concat!(
            "POST /a/b?x=1&y=%20z HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello",
            "\r\nPUT /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;ext\r\nabc\r\n2\r\nde\r\n0\r\nT: x\r\n\r\n",
            "GET http://h:1/d?q HTTP/1.0\r\n\r\n",
        ));
        let r = c.read_request().unwrap();
        assert_eq!(
            (r.method.as_str(), r.path.as_str(), r.query.as_str()),
            ("POST", "/a/b", "x=1&y=%20z")
        );
        assert_eq!(r.body, b"hello");
        assert!(r.keep_alive());
        let r = c.read_request().unwrap();
        assert_eq!(r.body, b"abcde");
        let r = c.read_request().unwrap();
        assert_eq!(
            (r.path.as_str(), r.query.as_str(), r.keep_alive()),
            ("/d", "q", false)
        );
        assert!(matches!(c.read_request(), Err(ReadError::Closed)));
    }

    #[test]
    fn expect_continue_is_answered_before_the_body() {
        let mut c = conn("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n");
        assert!(
            matches!(c.read_request(), Err(ReadError::Bad(400, _))),
            "the body never came"
        );
        assert_eq!(c.stream().output, b"HTTP/1.1 100 Continue\r\n\r\n");
    }

    #[test]
    fn malformed_requests_are_refused_with_a_status() {
        for (script, status) in [
            ("GET /\r\n\r\n", 400),
            ("GET / HTTP/2.0\r\n\r\n", 505),
            ("GET / HTTP/1.1\r\nA: b\r\n  folded\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nBad Name: b\r\n\r\n", 400),
            (
                "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
                400,
            ),
            (
                "POST / HTTP/1.1\r\nContent-Length: 999999999999\r\n\r\n",
                413,
            ),
            ("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
            ("GET nope HTTP/1.1\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\nshort", 400),
        ] {
            match conn(script).read_request() {
                Err(ReadError::Bad(s, _)) => assert_eq!(s, status, "{script:?}"),
                other => panic!("{script:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn responses_round_trip() {
        let resp = Response::json(201, &svc_core::json!({"code": 0})).with("X-A", "1");
        let mut out = Vec::new();
        write_response(&mut out, &resp, true, false).unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        assert!(text.starts_with("HTTP/1.1 201 Created\r\n"), "{text}");
        assert!(text.contains("Keep-Alive: timeout=30"));
        let mut c = Conn::new(Duplex {
            input: Cursor::new(out),
            output: Vec::new(),
        });
        let r = c.read_response(false).unwrap();
        assert_eq!(r.status, 201);
        assert_eq!(r.header("x-a"), Some("1"));
        assert_eq!(r.json()["code"], svc_core::json!(0));
    }

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
