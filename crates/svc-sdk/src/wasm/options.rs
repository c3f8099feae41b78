//! Reading and checking the `Client` options object.

use super::js::{get, to_js_error};
use crate::limit::{DEFAULT_PLAN, PLANS};
use crate::send::{Credential, Level};
use crate::surface;
use std::fmt;
use svc_core::declare::{names, reads, Accepts, Reads};
use svc_core::error::{Error, ErrorKind};
use svc_core::family::resolve_api_domain;
use svc_core::request::Target;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A fleet store and its options (`rateLimit: { store, leaseMs, storeTimeoutMs, fallbackShare }`).
#[derive(Clone)]
pub struct Fleet {
    pub store: JsValue,
    pub lease_ms: u32,
    pub store_timeout_ms: u32,
    pub fallback_share: Option<f64>,
}

impl fmt::Debug for Fleet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fleet")
            .field("lease_ms", &self.lease_ms)
            .field("store_timeout_ms", &self.store_timeout_ms)
            .field("fallback_share", &self.fallback_share)
            .finish_non_exhaustive()
    }
}

const RATE_LIMIT_KEYS: [&str; 8] = names(&surface::RATE_LIMIT);

/// `rateLimit.store`'s options, if there is a store.
fn fleet(v: &JsValue) -> Result<Option<Fleet>, JsValue> {
    let store = get(v, "store");
    if store.is_undefined() {
        for key in &RATE_LIMIT_KEYS[5..] {
            if !get(v, key).is_undefined() {
                return Err(config(format!("rateLimit.{key} needs rateLimit.store")));
            }
        }
        return Ok(None);
    }
    if super::store::Store::new(store.clone(), String::new()).is_none() {
        return Err(config(super::store::USAGE));
    }
    let share = get(v, "fallbackShare");
    let fallback_share = match share.as_f64() {
        _ if share.is_undefined() => None,
        Some(n) if n > 0.0 && n <= 1.0 => Some(n),
        _ => {
            return Err(config(
                "rateLimit.fallbackShare must be a number above 0 and at most 1",
            ))
        }
    };
    let members = Members::of(v, &RATE_LIMIT, "");
    Ok(Some(Fleet {
        store,
        lease_ms: members.whole("leaseMs")?.max(1),
        store_timeout_ms: members.whole("storeTimeoutMs")?,
        fallback_share,
    }))
}

#[derive(Clone, Debug)]
pub struct Options {
    pub target: Target,
    /// Where the token comes from; the token function itself, when it is one.
    pub credential: Credential,
    pub token_function: Option<js_sys::Function>,
    /// Calls go to the grant's `api_domain` (`oauth` without `apiDomain`).
    pub follow_grant_domain: bool,
    pub fetch: Option<js_sys::Function>,
    pub plan: &'static str,
    pub max_retries: u32,
    pub timeout_ms: u32,
    /// The whole call's deadline (`deadlineMs`; 0: none).
    pub deadline_ms: u32,
    /// `rateLimit.maxQueued`: the most calls that wait for the limiter at once.
    pub max_queued: u32,
    pub rate_limit: RateLimit,
    /// `rateLimit.store` and how to use it.
    pub fleet: Option<Fleet>,
    pub max_request_bytes: usize,
    pub max_response_bytes: usize,
    /// `logLevel` (else `SVC_LOG`), `logger`, `onRequest`, `onResponse`.
    pub level: Option<Level>,
    pub logger: Option<JsValue>,
    pub on_request: Option<js_sys::Function>,
    pub on_response: Option<js_sys::Function>,
    /// `warnUnknownFields`: log the params' fields their operation does not know.
    pub warn_unknown_fields: bool,
    /// `credentialKey`: the name of a token function's credential.
    pub credential_key: Option<String>,
    /// `priority: "background"`: the client's calls leave the reserve of the day alone.
    pub background: bool,
    /// `rateLimit.reserve` in thousandths of the day.
    pub reserve_per_mille: u32,
}

const KNOWN: [&str; 22] = names(&surface::CLIENT);
#[cfg(feature = "server")]
const OAUTH_KEYS: [&str; 5] = names(&surface::OAUTH);

