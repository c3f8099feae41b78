//! Command-line flags and the configuration they build.

use crate::faults::Rates;
use crate::limits::{Policy, MINUTE_MS, NO_QUOTA};
use svc_core::catalog::{Operation, CRM_WATCH_SCOPES};
use svc_core::plans::{Limits, DEFAULT_PLAN, PLANS};

/// The flags' text; `usage` fills in the plans.
const USAGE: &str = "\
usage: sandbox [flags]

  --port N                 port on 127.0.0.1 (default 8787; 0 picks a free one)
  --org ID                 id of the seeded organization (default 10234695)
  --token NAME=S1,S2,...   accept token NAME with these scopes (repeatable; * = every scope)
  --no-dev-token           do not accept the default token dev-token (every scope)
  --plan PLAN              {plans} (default {default_plan})
  --rate-per-minute N      requests per minute per organization (default 100)
  --minute-ms N            length in ms of the rate limit's minute (default 60000); for tests on a
                           scaled clock: seconds are its sixtieths, a day 1440 of it
  --daily-quota N|none     requests per day per organization (default: by plan; none: no quota);
                           X-Rate-Limit-Limit/-Remaining/-Reset state this day (none: not sent)
  --others-spent N         calls of today's quota already spent by the organization's other
                           integrations (default 0)
  --no-rate-limit          no 429s and no X-Rate-Limit-* headers
  --faults SPEC            e.g. 500=0.05,503=0.05,429=0.05,drop=0.02,slow=0.05
  --seed N                 seed of the fault generator (default: from the clock)
  --slow-ms N              delay of a slow answer, 0 for none (default 1500; at most 2147483647)
  --cors ORIGIN            answer preflights and allow this origin (repeatable; * = any)
  --exit-on-stdin-eof      exit when stdin closes
  --quiet                  no request log on stderr

The accounts server (POST /oauth/v2/token, the refresh-token grant):
";

/// The whole usage text: the service's flags, then the accounts server's.
pub fn usage() -> String {
    let usage = USAGE
        .replace("{plans}", &PLANS.join("|"))
        .replace("{default_plan}", DEFAULT_PLAN);
    format!("{usage}{}", crate::accounts::options::USAGE)
}

pub const DEV_TOKEN: &str = "dev-token";

/// One of the core's plans (`svc_core::plans::PLANS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan(&'static str);

impl Plan {
    /// The plan of a sandbox given none: the core's default.
    pub const DEFAULT: Plan = Plan(DEFAULT_PLAN);

    pub fn parse(s: &str) -> Option<Plan> {
        PLANS
            .iter()
            .find(|n| n.eq_ignore_ascii_case(s))
            .map(|n| Plan(n))
    }

    pub fn name(self) -> &'static str {
        self.0
    }

    /// Calls in flight per organization: 5 on the free plan, 10 on paid plans.
    pub fn in_flight(self) -> u32 {
        Limits::for_plan(self.name()).max_concurrent
    }

    pub fn daily(self) -> u32 {
        Limits::for_plan(self.name()).daily
    }
}

/// The scopes a token carries.
#[derive(Clone, Debug, PartialEq)]
pub enum Scopes {
    Every,
    Only(Vec<String>),
}

impl Scopes {
    pub fn allows(&self, op: &Operation) -> bool {
        let Scopes::Only(have) = self else {
            return true;
        };
        let has = |s: &str| have.iter().any(|h| h == s);
        has(op.scope)
            || (op.id == "updateNotificationChannels" && CRM_WATCH_SCOPES.iter().any(|s| has(s)))
    }
}

#[derive(Clone, Debug)]
pub struct Config {
    pub port: u16,
    pub org_id: String,
    pub tokens: Vec<(String, Scopes)>,
    pub plan: Plan,
    pub rate_per_minute: u32,
    pub minute_ms: i64,
    pub daily_quota: Option<u32>,
    /// Calls of today's quota the organization's other integrations have spent (`--others-spent`).
    pub others_spent: u32,
    pub rate_limit: bool,
    pub faults: Rates,
    pub seed: Option<u64>,
    pub slow_ms: u64,
    pub cors: Vec<String>,
    pub exit_on_stdin_eof: bool,
    pub quiet: bool,
    pub accounts: crate::accounts::Options,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            port: 8787,
            org_id: "10234695".into(),
            tokens: vec![(DEV_TOKEN.into(), Scopes::Every)],
            plan: Plan::DEFAULT,
            rate_per_minute: 100,
            minute_ms: MINUTE_MS,
            daily_quota: None,
            others_spent: 0,
            rate_limit: true,
            faults: Rates::default(),
            seed: None,
            slow_ms: 1500,
            cors: Vec::new(),
            exit_on_stdin_eof: false,
            quiet: false,
            accounts: Default::default(),
        }
    }
}

