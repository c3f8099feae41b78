//! The server on hostile and unusual input, as raw bytes on a socket: limits, framings, keep-alive.

use crate::client::Sandbox;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// Writes `bytes` on a fresh connection and reads until the server closes it.
fn exchange(s: &Sandbox, bytes: &[u8]) -> String {
    let mut stream = TcpStream::connect(s.server.addr()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let _ = stream.write_all(bytes);
    let mut out = Vec::new();
    let _ = stream.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn statuses(text: &str) -> Vec<&str> {
    text.match_indices("HTTP/1.1 ")
        .map(|(i, _)| &text[i + 9..i + 12])
        .collect()
}

#[test]
fn a_head_over_the_limit_is_431() {
    let s = Sandbox::start(&[]);
    let big = "a".repeat(sandbox::http::MAX_HEAD + 1);
    let text = exchange(
        &s,
        format!("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\nX-Big: {big}\r\n\r\n")
            .as_bytes(),
    );
    assert_eq!(statuses(&text), ["431"], "{text}");
    assert!(text.contains(sandbox::http::HEAD_TOO_LARGE), "{text}");
    let many: String = (0..200).map(|i| format!("X-{i}: v\r\n")).collect();
    let text = exchange(
        &s,
        format!("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n{many}\r\n").as_bytes(),
    );
    assert_eq!(statuses(&text), ["431"], "{text}");
}

#[test]
fn a_body_declared_over_the_limit_is_413_before_it_is_read() {
    let s = Sandbox::start(&[]);
    let len = sandbox::http::MAX_BODY + 1;
    let text = exchange(
        &s,
        format!("POST /billing/v1/plans HTTP/1.1\r\nHost: h\r\nContent-Length: {len}\r\n\r\n{{")
            .as_bytes(),
    );
    assert_eq!(statuses(&text), ["413"], "{text}");
    assert!(text.contains("\"code\":1413"), "{text}");
    assert!(text.contains(sandbox::http::BODY_TOO_LARGE), "{text}");
}

#[test]
fn malformed_heads_are_refused_and_the_connection_closed() {
    let s = Sandbox::start(&[]);
    for (head, status) in [
        ("GET /\r\n\r\n", "400"),
        ("GET / HTTP/1.1\r\nBad Name: b\r\n\r\n", "400"),
        ("GET / HTTP/1.1\r\nA: b\r\n  folded\r\n\r\n", "400"),
        (
            "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
            "400",
        ),
        ("POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n", "400"),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", "400"),
        (
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "400",
        ),
        ("GET / HTTP/2.0\r\n\r\n", "400"),
    ] {
        let text = exchange(&s, head.as_bytes());
        assert_eq!(statuses(&text), [status], "{head:?}: {text}");
    }
}

#[test]
fn pipelined_requests_on_one_connection_with_both_framings() {
    let s = Sandbox::start(&[]);
    let text = exchange(
        &s,
        concat!(
            "GET /__sandbox/counters HTTP/1.1\r\nHost: h\r\n\r\n",
            "POST /__sandbox/reset-counters HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n",
            "2;ext\r\n{}\r\n0\r\nTrailer: x\r\n\r\n",
            "POST /__sandbox/reset-counters HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}",
            "GET /__sandbox/counters HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
        )
        .as_bytes(),
    );
    assert_eq!(statuses(&text), ["200", "200", "200", "200"], "{text}");
    assert!(text.contains("keep-alive: timeout=30"), "{text}");
    assert!(text.ends_with('}'), "closed after the last answer: {text}");
}

#[test]
fn expect_continue_is_answered_before_the_body_is_sent() {
    let s = Sandbox::start(&[]);
    let mut stream = TcpStream::connect(s.server.addr()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    stream
        .write_all(b"POST /__sandbox/reset-counters HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut first = [0u8; 25];
    stream.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 100 Continue\r\n\r\n");
    stream.write_all(b"{}").unwrap();
    let mut rest = String::new();
    stream.read_to_string(&mut rest).unwrap();
    assert_eq!(statuses(&rest), ["200"], "{rest}");
}

#[test]
fn a_head_answer_has_no_body() {
    let s = Sandbox::start(&[]);
    let text = exchange(
        &s,
        b"HEAD /__sandbox/counters HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
    );
    assert!(text.ends_with("\r\n\r\n"), "{text}");
}
