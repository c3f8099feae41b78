//! What the JS surface declares of the Rust: the options the client and the proxy read (their names, the one list the wasm checks keys against), the log levels, records and logger, the hooks' infos, the errors, issues and operation infos, as TypeScript.

use crate::send::{note, Level};
use svc_core::catalog::OperationInfo;
use svc_core::declare::{self, Accepts, Declared, Shown};
use svc_core::error::Error;
use svc_core::issue::IssueCode;

/// The defaults of the options, which the wasm applies and the declarations state, and their limits,
/// which the options' reader checks by the tables below (`Declared::accepts`).
pub const TIMEOUT_MS: u32 = 60_000;
/// `maxRetries`: how many times a failed attempt is tried again.
pub const MAX_RETRIES: u32 = 2;
/// The most `maxRetries` may be.
pub const RETRIES_MAX: u32 = 100;
/// The most a call waits for one attempt or in all: a day (timers of 2^31 ms or more fire at once).
pub const TIMEOUT_MAX: u32 = svc_core::calendar::DAY_MS as u32;
/// The most a size limit may be: above it, one body held in the core no longer fits its memory with room to spare.
pub const BYTES_LIMIT: u32 = 268_435_456;
/// The most `rateLimit.maxQueued` may be.
pub const MAX_QUEUED_LIMIT: u32 = 1_000_000;
/// `deadlineMs`: ten minutes for a whole call, waits and retries included.
pub const DEADLINE_MS: u32 = 600_000;
pub const REQUEST_BYTES: u32 = 10_485_760;
pub const RESPONSE_BYTES: u32 = 33_554_432;
/// `rateLimit.maxQueued`.
pub const MAX_QUEUED: u32 = 1_000;
/// `rateLimit.leaseMs`.
pub const LEASE_MS: u32 = 30_000;
/// `rateLimit.storeTimeoutMs`, and how long `redisStore().close()` waits for Redis.
pub const STORE_TIMEOUT_MS: u32 = 10_000;
/// The proxy's `maxBodyBytes`: a request with its uploads.
pub const PROXY_BODY_BYTES: u32 = 10_485_760;
/// The receivers' `maxBodyBytes`: a notification or an event is a few KB.
pub const RECEIVED_BODY_BYTES: u32 = 1_048_576;

