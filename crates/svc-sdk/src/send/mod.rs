//! The send loop as platform-free async Rust: token, limiter, attempts with timeout and abort, retries, decoding.

mod alarm;
mod answer;
mod attempt;
mod deadline;
#[cfg(feature = "server")]
mod fleet;
#[cfg(feature = "server")]
mod grant;
#[cfg(feature = "server")]
pub use grant::post as accounts_post;
mod keeper;
pub mod note;
mod queue;
pub(crate) mod race;
mod token;

#[cfg(test)]
mod tests;

pub use answer::{stalled, too_large, Answer, Failure, Head, Outgoing};
#[cfg(feature = "server")]
pub use attempt::within;
pub use deadline::Deadline;
#[cfg(feature = "server")]
pub use fleet::Options as FleetOptions;
pub use note::{Again, Event, Level, Note};
pub use token::{Credential, Reason, TokenFailure, TokenResult};

use crate::access::AccessToken;
use crate::catalog::{Method, Shape};
use crate::error::{Error, ErrorKind};
use crate::fleet::Seen;
use crate::limit::{Limits, State};
use crate::request;
use crate::response::{self, Decoded};
use crate::retry::{self, Outcome, Policy};
use crate::secret::Secret;
use alarm::Alarm;
use attempt::{abort, aborted, attempt, decode, discard, pause, retry_after_ms, seen, Got};
use race::{race, First};
use std::cell::Cell;
use std::future::{pending, Future};

/// A step of the loop as a future of its own: its state and its code stay out of the caller's.
type Boxed<'a, T> = std::pin::Pin<Box<dyn Future<Output = T> + 'a>>;

/// `rateLimit.reserve`'s default, in thousandths of the day: a tenth.
pub const DEFAULT_RESERVE_PER_MILLE: u32 = 100;

/// The message of an abort whose reason has none.
pub const ABORTED: &str = "the call was aborted";

/// What the loop needs of its host: fetch, the body, timers, the clock, randomness, the call's
/// abort signal and the user's token function. Implemented once per platform (JS; the tests);
/// every decision is the pure modules' (`limit`, `retry`, `request`, `response`). The loop runs on
/// any single-threaded executor: `wasm::tasks` in wasm, a scripted one in the tests.
pub trait Platform: Clone + 'static {
    /// A request body: JSON text, or a form with files; text (the OAuth grant's form) makes one.
    type Body: From<String>;
    /// An answer's unread body, and whatever else the platform keeps of it (headers for a proxy).
    type Raw;
    /// A call's abort signal.
    type Signal;

    /// Sends one attempt. A network failure is a `Failure` of kind network (`Failure::network`).
    /// Dropping the future must abort the request: it is dropped on timeout and abort.
    fn fetch(
        &self,
        req: Outgoing<'_, Self::Body>,
    ) -> impl Future<Output = Result<Answer<Self::Raw>, Failure>>;

    /// Reads a body whole; an answer above `max` bytes is refused (`too_large(max)`) as soon as
    /// that is known, a stream that breaks is a network failure.
    fn read(&self, raw: Self::Raw, max: usize) -> impl Future<Output = Result<Vec<u8>, Failure>>;

    /// Lets go of an unread body (a raw answer that is retried).
    fn discard(&self, raw: Self::Raw);

    /// Resolves after `ms` milliseconds; dropping it clears the timer.
    fn sleep(&self, ms: u64) -> impl Future<Output = ()>;

    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> i64;

    /// A number in [0, 1), for the jitter of retries.
    fn random(&self) -> f64;

    /// Once `signal` fired: how the call ends (`aborted`, or `timeout` for a timeout's reason such
    /// as `AbortSignal.timeout`'s) and its reason's message, or `ABORTED`.
    fn aborted(&self, signal: &Self::Signal) -> Option<(ErrorKind, String)>;

    /// Resolves when `signal` fires (at once if it has); dropping it removes the listener.
    fn on_abort(&self, signal: &Self::Signal) -> impl Future<Output = ()>;

    /// Calls the user's token function (at once, not on the first poll), telling it why, and waits
    /// for its result.
    fn token(&self, reason: Reason) -> impl Future<Output = TokenResult> + 'static;

    /// Runs one step on the fleet store (`fleet::Request` as text) on the organization's state,
    /// or with `key` on the state under that key (a credential's token), and gives the reply's
    /// text, or why the store could not be reached. Only called for a client with a store.
    fn store_step(
        &self,
        key: Option<&str>,
        request: String,
    ) -> impl Future<Output = Result<String, String>>;

    /// Tells the user's hooks and logger what happened to a call (`Note::line` words it).
    fn note(&self, note: &Note<'_>);
}

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