/// `oauth`: the grant's credential, its accounts server `region`'s unless `accountsUrl` names one.
#[cfg(feature = "server")]
fn oauth(v: &JsValue, region: Option<&str>) -> Result<crate::oauth::Grant, JsValue> {
    check_keys(v, &OAUTH_KEYS, "oauth")?;
    let members = Members::of(v, &OAUTH, "oauth.");
    let text = |key: &str| {
        members
            .text(key)?
            .ok_or_else(|| config(format!("oauth.{key} must be a string")))
    };
    let accounts_url = match members.text("accountsUrl")? {
        Some(url) => url,
        None => svc_core::family::accounts_server(region.unwrap_or("us"))
            .unwrap_or_default()
            .to_string(),
    };
    let max = members.whole("maxRefreshes")?;
    crate::oauth::Grant::new(
        &text("clientId")?,
        &text("clientSecret")?,
        &text("refreshToken")?,
        &accounts_url,
        max,
    )
    .map_err(|e| to_js_error(&e))
}

/// `oauth` where a web page runs: its secrets would be the page's.
const OAUTH_IN_PAGE: &str = "oauth puts the client secret and the refresh token in the page, where anyone can read them: give oauth to createProxy on your server or at the edge, and point this client at it with viaProxy: true and apiDomain";

const CALL_OPTIONS: [&str; 6] = names(&surface::CALL);
/// The tables' members as the reader needs them, their docs left out of the wasm.
const CLIENT: [Reads; 22] = reads(&surface::CLIENT);
const CALL: [Reads; 6] = reads(&surface::CALL);
const RATE_LIMIT: [Reads; 8] = reads(&surface::RATE_LIMIT);
#[cfg(feature = "server")]
const OAUTH: [Reads; 5] = reads(&surface::OAUTH);
#[cfg(feature = "server")]
pub const PROXY: [Reads; 3] = reads(&surface::PROXY);
#[cfg(feature = "server")]
pub const RECEIVE: [Reads; 1] = reads(&surface::RECEIVE);
/// The most characters the per-call headers may hold together, names and values.
const HEADERS_MAX: usize = 65_536;

/// The config error of an object whose keys could not be read (a Proxy that throws).
fn unreadable(what: &str, e: &JsValue) -> JsValue {
    config(format!(
        "{what} could not be read: {}",
        super::message_of(e)
    ))
}

/// A plain copy of the options of `new Client` or `createProxy` (`what`), so that later changes by
/// the caller do not reach a core made anew from them; anything but an object as it is.
#[wasm_bindgen(js_name = __copied, skip_typescript)]
pub fn copied(options: JsValue, what: &str) -> Result<JsValue, JsValue> {
    if !options.is_object() || super::js::is_array(&options) {
        return Ok(options);
    }
    super::js::copied(&options).map_err(|e| unreadable(what, &e))
}

fn config(message: impl Into<String>) -> JsValue {
    to_js_error(&Error::config(message))
}

fn opt_string(obj: &JsValue, key: &str) -> Result<Option<String>, JsValue> {
    let v = get(obj, key);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    if let Some(s) = v.as_string() {
        return Ok(Some(s));
    }
    if key == "organizationId" {
        if let Some(n) = v.as_f64() {
            if n.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(&n) {
                return Ok(Some((n as u64).to_string()));
            }
            return Err(config(
                "organizationId must be a string; this number cannot hold its exact digits",
            ));
        }
    }
    Err(config(format!("{key} must be a string")))
}

/// A member of an options object, read and checked as its table says (`Declared::accepts`).
pub enum Read {
    Whole(u32),
    Text(String),
    Function(js_sys::Function),
    Flag(bool),
}

/// An options object read by its table (surface.rs): each member checked as `Declared::accepts`
/// says, a whole number's default the table's; `prefix` names the object in messages.
pub struct Members<'a> {
    obj: &'a JsValue,
    table: &'static [Reads],
    prefix: &'static str,
}

