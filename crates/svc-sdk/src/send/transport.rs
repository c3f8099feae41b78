//! A client's side of the send loop (`Transport`: its platform, credential, limiter and token keeper)
//! and what a call is (`Call`, its `Options`, its `Reply`).

use super::DEFAULT_RESERVE_PER_MILLE;
#[cfg(feature = "server")]
use super::{grant, member, FleetOptions};
use super::{
    keeper, queue, token, Answer, Credential, Event, Failure, Head, Note, Platform, Reason,
};
use crate::limit::{Limits, State};
use std::cell::Cell;
use svc_core::catalog::{Method, Shape};
#[cfg(feature = "server")]
use svc_core::error::ErrorKind;

/// How a client keeps to its organization's limits.
#[derive(Clone, Debug, PartialEq)]
pub enum Limiting {
    /// It does not (`rateLimit: false`).
    Off,
    /// In this process alone.
    Local(Limits),
    /// With every client that shares the store (a server's: the page build has no store).
    #[cfg(feature = "server")]
    Fleet(FleetOptions),
}

pub(super) enum Gate {
    Off,
    Local(queue::Queue),
    #[cfg(feature = "server")]
    Fleet(Box<member::Member>),
}

/// How a call is sent, the client's defaults already applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The wait for each attempt (0: none).
    pub timeout_ms: u32,
    /// The wait for the whole call, from its start to its result (0: none): queue, token,
    /// attempts, Retry-After and back-off.
    pub deadline_ms: u32,
    pub max_retries: u32,
    pub max_response_bytes: usize,
    /// Hand back the answer undecoded with its body unread (the proxy's forward).
    pub raw: bool,
    /// A background call (`priority: "background"`): it leaves the reserve of the day alone.
    pub background: bool,
}

/// One call: a built request (see `request::Prepared`), what its answer holds, and its signal.
pub struct Call<'a, P: Platform> {
    pub method: Method,
    pub url: &'a str,
    /// Without Authorization, which the loop adds.
    pub headers: &'a [(String, String)],
    pub body: &'a P::Body,
    pub shape: Shape,
    /// The operation's id; `None` for a `request()` call.
    pub operation: Option<&'static str>,
    pub options: Options,
    pub signal: Option<&'a P::Signal>,
}

impl<P: Platform> Call<'_, P> {
    pub(super) fn note<'a>(
        &'a self,
        attempt: u32,
        secret: Option<&'a str>,
        event: Event<'a>,
    ) -> Note<'a> {
        Note {
            operation: self.operation,
            method: self.method,
            url: self.url,
            attempt,
            event,
            secret,
        }
    }
}

/// What a call gives.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply<R> {
    /// The result as JSON text, every id a string, and the answer it came in.
    Json { text: String, head: Head },
    /// The body of a binary answer, and the answer (its content type among the headers).
    Binary { bytes: Vec<u8>, head: Head },
    /// A raw call's answer, its body unread.
    Raw(Answer<R>),
}

/// A client's side of the loop: its platform, its token, its limiter and its refresh, shared by
/// all of its calls (keep it in an `Rc` to send from `'static` futures).
pub struct Transport<P: Platform> {
    pub(super) platform: P,
    pub(super) credential: Credential,
    pub(super) gate: Gate,
    /// The credential's keeper: the process's for a keyed credential (`shared_by`), else its own.
    pub(super) keeper: std::rc::Rc<keeper::Keeper>,
    /// The API domain calls are built with, which a grant's `api_domain` replaces (`None`: the
    /// client named its apiDomain, or has no grant).
    pub(super) base: Option<String>,
    /// Whether the logger was told that the service states a day unlike the plan's (once).
    pub(super) told_day: Cell<bool>,
    /// `rateLimit.reserve` in thousandths: the share of the day a background call leaves.
    pub(super) reserve_per_mille: u32,
    /// The most calls of this client that wait for a fleet's limiter at once (the local queue
    /// holds its own).
    #[cfg(feature = "server")]
    pub(super) max_queued: u32,
}

impl<P: Platform> Transport<P> {
    /// A transport whose limiter lets at most `max_queued` calls wait at once.
    pub fn new(
        platform: P,
        credential: Credential,
        limiting: Limiting,
        max_queued: u32,
    ) -> Transport<P> {
        let gate = match limiting {
            Limiting::Off => Gate::Off,
            Limiting::Local(limits) => Gate::Local(queue::Queue::new(limits, max_queued)),
            #[cfg(feature = "server")]
            Limiting::Fleet(options) => Gate::Fleet(Box::new(member::Member::new(options))),
        };
        Transport {
            platform,
            credential,
            gate,
            keeper: std::rc::Rc::default(),
            told_day: Cell::new(false),
            reserve_per_mille: DEFAULT_RESERVE_PER_MILLE,
            base: None,
            #[cfg(feature = "server")]
            max_queued,
        }
    }

