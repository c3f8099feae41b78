//! The accounts server's options: registered clients, the demo client, lifetimes and limits, from
//! the binary's `--oauth-*` flags or from svc-sdk/testing's `accounts` option (made into those flags).

use super::users::UserOption;
use svc_core::request::{percent_decode, percent_encode};
use svc_json::{Json, Num};

/// The demo client's id, registered unless `--oauth-no-demo-client`; `npm start` prints it.
pub const DEMO_CLIENT_ID: &str = "1000.SANDBOXDEMOCLIENT";
/// The demo client's secret.
pub const DEMO_CLIENT_SECRET: &str = "sandbox-demo-client-secret";
/// The demo client's one refresh token.
pub const DEMO_REFRESH_TOKEN: &str = "1000.sandbox-demo.refresh-token";

pub const HOUR_MS: u64 = 3_600_000;
/// The longest lifetime or window a flag takes: a year.
const MAX_MS: u64 = 365 * 24 * HOUR_MS;
/// The most refreshes per window and live tokens per refresh token a flag takes.
const MAX_COUNT: u64 = 1_000_000;

/// The usage lines of the accounts flags, for the binary's usage text.
pub const USAGE: &str = "\
  --oauth-client ID:SECRET:REFRESH[,REFRESH...]
                           register an OAuth client and its refresh tokens (repeatable; a part holding
                           : , or % is percent-encoded)
  --oauth-no-demo-client   do not register the demo client (printed by npm start)
  --oauth-token-lifetime-ms N
                           how long an access token lives (default 3600000)
  --oauth-refresh-limit N  access tokens per refresh token in a window (default 10)
  --oauth-refresh-window-ms N
                           the refresh window (default 600000)
  --oauth-live-token-cap N live access tokens per refresh token; one more revokes the oldest (default 10)
  --oauth-legacy-expires-in
                           answer expires_in in ms beside expires_in_sec, as older servers did
  --oauth-echo-secrets     echo the received secrets, codes and refresh tokens in every error (for tests
                           that they never leak)
  --oauth-user EMAIL[:ORG_ID,...]
                           a user of the consent and device pages and the organizations it reaches
                           (repeatable; none listed: a new organization of its own)
  --oauth-location LOC     this accounts server's data center (default us)
  --oauth-peer LOC=URL     the accounts server of another data center, where its codes are redeemed
                           (repeatable)
  --oauth-device-interval-ms N
                           the device flow's polling interval (default 5000)
";

/// svc-sdk/testing's `accounts` members that carry a flag's value, and the flag.
pub const VALUED: &[(&str, &str)] = &[
    ("tokenLifetimeMs", "--oauth-token-lifetime-ms"),
    ("refreshLimit", "--oauth-refresh-limit"),
    ("refreshWindowMs", "--oauth-refresh-window-ms"),
    ("liveTokenCap", "--oauth-live-token-cap"),
    ("deviceIntervalMs", "--oauth-device-interval-ms"),
];

/// svc-sdk/testing's `accounts` members that are switches: the member, the value that is the flag, the flag.
pub const SWITCHES: &[(&str, bool, &str)] = &[
    ("demoClient", false, "--oauth-no-demo-client"),
    ("legacyExpiresIn", true, "--oauth-legacy-expires-in"),
    ("echoSecrets", true, "--oauth-echo-secrets"),
];

/// The member of svc-sdk/testing's `accounts` that lists clients (`--oauth-client`).
pub const CLIENTS: (&str, &str) = ("clients", "--oauth-client");

/// svc-sdk/testing's `accounts` members of the users and data centers, and their flags.
pub const PLACES: &[(&str, &str)] = &[
    ("users", "--oauth-user"),
    ("location", "--oauth-location"),
    ("peers", "--oauth-peer"),
];

