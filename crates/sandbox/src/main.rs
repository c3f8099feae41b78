//! The sandbox binary: parses the flags, starts the server, prints where it listens.
#![forbid(unsafe_code)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

#[cfg(not(target_arch = "wasm32"))]
use sandbox::config::{Config, Scopes};
#[cfg(not(target_arch = "wasm32"))]
use std::io::{Read, Write};

/// The binary serves sockets; its wasm build is the svc-testing crate.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let config = match Config::from_args(std::env::args().skip(1)) {
        Ok(c) => c,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(if message.starts_with("usage:") { 0 } else { 2 });
        }
    };
    let exit_on_eof = config.exit_on_stdin_eof;
    let summary = format!(
        "organization {}; plan {}; {} token(s){}",
        config.org_id,
        config.plan.name(),
        config.tokens.len(),
        if config
            .tokens
            .iter()
            .any(|(t, s)| t == sandbox::config::DEV_TOKEN && *s == Scopes::Every)
        {
            " including the dev token"
        } else {
            ""
        },
    );
    let limits = if config.rate_limit {
        let p = config.policy();
        let minute = match p.minute_ms {
            sandbox::limits::MINUTE_MS => String::new(),
            ms => format!(" (a minute of {ms} ms)"),
        };
        let day = match (p.daily, p.others_spent) {
            (sandbox::limits::NO_QUOTA, _) => "no daily quota".to_string(),
            (daily, 0) => format!("{daily} a day"),
            (daily, spent) => format!("{daily} a day ({spent} spent by other integrations)"),
        };
        format!(
            "{} requests/minute{minute}, {} in flight, {day}",
            p.per_minute, p.in_flight
        )
    } else {
        "off".to_string()
    };
    let server = match sandbox::start(config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("sandbox: cannot start: {e}");
            std::process::exit(1);
        }
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "sandbox listening on {}", server.url());
    let _ = out.flush();
    drop(out);
    eprintln!("sandbox: {summary}; rate limits {limits}");
    if exit_on_eof {
        std::thread::spawn(|| {
            let mut sink = [0u8; 4096];
            let mut stdin = std::io::stdin();
            while matches!(stdin.read(&mut sink), Ok(n) if n > 0) {}
            std::process::exit(0);
        });
    }
    server.wait();
}
