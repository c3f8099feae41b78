//! The TypeScript of the sandbox's options (`SandboxOptions`, `SandboxAccounts`), their defaults and
//! the plans' names read from the sandbox's own: `cargo run -p xtask -- declarations` prints it (as
//! `sandbox`), and scripts/declarations.mjs puts it in the package's testing.d.ts.

use crate::{log, MAX_LOG_LIMIT};
use sandbox::accounts::options::Options as Accounts;
use sandbox::config::{Config, DEV_TOKEN, MAX_SLOW_MS};
use sandbox::crm::DELIVERY_TIMEOUT;
use svc_core::plans::PLANS;

/// `a, b or c`.
fn listed(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The declarations of `SandboxOptions` and `SandboxAccounts`.
pub fn declarations() -> String {
    options() + &accounts()
}

/// The declaration of `SandboxOptions`, its defaults the binary's.
fn options() -> String {
    let config = Config::default();
    let plans = listed(&PLANS);
    format!(
        r#"/**
 * The options of an in-process sandbox; they mirror the sandbox binary's flags. Each value is honoured
 * or refused by the constructor with what is wrong: a number must be whole and within its flag's range
 * (NaN, Infinity, a negative or a fraction is refused), and one beyond 2^53 - 1 is refused as a JS number
 * cannot hold its digits (give it as a string).
 */
export interface SandboxOptions {{
  /** The accounts server: its clients, lifetimes and limits (the `--oauth-*` flags). */
  accounts?: SandboxAccounts;
  /** The seeded organization's id (`--org`); default "{org}". */
  organizationId?: string;
  /** Tokens and their scopes (`--token NAME=SCOPE,...`); "*" grants every scope. */
  tokens?: Record<string, string[] | string>;
  /** false: the dev token "{dev}" is not accepted (`--no-dev-token`). */
  devToken?: boolean;
  /** The organization's plan (`--plan`): {plans}; default {plan}. */
  plan?: string;
  /** Requests per minute and organization (`--rate-per-minute`); default {rate}. */
  ratePerMinute?: number;
  /**
   * The length of the rate window in ms (`--minute-ms`), for tests; default {minute}. A shorter one scales the
   * clock: its seconds (`Retry-After`, `X-Rate-Limit-Reset`) are a sixtieth of it, its day 1440 of it.
   */
  minuteMs?: number;
  /**
   * Requests per day and organization (`--daily-quota`), or "none" for no quota; default (or null): the plan's.
   * `X-Rate-Limit-Limit`, `-Remaining` and `-Reset` state this day as the service does (the limit, the calls
   * left today, the seconds until UTC midnight); with "none" they are not sent.
   */
  dailyQuota?: number | "none" | null;
  /**
   * Calls of today's quota already spent by the organization's other integrations (`--others-spent`): the day's
   * remaining starts at the quota less these, and the quota is enforced on them plus today's calls; default 0.
   */
  othersSpent?: number;
  /** false: no rate limits at all (`--no-rate-limit`). */
  rateLimit?: boolean;
  /** Fault rates (`--faults`), e.g. "429=0.5,500=0.1,slow=0.2". */
  faults?: string;
  /** The seed of the faults' draws (`--seed`), for repeatable runs: 0 to 2^64 - 1 (a string or BigInt beyond 2^53 - 1). */
  seed?: number | string | bigint;
  /**
   * How long a slow fault holds its call, in flight and not yet applied, in ms on the runtime's timers
   * (`--slow-ms`); the request's signal cuts the wait short (the call is applied all the same); default {slow}.
   * 0: no wait (the call is answered at once); at most {max_slow}, the longest wait a JS timer keeps.
   */
  slowMs?: number;
  /**
   * How many entries `requests()` and `callbacks()` keep, from 0 to {max_log}; default {log}. The oldest go
   * first and are counted in their `dropped`; a logged method or path is cut to {text} bytes. The binary has
   * no such flag: it keeps no log, it writes each request to stderr.
   */
  logLimit?: number;
  /**
   * A fetch that the CRM notification callbacks are posted through, with the body and headers the binary
   * posts and a signal; the trigger's answer reports the status each got, or why none (what it threw, or no
   * answer within the binary's {delivery} s delivery timeout, on the runtime's timers). None: callbacks are only recorded.
   */
  callbackFetch?: (input: string, init: RequestInit) => Promise<Response>;
}}
"#,
        org = config.org_id,
        dev = DEV_TOKEN,
        plan = config.plan.name(),
        rate = config.rate_per_minute,
        minute = config.minute_ms,
        slow = config.slow_ms,
        max_slow = MAX_SLOW_MS,
        max_log = MAX_LOG_LIMIT,
        log = log::DEFAULT_LIMIT,
        text = log::MAX_TEXT,
        delivery = DELIVERY_TIMEOUT.as_secs(),
    )
}

/// The declarations of `SandboxOAuthClient` and `SandboxAccounts`, their defaults the accounts server's.
fn accounts() -> String {
    let accounts = Accounts::default();
    format!(
        r#"
/** A client registered with the sandbox's accounts server, and its refresh tokens. */
export interface SandboxOAuthClient {{
  clientId: string;
  clientSecret: string;
  refreshTokens: string[] | string;
}}

/** A user of the consent and device pages, and the organizations it reaches. */
export interface SandboxUser {{
  email: string;
  /** The organizations' ids (made when the sandbox holds none of that id); none: a new organization of its own. */
  organizations?: string[];
}}

/**
 * The sandbox's accounts server (the binary's `--oauth-*` flags): the refresh-token and
 * authorization-code grants at `POST {{sandbox.url}}/oauth/v2/token`, the consent page at `/oauth/v2/auth`,
 * revocation at `/oauth/v2/token/revoke`, the device flow at `/oauth/v3/device/code`, `/oauth/v3/device/token`
 * and the page `/oauth/v3/device`. Its counters: `GET /__sandbox/accounts`.
 */
export interface SandboxAccounts {{
  /** Clients registered besides the demo client (`--oauth-client`). */
  clients?: SandboxOAuthClient[];
  /** false: the demo client is not registered (`--oauth-no-demo-client`). */
  demoClient?: boolean;
  /** How long an access token lives, in ms (`--oauth-token-lifetime-ms`); default {lifetime}. */
  tokenLifetimeMs?: number;
  /** Access tokens per refresh token in a window (`--oauth-refresh-limit`); default {refresh_limit}. */
  refreshLimit?: number;
  /** The refresh window in ms (`--oauth-refresh-window-ms`); default {window}. */
  refreshWindowMs?: number;
  /** Live access tokens per refresh token; minting one more revokes the oldest (`--oauth-live-token-cap`); default {cap}. */
  liveTokenCap?: number;
  /** true: `expires_in` in ms beside `expires_in_sec`, as older answers gave it (`--oauth-legacy-expires-in`). */
  legacyExpiresIn?: boolean;
  /** true: every error echoes the received secrets, codes and refresh tokens in several spellings, for tests that they never leak (`--oauth-echo-secrets`). */
  echoSecrets?: boolean;
  /**
   * Users besides the sandbox's own ({user}, who reaches every organization), each reaching only its
   * organizations (`--oauth-user`). A user first named at a consent or a code exchange is made then, with a
   * new organization of its own.
   */
  users?: SandboxUser[];
  /** This accounts server's data center (`--oauth-location`); default "{location}". */
  location?: string;
  /** The accounts URLs of other data centers, where the codes of their users are redeemed (`--oauth-peer`), e.g. `{{ eu: "http://..." }}`. */
  peers?: Record<string, string>;
  /** The device flow's polling interval in ms (`--oauth-device-interval-ms`); default {interval}. */
  deviceIntervalMs?: number;
}}
"#,
        lifetime = accounts.token_lifetime_ms,
        refresh_limit = accounts.refresh_limit,
        window = accounts.refresh_window_ms,
        cap = accounts.live_token_cap,
        user = sandbox::common::USER_EMAIL,
        location = accounts.location,
        interval = accounts.device_interval_ms,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_say_the_sandboxs_defaults_and_plans() {
        let d = declarations();
        for want in [
            "default \"10234695\"",
            "free, standard, professional, premium, elite or ultimate; default free",
            "(`--rate-per-minute`); default 100.",
            "default 1500.",
            "at most 2147483647,",
            "from 0 to 100000; default 1000.",
            "cut to 512 bytes",
            "the binary's 5 s delivery timeout",
            "(`--oauth-token-lifetime-ms`); default 3600000.",
            "(`--oauth-refresh-window-ms`); default 600000.",
        ] {
            assert!(d.contains(want), "{want}");
        }
        assert_eq!(listed(&["a"]), "a");
    }
}