/// A registered OAuth client.
#[derive(Clone, Debug, PartialEq)]
pub struct Client {
    pub id: String,
    pub secret: String,
    pub refresh_tokens: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub clients: Vec<Client>,
    pub token_lifetime_ms: u64,
    pub refresh_limit: usize,
    pub refresh_window_ms: u64,
    pub live_token_cap: usize,
    pub legacy_expires_in: bool,
    pub echo_secrets: bool,
    pub users: Vec<UserOption>,
    pub location: String,
    /// Other data centers' locations and accounts URLs, in the order given.
    pub peers: Vec<(String, String)>,
    pub device_interval_ms: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            clients: vec![Client {
                id: DEMO_CLIENT_ID.into(),
                secret: DEMO_CLIENT_SECRET.into(),
                refresh_tokens: vec![DEMO_REFRESH_TOKEN.into()],
            }],
            token_lifetime_ms: HOUR_MS,
            refresh_limit: 10,
            refresh_window_ms: 600_000,
            live_token_cap: 10,
            legacy_expires_in: false,
            echo_secrets: false,
            users: Vec::new(),
            location: "us".into(),
            peers: Vec::new(),
            device_interval_ms: 5000,
        }
    }
}

/// A flag's whole number from 1 to `max`.
fn count(flag: &str, v: &str, max: u64) -> Result<u64, String> {
    v.parse::<u64>()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| {
            format!(
                "{flag}: {:?} is not a whole number from 1 to {max}",
                svc_core::echo::shorten(v)
            )
        })
}

/// A percent-encoded part of `--oauth-client`, decoded.
fn part(v: &str) -> Result<String, String> {
    percent_decode(v, false)
        .filter(|p| !p.is_empty() && !p.chars().any(char::is_control))
        .ok_or_else(|| {
            "--oauth-client: each part must be non-empty text without control characters, its %XX escapes whole".to_string()
        })
}

impl Options {
    /// Applies one `--oauth-*` flag; `value` takes its value when it has one.
    pub fn flag(
        &mut self,
        flag: &str,
        value: &mut dyn FnMut() -> Result<String, String>,
    ) -> Result<(), String> {
        match flag {
            "--oauth-client" => self.add_client(&value()?)?,
            "--oauth-no-demo-client" => self.clients.retain(|c| c.id != DEMO_CLIENT_ID),
            "--oauth-token-lifetime-ms" => self.token_lifetime_ms = count(flag, &value()?, MAX_MS)?,
            "--oauth-refresh-limit" => {
                self.refresh_limit = count(flag, &value()?, MAX_COUNT)? as usize
            }
            "--oauth-refresh-window-ms" => self.refresh_window_ms = count(flag, &value()?, MAX_MS)?,
            "--oauth-live-token-cap" => {
                self.live_token_cap = count(flag, &value()?, MAX_COUNT)? as usize
            }
            "--oauth-legacy-expires-in" => self.legacy_expires_in = true,
            "--oauth-echo-secrets" => self.echo_secrets = true,
            "--oauth-user" => self.add_user(&value()?)?,
            "--oauth-location" => self.location = location(flag, &value()?)?,
            "--oauth-peer" => self.add_peer(&value()?)?,
            "--oauth-device-interval-ms" => {
                self.device_interval_ms = count(flag, &value()?, MAX_MS)?
            }
            other => return Err(format!("unknown flag {other:?}")),
        }
        Ok(())
    }

    fn add_user(&mut self, v: &str) -> Result<(), String> {
        let (email, orgs) = v.split_once(':').unwrap_or((v, ""));
        if !super::users::is_email(email) {
            return Err(format!(
                "--oauth-user: {:?} is not an email",
                svc_core::echo::shorten(email)
            ));
        }
        let organizations: Vec<String> = orgs
            .split(',')
            .map(str::trim)
            .filter(|o| !o.is_empty())
            .map(String::from)
            .collect();
        if organizations
            .iter()
            .any(|o| !o.chars().all(|c| c.is_ascii_alphanumeric()))
        {
            return Err("--oauth-user: organization ids are letters and digits".into());
        }
        self.users.retain(|u| !u.email.eq_ignore_ascii_case(email));
        self.users.push(UserOption {
            email: email.to_string(),
            organizations,
        });
        Ok(())
    }

