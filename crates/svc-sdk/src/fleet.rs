//! One organization's limiter and token shared by a fleet: the state a store keeps as JSON text, and the pure steps on it.
//!
//! A store (the in-process default, Redis, a Durable Object) loads the state, runs one step with
//! its own clock's `now` (ms since the epoch) and saves the state back atomically: with a
//! compare-and-set on [`Fleet::version`], which every step that changes the state raises by one,
//! or inside the Durable Object's single thread. A step that leaves the version as it was changed
//! nothing and needs no write.
//!
//! The window, in-flight and daily-quota arithmetic is `limit::Window`'s, the same as the
//! in-process `limit::Limiter`'s; here calls in flight are leases, so that a holder that dies
//! (an evicted isolate, an exception, a timeout) loses its slot after the lease time, its place in
//! the minute window kept as if it answered when its lease ended.
//!
//! What a state holds is bounded at every step by the store's clock ([`HORIZON_MS`]): a state
//! written by a holder with a wrong clock, or corrupted or hostile, cannot make a holder wait
//! beyond a day nor ask again and again without waiting.

use crate::access::AccessToken;
use crate::limit::{Lane, Limits, State, Verdict, Window, MINUTE_MS};
use crate::oauth::Budget;
use crate::secret::Secret;
use serde::Serialize;
use svc_core::calendar::DAY_MS;
use svc_core::error::Error;
use svc_json::{Json, Obj};

mod step;
pub use step::{apply, Applied, Outcome, Reply, Request, Seen};

/// The furthest past the store's clock that a back-off, a lease or a claim may end: a lease is at
/// most a day (`leaseMs`), and no Retry-After or reset asks a fleet to stop for longer. A later
/// time in a state (a year-3000 back-off, a lease until 10^15 ms) comes from a wrong clock or a
/// corrupted or hostile state, and ends there instead; an answer after `now` counts as answered
/// `now` (`Window::bound`).
pub const HORIZON_MS: i64 = DAY_MS;

/// The shared state of one organization. Its JSON text is what a store keeps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Fleet {
    /// Raised by one on every change: what a store compares and sets.
    version: u64,
    /// The limits of the last holder that asked for a slot (the organization's plan).
    limits: Limits,
    window: Window,
    /// The calls in flight, oldest first.
    leases: Vec<Lease>,
    /// The fleet's token, if one is stored and was not invalidated.
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<Stored>,
    /// The refresh of the token under way, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    claim: Option<Lease>,
    /// The OAuth grant's refreshes in the last window, and an Access Denied's block.
    #[serde(skip_serializing_if = "Budget::is_empty")]
    refreshes: Budget,
    /// Why the last token was dropped (`"expired"`, `"rejected"`): what the next refresher is told.
    #[serde(skip_serializing_if = "Option::is_none")]
    dropped: Option<String>,
    /// The next lease or claim id; ids are never reused.
    next_id: u64,
}

/// A slot in flight, or the claim to refresh the token: whose, and until when it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
struct Lease {
    id: u64,
    holder: String,
    until: i64,
}

impl Stored {
    fn fresh(&self, now: i64) -> bool {
        self.access.valid(now) && self.renew_at.is_none_or(|at| at > now)
    }

    fn to_use(&self) -> TokenClaim {
        TokenClaim::Use {
            token: self.access.token.clone(),
            domain: self.access.domain.clone(),
        }
    }
}

impl Lease {
    fn from_obj(o: &Obj) -> Result<Lease, String> {
        Ok(Lease {
            id: o.field("id")?,
            holder: o.field::<&str>("holder")?.to_string(),
            until: o.field("until")?,
        })
    }
}

impl Stored {
    pub(crate) fn from_obj(o: &Obj) -> Result<Stored, String> {
        Ok(Stored {
            access: AccessToken {
                token: o.field::<&str>("token")?.into(),
                expires_at: o.optional("expiresAt")?,
                domain: o.optional::<&str>("domain")?.map(str::to_string),
            },
            renew_at: o.optional("renewAt")?,
        })
    }
}

