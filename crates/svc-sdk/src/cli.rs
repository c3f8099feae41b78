//! The command line's pure half (the bin `svc-sdk`): its commands, their options and help, the exit
//! status of an error's kind, the client's options from the environment, exact JSON for a terminal,
//! the operations' list and a sample billing event.

use svc_core::catalog::{operations, Operation, Shape};
use svc_core::error::{Error, ErrorKind};
use svc_core::{lossless, response};
use svc_json::write::string as quote;

/// An option of a command: its name, the placeholder of its value (`None`: a switch) and what it does.
pub struct Opt(pub &'static str, pub Option<&'static str>, pub &'static str);

/// A command: its name, its arguments, what it does, its own options and its examples.
pub struct Command {
    pub name: &'static str,
    pub args: &'static str,
    pub about: &'static str,
    pub options: &'static [Opt],
    pub examples: &'static [&'static str],
}

const JSON: Opt = Opt(
    "json",
    None,
    "JSON on stdout even on a terminal (it is JSON when piped)",
);
const ORG: Opt = Opt(
    "org",
    Some("ID"),
    "the organization (default SVC_ORGANIZATION_ID)",
);
const REGION: Opt = Opt(
    "region",
    Some("R"),
    "the data center: us, eu, in, au, jp, ca, cn, sa (default SVC_REGION, else us)",
);

pub const COMMANDS: &[Command] = &[
    Command {
        name: "login",
        args: "",
        about: "The device flow: prints the code to enter and the URL to open (on stderr), waits for the approval, then prints the refresh token line SVC_REFRESH_TOKEN=... on stdout. Needs SVC_CLIENT_ID and SVC_CLIENT_SECRET.",
        options: &[REGION, Opt("operations", Some("a,b"), "the operations to ask scopes for (default: every operation)"), JSON],
        examples: &["npx svc-sdk login --operations listContacts,createContact >> .env"],
    },
    Command {
        name: "token",
        args: " <grant-code>",
        about: "Exchanges a self-client grant code (it lives a minute) for a refresh token: prints SVC_REFRESH_TOKEN=... on stdout. Needs SVC_CLIENT_ID and SVC_CLIENT_SECRET.",
        options: &[REGION, Opt("redirect-uri", Some("URI"), "the redirect URI the code was issued for, when it was not a self-client's"), JSON],
        examples: &["npx svc-sdk token 1000.8f2c6d...e41 >> .env"],
    },
    Command {
        name: "call",
        args: " <operationId> [pathParams...]",
        about: "Calls an operation: its params validated first (the issues on stderr), then the result as JSON on stdout, every id and number exact.",
        options: &[
            Opt("data", Some("JSON|@file|-"), "the params: JSON text, a file's, or stdin's"),
            Opt("all", None, "every page of a list, its progress on stderr"),
            Opt("dry-run", None, "print the request it would send (without the token), send nothing"),
            ORG,
            JSON,
        ],
        examples: &[
            "npx svc-sdk call listContacts",
            "npx svc-sdk call getContact 460000000026049",
            "npx svc-sdk call createContact --data '{\"contact_name\":\"Acme\"}'",
            "npx svc-sdk call listInvoices --all --data @filter.json > invoices.json",
        ],
    },
    Command {
        name: "ops",
        args: " [filter]",
        about: "Lists the operations: id, method, path and scope; a filter keeps those whose id, path or scope holds it (any case).",
        options: &[JSON],
        examples: &["npx svc-sdk ops contact"],
    },
    Command {
        name: "sandbox",
        args: " [--port N] [sandbox options]",
        about: "Serves the stand-in service (and its accounts server) on 127.0.0.1 from the package alone, no Rust toolchain: prints `sandbox listening on http://127.0.0.1:PORT` on stdout, one line per request on stderr. Its options are the sandbox binary's flags: --org ID, --token NAME=SCOPES, --no-dev-token, --plan P, --rate-per-minute N, --minute-ms N, --daily-quota N|none, --others-spent N, --no-rate-limit, --faults SPEC, --seed N, --slow-ms N, --cors ORIGIN, --quiet, --exit-on-stdin-eof and the accounts server's --oauth-* (crates/sandbox/README.md). Point a client at it with SVC_API_DOMAIN=http://127.0.0.1:PORT SVC_TOKEN=dev-token.",
        options: &[Opt("port", Some("N"), "the port (default 8787; 0 picks a free one)")],
        examples: &["npx svc-sdk sandbox --port 8787 --plan standard --faults 429=0.1"],
    },
    Command {
        name: "notify",
        args: " <url>",
        about: "Posts a sample notification to your receiver as the service sends it: a CRM notification (Module.operation) that parseWatchNotification verifies with its token, or a billing event (an event type) that parseEvent verifies with the token in the URL's query.",
        options: &[
            Opt("event", Some("E"), "Leads.edit (default), Deals.create, ... or a billing event type: invoice_created, ..."),
            Opt("token", Some("T"), "the channel's token (in the body) or the webhook's (added to the URL as ?token=)"),
            Opt("id", Some("ID"), "the record's id (default 4150868000001)"),
            JSON,
        ],
        examples: &["npx svc-sdk notify http://127.0.0.1:3000/hooks/crm --event Leads.edit --token chan-secret-1"],
    },
    Command {
        name: "quota",
        args: "",
        about: "The day's figures of the organization as the service states them (one call: getOrganization): the quota, what is left today, when it renews, and the minute's.",
        options: &[ORG, JSON],
        examples: &["npx svc-sdk quota --org 10234695"],
    },
];