    fn add_peer(&mut self, v: &str) -> Result<(), String> {
        let Some((loc, url)) = v.split_once('=') else {
            return Err("--oauth-peer: expected LOC=URL".into());
        };
        let loc = location("--oauth-peer", loc)?;
        let url = url.trim_end_matches('/');
        let host = url
            .strip_prefix("http://")
            .or_else(|| url.strip_prefix("https://"))
            .unwrap_or("");
        if host.is_empty() || host.contains(['/', '?', '#', ' ']) {
            return Err(format!(
                "--oauth-peer: {:?} is not an http(s) origin",
                svc_core::echo::shorten(url)
            ));
        }
        self.peers.retain(|(l, _)| *l != loc);
        self.peers.push((loc, url.to_string()));
        Ok(())
    }

    /// The accounts URL of `loc`: `own` (this server's URL) for its own location, a peer's for another.
    pub fn accounts_url(&self, loc: &str, own: &str) -> Option<String> {
        if loc == self.location {
            return Some(own.to_string());
        }
        self.peers
            .iter()
            .find(|(l, _)| l == loc)
            .map(|(_, u)| u.clone())
    }

    fn add_client(&mut self, v: &str) -> Result<(), String> {
        let mut parts = v.splitn(3, ':');
        let (Some(id), Some(secret), Some(tokens)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err("--oauth-client: expected ID:SECRET:REFRESH[,REFRESH...]".into());
        };
        let client = Client {
            id: part(id)?,
            secret: part(secret)?,
            refresh_tokens: tokens
                .split(',')
                .filter(|t| !t.is_empty())
                .map(part)
                .collect::<Result<_, _>>()?,
        };
        self.clients.retain(|c| c.id != client.id);
        let mut seen: Vec<&String> = Vec::new();
        let taken = self
            .clients
            .iter()
            .flat_map(|c| &c.refresh_tokens)
            .chain(&client.refresh_tokens)
            .any(|t| {
                let again = seen.contains(&t);
                seen.push(t);
                again
            });
        if taken {
            return Err("--oauth-client: a refresh token belongs to one client, once".into());
        }
        self.clients.push(client);
        Ok(())
    }
}

/// A data center's name: 1 to 16 lowercase letters, digits or dashes.
fn location(flag: &str, v: &str) -> Result<String, String> {
    let ok = (1..=16).contains(&v.len())
        && v.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !ok {
        return Err(format!(
            "{flag}: {:?} is not a location (lowercase letters and digits, like us or eu)",
            svc_core::echo::shorten(v)
        ));
    }
    Ok(v.to_string())
}

/// What a value that is not a number or text was, as svc-sdk/testing's other options say it.
fn got(v: &Json) -> String {
    match v {
        Json::Obj(m) => match m.get(svc_core::validate::UNREPRESENTABLE) {
            Some(Json::Str(what)) => svc_core::unwritable::words(what).to_string(),
            _ => "an object".into(),
        },
        Json::Arr(_) => "an array".into(),
        Json::Bool(b) => b.to_string(),
        _ => "null".into(),
    }
}

/// The text of a whole-number member: a number a JS number holds exactly, or a string.
fn number_text(key: &str, v: &Json) -> Result<String, String> {
    match v {
        Json::Str(s) => Ok(s.to_string()),
        Json::Num(text) => match svc_json::number(text) {
            Some(Num::U(n)) if n <= svc_core::validate::MAX_EXACT_INT => Ok(n.to_string()),
            Some(Num::U(_)) => Err(format!(
                "{key}: {text} is beyond 2^53 - 1, where a JS number loses digits"
            )),
            _ => Ok(text.to_string()),
        },
        other => Err(format!(
            "{key}: expected a number or a string, got {}",
            got(other)
        )),
    }
}

fn text_member<'j>(client: &'j Json, key: &str) -> Result<&'j str, String> {
    client
        .get(key)
        .and_then(Json::as_str)
        .ok_or_else(|| format!("clients: each client needs {key}, a string"))
}