/// The longest wait a JS runtime's `setTimeout` keeps (2^31 - 1 ms, about 24.8 days): a longer one
/// fires at once, so a slow fault's wait in svc-sdk/testing could not be honoured.
pub const MAX_SLOW_MS: u64 = (1 << 31) - 1;

/// A flag's whole number within `range`, or what is wrong with it in words.
fn number<T: TryFrom<u64>>(
    flag: &str,
    v: &str,
    range: std::ops::RangeInclusive<u64>,
) -> Result<T, String> {
    v.parse::<u64>()
        .ok()
        .filter(|n| range.contains(n))
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| {
            format!(
                "{flag}: {:?} is not a whole number from {} to {}",
                svc_core::echo::shorten(v),
                range.start(),
                range.end()
            )
        })
}

/// The value of `--org`: an id without spaces, control characters or `/`.
fn org_flag(v: String) -> Result<String, String> {
    if v.is_empty()
        || v.chars()
            .any(|ch| ch.is_control() || ch.is_whitespace() || ch == '/')
    {
        return Err(
            "--org: the id may not be empty or hold spaces, control characters or /".into(),
        );
    }
    Ok(v)
}

/// The value of `--token`: `NAME=SCOPE,SCOPE...` (`*`: every scope).
fn token_flag(v: &str) -> Result<(String, Scopes), String> {
    let (name, scopes) = v
        .split_once('=')
        .ok_or("--token: expected NAME=SCOPE,SCOPE...")?;
    if name.is_empty() || name.chars().any(|ch| ch.is_control() || ch.is_whitespace()) {
        return Err("--token: the token may not be empty or hold spaces".into());
    }
    let scopes: Vec<String> = scopes
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    let scopes = if scopes.iter().any(|s| s == "*") {
        Scopes::Every
    } else {
        Scopes::Only(scopes)
    };
    Ok((name.to_string(), scopes))
}