const ENV: &str = "Credentials come from the environment or a .env file in the working directory (the environment wins):
  SVC_TOKEN, or SVC_CLIENT_ID + SVC_CLIENT_SECRET + SVC_REFRESH_TOKEN;
  SVC_ORGANIZATION_ID, SVC_REGION, SVC_API_DOMAIN, SVC_ACCOUNTS_URL. None is ever printed.";

const STATUSES: &str = "Exit status: 0 ok, 2 usage or config, 3 validation, 4 api or decode, 5 unauthorized or verification, 6 rate_limited, 7 network or timeout, 130 interrupted.";

/// The command named `name`.
pub fn command(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// The help of a command, or of the bin (`None`).
pub fn help(name: Option<&str>) -> String {
    let Some(c) = name.and_then(command) else {
        let mut out = String::from("svc-sdk: the Svc API from the command line\n\nUsage: svc-sdk <command> [options]   (svc-sdk <command> --help)\n\n");
        for c in COMMANDS {
            out.push_str(&format!(
                "  {:<46}{}\n",
                format!("{}{}", c.name, c.args),
                c.examples[0]
            ));
        }
        return format!("{out}\n{ENV}\n{STATUSES}\n");
    };
    let mut out = format!(
        "Usage: svc-sdk {}{} [options]\n\n{}\n\nOptions:\n",
        c.name, c.args, c.about
    );
    for Opt(name, value, about) in c.options.iter().chain([&Opt("help", None, "this help")]) {
        let flag = format!(
            "--{name}{}",
            value.map_or(String::new(), |v| format!(" {v}"))
        );
        out.push_str(&format!("  {flag:<24}{about}\n"));
    }
    out.push_str("\nExample:\n");
    for e in c.examples {
        out.push_str(&format!("  {e}\n"));
    }
    format!("{out}\n{ENV}\n{STATUSES}\n")
}

/// `util.parseArgs`' options of a command, as JSON text.
pub fn parse_options(c: &Command) -> String {
    let mut out = String::from(r#"{"help":{"type":"boolean","short":"h"}"#);
    for Opt(name, value, _) in c.options {
        let kind = if value.is_some() { "string" } else { "boolean" };
        out.push_str(&format!(r#","{name}":{{"type":"{kind}"}}"#));
    }
    out.push('}');
    out
}

/// The exit status of an error of `kind` (2 for a usage error, which has no kind).
pub fn exit_status(kind: &str) -> u8 {
    match kind {
        "validation" => 3,
        "api" | "decode" => 4,
        "unauthorized" | "verification" => 5,
        "rate_limited" => 6,
        "network" | "timeout" => 7,
        "aborted" => 130,
        _ => 2,
    }
}

/// The client's options (JSON text) from the environment's `SVC_*` variables and the flags:
/// a config error naming what is missing, never a value. `dry`: no credential is needed.
pub fn client_options(
    env: &[(String, String)],
    org: Option<&str>,
    dry: bool,
) -> Result<String, Error> {
    let var = |name: &str| {
        env.iter()
            .find(|(k, v)| k == name && !v.is_empty())
            .map(|(_, v)| v.as_str())
    };
    let mut out = String::from("{");
    let mut member = |name: &str, value: &str| {
        if out.len() > 1 {
            out.push(',');
        }
        quote(&mut out, name);
        out.push(':');
        if value.starts_with('{') {
            out.push_str(value);
        } else {
            quote(&mut out, value);
        }
    };
    let trio = ["SVC_CLIENT_ID", "SVC_CLIENT_SECRET", "SVC_REFRESH_TOKEN"];
    if let Some(token) = var("SVC_TOKEN") {
        member("accessToken", token);
    } else if trio.iter().all(|n| var(n).is_some()) {
        let mut oauth = String::from("{");
        for (key, name) in ["clientId", "clientSecret", "refreshToken", "accountsUrl"]
            .iter()
            .zip([trio[0], trio[1], trio[2], "SVC_ACCOUNTS_URL"])
        {
            if let Some(v) = var(name) {
                if oauth.len() > 1 {
                    oauth.push(',');
                }
                quote(&mut oauth, key);
                oauth.push(':');
                quote(&mut oauth, v);
            }
        }
        oauth.push('}');
        member("oauth", &oauth);
    } else if dry {
        member("accessToken", "dry-run-sends-nothing");
    } else {
        let missing: Vec<&str> = trio.iter().copied().filter(|n| var(n).is_none()).collect();
        let what = if missing.len() == trio.len() {
            String::new()
        } else {
            format!(" ({} missing)", missing.join(", "))
        };
        return Err(Error::config(format!("no credentials: set SVC_TOKEN, or SVC_CLIENT_ID, SVC_CLIENT_SECRET and SVC_REFRESH_TOKEN{what}, in the environment or a .env file (svc-sdk login gives a refresh token)")));
    }
    if let Some(org) = org.or_else(|| var("SVC_ORGANIZATION_ID")) {
        member("organizationId", org);
    }
    for (key, name) in [("region", "SVC_REGION"), ("apiDomain", "SVC_API_DOMAIN")] {
        if let Some(v) = var(name) {
            member(key, v);
        }
    }
    out.push('}');
    Ok(out)
}

/// The `KEY=VALUE` lines of a `.env` file, for a Node without `process.loadEnvFile` (before 20.12):
/// blank lines, comments and `export ` left out, one pair of matching quotes taken off a value.
pub fn dotenv(text: &str) -> Vec<(String, String)> {
    let pair = |line: &str| {
        let line = line.trim();
        let (key, value) = line
            .strip_prefix("export ")
            .unwrap_or(line)
            .split_once('=')?;
        let key = key.trim();
        let named = !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if !named || key.starts_with('#') {
            return None;
        }
        let value = value.trim();
        let quoted = value.len() >= 2
            && (value.starts_with('"') || value.starts_with('\''))
            && value.ends_with(&value[..1]);
        let value = if quoted {
            &value[1..value.len() - 1]
        } else {
            value.split(" #").next().unwrap_or_default().trim_end()
        };
        Some((key.to_string(), value.to_string()))
    };
    text.lines().filter_map(pair).collect()
}

/// The operations whose id, path or scope holds `filter` (any case): a JSON array of
/// `{id, method, path, scope}`, or aligned lines.
pub fn ops(filter: Option<&str>, json: bool) -> String {
    let filter = filter.unwrap_or_default().to_ascii_lowercase();
    let kept = operations().iter().filter(|op| {
        [op.id, op.path, op.scope]
            .iter()
            .any(|t| t.to_ascii_lowercase().contains(&filter))
    });
    let mut out = String::new();
    for op in kept {
        if json {
            out.push(if out.is_empty() { '[' } else { ',' });
            out.push_str("\n  {");
            for (i, (k, v)) in [
                ("id", op.id),
                ("method", op.method.as_str()),
                ("path", op.path),
                ("scope", op.scope),
            ]
            .iter()
            .enumerate()
            {
                out.push_str(if i == 0 { "" } else { "," });
                quote(&mut out, k);
                out.push(':');
                quote(&mut out, v);
            }
            out.push('}');
        } else {
            out.push_str(&format!(
                "{:<44} {:<6} {:<58} {}\n",
                op.id,
                op.method.as_str(),
                op.path,
                op.scope
            ));
        }
    }
    match (json, out.is_empty()) {
        (true, true) => "[]\n".into(),
        (true, false) => out + "\n]\n",
        (false, _) => out,
    }
}

/// ANSI colours of a terminal's JSON: keys, strings, numbers, and true/false/null.
const KEY: &str = "\x1b[36m";
const STR: &str = "\x1b[32m";
const NUM: &str = "\x1b[33m";
const LIT: &str = "\x1b[35m";
const END: &str = "\x1b[0m";

/// Compact JSON `text` (valid, as `JSON.stringify` writes it) indented by two spaces, coloured or not;
/// every token's bytes as they are.
pub fn indent(text: &str, colour: bool) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let (mut depth, bytes) = (0usize, text.as_bytes());
    let mut i = 0;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    };
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'{' | b'[' => {
                let close = if b == b'{' { b'}' } else { b']' };
                out.push(b as char);
                if bytes.get(i + 1) == Some(&close) {
                    out.push(close as char);
                    i += 1;
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(b as char);
            }
            b',' => {
                out.push(',');
                newline(&mut out, depth);
            }
            b':' => out.push_str(": "),
            _ => {
                let start = i;
                if b == b'"' {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                } else {
                    while i + 1 < bytes.len() && !b",:]}".contains(&bytes[i + 1]) {
                        i += 1;
                    }
                }
                let token = &text[start..=i.min(bytes.len() - 1)];
                let paint = match b {
                    _ if !colour => "",
                    b'"' if bytes.get(i + 1) == Some(&b':') => KEY,
                    b'"' => STR,
                    b't' | b'f' | b'n' => LIT,
                    _ => NUM,
                };
                out.push_str(paint);
                out.push_str(token);
                out.push_str(if paint.is_empty() { "" } else { END });
            }
        }
        i += 1;
    }
    out.push('\n');
    out
}

/// The result of `op` from the texts of its answers (one, or each page's with `all`), as the
/// Client's result is made from an answer (`response::decode`: the operation's response shape and
/// its key, the same checks), but every value's bytes as the service sent them: each number as it
/// was spelled (`1.50`, `1e2`, `-0.0`, `12345678901234567891`) and each id as it came (a number
/// stays that number, not the Client's string of its digits). With `all`, the pages' items in one
/// array, each item's bytes kept. Compact: the answer's blanks outside strings left out.
pub fn result(op: &Operation, texts: &[String], all: bool) -> Result<String, Error> {
    let key = match op.response {
        Shape::List(key) => Some(key),
        _ => None,
    };
    let mut out = String::new();
    if all {
        let Some(key) = key else {
            return Err(Error::config(format!("--all: {} is not a list", op.id)));
        };
        out.push('[');
        for text in texts {
            let doc = answer(op, text)?;
            let items = found(&doc, &[key])?.value;
            for item in lossless::array_items(items).map_err(Error::decode)? {
                if out.len() > 1 {
                    out.push(',');
                }
                compact(item, &mut out);
            }
        }
        out.push(']');
        return Ok(out);
    }
    let Some(text) = texts.last() else {
        return Err(Error::decode("no answer was read"));
    };
    let doc = answer(op, text)?;
    fn only<'a>(m: &lossless::Member<'a>) -> Option<&'a str> {
        m.items.and_then(|items| items.only())
    }
    match op.response {
        Shape::Key(keys) | Shape::KeyArray(keys) => compact(found(&doc, keys)?.value, &mut out),
        Shape::KeyOrOneElementArray(key) => {
            let m = found(&doc, &[key])?;
            compact(only(m).unwrap_or(m.value), &mut out);
        }
        Shape::TopLevel => {
            out.push('{');
            for m in doc
                .members
                .iter()
                .filter(|m| !["code", "message"].contains(&m.key))
            {
                if out.len() > 1 {
                    out.push(',');
                }
                out.push_str(&format!("\"{}\":", m.key));
                compact(m.value, &mut out);
            }
            out.push('}');
        }
        Shape::List(key) => {
            out.push_str("{\"items\":");
            compact(found(&doc, &[key])?.value, &mut out);
            if let Ok(pc) = found(&doc, &["page_context"]) {
                let value = only(pc).filter(|v| v.starts_with('{'));
                out.push_str(",\"page_context\":");
                compact(value.unwrap_or(pc.value), &mut out);
            }
            out.push('}');
        }
        Shape::Empty => compact(doc.text.trim(), &mut out),
        Shape::Binary => return Err(Error::decode(format!("{} answers a file", op.id))),
    }
    Ok(out)
}