/// One `--oauth-client` value of a `{ clientId, clientSecret, refreshTokens }` member.
fn client_flag(client: &Json) -> Result<String, String> {
    let Some(members) = client.as_object() else {
        return Err(format!(
            "clients: expected {{ clientId, clientSecret, refreshTokens }}, got {}",
            got(client)
        ));
    };
    if let Some(k) = members
        .keys()
        .find(|k| !["clientId", "clientSecret", "refreshTokens"].contains(k))
    {
        return Err(format!("clients: unknown member {k:?}"));
    }
    let tokens: Vec<&str> = match client.get("refreshTokens") {
        Some(Json::Str(t)) => vec![t],
        Some(Json::Arr(list)) => list
            .iter()
            .map(|t| t.as_str().ok_or("clients: refreshTokens are strings"))
            .collect::<Result<_, _>>()?,
        None | Some(Json::Null) => Vec::new(),
        Some(other) => {
            return Err(format!(
                "clients: refreshTokens: expected a list of strings, got {}",
                got(other)
            ))
        }
    };
    let mut out = String::new();
    percent_encode(text_member(client, "clientId")?, &mut out);
    out.push(':');
    percent_encode(text_member(client, "clientSecret")?, &mut out);
    out.push(':');
    for (i, t) in tokens.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        percent_encode(t, &mut out);
    }
    Ok(out)
}

/// The flag values of `users` (`[{ email, organizations? }]`), `location` (text) or `peers` (`{ loc: url }`).
fn place_values(key: &str, v: &Json) -> Result<Vec<String>, String> {
    match (key, v) {
        ("location", Json::Str(loc)) => Ok(vec![loc.to_string()]),
        ("peers", Json::Obj(m)) => m
            .iter()
            .map(|(loc, url)| match url {
                Json::Str(url) => Ok(format!("{loc}={url}")),
                other => Err(format!("peers: {loc}: expected a URL, got {}", got(other))),
            })
            .collect(),
        ("users", Json::Arr(list)) => list.iter().map(user_value).collect(),
        ("location", other) => Err(format!("location: expected a string, got {}", got(other))),
        ("peers", other) => Err(format!(
            "peers: expected {{ location: url }}, got {}",
            got(other)
        )),
        (_, other) => Err(format!("users: expected a list, got {}", got(other))),
    }
}

/// One `--oauth-user` value of a `{ email, organizations? }` member.
fn user_value(user: &Json) -> Result<String, String> {
    let Some(members) = user.as_object() else {
        return Err(format!(
            "users: expected {{ email, organizations? }}, got {}",
            got(user)
        ));
    };
    if let Some(k) = members
        .keys()
        .find(|k| !["email", "organizations"].contains(k))
    {
        return Err(format!("users: unknown member {k:?}"));
    }
    let email = text_member(user, "email").map_err(|_| "users: each user needs email, a string")?;
    let orgs: Vec<String> = match user.get("organizations") {
        None | Some(Json::Null) => Vec::new(),
        Some(Json::Arr(list)) => list
            .iter()
            .map(|o| match o {
                Json::Str(s) => Ok(s.to_string()),
                Json::Num(n) => Ok(n.to_string()),
                _ => Err("users: organizations are ids (strings)".to_string()),
            })
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(format!(
                "users: organizations: expected a list of ids, got {}",
                got(other)
            ))
        }
    };
    Ok(format!("{email}:{}", orgs.join(",")))
}