    /// The token is the credential `key`'s in this process (an OAuth credential's fingerprint, a
    /// token function's name or identity): kept, refreshed, budgeted and stopped once for every
    /// transport of that key.
    pub fn shared_by(mut self, key: &str) -> Transport<P> {
        self.keeper = keeper::shared(key, self.platform.now_ms());
        self
    }

    /// A background call leaves `per_mille` thousandths of the organization's day to interactive ones.
    pub fn reserve(mut self, per_mille: u32) -> Transport<P> {
        self.reserve_per_mille = per_mille.min(1000);
        self
    }

    /// Calls built on `base` go to the API domain the grant names instead.
    pub fn follow_grant_domain(mut self, base: String) -> Transport<P> {
        self.base = Some(base);
        self
    }

    pub fn platform(&self) -> &P {
        &self.platform
    }

    /// What the limiter allows now (with a store, as the store last said), without one `None`.
    pub fn rate_limit_state(&self) -> Option<State> {
        let now = self.platform.now_ms();
        match &self.gate {
            Gate::Off => None,
            Gate::Local(q) => Some(q.state(now)),
            #[cfg(feature = "server")]
            Gate::Fleet(f) => Some(f.state(now)),
        }
    }
}

impl<P: Platform> Transport<P> {
    /// A refresh of the client's token for `reason`: a call of the token function, or the grant.
    #[cfg_attr(not(feature = "server"), allow(unused_variables))]
    pub(super) fn start(&self, reason: Reason, timeout_ms: u32) -> token::Running {
        match &self.credential {
            #[cfg(feature = "server")]
            Credential::OAuth(g) => grant::start(&self.platform, g, timeout_ms),
            _ => Box::pin(self.platform.token(reason)),
        }
    }

    /// A failure with the grant's secrets taken out of it, whoever wrote them.
    pub(super) fn without_secrets(&self, f: Failure) -> Failure {
        match &self.credential {
            #[cfg(feature = "server")]
            Credential::OAuth(g) => grant::without_secrets(g, f),
            _ => f,
        }
    }

    /// The lane of `call`: its priority and the client's reserve.
    pub(super) fn lane(&self, call: &Call<'_, P>) -> crate::limit::Lane {
        crate::limit::Lane {
            background: call.options.background,
            reserve_per_mille: self.reserve_per_mille,
        }
    }

    /// Tells the logger, once, that the service states a day unlike the plan's.
    pub(super) fn tell_day(&self, call: &Call<'_, P>, n: u32) {
        if self.told_day.get() {
            return;
        }
        let Some(s) = self.rate_limit_state() else {
            return;
        };
        if s.daily_quota != s.plan_daily_quota {
            self.told_day.set(true);
            let event = Event::DayStated {
                stated: s.daily_quota,
                plan: s.plan_daily_quota,
            };
            self.platform.note(&call.note(n, None, event));
        }
    }

    /// Tells the call's logger of a state the fleet's store held that could not be used.
    #[cfg(feature = "server")]
    pub(super) fn tell_repaired(&self, f: &member::Member, call: &Call<'_, P>) {
        if let Some(why) = f.take_repaired() {
            let event = Event::StoreRepaired { why: &why };
            self.platform.note(&call.note(0, None, event));
        }
    }

    /// A fleet's refresh failed: a credential the accounts server refused stops this client's.
    #[cfg(feature = "server")]
    pub(super) fn learn<T>(&self, got: Result<T, Failure>) -> Result<T, Failure> {
        if let (Err(f), Credential::OAuth(_)) = (&got, &self.credential) {
            if f.error.kind() == ErrorKind::Unauthorized {
                self.keeper.refused(&self.platform, f);
            }
        }
        got
    }

    /// `url` sent to the grant's API domain when the client follows it.
    pub(super) fn url_for<'u>(
        &self,
        url: &'u str,
        domain: Option<&str>,
    ) -> std::borrow::Cow<'u, str> {
        match (&self.base, domain) {
            (Some(base), Some(domain)) if url.starts_with(base.as_str()) => {
                format!("{domain}{}", &url[base.len()..]).into()
            }
            _ => url.into(),
        }
    }
}