impl<'a> Members<'a> {
    pub fn of(obj: &'a JsValue, table: &'static [Reads], prefix: &'static str) -> Members<'a> {
        Members { obj, table, prefix }
    }

    /// The member `name` as given, checked; `None` when it is not given.
    fn read(&self, name: &str) -> Result<Option<Read>, JsValue> {
        let Some(d) = self
            .table
            .iter()
            .find(|d| d.name == name && d.accepts != Accepts::Own)
        else {
            return Err(config(format!("{}{name} is not an option", self.prefix)));
        };
        let v = get(self.obj, name);
        if v.is_undefined() || d.accepts == Accepts::Text && v.is_null() {
            return Ok(None);
        }
        let read = match d.accepts {
            Accepts::Own => None,
            Accepts::Whole { min, max } => v
                .as_f64()
                .filter(|n| n.fract() == 0.0 && (f64::from(min)..=f64::from(max)).contains(n))
                .map(|n| Read::Whole(n as u32)),
            Accepts::Text => v.as_string().map(Read::Text),
            Accepts::Function => v.dyn_into().ok().map(Read::Function),
            Accepts::Flag => v.as_bool().map(Read::Flag),
        };
        let what = match d.accepts {
            Accepts::Whole { min, max } => {
                return read.map(Some).ok_or_else(|| {
                    config(format!(
                        "{}{name} must be an integer from {min} to {max}",
                        self.prefix
                    ))
                })
            }
            Accepts::Own | Accepts::Text => "a string",
            Accepts::Function => "a function",
            Accepts::Flag => "a boolean",
        };
        read.map(Some)
            .ok_or_else(|| config(format!("{}{name} must be {what}", self.prefix)))
    }

    /// A whole number, or the table's default when it is not given.
    pub fn whole(&self, name: &str) -> Result<u32, JsValue> {
        let default = self
            .table
            .iter()
            .find(|d| d.name == name)
            .map_or(0, |d| d.default);
        Ok(match self.read(name)? {
            Some(Read::Whole(n)) => n,
            _ => default,
        })
    }

    /// A whole number as given, `None` when it is not.
    pub fn given_whole(&self, name: &str) -> Result<Option<u32>, JsValue> {
        Ok(match self.read(name)? {
            Some(Read::Whole(n)) => Some(n),
            _ => None,
        })
    }

    pub fn text(&self, name: &str) -> Result<Option<String>, JsValue> {
        Ok(match self.read(name)? {
            Some(Read::Text(t)) => Some(t),
            _ => None,
        })
    }

    pub fn function(&self, name: &str) -> Result<Option<js_sys::Function>, JsValue> {
        Ok(match self.read(name)? {
            Some(Read::Function(f)) => Some(f),
            _ => None,
        })
    }

    pub fn flag(&self, name: &str) -> Result<Option<bool>, JsValue> {
        Ok(match self.read(name)? {
            Some(Read::Flag(b)) => Some(b),
            _ => None,
        })
    }

    /// Checks every member the table gives a reader (`Accepts` other than `Own`).
    pub fn check(&self) -> Result<(), JsValue> {
        for d in self.table.iter().filter(|d| d.accepts != Accepts::Own) {
            self.read(d.name)?;
        }
        Ok(())
    }
}

/// A size limit in bytes of `table`'s member `maxBodyBytes` (the proxy's, the receivers').
#[cfg(feature = "server")]
pub fn body_limit(obj: &JsValue, table: &'static [Reads]) -> Result<usize, JsValue> {
    Ok(Members::of(obj, table, "").whole("maxBodyBytes")? as usize)
}

/// Checks that `obj` is an object of options each named in `names`; `what` names it in messages.
pub fn check_keys(obj: &JsValue, names: &[&str], what: &str) -> Result<(), JsValue> {
    if !obj.is_object() || super::js::is_array(obj) || obj.is_function() {
        return Err(config(format!(
            "{what} must be an object {{ {} }}",
            names.join(", ")
        )));
    }
    let keys = super::js::keys(obj).map_err(|e| unreadable(what, &e))?;
    for key in keys {
        if !names.contains(&key.as_str()) {
            return Err(config(format!(
                "unknown option {} of {what}; the options are {}",
                svc_core::echo::quoted(&key),
                names.join(", ")
            )));
        }
    }
    Ok(())
}

/// A call's `headers`: an object of strings, checked (`request::extra_headers`).
pub fn call_headers(v: &JsValue) -> Result<Vec<(String, String)>, JsValue> {
    let h = get(v, "headers");
    if h.is_undefined() {
        return Ok(Vec::new());
    }
    let usage = "headers must be an object of header names and string values";
    if !h.is_object() || super::js::is_array(&h) || h.is_function() {
        return Err(config(usage));
    }
    let mut out = Vec::new();
    let mut size = 0;
    for name in super::js::keys(&h).map_err(|e| unreadable("headers", &e))? {
        // Read by a name made anew: the user's header names are not kept (`js::name`).
        let value =
            js_sys::Reflect::get(&h, &JsValue::from_str(&name)).unwrap_or(JsValue::UNDEFINED);
        size += name.len()
            + value
                .dyn_ref::<js_sys::JsString>()
                .map_or(0, |s| s.length() as usize);
        if size > HEADERS_MAX {
            return Err(config(format!(
                "headers are longer than {HEADERS_MAX} characters in all, more than a service reads"
            )));
        }
        let value = value.as_string().ok_or_else(|| config(usage))?;
        out.push((name, value));
    }
    svc_core::request::extra_headers(&out).map_err(|e| to_js_error(&e))?;
    Ok(out)
}

/// `logLevel`, else `SVC_LOG` where the runtime has an environment, else the default.
fn log_level(options: &JsValue) -> Result<Option<Level>, JsValue> {
    let names = Level::NAMES.map(|n| format!("\"{n}\"")).join(", ");
    match Members::of(options, &CLIENT, "").text("logLevel")? {
        Some(name) => {
            Level::parse(&name).ok_or_else(|| config(format!("logLevel must be one of {names}")))
        }
        None => Ok(surface::default_level(
            super::js::env_var("SVC_LOG").and_then(|name| Level::parse(&name)),
            !get(options, "logger").is_undefined(),
        )),
    }
}

/// Checks the options of one call (`{ signal, timeoutMs, maxRetries, headers }`) as the client's own are.
pub fn check_call(v: &JsValue) -> Result<(), JsValue> {
    check_keys(v, &CALL_OPTIONS, "call options")?;
    let signal = get(v, "signal");
    let is_signal = || {
        get(&signal, "aborted").as_bool().is_some()
            && get(&signal, "addEventListener").is_function()
    };
    if !(signal.is_undefined() || signal.is_object() && is_signal()) {
        return Err(config("signal must be an AbortSignal"));
    }
    Members::of(v, &CALL, "").check()?;
    background(v)?;
    call_headers(v)?;
    Ok(())
}

thread_local! {
    /// The functions (token functions, `fetch` options) this core has seen, each with its number:
    /// a function's identity.
    static FUNCTIONS: (js_sys::WeakMap, std::cell::Cell<u32>) = (js_sys::WeakMap::new(), Default::default());
}

/// The number of function `f` in this core, the same for every client given it.
fn function_number(f: &js_sys::Function) -> u32 {
    FUNCTIONS.with(|(seen, next)| {
        if let Some(n) = seen.get(f).as_f64() {
            return n as u32;
        }
        let n = next.get() + 1;
        next.set(n);
        seen.set(f, &n.into());
        n
    })
}

/// Where a credential's token is kept: its key in the process and in a fleet store.
pub struct CredentialKeys {
    pub process: String,
    pub store: String,
}

impl Options {
    /// The keys of the credential's token (`None` for a token string or a proxy): an OAuth
    /// credential's fingerprint (in the process, with the `fetch` option it is reached through,
    /// if one is given: a token one fetch's accounts server minted, such as a `svc-sdk/testing`
    /// sandbox's, is not another's); a token function's `credentialKey`, else in the process the
    /// function itself and in a store the organization's function credential.
    pub fn credential_keys(&self) -> Option<CredentialKeys> {
        let org = self.target.organization_id.as_deref().unwrap_or_default();
        let (process, store) = match (&self.credential, &self.token_function, &self.credential_key)
        {
            #[cfg(feature = "server")]
            (Credential::OAuth(g), _, _) => {
                let fingerprint = g.fingerprint();
                let through = match &self.fetch {
                    Some(f) => format!("/fetch/{}", function_number(f)),
                    None => String::new(),
                };
                (
                    format!("oauth/{fingerprint}{through}"),
                    format!("token/oauth/{fingerprint}"),
                )
            }
            (_, Some(_), Some(key)) => (format!("named/{key}"), format!("token/named/{key}")),
            (_, Some(f), None) => (
                format!("function/{}", function_number(f)),
                format!("token/function/{org}"),
            ),
            _ => return None,
        };
        Some(CredentialKeys { process, store })
    }