/// The binary's flags of svc-sdk/testing's `accounts` option (its JSON text): `VALUED`,
/// `SWITCHES`, `PLACES` and `CLIENTS`; null members are not given.
pub fn option_flags(text: &str) -> Result<Vec<String>, String> {
    let options = svc_json::parse(text).map_err(|e| e.message())?;
    let Some(options) = options.as_object() else {
        return Err(format!("expected an object, got {}", got(&options)));
    };
    let mut out = Vec::new();
    for (key, v) in options.iter().filter(|(_, v)| !v.is_null()) {
        if let Some((_, flag)) = VALUED.iter().find(|(k, _)| *k == key) {
            out.extend([flag.to_string(), number_text(key, v)?]);
        } else if let Some((_, on, flag)) = SWITCHES.iter().find(|(k, _, _)| *k == key) {
            match v {
                Json::Bool(b) if b == on => out.push(flag.to_string()),
                Json::Bool(_) => {}
                other => return Err(format!("{key}: expected true or false, got {}", got(other))),
            }
        } else if let Some((_, flag)) = PLACES.iter().find(|(k, _)| *k == key) {
            for value in place_values(key, v)? {
                out.extend([flag.to_string(), value]);
            }
        } else if key == CLIENTS.0 {
            let Some(list) = v.as_array() else {
                return Err(format!("clients: expected a list, got {}", got(v)));
            };
            for client in list {
                out.extend([CLIENTS.1.to_string(), client_flag(client)?]);
            }
        } else {
            return Err(format!("unknown member {key:?}"));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, String> {
        let mut o = Options::default();
        let mut args = args.iter().map(|s| s.to_string());
        while let Some(flag) = args.next() {
            let mut value = || args.next().ok_or_else(|| "needs a value".to_string());
            o.flag(&flag, &mut value)?;
        }
        Ok(o)
    }

    #[test]
    fn defaults_register_the_demo_client() {
        let o = Options::default();
        assert_eq!(o.clients.len(), 1);
        assert_eq!(o.clients[0].refresh_tokens, [DEMO_REFRESH_TOKEN]);
        assert_eq!(
            (
                o.token_lifetime_ms,
                o.refresh_limit,
                o.refresh_window_ms,
                o.live_token_cap
            ),
            (3_600_000, 10, 600_000, 10)
        );
        assert!(!o.legacy_expires_in && !o.echo_secrets);
        assert_eq!((o.location.as_str(), o.device_interval_ms), ("us", 5000));
        assert!(o.users.is_empty() && o.peers.is_empty());
    }

    #[test]
    fn users_and_data_centers() {
        let o = parse(&[
            "--oauth-user",
            "a@x.test:1,2",
            "--oauth-user",
            "b@x.test",
            "--oauth-location",
            "eu",
            "--oauth-peer",
            "us=http://127.0.0.1:9/",
            "--oauth-device-interval-ms",
            "50",
        ])
        .unwrap();
        assert_eq!(o.users[0].organizations, ["1", "2"]);
        assert!(o.users[1].organizations.is_empty());
        assert_eq!(
            o.peers,
            [("us".to_string(), "http://127.0.0.1:9".to_string())]
        );
        assert_eq!(o.accounts_url("eu", "http://me"), Some("http://me".into()));
        assert_eq!(
            o.accounts_url("us", "http://me"),
            Some("http://127.0.0.1:9".into())
        );
        assert_eq!(o.accounts_url("in", "http://me"), None);
        assert_eq!(o.device_interval_ms, 50);
        for (args, needle) in [
            (&["--oauth-user", "nope"][..], "not an email"),
            (&["--oauth-user", "a@x.test:1/2"], "letters and digits"),
            (&["--oauth-location", "EU"], "not a location"),
            (&["--oauth-peer", "eu"], "LOC=URL"),
            (&["--oauth-peer", "eu=ftp://x"], "http(s) origin"),
        ] {
            let err = parse(args).unwrap_err();
            assert!(err.contains(needle), "{args:?}: {err}");
        }
        let flags = option_flags(
            r#"{"users":[{"email":"a@x.test","organizations":["1",2]},{"email":"b@x.test"}],
                "location":"eu","peers":{"us":"http://127.0.0.1:9"},"deviceIntervalMs":50}"#,
        )
        .unwrap();
        assert_eq!(
            flags,
            [
                "--oauth-user",
                "a@x.test:1,2",
                "--oauth-user",
                "b@x.test:",
                "--oauth-location",
                "eu",
                "--oauth-peer",
                "us=http://127.0.0.1:9",
                "--oauth-device-interval-ms",
                "50"
            ]
        );
        let refs: Vec<&str> = flags.iter().map(String::as_str).collect();
        assert_eq!(parse(&refs).unwrap().users, o.users);
        for (text, needle) in [
            (r#"{"users":{}}"#, "expected a list"),
            (r#"{"users":[{"mail":"a@b.c"}]}"#, "unknown member"),
            (r#"{"location":1}"#, "expected a string"),
            (r#"{"peers":[]}"#, "expected { location: url }"),
        ] {
            let err = option_flags(text).unwrap_err();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }

    #[test]
    fn every_flag() {
        let o = parse(&[
            "--oauth-client",
            "c1:s%3Ax:r1,r%2C2",
            "--oauth-no-demo-client",
            "--oauth-token-lifetime-ms",
            "5",
            "--oauth-refresh-limit",
            "3",
            "--oauth-refresh-window-ms",
            "1000",
            "--oauth-live-token-cap",
            "2",
            "--oauth-legacy-expires-in",
            "--oauth-echo-secrets",
        ])
        .unwrap();
        assert_eq!(
            o.clients,
            [Client {
                id: "c1".into(),
                secret: "s:x".into(),
                refresh_tokens: vec!["r1".into(), "r,2".into()]
            }]
        );
        assert_eq!(
            (
                o.token_lifetime_ms,
                o.refresh_limit,
                o.refresh_window_ms,
                o.live_token_cap
            ),
            (5, 3, 1000, 2)
        );
        assert!(o.legacy_expires_in && o.echo_secrets);
    }

    #[test]
    fn bad_flags_are_explained() {
        for (args, needle) in [
            (&["--oauth-client", "c1"][..], "ID:SECRET:REFRESH"),
            (&["--oauth-client", "c1::r"], "non-empty"),
            (&["--oauth-client", "c1:s:%zz"], "%XX"),
            (&["--oauth-client", "c1:s:r,r"], "once"),
            (
                &["--oauth-client", "c1:s:r", "--oauth-client", "c2:s:r"],
                "once",
            ),
            (
                &["--oauth-client", "c:s:1000.sandbox-demo.refresh-token"],
                "once",
            ),
            (&["--oauth-refresh-limit", "0"], "from 1 to 1000000"),
            (&["--oauth-token-lifetime-ms", "x"], "not a whole number"),
            (&["--oauth-nope"], "unknown flag"),
        ] {
            let err = parse(args).unwrap_err();
            assert!(err.contains(needle), "{args:?}: {err}");
        }
    }

    #[test]
    fn testing_options_become_the_flags() {
        let flags = option_flags(
            r#"{"clients":[{"clientId":"c:1","clientSecret":"s&+%","refreshTokens":["r1","r,2"]},{"clientId":"c2","clientSecret":"s","refreshTokens":"r3"}],
                "tokenLifetimeMs":1500,"refreshLimit":"3","refreshWindowMs":null,"liveTokenCap":2,
                "demoClient":false,"legacyExpiresIn":true,"echoSecrets":false}"#,
        )
        .unwrap();
        assert_eq!(
            flags,
            [
                "--oauth-client",
                "c%3A1:s%26%2B%25:r1,r%2C2",
                "--oauth-client",
                "c2:s:r3",
                "--oauth-token-lifetime-ms",
                "1500",
                "--oauth-refresh-limit",
                "3",
                "--oauth-live-token-cap",
                "2",
                "--oauth-no-demo-client",
                "--oauth-legacy-expires-in",
            ]
        );
        let refs: Vec<&str> = flags.iter().map(String::as_str).collect();
        let o = parse(&refs).unwrap();
        assert_eq!(o.clients[0].id, "c:1");
        assert_eq!(o.clients[0].secret, "s&+%");
        assert_eq!(o.clients[0].refresh_tokens, ["r1", "r,2"]);
        for (text, needle) in [
            (r#"[]"#, "expected an object"),
            (r#"{"nope":1}"#, "unknown member \"nope\""),
            (r#"{"clients":{}}"#, "expected a list"),
            (r#"{"clients":[{"clientId":"c"}]}"#, "needs clientSecret"),
            (
                r#"{"clients":[{"clientId":"c","clientSecret":"s","x":1}]}"#,
                "unknown member",
            ),
            (
                r#"{"refreshLimit":{"$svc_unrepresentable":"NaN"}}"#,
                "expected a number",
            ),
            (r#"{"refreshLimit":9007199254740993}"#, "beyond 2^53 - 1"),
            (r#"{"echoSecrets":"yes"}"#, "expected true or false"),
        ] {
            let err = option_flags(text).unwrap_err();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }
}