/// The fleet's token and when it is due for renewal (ms since the epoch).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stored {
    #[serde(flatten)]
    pub access: AccessToken,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renew_at: Option<i64>,
}

impl Stored {
    /// A token and its expiry, with no renewal time or domain (a token function's).
    pub fn of(token: &str, expires_at: Option<i64>) -> Stored {
        Stored {
            access: AccessToken::new(token, expires_at),
            renew_at: None,
        }
    }
}

/// What a holder asking for a slot should do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Acquire {
    /// Start now. The slot holds until `until` unless renewed; release it when the answer came.
    Granted { lease: u64, until: i64 },
    /// Ask again at `until` at the latest: the earliest time a place of the window, a slot (the
    /// end of the first lease) or the server's back-off frees, as far as the state knows.
    /// `on_release`: another holder's release may let this one in sooner (or tell a nearer time),
    /// so a store that can tell its waiters of a change should wake them then.
    Wait { until: i64, on_release: bool },
    /// The daily quota is spent; it renews at `until` (the next UTC day).
    QuotaSpent { until: i64 },
    /// A background call would spend the `kept` calls of the day kept for interactive ones, until
    /// the day renews at `until`.
    Reserved { until: i64, kept: u32 },
}

/// What a holder asking for the token should do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[serde(rename_all_fields = "camelCase")]
pub enum TokenClaim {
    /// Use this token (and send calls to `domain`, if its grant named one).
    Use {
        token: Secret,
        #[serde(skip_serializing_if = "Option::is_none")]
        domain: Option<String>,
    },
    /// Call the token function (telling it `reason`) and `token_store` its result with this claim
    /// before `until` (or `token_abandon` the claim if it failed); after `until` another holder
    /// may claim.
    Refresh {
        claim: u64,
        until: i64,
        reason: String,
    },
    /// Another holder refreshes, or (`budget`) the grant's budget is spent: ask again at `until`
    /// at the latest (the end of its claim, or when the budget frees), or when the store tells of
    /// a change.
    Wait {
        until: i64,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        budget: bool,
    },
}

impl Acquire {
    /// An outcome as `Serialize` wrote it.
    fn from_json(value: &Json) -> Result<Acquire, String> {
        let (name, content) = value.variant()?;
        let o: &Obj = svc_json::expect(content.unwrap_or(&Json::Null), name)?;
        match name {
            "granted" => Ok(Acquire::Granted {
                lease: o.field("lease")?,
                until: o.field("until")?,
            }),
            "wait" => Ok(Acquire::Wait {
                until: o.field("until")?,
                on_release: o.field("onRelease")?,
            }),
            "quotaSpent" => Ok(Acquire::QuotaSpent {
                until: o.field("until")?,
            }),
            "reserved" => Ok(Acquire::Reserved {
                until: o.field("until")?,
                kept: o.field("kept")?,
            }),
            _ => Err(format!("`{name}` is not an acquire outcome")),
        }
    }
}

impl TokenClaim {
    /// An outcome as `Serialize` wrote it.
    fn from_json(value: &Json) -> Result<TokenClaim, String> {
        let (name, content) = value.variant()?;
        let o: &Obj = svc_json::expect(content.unwrap_or(&Json::Null), name)?;
        match name {
            "use" => Ok(TokenClaim::Use {
                token: o.field::<&str>("token")?.into(),
                domain: o.optional::<&str>("domain")?.map(str::to_string),
            }),
            "refresh" => Ok(TokenClaim::Refresh {
                claim: o.field("claim")?,
                until: o.field("until")?,
                reason: o
                    .optional::<&str>("reason")?
                    .unwrap_or("initial")
                    .to_string(),
            }),
            "wait" => Ok(TokenClaim::Wait {
                until: o.field("until")?,
                budget: o.optional("budget")?.unwrap_or(false),
            }),
            _ => Err(format!("`{name}` is not a token outcome")),
        }
    }
}