    /// How the client keeps to its limits: alone, with a fleet (under a name of its own in the
    /// fleet's shared state, its credential's token under `token_key`), or not at all.
    #[cfg_attr(not(feature = "server"), allow(unused_variables))]
    pub fn limiting(&self, token_key: &str) -> crate::send::Limiting {
        use crate::send::Limiting;
        match (self.limits(), &self.fleet) {
            (None, _) => Limiting::Off,
            #[cfg(feature = "server")]
            (Some(limits), Some(f)) => Limiting::Fleet(crate::send::FleetOptions {
                limits,
                holder: format!(
                    "{:x}{:x}",
                    (js_sys::Math::random() * 2f64.powi(48)) as u64,
                    js_sys::Date::now() as u64
                ),
                lease_ms: f.lease_ms,
                store_timeout_ms: f.store_timeout_ms,
                fallback_share: f.fallback_share,
                token_key: token_key.to_string(),
            }),
            (Some(limits), _) => Limiting::Local(limits),
        }
    }

    /// The limits the client keeps to, or `None` with `rateLimit: false`.
    pub fn limits(&self) -> Option<crate::limit::Limits> {
        let (per_minute, concurrent) = self.rate_limit?;
        let plan = crate::limit::Limits::for_plan(self.plan);
        Some(crate::limit::Limits {
            per_minute: per_minute.unwrap_or(plan.per_minute),
            max_concurrent: concurrent.unwrap_or(plan.max_concurrent),
            daily: plan.daily,
        })
    }
}

/// `rateLimit`'s requests a minute and calls in flight (each `None` for the plan's); `None`: no limiter.
pub type RateLimit = Option<(Option<u32>, Option<u32>)>;

pub fn read(options: &JsValue) -> Result<Options, JsValue> {
    read_as(options, false)
}

/// The options of a connection's client (`connections.client`): a client's, less the credential,
/// which the connection holds; calls go to its grant's API domain unless `apiDomain` names one.
#[cfg(feature = "server")]
pub fn read_connection(options: &JsValue) -> Result<Options, JsValue> {
    for key in ["accessToken", "oauth", "viaProxy", "credentialKey"] {
        if !get(options, key).is_undefined() {
            return Err(config(format!(
                "connections.client(connectionId, options): leave {key} out, the connection holds the credential"
            )));
        }
    }
    read_as(options, true)
}

fn read_as(options: &JsValue, connection: bool) -> Result<Options, JsValue> {
    if !options.is_object() || super::js::is_array(options) {
        return Err(config(
            "new Client(options) needs an options object with at least accessToken",
        ));
    }
    check_keys(options, &KNOWN, "new Client(options)")?;
    let (credential, token_function) = match connection {
        true => (Credential::None, None),
        false => token(options)?,
    };
    let members = Members::of(options, &CLIENT, "");
    members.check()?;
    let credential_key = credential_key(members.text("credentialKey")?, token_function.is_some())?;
    let region = members.text("region")?;
    let api_domain = members.text("apiDomain")?;
    let organization_id = opt_string(options, "organizationId")?;
    let crm_version = members.text("crmVersion")?;
    let tokenless = matches!(credential, Credential::None) && !connection;
    #[cfg(feature = "server")]
    let follow_grant_domain =
        (connection || matches!(credential, Credential::OAuth(_))) && api_domain.is_none();
    #[cfg(not(feature = "server"))]
    let follow_grant_domain = false;
    let target = Target::new(
        region.as_deref(),
        None,
        organization_id.as_deref(),
        crm_version.as_deref(),
    )
    .map_err(|e| to_js_error(&e))?;
    let api_domain = match api_domain {
        Some(d) => resolve_api_domain(&d, super::js::page_origin().as_deref(), tokenless)
            .map_err(|e| to_js_error(&e))?,
        None => target.api_domain,
    };
    let target = Target {
        api_domain,
        via_proxy: tokenless,
        ..target
    };
    let plan = plan(members.text("plan")?)?;
    let fetch = members.function("fetch")?;
    let (rate_limit, fleet_options, max_queued) = rate_limit(options)?;
    Ok(Options {
        target,
        credential,
        token_function,
        follow_grant_domain,
        fetch,
        plan,
        max_retries: members.whole("maxRetries")?,
        timeout_ms: members.whole("timeoutMs")?,
        deadline_ms: members.whole("deadlineMs")?,
        max_queued,
        rate_limit,
        fleet: fleet_options,
        max_request_bytes: members.whole("maxRequestBytes")? as usize,
        max_response_bytes: members.whole("maxResponseBytes")? as usize,
        level: log_level(options)?,
        logger: logger(options)?,
        on_request: members.function("onRequest")?,
        on_response: members.function("onResponse")?,
        warn_unknown_fields: warn_unknown_fields(members.flag("warnUnknownFields")?),
        credential_key,
        background: background(options)?.unwrap_or(false),
        reserve_per_mille: reserve(options)?,
    })
}

/// `priority` of the client or of a call: `Some(true)` for "background", `None` when not given.
pub fn background(v: &JsValue) -> Result<Option<bool>, JsValue> {
    match opt_string(v, "priority")?.as_deref() {
        None => Ok(None),
        Some("interactive") => Ok(Some(false)),
        Some("background") => Ok(Some(true)),
        Some(_) => Err(config("priority must be \"interactive\" or \"background\"")),
    }
}

/// `rateLimit.reserve`: a number from 0 to 1, in thousandths of the day (default a tenth).
fn reserve(options: &JsValue) -> Result<u32, JsValue> {
    let rate_limit = get(options, "rateLimit");
    let v = match rate_limit.is_object() {
        true => get(&rate_limit, "reserve"),
        false => JsValue::UNDEFINED,
    };
    if v.is_undefined() {
        return Ok(crate::send::DEFAULT_RESERVE_PER_MILLE);
    }
    match v.as_f64() {
        Some(n) if (0.0..=1.0).contains(&n) => Ok((n * 1000.0).round() as u32),
        _ => Err(config("rateLimit.reserve must be a number from 0 to 1")),
    }
}

/// `credentialKey`: for a token function only, a non-empty name of at most 200 characters
/// without control characters.
fn credential_key(key: Option<String>, function: bool) -> Result<Option<String>, JsValue> {
    let Some(key) = key else {
        return Ok(None);
    };
    if !function {
        return Err(config(
            "credentialKey names the credential of an accessToken function; a token string or oauth names its own",
        ));
    }
    if key.is_empty() || key.chars().count() > 200 || key.chars().any(char::is_control) {
        return Err(config(
            "credentialKey must be a non-empty string of at most 200 characters without control characters",
        ));
    }
    Ok(Some(key))
}

/// Who holds the token: `viaProxy` (a proxy adds it), `oauth`, or `accessToken` (a string or a function).
fn token(options: &JsValue) -> Result<(Credential, Option<js_sys::Function>), JsValue> {
    let raw_token = get(options, "accessToken");
    let raw_oauth = get(options, "oauth");
    let via_proxy = match get(options, "viaProxy") {
        v if v.is_undefined() => false,
        v => v.as_bool().ok_or_else(|| {
            config("viaProxy must be a boolean (true: apiDomain is a proxy that adds the token)")
        })?,
    };
    Ok(if via_proxy {
        if get(options, "apiDomain").is_undefined() {
            return Err(config(
                "viaProxy: true needs apiDomain, the URL of the proxy (createProxy) that adds the token",
            ));
        }
        if !raw_token.is_undefined() || !raw_oauth.is_undefined() {
            return Err(config(
                "viaProxy: true says that the proxy at apiDomain adds the token: leave accessToken and oauth out",
            ));
        }
        (Credential::None, None)
    } else if !raw_oauth.is_undefined() {
        if !raw_token.is_undefined() {
            return Err(config(
                "give accessToken or oauth, not both: with oauth the client gets its tokens itself",
            ));
        }
        (grant(options, &raw_oauth)?, None)
    } else if let Some(s) = raw_token.as_string() {
        if s.is_empty() {
            return Err(config("accessToken is empty"));
        }
        svc_core::request::authorization(&s).map_err(|e| config(e.message))?;
        (Credential::Static(s.into()), None)
    } else if raw_token.is_function() {
        (Credential::Function, Some(raw_token.unchecked_into()))
    } else {
        return Err(to_js_error(&Error::new(
            ErrorKind::Config,
            "accessToken or oauth is required (a token string, a function returning one or a promise of one, \
             or oauth: { clientId, clientSecret, refreshToken }); a client whose apiDomain is a proxy that adds \
             the token (createProxy) says so with viaProxy: true",
        )));
    })
}

/// `oauth` on a server or an edge worker: the grant; in a page, a config error.
#[cfg(feature = "server")]
fn grant(options: &JsValue, raw: &JsValue) -> Result<Credential, JsValue> {
    if super::js::in_page() {
        return Err(config(OAUTH_IN_PAGE));
    }
    let region = opt_string(options, "region")?;
    Ok(Credential::OAuth(oauth(raw, region.as_deref())?))
}

/// `oauth` in the browser build, which holds no grant: a config error.
#[cfg(not(feature = "server"))]
fn grant(_options: &JsValue, _raw: &JsValue) -> Result<Credential, JsValue> {
    Err(config(OAUTH_IN_PAGE))
}

/// `plan`: one of the plans' names, or the default.
fn plan(given: Option<String>) -> Result<&'static str, JsValue> {
    Ok(match given {
        None => DEFAULT_PLAN,
        Some(p) => PLANS
            .into_iter()
            .find(|name| *name == p)
            .ok_or_else(|| config(format!("plan must be one of {}", PLANS.join(", "))))?,
    })
}