/// The options of `new Client(options)`.
pub const CLIENT: [Declared; 22] = [
    Declared::new("accessToken", "string | ((ctx: TokenContext) => AccessToken | Promise<AccessToken>)")
        .optional()
        .doc("The OAuth access token, or a function that returns it (or a promise of it): called for the first token,\nagain when `expiresAt` (ms since the epoch) is near, and after a 401 (`ctx.reason` says which), once for the\nprocess or, with a fleet store, for the fleet. One of accessToken, oauth or `viaProxy: true` is required."),
    Declared::new("credentialKey", "string")
        .optional()
        .accepts(Accepts::Text)
        .doc("With an accessToken function: the name of the credential its tokens are of. The clients of one name share\none token, one refresh at a time and one stop, in the process and, with a fleet store, in the fleet. Without it\na function is a credential of its own in the process, and in a fleet store the organization's function\ncredential. Not with oauth, whose credential is named by its accounts server, client and refresh token."),
    Declared::new("oauth", "OAuthOptions")
        .optional()
        .doc("The SDK gets and renews its access tokens itself with the OAuth refresh-token grant (server side only;\na browser page calls a proxy that has it). Calls go to the answer's api_domain unless apiDomain is given."),
    Declared::new("viaProxy", "boolean")
        .optional()
        .doc("`true`: apiDomain is a proxy (createProxy) that adds the token and the organization, so the client\nsends neither and takes no accessToken (default false: accessToken is required)."),
    Declared::new("organizationId", "string")
        .optional()
        .doc("Required for every family but crm."),
    Declared::new("region", "Region").optional().accepts(Accepts::Text),
    Declared::new("apiDomain", "string")
        .optional()
        .accepts(Accepts::Text)
        .doc("Overrides region; http:// only for loopback hosts."),
    Declared::new("crmVersion", "string").optional().accepts(Accepts::Text),
    Declared::new("plan", "ServicePlan").optional().accepts(Accepts::Text),
    Declared::new("maxRetries", "number")
        .optional()
        .doc("How many times a failed attempt is tried again, with back-off (default {default}; 0: none).")
        .default(Shown::Number(MAX_RETRIES as u64))
        .whole(0, RETRIES_MAX),
    Declared::new("timeoutMs", "number")
        .optional()
        .whole(0, TIMEOUT_MAX)
        .doc("The wait for each attempt's answer, in ms (default {default}; 0: none); a call past it is retried or fails with kind \"timeout\".")
        .default(Shown::Number(TIMEOUT_MS as u64)),
    Declared::new("deadlineMs", "number")
        .optional()
        .whole(0, TIMEOUT_MAX)
        .doc("The wait for the whole call, in ms, from its start to its result: the limiter's queue, the token function,\nevery attempt, Retry-After and back-off waits (default {default}; 0: none). At it the call fails with\nkind \"timeout\"; a wait known to pass it (a Retry-After, a full minute) fails at once with kind \"rate_limited\"\nand `retryAfterMs`.")
        .default(Shown::Number(DEADLINE_MS as u64)),
    Declared::new("rateLimit", "false | RateLimitOptions").optional(),
    Declared::new("priority", "\"interactive\" | \"background\"")
        .optional()
        .doc("The lane of this client's calls (default \"interactive\"; each call may say its own): a background call\n(a sync job) never spends the share of the organization's day kept for interactive ones (rateLimit.reserve),\nand fails at once with kind \"rate_limited\" and `retryAfterMs` until the day renews instead."),
    Declared::new("fetch", "typeof fetch").optional().accepts(Accepts::Function),
    Declared::new("maxRequestBytes", "number")
        .optional()
        .whole(1, BYTES_LIMIT)
        .doc("The largest params a call sends, as JSON (default {default}); larger ones are a validation error.")
        .default(Shown::Bytes(REQUEST_BYTES as u64)),
    Declared::new("maxResponseBytes", "number")
        .optional()
        .whole(1, BYTES_LIMIT)
        .doc("The largest answer a call reads (default {default}); a larger one is a decode error, not read.")
        .default(Shown::Bytes(RESPONSE_BYTES as u64)),
    Declared::new("logLevel", "LogLevel")
        .optional()
        .accepts(Accepts::Text)
        .doc("Default: the environment variable SVC_LOG where there is one and it names a level; else \"warn\" when a\nlogger is given, \"off\" when not."),
    Declared::new("logger", "Logger")
        .optional()
        .doc("Where log records go: each method is called with one LogRecord (frozen, never the token).\nNot given: the runtime's console prints each record's `message` line."),
    Declared::new("warnUnknownFields", "boolean")
        .optional()
        .accepts(Accepts::Flag)
        .doc("Log a warning (logLevel \"warn\", never a value) when a call's params hold a top-level field its operation\ndoes not know, which is sent as given: a misspelt optional field. Default: on where there is an environment\nwhose NODE_ENV is not \"production\" (Node, Deno with --allow-env), off where there is none (a page, workerd):\nthere, give `process.env.NODE_ENV !== \"production\"` for your bundler to fill in."),
    Declared::new("onRequest", "(info: RequestHookInfo) => void")
        .optional()
        .accepts(Accepts::Function)
        .doc("Called before each attempt with the request's redacted headers; a hook that throws is ignored."),
    Declared::new("onResponse", "(info: ResponseHookInfo) => void")
        .optional()
        .accepts(Accepts::Function)
        .doc("Called when an attempt is answered, with the answer's redacted headers and its request id."),
];