/// An answer's text read as the Client reads it (an error if the Client would not have resolved),
/// and its members.
fn answer<'t>(op: &Operation, text: &'t str) -> Result<lossless::Document<'t>, Error> {
    if text.trim().is_empty() && op.response == Shape::Empty {
        return lossless::Document::parse(r#"{"code":0,"message":""}"#).map_err(Error::decode);
    }
    response::decode(op, 200, Some("application/json"), text.as_bytes())?;
    lossless::Document::parse(text).map_err(Error::decode)
}

/// The first of `keys` that `doc` has (the Client's check made it present).
fn found<'d>(
    doc: &'d lossless::Document<'d>,
    keys: &[&str],
) -> Result<&'d lossless::Member<'d>, Error> {
    let m = keys
        .iter()
        .find_map(|k| doc.members.iter().find(|m| m.key == *k));
    m.ok_or_else(|| Error::decode(format!("the answer has no `{}`", keys[0])))
}

/// Copies JSON `value` without the blanks outside its strings: every token's bytes as they are.
fn compact(value: &str, out: &mut String) {
    let mut in_string = false;
    let mut escaped = false;
    for c in value.chars() {
        if in_string {
            in_string = escaped || c != '"';
            escaped = !escaped && c == '\\';
        } else if matches!(c, ' ' | '\t' | '\n' | '\r') {
            continue;
        } else {
            in_string = c == '"';
        }
        out.push(c);
    }
}