impl Fleet {
    /// The state of an organization that no holder has touched yet.
    pub fn new(limits: Limits) -> Fleet {
        Fleet {
            version: 0,
            limits,
            window: Window::new(),
            leases: Vec::new(),
            token: None,
            claim: None,
            refreshes: Budget::default(),
            dropped: None,
            next_id: 1,
        }
    }

    /// The state a store kept as text.
    pub fn from_json(text: &str) -> Result<Fleet, Error> {
        Fleet::read(text)
            .map_err(|e| Error::decode(format!("the fleet's shared state is not valid: {e}")))
    }

    fn read(text: &str) -> Result<Fleet, String> {
        let value = svc_json::parse(text).map_err(|e| e.to_string())?;
        let o: &Obj = svc_json::expect(&value, "the state")?;
        let leases: &[Json] = o.field("leases")?;
        Ok(Fleet {
            version: o.field("version")?,
            limits: Limits::from_obj(o.field("limits")?)?,
            window: Window::from_obj(o.field("window")?)?,
            leases: leases
                .iter()
                .map(|l| Lease::from_obj(svc_json::expect(l, "a lease")?))
                .collect::<Result<_, _>>()?,
            token: o.optional("token")?.map(Stored::from_obj).transpose()?,
            claim: o.optional("claim")?.map(Lease::from_obj).transpose()?,
            refreshes: o
                .optional("refreshes")?
                .map(Budget::from_obj)
                .transpose()?
                .unwrap_or_default(),
            dropped: o.optional::<&str>("dropped")?.map(str::to_string),
            next_id: o.field("nextId")?,
        })
    }

    /// The text a store keeps: compact JSON.
    pub fn to_json(&self) -> String {
        // Plain data with string keys: serializing it cannot fail.
        svc_json::to_string(self)
    }

    /// What a store compares and sets: raised by one on every change.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Runs one step, and raises the version if the state changed.
    fn step<R>(&mut self, f: impl FnOnce(&mut Fleet) -> R) -> R {
        let before = self.clone();
        let out = f(self);
        if *self != before {
            self.version = before.version.wrapping_add(1);
        }
        out
    }