/// The options of `rateLimit`.
pub const RATE_LIMIT: [Declared; 8] = [
    Declared::new("requestsPerMinute", "number")
        .optional()
        .whole(1, 1_000_000),
    Declared::new("maxConcurrent", "number")
        .optional()
        .whole(1, 10_000),
    Declared::new("maxQueued", "number")
        .optional()
        .whole(1, MAX_QUEUED_LIMIT)
        .doc("The most calls of this client that wait for the limiter at once (default {default}); one more fails at once with kind \"rate_limited\".")
        .default(Shown::Number(MAX_QUEUED as u64)),
    Declared::new("reserve", "number")
        .optional()
        .doc("The share of the organization's day (0 to 1, default 0.1) kept for interactive calls: a background call\n(priority \"background\") that would eat into it fails at once. With a store, of the fleet's day."),
    Declared::new("store", "FleetStore")
        .optional()
        .doc("Share the organization's limits and token with every client using this store (a fleet)."),
    Declared::new("leaseMs", "number")
        .optional()
        .whole(0, TIMEOUT_MAX)
        .doc("How long a call in flight or a token refresh holds its place unless renewed (default {default} ms): what a holder that dies keeps.")
        .default(Shown::Number(LEASE_MS as u64)),
    Declared::new("storeTimeoutMs", "number")
        .optional()
        .whole(0, TIMEOUT_MAX)
        .doc("How long a call waits for a store that does not answer, connecting included, before it fails with a network error, unsent and not tried again (default {default} ms).")
        .default(Shown::Number(STORE_TIMEOUT_MS as u64)),
    Declared::new("fallbackShare", "number")
        .optional()
        .doc("While the store is unreachable, keep to this share (0 to 1) of the limits in this process instead of failing."),
];

/// The options of one call, after its params.
pub const CALL: [Declared; 6] = [
    Declared::new("signal", "AbortSignal")
        .optional()
        .doc("Ends the call with kind \"aborted\", or \"timeout\" for `AbortSignal.timeout()`."),
    Declared::new("timeoutMs", "number")
        .optional()
        .whole(0, TIMEOUT_MAX)
        .doc("This call's wait for each attempt, over the client's."),
    Declared::new("deadlineMs", "number")
        .optional()
        .whole(0, TIMEOUT_MAX)
        .doc("This call's deadline for the whole of it, over the client's `deadlineMs`."),
    Declared::new("maxRetries", "number")
        .optional()
        .whole(0, RETRIES_MAX),
    Declared::new("priority", "\"interactive\" | \"background\"")
        .optional()
        .doc("This call's lane, over the client's `priority`."),
    Declared::new("headers", "Record<string, string>")
        .optional()
        .doc("Extra request headers; Authorization and the organization headers are refused."),
];

/// The options of `createProxy` beside a client's.
pub const PROXY: [Declared; 3] = [
    Declared::new("allow", "OperationId[]"),
    Declared::new("maxBodyBytes", "number")
        .optional()
        .whole(1, BYTES_LIMIT)
        .doc("The largest request body it reads (default {default}); a larger one is answered with 413 and never forwarded.")
        .default(Shown::Bytes(PROXY_BODY_BYTES as u64)),
    Declared::new("allowedOrigins", "string[]")
        .optional()
        .doc("The origins browsers may call it from, as they send them (\"https://app.example.com\": lower-case, a port\nonly when not the default), your app's own included: a request whose Origin is another is answered\nwith 403 and never forwarded; one without Origin (no browser sends a write cross-site without it) is\nforwarded. Not given: Origin is not checked."),
];

/// The options of `oauth`.
pub const OAUTH: [Declared; 5] = [
    Declared::new("clientId", "string").accepts(Accepts::Text),
    Declared::new("clientSecret", "string").accepts(Accepts::Text).doc("Never shown: not in an error, a log record, a hook or the store."),
    Declared::new("refreshToken", "string").accepts(Accepts::Text).doc("Never shown: not in an error, a log record, a hook or the store."),
    Declared::new("accountsUrl", "string")
        .optional()
        .accepts(Accepts::Text)
        .doc("The accounts server (default `accountsServers[region]`); http:// only for loopback hosts."),
    Declared::new("maxRefreshes", "number")
        .optional()
        .whole(0, 1_000_000)
        .doc("The most refreshes in any 10 minutes, across the fleet with a store (default {default}, the accounts server's\nlimit): one more waits for the window, or fails with kind \"rate_limited\" when that passes the deadline.")
        .default(Shown::Number(crate::oauth::MAX_REFRESHES as u64)),
];

/// The options of `toArray()`.
pub const TO_ARRAY: [Declared; 1] = [Declared::new("max", "number")
    .optional()
    .doc("The most items gathered, a whole number from 0 to 4294967295; default {default}. One more rejects with a `config` SvcError.")
    .default(Shown::Number(svc_core::gather::DEFAULT_MAX as u64))];