/// A sample billing event of `kind` as the service posts it (`parseEvent` reads it), at `now` (ms).
pub fn billing_event(kind: &str, id: &str, now: i64) -> Result<String, Error> {
    if !svc_core::model::billing::EVENT_TYPES.contains(&kind) {
        return Err(Error::new(ErrorKind::Config, format!("--event: {} is neither a CRM Module.operation (Leads.edit) nor a billing event type ({}, ...)", svc_core::echo::quoted(kind), svc_core::model::billing::EVENT_TYPES[..3].join(", "))));
    }
    let (time, mut record) = (svc_core::calendar::iso_utc(now), String::new());
    quote(&mut record, id);
    Ok(format!(
        r#"{{"event_id":{now}0001,"event_type":"{kind}","event_time":"{time}","event_source":"api","payload":{{"id":{record}}},"webhooks":[]}}"#
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_has_an_example_and_its_help_names_it() {
        for c in COMMANDS {
            assert!(!c.examples.is_empty());
            assert!(help(Some(c.name)).contains(c.examples[0]));
            assert!(parse_options(c).starts_with("{\"help\""));
        }
        assert!(help(None).contains("svc-sdk login"));
    }

    #[test]
    fn statuses_by_kind() {
        let got: Vec<u8> = [
            "config",
            "validation",
            "api",
            "unauthorized",
            "rate_limited",
            "network",
            "timeout",
        ]
        .iter()
        .map(|k| exit_status(k))
        .collect();
        assert_eq!(got, [2, 3, 4, 5, 6, 7, 7]);
    }

    #[test]
    fn credentials_name_what_is_missing_never_a_value() {
        let env = |pairs: &[(&str, &str)]| {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<Vec<_>>()
        };
        let e = client_options(&env(&[("SVC_CLIENT_SECRET", "s3cret")]), None, false).unwrap_err();
        assert!(
            e.message
                .contains("SVC_CLIENT_ID, SVC_REFRESH_TOKEN missing")
                && !e.message.contains("s3cret")
        );
        let ok = client_options(
            &env(&[("SVC_TOKEN", "t"), ("SVC_ORGANIZATION_ID", "9")]),
            Some("7"),
            false,
        )
        .unwrap();
        assert_eq!(ok, r#"{"accessToken":"t","organizationId":"7"}"#);
        let oauth = client_options(
            &env(&[
                ("SVC_CLIENT_ID", "i"),
                ("SVC_CLIENT_SECRET", "s"),
                ("SVC_REFRESH_TOKEN", "r"),
            ]),
            None,
            false,
        )
        .unwrap();
        assert_eq!(
            oauth,
            r#"{"oauth":{"clientId":"i","clientSecret":"s","refreshToken":"r"}}"#
        );
    }

    #[test]
    fn dotenv_lines() {
        let text = "# a comment\nexport SVC_TOKEN=abc # note\n\nSVC_REGION = \"eu\"\nSVC_X='a b'\nnot a line\n=x\nSVC_EMPTY=\n";
        let got: Vec<(String, String)> = dotenv(text);
        let want = [
            ("SVC_TOKEN", "abc"),
            ("SVC_REGION", "eu"),
            ("SVC_X", "a b"),
            ("SVC_EMPTY", ""),
        ];
        assert_eq!(got, want.map(|(k, v)| (k.to_string(), v.to_string())));
    }

    #[test]
    fn the_result_keeps_every_byte_the_service_sent() {
        let op = |id| svc_core::catalog::find(id).unwrap();
        let one = r#"{"code":0,"message":"ok","fixed_asset":{ "fixed_asset_id" : 12345678901234567891,
            "rate":1.50,"n":1e2,"z":-0.0,"big":12345678901234567891,"d":"1.50","s":"a \" b"},"other":1}"#;
        assert_eq!(
            result(op("getFixedAsset"), &[one.into()], false).unwrap(),
            r#"{"fixed_asset_id":12345678901234567891,"rate":1.50,"n":1e2,"z":-0.0,"big":12345678901234567891,"d":"1.50","s":"a \" b"}"#
        );
        let page = |items: &str, more: bool| {
            format!(
                r#"{{"code":0,"message":"ok","contacts":[{items}],"page_context":{{"page":1,"per_page":2,"has_more_page":{more}}}}}"#
            )
        };
        let (first, last) = (
            page(r#"{"contact_id":1,"x":1.50},{"contact_id":"2"}"#, true),
            page(r#"{"x": 1e2}"#, false),
        );
        let list = op("listContacts");
        assert_eq!(
            result(list, &[first.clone(), last.clone()], true).unwrap(),
            r#"[{"contact_id":1,"x":1.50},{"contact_id":"2"},{"x":1e2}]"#
        );
        assert_eq!(
            result(list, &[last], false).unwrap(),
            r#"{"items":[{"x":1e2}],"page_context":{"page":1,"per_page":2,"has_more_page":false}}"#
        );
        assert!(result(op("getFixedAsset"), std::slice::from_ref(&first), false).is_err());
        assert!(result(op("getFixedAsset"), &[first], true).is_err());
    }

    #[test]
    fn indent_keeps_every_token() {
        let text = r#"{"a":[1e400,{},[]],"b\"":"x,y:{","c":null,"d":12345678901234567891}"#;
        let out = indent(text, false);
        assert_eq!(out.split_whitespace().collect::<String>(), text);
        assert!(out.contains("\"d\": 12345678901234567891"));
        let coloured = indent(r#"{"k":"v","n":1.50,"t":true}"#, true);
        assert!(coloured.contains("\x1b[36m\"k\"\x1b[0m: \x1b[32m\"v\"\x1b[0m"));
        assert!(
            coloured.contains("\x1b[33m1.50\x1b[0m") && coloured.contains("\x1b[35mtrue\x1b[0m")
        );
    }
}