/// `rateLimit`: `None` when it is `false`, else the limits given (each `None` for the plan's), the
/// fleet's options and the most calls that may wait.
fn rate_limit(options: &JsValue) -> Result<(RateLimit, Option<Fleet>, u32), JsValue> {
    let mut fleet_options = None;
    let mut max_queued = surface::MAX_QUEUED;
    let rate_limit = match get(options, "rateLimit") {
        v if v.is_undefined() => Some((None, None)),
        v if v.as_bool() == Some(false) => None,
        v if v.is_object() => {
            check_keys(&v, &RATE_LIMIT_KEYS, "rateLimit")?;
            fleet_options = fleet(&v)?;
            let members = Members::of(&v, &RATE_LIMIT, "");
            max_queued = members.whole("maxQueued")?;
            Some((
                members.given_whole("requestsPerMinute")?,
                members.given_whole("maxConcurrent")?,
            ))
        }
        _ => {
            return Err(config(
                "rateLimit must be false or { requestsPerMinute?, maxConcurrent?, maxQueued?, reserve?, store?, leaseMs?, storeTimeoutMs?, fallbackShare? }",
            ))
        }
    };
    Ok((rate_limit, fleet_options, max_queued))
}

/// `warnUnknownFields`, else on where an environment says NODE_ENV is not "production", else off.
fn warn_unknown_fields(given: Option<bool>) -> bool {
    given.unwrap_or_else(|| {
        super::js::env("NODE_ENV").is_some_and(|mode| mode.as_deref() != Some("production"))
    })
}

/// `logger`: an object with debug, info, warn and error methods (a missing one writes nothing),
/// each called with a record; `None` (the runtime's console, told lines) when not given.
fn logger(options: &JsValue) -> Result<Option<JsValue>, JsValue> {
    let v = get(options, "logger");
    if v.is_undefined() {
        return Ok(None);
    }
    if !v.is_object() {
        return Err(config(
            "logger must be an object with debug, info, warn and error methods, such as console",
        ));
    }
    Ok(Some(v))
}