/// The options of the receivers, `parseWatchNotification` and `parseEvent`.
pub const RECEIVE: [Declared; 1] = [Declared::new("maxBodyBytes", "number")
    .optional()
    .whole(1, BYTES_LIMIT)
    .doc("A body above it (default {default}) is refused before it is read.")
    .default(Shown::Bytes(RECEIVED_BODY_BYTES as u64))];

/// A logger: each method writes the records of its level.
pub const LOGGER: [Declared; 4] = [
    Declared::new("debug", "(record: LogRecord) => void"),
    Declared::new("info", "(record: LogRecord) => void"),
    Declared::new("warn", "(record: LogRecord) => void"),
    Declared::new("error", "(record: LogRecord) => void"),
];

/// The ways a client gets its token, one of which its options take: a variant's name and the members
/// it requires; it refuses the other ways' members.
const WAYS: [(&str, &[&str], &str); 3] = [
    (
        "WithAccessToken",
        &["accessToken"],
        "A client given its access token, or a function that returns it.",
    ),
    (
        "WithOAuth",
        &["oauth"],
        "A client that gets its access tokens itself (server side only).",
    ),
    (
        "ViaProxy",
        &["viaProxy", "apiDomain"],
        "A client whose apiDomain is a proxy (createProxy) that adds the token.",
    ),
];

/// The members of `CLIENT` that choose a way.
const WAY_KEYS: [&str; 3] = ["accessToken", "oauth", "viaProxy"];

/// `ClientBaseOptions` (every member that chooses no way), one interface per way, and `ClientOptions`:
/// the base and one of the ways, so that TypeScript refuses options without a token or a proxy.
fn client_options(out: &mut String) {
    let base: Vec<Declared> = CLIENT
        .into_iter()
        .filter(|m| !WAY_KEYS.contains(&m.name))
        .collect();
    declare::interface(
        out,
        "The options of every client, whichever way it gets its token.",
        "ClientBaseOptions",
        &base,
    );
    for (name, required, about) in WAYS {
        let members: Vec<Declared> = CLIENT
            .into_iter()
            .filter(|m| WAY_KEYS.contains(&m.name) || required.contains(&m.name))
            .map(|m| match (required.contains(&m.name), m.name) {
                (true, "viaProxy") => Declared {
                    ts: "true",
                    optional: false,
                    ..m
                },
                (true, _) => Declared {
                    optional: false,
                    ..m
                },
                (false, "viaProxy") => Declared::new(m.name, "false").optional(),
                (false, _) => Declared::new(m.name, "never").optional(),
            })
            .collect();
        declare::interface(out, about, name, &members);
    }
    union(
        out,
        "The options of `new Client(options)`: one of accessToken, oauth, or `viaProxy: true` with apiDomain.",
        "ClientOptions",
        "ClientBaseOptions",
        &WAYS,
    );
}

/// `export type name = base & (way | way);`, after its doc.
fn union(out: &mut String, about: &str, name: &str, base: &str, ways: &[(&str, &[&str], &str)]) {
    declare::doc(out, "", about);
    let ways: Vec<&str> = ways.iter().map(|(n, ..)| *n).collect();
    out.push_str(&format!(
        "export type {name} = {base} & ({});\n",
        ways.join(" | ")
    ));
}

/// The level without `logLevel`: `SVC_LOG`'s (`env`, as `Level::parse` read it) when it names one, else
/// warn for a given logger (given to be told something), else off.
pub fn default_level(env: Option<Option<Level>>, has_logger: bool) -> Option<Level> {
    match env {
        Some(level) => level,
        None => has_logger.then_some(Level::Warn),
    }
}

/// The TypeScript of every shape above, in the order the package's declarations take them.
pub fn declarations() -> String {
    let mut out = String::new();
    seeing(&mut out);
    client_options(&mut out);
    declare::interface(
        &mut out,
        "The OAuth refresh-token grant's credentials (from a self client of the accounts server).",
        "OAuthOptions",
        &OAUTH,
    );
    the_rest(&mut out);
    out
}