enum Gate {
    Off,
    Local(queue::Queue),
    #[cfg(feature = "server")]
    Fleet(Box<fleet::Fleet>),
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
    fn note<'a>(&'a self, attempt: u32, secret: Option<&'a str>, event: Event<'a>) -> Note<'a> {
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
    platform: P,
    credential: Credential,
    gate: Gate,
    /// The credential's keeper: the process's for a keyed credential (`shared_by`), else its own.
    keeper: std::rc::Rc<keeper::Keeper>,
    /// The API domain calls are built with, which a grant's `api_domain` replaces (`None`: the
    /// client named its apiDomain, or has no grant).
    base: Option<String>,
    /// Whether the logger was told that the service states a day unlike the plan's (once).
    told_day: Cell<bool>,
    /// `rateLimit.reserve` in thousandths: the share of the day a background call leaves.
    reserve_per_mille: u32,
    /// The most calls of this client that wait for a fleet's limiter at once (the local queue
    /// holds its own).
    #[cfg(feature = "server")]
    max_queued: u32,
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
            Limiting::Fleet(options) => Gate::Fleet(Box::new(fleet::Fleet::new(options))),
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

    /// Sends `call`: its token, a slot of the limiter, the attempt, retries as the policy says (a
    /// POST never after the server may have acted), and the answer decoded. No error leaves it
    /// with the token in it, whoever wrote the error.
    pub async fn send(&self, call: &Call<'_, P>) -> Result<Reply<P::Raw>, Failure> {
        let mut secret = match &self.credential {
            Credential::Static(t) => Some(t.clone()),
            _ => None,
        };
        let p = &self.platform;
        let started = p.now_ms();
        let deadline = Deadline::new(started, call.options.deadline_ms);
        let tries = Cell::new(0);
        let alarm = Alarm::new(p);
        let timer = async {
            match deadline.at() {
                Some(at) => alarm.until(at).await,
                None => pending().await,
            }
        };
        let run: Boxed<'_, _> = Box::pin(self.run(call, &mut secret, deadline, &alarm, &tries));
        let out = match race(run, timer).await {
            First::A(out) => out,
            First::B(()) => Err(deadline.passed()),
        };
        let secret = secret.as_ref().map(Secret::expose);
        match out {
            Ok(Reply::Json { text, head }) => Ok(Reply::Json {
                text,
                head: head.without_secret(secret),
            }),
            Ok(Reply::Binary { bytes, head }) => Ok(Reply::Binary {
                bytes,
                head: head.without_secret(secret),
            }),
            Ok(raw) => Ok(raw),
            Err(f) => {
                let f = self.without_secrets(f.finish(secret, call.operation));
                let ms = u64::try_from(p.now_ms() - started).unwrap_or(0);
                let failed = Event::Failed {
                    error: &f.error,
                    ms,
                };
                p.note(&call.note(tries.get(), secret, failed));
                Err(f)
            }
        }
    }

    async fn run(
        &self,
        call: &Call<'_, P>,
        secret: &mut Option<Secret>,
        deadline: Deadline,
        alarm: &Alarm<'_, P>,
        tries: &Cell<u32>,
    ) -> Result<Reply<P::Raw>, Failure> {
        let policy = Policy::new(call.options.max_retries);
        let mut so_far = SoFar::default();
        let start = |reason| self.start(reason, call.options.timeout_ms);
        let attempt = Cell::new(0);
        let refreshed = |reason: Reason, ms| {
            let event = Event::Refreshed { reason, ms };
            self.platform.note(&call.note(attempt.get(), None, event));
        };
        let source = keeper::Source {
            start: &start,
            budget: match &self.credential {
                #[cfg(feature = "server")]
                Credential::OAuth(g) => Some(g.max_refreshes),
                _ => None,
            },
            retries: call.options.max_retries,
            refreshed: &refreshed,
        };
        loop {
            so_far.n += 1;
            let n = so_far.n;
            attempt.set(n);
            let refreshed = so_far.refreshed.take();
            let carried = Box::pin(self.carry(call, &source, deadline, secret, refreshed)).await?;
            let url = self.url_for(call.url, carried.domain.as_deref());
            let routed = Call { url: &url, ..*call };
            let call = &routed;
            let authorization = match (&self.credential, secret.as_ref().map(Secret::expose)) {
                (Credential::None, _) | (_, None) => None,
                (_, Some(token)) => {
                    Some(request::authorization(token).map_err(|e| e.without_secret(Some(token)))?)
                }
            };
            // A failure to get a slot (a spent quota, an unreachable fleet store, an abort) is the
            // call's: nothing was sent, and the limiter or the store already waited what it may.
            let got: Boxed<'_, _> = Box::pin(self.limited(
                call,
                n,
                authorization.as_deref(),
                secret.as_ref().map(Secret::expose),
                deadline,
                alarm,
            ));
            let got = got.await?;
            tries.set(n);
            let secret = secret.as_ref().map(Secret::expose);
            let wait = match (got, carried.generation) {
                (Ok(answer), Some(generation)) if answer.status == 401 => {
                    let again =
                        self.rejected(call, &source, deadline, (n, secret), answer, generation);
                    so_far.refreshed = Some(Box::pin(again).await?);
                    continue;
                }
                (Ok(answer), _) => match self.again(call, &policy, &so_far, deadline, answer) {
                    Verdict::Give(answer) => {
                        return reply(call, answer, so_far.uncertain, self.platform.now_ms())
                    }
                    Verdict::Wait(wait) => wait,
                },
                (Err(f), _) => self.no_answer(call, &policy, &so_far, deadline, f)?,
            };
            // The one wait between attempts: said, then waited (or until the caller's signal).
            let Wait {
                ms,
                again,
                headers,
                uncertain,
            } = wait;
            let retrying = Event::Retrying {
                ms,
                again,
                headers: headers.as_ref(),
            };
            self.platform.note(&call.note(n, secret, retrying));
            pause(&self.platform, call.signal, ms).await?;
            so_far.retries += 1;
            so_far.uncertain |= uncertain;
        }
    }

    /// The token an attempt carries (the refreshed one after a 401, else the kept or the fleet's),
    /// put in `secret`: the generation a 401 refreshes after (`None`: no refresh), and its domain.
    async fn carry(
        &self,
        call: &Call<'_, P>,
        source: &keeper::Source<'_>,
        deadline: Deadline,
        secret: &mut Option<Secret>,
        refreshed: Option<AccessToken>,
    ) -> Result<Carried, Failure> {
        let p = &self.platform;
        if let Some(issued) = refreshed {
            *secret = Some(issued.token);
            return Ok(Carried {
                generation: None,
                domain: issued.domain,
            });
        }
        if let Credential::Static(_) | Credential::None = self.credential {
            return Ok(Carried::default());
        }
        let (made, issued) = match &self.gate {
            #[cfg(feature = "server")]
            Gate::Fleet(f) => {
                self.keeper.check()?;
                let got = Box::pin(f.token(p, source, call.signal, deadline)).await;
                self.tell_repaired(f, call);
                (0, self.learn(got)?)
            }
            _ => {
                let kept = Box::pin(self.keeper.token(p, source, call.signal, deadline));
                let kept = kept.await?;
                (kept.generation, kept.issued)
            }
        };
        *secret = Some(issued.token);
        Ok(Carried {
            generation: Some(made),
            domain: issued.domain,
        })
    }

    /// An attempt that got no answer: the wait before the next when it may be tried again (a
    /// timeout or a network failure the policy retries within the deadline), else the failure.
    fn no_answer(
        &self,
        call: &Call<'_, P>,
        policy: &Policy,
        so_far: &SoFar,
        deadline: Deadline,
        f: Failure,
    ) -> Result<Wait, Failure> {
        let p = &self.platform;
        if call.signal.is_some_and(|s| p.aborted(s).is_some()) {
            return Err(f);
        }
        let outcome = match f.error.kind() {
            ErrorKind::Timeout => Outcome::Timeout,
            ErrorKind::Network => Outcome::Network,
            _ => return Err(f),
        };
        let Some(ms) = self.delay(call, policy, so_far, deadline, outcome) else {
            return Err(f);
        };
        Ok(Wait {
            ms,
            again: Again::NoAnswer(f.error.kind()),
            headers: None,
            uncertain: true,
        })
    }

    /// A 401 to a token this client may refresh: the answer let go, the token dropped (in the
    /// fleet's store too) and a new one got for the next attempt.
    async fn rejected(
        &self,
        call: &Call<'_, P>,
        source: &keeper::Source<'_>,
        deadline: Deadline,
        (n, secret): (u32, Option<&str>),
        answer: Answer<Got<P::Raw>>,
        generation: u64,
    ) -> Result<AccessToken, Failure> {
        let p = &self.platform;
        discard(p, answer.raw);
        let refreshing = Event::Refreshing {
            headers: &answer.headers,
        };
        p.note(&call.note(n, secret, refreshing));
        match &self.gate {
            #[cfg(feature = "server")]
            Gate::Fleet(f) => {
                if let Some(token) = secret {
                    Box::pin(f.invalidate(p, token)).await;
                }
                let got = Box::pin(f.token(p, source, call.signal, deadline)).await;
                self.learn(got)
            }
            _ => {
                let kept = self
                    .keeper
                    .rejected(p, source, call.signal, deadline, generation);
                Ok(Box::pin(kept).await?.issued)
            }
        }
    }

    /// A 429 or a 5xx that the policy retries within the deadline: the answer let go and the wait
    /// before the next attempt; any other answer is given back.
    fn again(
        &self,
        call: &Call<'_, P>,
        policy: &Policy,
        so_far: &SoFar,
        deadline: Deadline,
        answer: Answer<Got<P::Raw>>,
    ) -> Verdict<P::Raw> {
        let p = &self.platform;
        let status = answer.status;
        if status != 429 && status < 500 {
            return Verdict::Give(answer);
        }
        let after = retry_after_ms(answer.header("retry-after"), p.now_ms());
        let outcome = Outcome::Status(status, after);
        let Some(ms) = self.delay(call, policy, so_far, deadline, outcome) else {
            return Verdict::Give(answer);
        };
        discard(p, answer.raw);
        Verdict::Wait(Wait {
            ms,
            again: Again::Status {
                status,
                told: after.is_some(),
            },
            headers: Some(answer.headers),
            uncertain: status >= 500,
        })
    }

    /// The wait before the next attempt, when the policy retries `outcome` within the deadline.
    fn delay(
        &self,
        call: &Call<'_, P>,
        policy: &Policy,
        so_far: &SoFar,
        deadline: Deadline,
        outcome: Outcome,
    ) -> Option<u64> {
        let p = &self.platform;
        let next = policy.next_delay(call.method, so_far.retries, outcome, p.random());
        next.filter(|ms| deadline.holds(p.now_ms(), *ms))
    }
}