impl Config {
    /// The configuration of the flags (without the program name).
    pub fn from_args(args: impl IntoIterator<Item = String>) -> Result<Config, String> {
        let mut c = Config::default();
        let mut dev_token = true;
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
                _ => (arg.clone(), None),
            };
            let mut value = || {
                inline
                    .clone()
                    .or_else(|| args.next())
                    .ok_or_else(|| format!("{flag} needs a value"))
            };
            match flag.as_str() {
                "--port" => c.port = number(&flag, &value()?, 0..=u16::MAX.into())?,
                "--org" => c.org_id = org_flag(value()?)?,
                "--token" => {
                    let (name, scopes) = token_flag(&value()?)?;
                    c.tokens.retain(|(t, _)| *t != name);
                    c.tokens.push((name, scopes));
                }
                "--no-dev-token" => dev_token = false,
                "--plan" => {
                    let v = value()?;
                    c.plan = Plan::parse(&v).ok_or_else(|| {
                        format!("--plan: {v:?} is not one of {}", PLANS.join(", "))
                    })?;
                }
                "--rate-per-minute" => {
                    c.rate_per_minute = number(&flag, &value()?, 1..=u32::MAX.into())?
                }
                "--minute-ms" => c.minute_ms = number(&flag, &value()?, 60..=MINUTE_MS as u64)?,
                "--daily-quota" => {
                    c.daily_quota = Some(match value()?.as_str() {
                        "none" => NO_QUOTA,
                        n => number(&flag, n, 0..=u64::from(NO_QUOTA) - 1)?,
                    })
                }
                "--others-spent" => {
                    c.others_spent = number(&flag, &value()?, 0..=u64::from(NO_QUOTA) - 1)?
                }
                "--no-rate-limit" => c.rate_limit = false,
                "--faults" => c.faults = Rates::parse(&value()?)?,
                "--seed" => c.seed = Some(number(&flag, &value()?, 0..=u64::MAX)?),
                "--slow-ms" => c.slow_ms = number(&flag, &value()?, 0..=MAX_SLOW_MS)?,
                "--cors" => c.cors.push(value()?),
                "--exit-on-stdin-eof" => c.exit_on_stdin_eof = true,
                "--quiet" => c.quiet = true,
                f if f.starts_with("--oauth-") => c.accounts.flag(f, &mut value)?,
                "-h" | "--help" => return Err(usage()),
                other => return Err(format!("unknown flag {other:?}\n\n{}", usage())),
            }
        }
        if !dev_token {
            c.tokens
                .retain(|(t, s)| t != DEV_TOKEN || *s != Scopes::Every);
        }
        Ok(c)
    }

    pub fn scopes(&self, token: &str) -> Option<&Scopes> {
        self.tokens.iter().find(|(t, _)| t == token).map(|(_, s)| s)
    }

    pub fn policy(&self) -> Policy {
        Policy {
            per_minute: self.rate_per_minute,
            in_flight: self.plan.in_flight(),
            daily: self.daily_quota.unwrap_or(self.plan.daily()),
            others_spent: self.others_spent,
            enforce: self.rate_limit,
            minute_ms: self.minute_ms,
        }
    }

    /// The `Access-Control-Allow-Origin` value for a request's `Origin`, if it is allowed.
    pub fn cors_origin(&self, origin: &str) -> Option<String> {
        self.cors
            .iter()
            .any(|o| o == "*" || o.eq_ignore_ascii_case(origin))
            .then(|| origin.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use svc_core::catalog::find;

    fn parse(args: &[&str]) -> Result<Config, String> {
        Config::from_args(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn defaults() {
        let c = parse(&[]).unwrap();
        assert_eq!(
            (c.port, c.plan.name(), c.rate_per_minute, c.slow_ms),
            (8787, DEFAULT_PLAN, 100, 1500)
        );
        assert_eq!(c.scopes(DEV_TOKEN), Some(&Scopes::Every));
        let p = c.policy();
        assert_eq!(
            (p.in_flight, p.daily, p.others_spent, p.enforce),
            (5, 1000, 0, true)
        );
        let none = parse(&["--plan", "elite", "--daily-quota", "none"]).unwrap();
        assert_eq!(none.policy().daily, u32::MAX, "no daily quota");
    }

    #[test]
    fn every_plan_of_the_core_is_taken_and_listed() {
        for plan in PLANS {
            let c = parse(&["--plan", &plan.to_uppercase()]).unwrap();
            assert_eq!(c.plan.name(), plan);
            assert_eq!(c.policy().daily, Limits::for_plan(plan).daily, "{plan}");
        }
        let line = format!("{} (default {DEFAULT_PLAN})", PLANS.join("|"));
        assert!(usage().contains(&line), "{}", usage());
    }

    #[test]
    fn every_flag() {
        let c = parse(&[
            "--port",
            "0",
            "--org=42",
            "--token",
            "t1=SvcSubscriptions.plans.READ,SvcCRM.notifications.WRITE",
            "--token",
            "t2=*",
            "--no-dev-token",
            "--plan",
            "premium",
            "--rate-per-minute",
            "7",
            "--minute-ms",
            "6000",
            "--daily-quota",
            "3",
            "--others-spent=2",
            "--no-rate-limit",
            "--faults",
            "500=0.5",
            "--seed",
            "9",
            "--slow-ms",
            "10",
            "--cors",
            "http://localhost:5173",
            "--exit-on-stdin-eof",
            "--quiet",
        ])
        .unwrap();
        assert_eq!(
            (c.port, c.org_id.as_str(), c.seed, c.slow_ms),
            (0, "42", Some(9), 10)
        );
        assert!(c.scopes(DEV_TOKEN).is_none());
        assert_eq!(c.scopes("t2"), Some(&Scopes::Every));
        let p = c.policy();
        assert_eq!(
            (p.per_minute, p.in_flight, p.daily, p.enforce, p.minute_ms),
            (7, 10, 3, false, 6000)
        );
        assert_eq!(p.others_spent, 2);
        assert_eq!(c.faults.e500, 0.5);
        assert!(c.exit_on_stdin_eof && c.quiet);
        assert_eq!(
            c.cors_origin("http://localhost:5173").as_deref(),
            Some("http://localhost:5173")
        );
        assert_eq!(c.cors_origin("http://evil.test"), None);
        let t1 = c.scopes("t1").unwrap();
        assert!(t1.allows(find("listPlans").unwrap()));
        assert!(!t1.allows(find("createPlan").unwrap()));
        assert!(
            t1.allows(find("updateNotificationChannels").unwrap()),
            "WRITE is accepted for the watch update"
        );
    }

    #[test]
    fn bad_flags_are_explained() {
        for (args, needle) in [
            (&["--port"][..], "needs a value"),
            (&["--port", "x"], "not a whole number from 0 to 65535"),
            (&["--port", "65536"], "from 0 to 65535"),
            (&["--seed", "-1"], "--seed: \"-1\" is not a whole number"),
            (&["--seed", "1.5"], "not a whole number"),
            (&["--slow-ms", "2147483648"], "from 0 to 2147483647"),
            (&["--daily-quota", "4294967295"], "from 0 to 4294967294"),
            (&["--others-spent", "4294967295"], "from 0 to 4294967294"),
            (
                &["--others-spent", "-1"],
                "--others-spent: \"-1\" is not a whole number",
            ),
            (&["--others-spent"], "needs a value"),
            (&["--rate-per-minute", "NaN"], "not a whole number"),
            (&["--plan", "gold"], "free, standard"),
            (&["--token", "nope"], "NAME=SCOPE"),
            (&["--faults", "drop=3"], "from 0 to 1"),
            (&["--frobnicate"], "unknown flag"),
            (&["--rate-per-minute", "0"], "from 1 to 4294967295"),
            (&["--minute-ms", "59"], "from 60 to 60000"),
            (&["--minute-ms", "60001"], "from 60 to 60000"),
            (&["--org", "a b"], "--org"),
        ] {
            let err = parse(args).unwrap_err();
            assert!(err.contains(needle), "{args:?}: {err}");
        }
    }
}