    fn new_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id = id.wrapping_add(1);
        id
    }

    /// Bounds the state's times at `now` (see [`HORIZON_MS`]): leases and the claim end by
    /// `now + HORIZON_MS`, and one that ended more than a minute ago is kept from then (its place
    /// in the window is gone either way), so that no later sum on a time overflows.
    fn bound(&mut self, now: i64) {
        let (earliest, latest) = (
            now.saturating_sub(MINUTE_MS),
            now.saturating_add(HORIZON_MS),
        );
        self.window.bound(now, latest);
        for l in self.leases.iter_mut().chain(self.claim.as_mut()) {
            l.until = l.until.clamp(earliest, latest);
        }
    }

    /// Ends the leases and the claim whose time is up (after [`Fleet::bound`]): a dead holder's
    /// slot comes back, and its place in the window lasts a minute from the end of its lease, as
    /// if it answered then.
    fn sweep(&mut self, now: i64) {
        self.bound(now);
        let mut ended: Vec<i64> = Vec::new();
        self.leases.retain(|l| {
            let alive = l.until > now;
            if !alive {
                ended.push(l.until);
            }
            alive
        });
        ended.sort_unstable();
        for at in ended {
            self.window.answer(at);
        }
        if self.claim.as_ref().is_some_and(|c| c.until <= now) {
            self.claim = None;
        }
    }

    fn in_flight(&self) -> u32 {
        u32::try_from(self.leases.len()).unwrap_or(u32::MAX)
    }

    /// A slot for an interactive call of `holder` under `limits`, held for `lease_ms`.
    pub fn acquire(&mut self, holder: &str, limits: Limits, now: i64, lease_ms: i64) -> Acquire {
        self.acquire_in(holder, limits, now, lease_ms, Lane::default())
    }

    /// A slot for a call of `lane` of `holder` under `limits` (which the state then keeps), held
    /// for `lease_ms`; the reserve is of the fleet's day.
    pub fn acquire_in(
        &mut self,
        holder: &str,
        limits: Limits,
        now: i64,
        lease_ms: i64,
        lane: Lane,
    ) -> Acquire {
        self.step(|f| {
            f.sweep(now);
            f.limits = limits;
            let first_end = f.leases.iter().map(|l| l.until).min();
            match f.window.verdict(f.in_flight(), &limits, now, lane) {
                Verdict::Go => {
                    f.window.start();
                    let id = f.new_id();
                    let until = lease_end(now, lease_ms);
                    f.leases.push(Lease {
                        id,
                        holder: holder.to_string(),
                        until,
                    });
                    Acquire::Granted { lease: id, until }
                }
                Verdict::QuotaSpent { until } => Acquire::QuotaSpent { until },
                Verdict::Reserved { until, kept } => Acquire::Reserved { until, kept },
                Verdict::BackOff { until } => Acquire::Wait {
                    until,
                    on_release: false,
                },
                Verdict::WindowFull { until: Some(until) } => Acquire::Wait {
                    until,
                    on_release: false,
                },
                // Every place is in flight: the first to end frees its place a minute later.
                Verdict::WindowFull { until: None } => Acquire::Wait {
                    until: first_end.map_or(now + MINUTE_MS, |t| t + MINUTE_MS),
                    on_release: true,
                },
                Verdict::Busy => Acquire::Wait {
                    until: first_end.unwrap_or(now + MINUTE_MS),
                    on_release: true,
                },
            }
        })
    }

    /// A long call keeps its slot for `lease_ms` more; `None` if its lease had already ended
    /// (the slot is lost and its place was counted from the end of the lease).
    pub fn renew(&mut self, lease: u64, now: i64, lease_ms: i64) -> Option<i64> {
        self.step(|f| {
            f.sweep(now);
            let l = f.leases.iter_mut().find(|l| l.id == lease)?;
            l.until = l.until.max(lease_end(now, lease_ms));
            Some(l.until)
        })
    }

    /// The answer of the call holding `lease` came at `now`: its slot frees, its place in the
    /// window lasts a minute from now. `false` if the lease had already ended (nothing to free,
    /// its place was counted from the end of the lease).
    pub fn release(&mut self, lease: u64, now: i64) -> bool {
        self.step(|f| {
            f.sweep(now);
            let Some(at) = f.leases.iter().position(|l| l.id == lease) else {
                return false;
            };
            f.leases.remove(at);
            f.window.answer(now);
            true
        })
    }

    /// Adopts an answer's X-Rate-Limit-Limit / -Remaining / -Reset (seconds) for the fleet.
    pub fn observe(
        &mut self,
        limit: Option<u32>,
        remaining: Option<u32>,
        reset_secs: Option<u64>,
        now: i64,
    ) {
        self.step(|f| f.window.observe(limit, remaining, reset_secs, now));
    }

    /// A 429: no holder starts a call before `now + wait_ms` (its Retry-After), at most
    /// [`HORIZON_MS`] from now.
    pub fn back_off(&mut self, wait_ms: i64, now: i64) {
        self.step(|f| f.window.back_off(wait_ms.clamp(0, HORIZON_MS), now));
    }

    /// The token to use, or the claim to refresh it (one holder at a time), or a wait. A token due
    /// for renewal is still used while another holder renews it or the budget (`budget`: the
    /// grant's most refreshes in a window) allows none; with no usable token, a spent budget is a
    /// wait until it frees.
    pub fn token_claim(
        &mut self,
        holder: &str,
        now: i64,
        lease_ms: i64,
        budget: Option<u32>,
    ) -> TokenClaim {
        self.step(|f| {
            f.sweep(now);
            let stale = match &f.token {
                Some(t) if t.fresh(now) => return t.to_use(),
                Some(t) if t.access.valid(now) => Some(t.to_use()),
                Some(_) => {
                    f.token = None;
                    f.dropped = Some("expired".into());
                    None
                }
                None => None,
            };
            match &f.claim {
                Some(c) if c.holder == holder => TokenClaim::Refresh {
                    claim: c.id,
                    until: c.until,
                    reason: f.reason(),
                },
                Some(c) => stale.unwrap_or(TokenClaim::Wait {
                    until: c.until,
                    budget: false,
                }),
                None => {
                    let free_at = budget.and_then(|max| f.refreshes.free_at(max, now));
                    if let Some(until) = free_at {
                        return stale.unwrap_or(TokenClaim::Wait {
                            until,
                            budget: true,
                        });
                    }
                    if budget.is_some() {
                        f.refreshes.spend(now);
                    }
                    let id = f.new_id();
                    let until = lease_end(now, lease_ms);
                    f.claim = Some(Lease {
                        id,
                        holder: holder.to_string(),
                        until,
                    });
                    TokenClaim::Refresh {
                        claim: id,
                        until,
                        reason: f.reason(),
                    }
                }
            }
        })
    }

    /// What the next refresher is told: why the last token went, or `"initial"`.
    fn reason(&self) -> String {
        match (&self.token, &self.dropped) {
            (Some(_), _) => "expired".into(),
            (None, Some(why)) => why.clone(),
            (None, None) => "initial".into(),
        }
    }

    /// The refresher of `claim` got `token` (expiring at `expires_at`, if known): the fleet uses it.
    /// A refresher whose claim ended is refused (`false`) if another holder claimed since or a
    /// token is stored; else its late token is still taken.
    pub fn token_store(&mut self, claim: u64, stored: Stored, now: i64) -> bool {
        self.step(|f| {
            f.sweep(now);
            let usable = f.token.as_ref().is_some_and(|t| t.fresh(now));
            let ours = match &f.claim {
                Some(c) => c.id == claim,
                None => !usable,
            };
            if !ours || stored.access.token.is_empty() {
                return false;
            }
            f.claim = None;
            f.dropped = None;
            f.token = Some(stored);
            true
        })
    }

    /// The refresher of `claim` failed: the claim ends now, so that another holder may refresh;
    /// `denied`: the accounts server said Access Denied, and no one refreshes for a window.
    pub fn token_abandon(&mut self, claim: u64, denied: bool, now: i64) {
        self.step(|f| {
            f.sweep(now);
            if f.claim.as_ref().is_some_and(|c| c.id == claim) {
                f.claim = None;
            }
            if denied {
                f.refreshes.deny(now);
            }
        })
    }

    /// A 401 to a call that carried `token`: the fleet drops it if it is still the stored one
    /// (`true`); a second 401 with the same token, during its refresh or after a new one was
    /// stored, changes nothing (`false`).
    pub fn token_invalidate(&mut self, token: &str, now: i64) -> bool {
        self.step(|f| {
            f.sweep(now);
            if f.token.as_ref().is_some_and(|t| t.access.text() == token) {
                f.token = None;
                f.dropped = Some("rejected".into());
                return true;
            }
            false
        })
    }

    /// The fleet's figures at `now` (`rateLimitState()`), without changing the state. `queued`
    /// is 0: each process counts its own waiting calls.
    pub fn state_of(&self, now: i64) -> State {
        let mut f = self.clone();
        f.sweep(now);
        let in_flight = f.in_flight();
        f.window.state(in_flight, 0, &f.limits, now)
    }

    /// When the first lease or claim ends, if any: when a store that can wake itself should sweep.
    pub fn next_end(&self) -> Option<i64> {
        let claim = self.claim.as_ref().map(|c| c.until);
        self.leases.iter().map(|l| l.until).chain(claim).min()
    }
}

/// The end of a lease or claim of `lease_ms` taken at `now`: at least a ms, at most [`HORIZON_MS`].
fn lease_end(now: i64, lease_ms: i64) -> i64 {
    now.saturating_add(lease_ms.clamp(1, HORIZON_MS))
}

#[cfg(test)]
mod tests;