/// The TypeScript of what the client tells: log levels and records, the logger, the hooks' infos.
fn seeing(out: &mut String) {
    declare::names_union(
        out,
        "How much the client logs; \"off\" logs nothing.",
        "LogLevel",
        &Level::NAMES,
    );
    declare::names_union(
        out,
        "What a log record tells of.",
        "LogEvent",
        &note::EVENTS,
    );
    declare::interface(
        out,
        "What a logger is told of one event of a call (never the token).",
        "LogRecord",
        &note::RECORD,
    );
    declare::interface(
        out,
        "Where the client writes its log records; the console, told each record's `message`, by default.",
        "Logger",
        &LOGGER,
    );
    declare::interface(
        out,
        "What `onRequest` is told before each attempt is sent (never the token).",
        "RequestHookInfo",
        &note::REQUEST_INFO,
    );
    declare::interface(
        out,
        "What `onResponse` is told when an attempt is answered (never the token).",
        "ResponseHookInfo extends RequestHookInfo",
        &note::RESPONSE_INFO,
    );
}

/// The TypeScript of the other options, the errors and their codes, and an operation's info.
fn the_rest(out: &mut String) {
    declare::interface(out, "", "RateLimitOptions", &RATE_LIMIT);
    declare::interface(out, "", "CallOptions", &CALL);
    declare::interface(
        out,
        "The options of `toArray()`.",
        "ToArrayOptions",
        &TO_ARRAY,
    );
    declare::interface(out, "Options of the receivers.", "ReceiveOptions", &RECEIVE);
    declare::interface(
        out,
        "What createProxy takes beside a Client's options and the token it adds: the operations it forwards.\nA body is forwarded only with its operation's Content-Type (application/json, or multipart/form-data\nfor an upload; else 415), which makes a browser ask before sending it from another site.",
        "ProxyBaseOptions extends ClientBaseOptions",
        &PROXY,
    );
    union(
        out,
        "Options of createProxy: a Client's, with the token it adds (accessToken or oauth), and the operations it forwards.",
        "ProxyOptions",
        "ProxyBaseOptions",
        &WAYS[..2],
    );
    for part in [
        IssueCode::declarations(),
        Error::declarations(),
        svc_core::code::declarations(),
    ] {
        out.push('\n');
        out.push_str(&part);
    }
    declare::interface(
        out,
        "An operation of the table, as `operations()` gives it.",
        "OperationInfo",
        &OperationInfo::DECLARED,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_logger_without_a_level_is_told_warnings_unless_svc_log_says_otherwise() {
        assert_eq!(default_level(None, false), None);
        assert_eq!(default_level(None, true), Some(Level::Warn));
        assert_eq!(
            default_level(Level::parse("debug"), true),
            Some(Level::Debug)
        );
        assert_eq!(default_level(Level::parse("off"), true), None);
        assert_eq!(
            default_level(Level::parse("info"), false),
            Some(Level::Info)
        );
    }

    #[test]
    fn the_declarations_name_each_shape_once() {
        let ts = declarations();
        for name in [
            "LogLevel",
            "LogEvent",
            "LogRecord",
            "Logger",
            "RequestHookInfo",
            "ResponseHookInfo",
            "ClientBaseOptions",
            "WithAccessToken",
            "WithOAuth",
            "ViaProxy",
            "ClientOptions",
            "OAuthOptions",
            "RateLimitOptions",
            "CallOptions",
            "ProxyBaseOptions",
            "ProxyOptions",
            "IssueCode",
            "Issue",
            "ErrorKind",
            "SvcError",
            "ErrorCode",
            "OperationInfo",
        ] {
            let head = ts
                .lines()
                .filter(|l| l.split([' ', '<', '=']).nth(2).is_some_and(|n| n == name))
                .count();
            assert!(head >= 1, "{name} is not declared:\n{ts}");
        }
        assert!(ts.contains("  logLevel?: LogLevel;\n"), "{ts}");
        for line in [
            "export type ClientOptions = ClientBaseOptions & (WithAccessToken | WithOAuth | ViaProxy);",
            "export type ProxyOptions = ProxyBaseOptions & (WithAccessToken | WithOAuth);",
            "  accessToken?: never;\n  oauth?: never;\n",
            "  viaProxy: true;\n",
            "  apiDomain: string;\n}",
            "  oauth: OAuthOptions;\n  viaProxy?: false;\n}",
        ] {
            assert!(ts.contains(line), "{line}\n{ts}");
        }
        assert!(
            ts.contains(
                "export type LogLevel = \"off\" | \"error\" | \"warn\" | \"info\" | \"debug\";"
            ),
            "{ts}"
        );
    }
}
