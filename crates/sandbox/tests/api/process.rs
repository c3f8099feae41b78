//! The binary: one stdout line with the URL, logs without the token on stderr, exit on stdin EOF.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn the_binary_prints_its_url_and_exits_when_stdin_closes() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sandbox"))
        .args([
            "--port",
            "0",
            "--exit-on-stdin-eof",
            "--org",
            "777",
            "--token",
            "s3cr3t-value=*",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let url = line
        .trim()
        .strip_prefix("sandbox listening on ")
        .unwrap_or_else(|| panic!("{line:?}"))
        .to_string();
    let addr = url
        .strip_prefix("http://127.0.0.1:")
        .expect("loopback only");
    let port: u16 = addr.parse().unwrap();
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let r = sandbox::http::send(
        addr,
        "127.0.0.1",
        "GET",
        "/books/v3/chartofaccounts?organization_id=777",
        &[("Authorization", "Svc-oauthtoken s3cr3t-value")],
        b"",
        Duration::from_secs(10),
    )
    .unwrap();
    assert_eq!(r.status, 200);

    drop(child.stdin.take());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the sandbox did not exit"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success());
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert_eq!(rest, "", "exactly one line on stdout");
    let mut log = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    assert!(log.contains("777"), "the organization is logged: {log}");
    assert!(
        log.contains("GET /books/v3/chartofaccounts -> 200"),
        "{log}"
    );
    assert!(
        !log.contains("s3cr3t-value"),
        "the token is never logged: {log}"
    );
}