/// What the send loop keeps between attempts: the attempt's number, the retries so far, whether
/// an earlier attempt may have reached the service, and the token a 401 refreshed.
#[derive(Default)]
struct SoFar {
    n: u32,
    retries: u32,
    uncertain: bool,
    refreshed: Option<AccessToken>,
}

/// The wait before the next attempt: how long, why, the answer's headers (a 429's or a 5xx's), and
/// whether the attempt may have reached the service.
struct Wait {
    ms: u64,
    again: Again,
    headers: Option<crate::headers::Headers>,
    uncertain: bool,
}

/// What becomes of an answer: given back, or let go for a wait and another attempt.
enum Verdict<R> {
    Give(Answer<Got<R>>),
    Wait(Wait),
}

/// What an attempt carries of its token: the generation a 401 refreshes after, and its domain.
#[derive(Default)]
struct Carried {
    generation: Option<u64>,
    domain: Option<String>,
}

/// The final answer as the call's reply: passed on raw (the proxy's), or read and decoded.
fn reply<P: Platform>(
    call: &Call<'_, P>,
    answer: Answer<Got<P::Raw>>,
    uncertain: bool,
    now: i64,
) -> Result<Reply<P::Raw>, Failure> {
    let (answer, got) = answer.with(());
    let bytes = match got {
        Got::Raw(raw) => return Ok(Reply::Raw(answer.with(raw).0)),
        Got::Bytes(bytes) => bytes,
    };
    let decoded = decode(call.shape, call.method, &answer, &bytes, uncertain, now);
    let decoded = decoded.map_err(|e| response::advise(e, &answer.url, call.operation))?;
    Ok(match decoded {
        Decoded::Json(text) => Reply::Json { text, head: answer },
        Decoded::Binary => Reply::Binary {
            bytes,
            head: answer,
        },
    })
}

impl<P: Platform> Transport<P> {
    /// A refresh of the client's token for `reason`: a call of the token function, or the grant.
    #[cfg_attr(not(feature = "server"), allow(unused_variables))]
    fn start(&self, reason: Reason, timeout_ms: u32) -> token::Running {
        match &self.credential {
            #[cfg(feature = "server")]
            Credential::OAuth(g) => grant::start(&self.platform, g, timeout_ms),
            _ => Box::pin(self.platform.token(reason)),
        }
    }

    /// A failure with the grant's secrets taken out of it, whoever wrote them.
    fn without_secrets(&self, f: Failure) -> Failure {
        match &self.credential {
            #[cfg(feature = "server")]
            Credential::OAuth(g) => grant::without_secrets(g, f),
            _ => f,
        }
    }

    /// The lane of `call`: its priority and the client's reserve.
    fn lane(&self, call: &Call<'_, P>) -> crate::limit::Lane {
        crate::limit::Lane {
            background: call.options.background,
            reserve_per_mille: self.reserve_per_mille,
        }
    }

    /// Tells the logger, once, that the service states a day unlike the plan's.
    fn tell_day(&self, call: &Call<'_, P>, n: u32) {
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
    fn tell_repaired(&self, f: &fleet::Fleet, call: &Call<'_, P>) {
        if let Some(why) = f.take_repaired() {
            let event = Event::StoreRepaired { why: &why };
            self.platform.note(&call.note(0, None, event));
        }
    }

    /// A fleet's refresh failed: a credential the accounts server refused stops this client's.
    #[cfg(feature = "server")]
    fn learn<T>(&self, got: Result<T, Failure>) -> Result<T, Failure> {
        if let (Err(f), Credential::OAuth(_)) = (&got, &self.credential) {
            if f.error.kind() == ErrorKind::Unauthorized {
                self.keeper.refused(&self.platform, f);
            }
        }
        got
    }

    /// `url` sent to the grant's API domain when the client follows it.
    fn url_for<'u>(&self, url: &'u str, domain: Option<&str>) -> std::borrow::Cow<'u, str> {
        match (&self.base, domain) {
            (Some(base), Some(domain)) if url.starts_with(base.as_str()) => {
                format!("{domain}{}", &url[base.len()..]).into()
            }
            _ => url.into(),
        }
    }

    /// One attempt inside the limits: a slot of the limiter or the fleet first (`Err` without
    /// one), given back with what the answer said of the limits; the attempt's own result inside.
    async fn limited(
        &self,
        call: &Call<'_, P>,
        n: u32,
        authorization: Option<&str>,
        secret: Option<&str>,
        deadline: Deadline,
        alarm: &Alarm<'_, P>,
    ) -> Result<Result<Answer<Got<P::Raw>>, Failure>, Failure> {
        let p = &self.platform;
        let queued = |ms: Option<u64>, why: &str| {
            p.note(&call.note(n, secret, Event::Queued { ms, why }));
        };
        // Boxed, as is each step below that only some states hold: a call waiting in the queue
        // then holds the queue's small future, not room for the attempt's (memory per queued call).
        let attempt =
            |call| -> Boxed<'_, _> { Box::pin(attempt(p, call, n, authorization, secret, alarm)) };
        let local = |q: &queue::Queue, got: &Result<Answer<Got<P::Raw>>, Failure>| {
            let now = p.now_ms();
            q.observe(seen(got, now), now);
            self.tell_day(call, n);
        };
        Ok(match &self.gate {
            Gate::Off => attempt(call).await,
            Gate::Local(q) => {
                let slot =
                    queue::admit(q, p, call.signal, deadline, self.lane(call), queued).await?;
                let got = attempt(call).await;
                drop(slot);
                local(q, &got);
                got
            }
            #[cfg(feature = "server")]
            Gate::Fleet(f) if f.state(p.now_ms()).queued >= self.max_queued => {
                return Err(queue::queue_full(
                    self.max_queued,
                    f.state(p.now_ms()).limits(),
                ));
            }
            #[cfg(feature = "server")]
            Gate::Fleet(f) => {
                let lane = self.lane(call);
                let held = Box::pin(f.admit(p, call.signal, deadline, lane, queued)).await;
                self.tell_repaired(f, call);
                match held? {
                    fleet::Held::Local(slot, q) => {
                        let got = attempt(call).await;
                        drop(slot);
                        local(q, &got);
                        got
                    }
                    fleet::Held::Lease(lease) => {
                        let got = match race(attempt(call), f.keep(p, lease)).await {
                            First::A(got) => got,
                            First::B(never) => match never {},
                        };
                        Box::pin(f.release(p, lease, seen(&got, p.now_ms()))).await;
                        self.tell_day(call, n);
                        got
                    }
                }
            }
        })
    }
}
