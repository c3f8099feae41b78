//! The send loop as platform-free async Rust: token, limiter, attempts with timeout and abort, retries, decoding.

mod alarm;
mod deadline;
mod fleet;
mod grant;
mod keeper;
pub mod note;
mod queue;
pub(crate) mod race;
mod token;

#[cfg(test)]
mod sim;
#[cfg(test)]
mod tests;

pub use deadline::Deadline;
pub use fleet::Options as FleetOptions;
pub use note::{Again, Event, Level, Note};
pub use token::{Credential, Issued, Reason, TokenFailure, TokenResult};

use crate::catalog::{Method, Shape};
use crate::error::{Cause, Error, ErrorKind, Fault};
use crate::fleet::Seen;
use crate::headers::Headers;
use crate::limit::{Limits, State};
use crate::redact;
use crate::request;
use crate::response::{self, Decoded};
use crate::retry::{self, Outcome, Policy};
use alarm::Alarm;
use race::{race, First};
use std::cell::Cell;
use std::fmt;
use std::future::{pending, Future};

/// A step of the loop as a future of its own: its state and its code stay out of the caller's.
type Boxed<'a, T> = std::pin::Pin<Box<dyn Future<Output = T> + 'a>>;

/// The message of an abort whose reason has none.
pub const ABORTED: &str = "the call was aborted";

/// What one attempt sends. The platform adds `Authorization: {authorization}` when there is one.
pub struct Outgoing<'a, B> {
    pub method: Method,
    pub url: &'a str,
    pub headers: &'a [(String, String)],
    pub authorization: Option<&'a str>,
    /// Opaque to the loop: JSON text, or a form on JS.
    pub body: &'a B,
    /// The token this attempt carries (or the static one), which no error or proxied byte may quote.
    pub secret: Option<&'a str>,
    /// A proxy's forward: keep the body unread (`Platform::read` is not called on it).
    pub raw: bool,
    /// The call's timeout, which a raw body may also use as its idle limit.
    pub timeout_ms: u32,
}

/// What came back: the status, where from, and the headers; `raw` holds the body unread.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(bound = "")]
pub struct Answer<R> {
    pub status: u16,
    /// The answer's URL (the request's when the platform does not tell it).
    pub url: String,
    pub headers: Headers,
    #[serde(skip)]
    pub raw: R,
}

/// An answer without its body: what `withResponse()` shows of it.
pub type Head = Answer<()>;

impl<R> Answer<R> {
    /// The same answer holding `raw` instead, and what it held.
    fn with<S>(self, raw: S) -> (Answer<S>, R) {
        let Answer {
            status,
            url,
            headers,
            raw: old,
        } = self;
        (
            Answer {
                status,
                url,
                headers,
                raw,
            },
            old,
        )
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name)
    }
}

impl Head {
    /// `{ status, url, headers }` as JSON text.
    pub fn to_json(&self) -> String {
        crate::json::to_string(self)
    }

    fn without_secret(mut self, secret: Option<&str>) -> Head {
        redact::literal(&mut self.url, secret);
        Answer {
            headers: self.headers.without_secret(secret),
            ..self
        }
    }
}

/// An error leaving the loop (a network failure's with its cause).
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub error: Error,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Failure {
        Failure { error }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl std::error::Error for Failure {}

impl Failure {
    /// A request that got no answer: `the request to {host} failed: {what} ({code})`, its cause
    /// the inner error's message (else `what`), the code and the host.
    pub fn network(host: &str, what: &str, code: Option<&str>, inner: Option<&str>) -> Failure {
        let code_part = code.map(|c| format!(" ({c})")).unwrap_or_default();
        let cause = Cause {
            message: inner.unwrap_or(what).to_string(),
            code: code.map(str::to_string),
            host: host.to_string(),
        };
        Failure {
            error: Error {
                fault: Fault::Network {
                    cause: Some(Box::new(cause)),
                },
                message: format!("the request to {host} failed: {what}{code_part}"),
                operation_id: None,
            },
        }
    }

    /// The secret out of every text (the answer's headers too), and the operation set unless it is already.
    fn finish(mut self, secret: Option<&str>, operation: Option<&'static str>) -> Failure {
        self.error = self.error.without_secret(secret);
        if let Some(headers) = self.error.fault.headers_mut() {
            *headers = headers.take().map(|h| Box::new(h.without_secret(secret)));
        }
        if let Fault::Network { cause: Some(c) } = &mut self.error.fault {
            for text in [&mut c.message, &mut c.host]
                .into_iter()
                .chain(c.code.as_mut())
            {
                redact::literal(text, secret);
            }
        }
        if let (Some(op), None) = (operation, &self.error.operation_id) {
            self.error.operation_id = Some(op.to_string());
        }
        self
    }
}

/// The error of an answer above `max` bytes, which `Platform::read` refuses unread.
pub fn too_large(max: usize) -> Error {
    Error::decode(format!(
        "the answer is larger than maxResponseBytes ({max} bytes) and was not read; raise maxResponseBytes if such an answer is expected"
    ))
}

/// The error of a proxied body whose service sent nothing for `ms`, the call's timeout.
pub fn stalled(ms: u32) -> Error {
    Error::new(
        ErrorKind::Timeout,
        format!("the service sent nothing more for {ms} ms"),
    )
}

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

    /// Runs one step on the fleet store (`fleet::Request` as text) and gives the reply's text,
    /// or why the store could not be reached. Only called for a client with a store.
    fn store_step(&self, request: String) -> impl Future<Output = Result<String, String>>;

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
    /// With every client that shares the store.
    Fleet(FleetOptions),
}

enum Gate {
    Off,
    Local(queue::Queue),
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
    keeper: keeper::Keeper,
    /// The API domain calls are built with, which a grant's `api_domain` replaces (`None`: the
    /// client named its apiDomain, or has no grant).
    base: Option<String>,
    /// The most calls of this client that wait for the limiter at once.
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
            Limiting::Fleet(options) => Gate::Fleet(Box::new(fleet::Fleet::new(options))),
        };
        Transport {
            platform,
            credential,
            gate,
            keeper: keeper::Keeper::default(),
            base: None,
            max_queued,
        }
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
        let grant = match &self.credential {
            Credential::OAuth(g) => Some(g),
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
        let secret = secret.as_deref();
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
                let mut f = f.finish(secret, call.operation);
                if let Some(g) = grant {
                    f = grant::without_secrets(g, f);
                }
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
        secret: &mut Option<String>,
        deadline: Deadline,
        alarm: &Alarm<'_, P>,
        tries: &Cell<u32>,
    ) -> Result<Reply<P::Raw>, Failure> {
        let p = &self.platform;
        let policy = Policy::new(call.options.max_retries);
        let mut retries = 0;
        let mut uncertain = false;
        let mut refreshed: Option<Issued> = None;
        let mut n = 0;
        let start = |reason| self.start(reason, call.options.timeout_ms);
        let source = keeper::Source {
            start: &start,
            budget: match &self.credential {
                Credential::OAuth(g) => Some(g.max_refreshes),
                _ => None,
            },
        };
        loop {
            n += 1;
            // The generation of the token this attempt carries; `None`: no refresh after a 401.
            let mut generation = None;
            let mut domain = None;
            if let Some(issued) = refreshed.take() {
                *secret = Some(issued.token);
                domain = issued.domain;
            } else if let Credential::Function | Credential::OAuth(_) = self.credential {
                let (made, issued) = match &self.gate {
                    Gate::Fleet(f) => {
                        self.keeper.check()?;
                        let got = Box::pin(f.token(p, &source, call.signal, deadline)).await;
                        (0, self.learn(got)?)
                    }
                    _ => {
                        let kept = Box::pin(self.keeper.token(p, &source, call.signal, deadline));
                        let kept = kept.await?;
                        (kept.generation, kept.issued)
                    }
                };
                generation = Some(made);
                *secret = Some(issued.token);
                domain = issued.domain;
            }
            let url = self.url_for(call.url, domain.as_deref());
            let routed = Call { url: &url, ..*call };
            let call = &routed;
            let authorization = match (&self.credential, secret.as_deref()) {
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
                secret.as_deref(),
                deadline,
                alarm,
            ));
            let got = got.await?;
            tries.set(n);
            let answer = match got {
                Ok(answer) => answer,
                Err(f) => {
                    if call.signal.is_some_and(|s| p.aborted(s).is_some()) {
                        return Err(f);
                    }
                    let outcome = match f.error.kind() {
                        ErrorKind::Timeout => Outcome::Timeout,
                        ErrorKind::Network => Outcome::Network,
                        _ => return Err(f),
                    };
                    let next = policy.next_delay(call.method, retries, outcome, p.random());
                    let Some(ms) = next.filter(|ms| deadline.holds(p.now_ms(), *ms)) else {
                        return Err(f);
                    };
                    let again = Again::NoAnswer(f.error.kind());
                    let retrying = Event::Retrying {
                        ms,
                        again,
                        headers: None,
                    };
                    p.note(&call.note(n, secret.as_deref(), retrying));
                    pause(p, call.signal, ms).await?;
                    retries += 1;
                    uncertain = true;
                    continue;
                }
            };
            let status = answer.status;
            if let (401, Some(generation)) = (status, generation) {
                discard(p, answer.raw);
                let refreshing = Event::Refreshing {
                    headers: &answer.headers,
                };
                p.note(&call.note(n, secret.as_deref(), refreshing));
                refreshed = Some(match &self.gate {
                    Gate::Fleet(f) => {
                        if let Some(token) = secret.as_deref() {
                            Box::pin(f.invalidate(p, token)).await;
                        }
                        let got = Box::pin(f.token(p, &source, call.signal, deadline)).await;
                        self.learn(got)?
                    }
                    _ => {
                        let kept =
                            self.keeper
                                .rejected(p, &source, call.signal, deadline, generation);
                        Box::pin(kept).await?.issued
                    }
                });
                continue;
            }
            if status == 429 || status >= 500 {
                let after = retry_after_ms(answer.header("retry-after"), p.now_ms());
                let outcome = Outcome::Status(status, after);
                let next = policy.next_delay(call.method, retries, outcome, p.random());
                if let Some(ms) = next.filter(|ms| deadline.holds(p.now_ms(), *ms)) {
                    discard(p, answer.raw);
                    let told = after.is_some();
                    let again = Again::Status { status, told };
                    let headers = Some(&answer.headers);
                    let retrying = Event::Retrying { ms, again, headers };
                    p.note(&call.note(n, secret.as_deref(), retrying));
                    pause(p, call.signal, ms).await?;
                    retries += 1;
                    uncertain |= status >= 500;
                    continue;
                }
            }
            let (answer, got) = answer.with(());
            let bytes = match got {
                Got::Raw(raw) => return Ok(Reply::Raw(answer.with(raw).0)),
                Got::Bytes(bytes) => bytes,
            };
            let now = p.now_ms();
            let shape = call.shape;
            let decoded = decode(shape, call.method, &answer, &bytes, uncertain, now);
            let decoded = decoded.map_err(|e| response::advise(e, &answer.url, call.operation))?;
            return match decoded {
                Decoded::Json(text) => Ok(Reply::Json { text, head: answer }),
                Decoded::Binary => Ok(Reply::Binary {
                    bytes,
                    head: answer,
                }),
            };
        }
    }
}

impl<P: Platform> Transport<P> {
    /// A refresh of the client's token for `reason`: a call of the token function, or the grant.
    fn start(&self, reason: Reason, timeout_ms: u32) -> token::Running {
        match &self.credential {
            Credential::OAuth(g) => grant::start(&self.platform, g, timeout_ms),
            _ => Box::pin(self.platform.token(reason)),
        }
    }

    /// A fleet's refresh failed: a credential the accounts server refused stops this client's.
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
        };
        Ok(match &self.gate {
            Gate::Off => attempt(call).await,
            Gate::Local(q) => {
                let slot = queue::admit(q, p, call.signal, deadline, queued).await?;
                let got = attempt(call).await;
                drop(slot);
                local(q, &got);
                got
            }
            Gate::Fleet(f) if f.state(p.now_ms()).queued >= self.max_queued => {
                return Err(queue::queue_full(
                    self.max_queued,
                    f.state(p.now_ms()).limits(),
                ));
            }
            Gate::Fleet(f) => match Box::pin(f.admit(p, call.signal, deadline, queued)).await? {
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
                    got
                }
            },
        })
    }
}

/// What an attempt's answer said of the limits: its x-rate-limit-* headers (limit, remaining,
/// reset in seconds) and, for a 429, the wait its Retry-After asks for (1 s without one).
fn seen<R>(got: &Result<Answer<R>, Failure>, now: i64) -> Seen {
    let Ok(answer) = got else {
        return Seen::default();
    };
    let num = |name: &str| answer.header(name)?.trim().parse::<u64>().ok();
    let count = |name: &str| num(name).and_then(|n| u32::try_from(n).ok());
    let back_off_ms = (answer.status == 429)
        .then(|| retry_after_ms(answer.header("retry-after"), now).map_or(1_000, saturate));
    Seen {
        limit: count("x-rate-limit-limit"),
        remaining: count("x-rate-limit-remaining"),
        reset_secs: num("x-rate-limit-reset"),
        back_off_ms,
    }
}

/// An attempt's body: read (a decoded call), or as it came (a raw call).
enum Got<R> {
    Bytes(Vec<u8>),
    Raw(R),
}

fn discard<P: Platform>(p: &P, got: Got<P::Raw>) {
    if let Got::Raw(raw) = got {
        p.discard(raw);
    }
}

/// One attempt raced against the call's abort and its timeout; the body is read within both.
async fn attempt<P: Platform>(
    p: &P,
    call: &Call<'_, P>,
    n: u32,
    authorization: Option<&str>,
    secret: Option<&str>,
    alarm: &Alarm<'_, P>,
) -> Result<Answer<Got<P::Raw>>, Failure> {
    if let Some((kind, message)) = call.signal.and_then(|s| p.aborted(s)) {
        return Err(Error::new(kind, message).into());
    }
    let Options {
        timeout_ms,
        max_response_bytes,
        raw,
        ..
    } = call.options;
    let req = Outgoing {
        method: call.method,
        url: call.url,
        headers: call.headers,
        authorization,
        body: call.body,
        secret,
        raw,
        timeout_ms,
    };
    let authorized = authorization.is_some();
    let sending = Event::Sending {
        headers: call.headers,
        authorized,
    };
    p.note(&call.note(n, secret, sending));
    let sent = p.now_ms();
    let since = || u64::try_from(p.now_ms() - sent).unwrap_or(0);
    let exchange = async {
        let (answer, body) = p.fetch(req).await?.with(());
        let ms = since();
        let status = answer.status;
        let headers = &answer.headers;
        p.note(&call.note(
            n,
            secret,
            Event::Answered {
                status,
                ms,
                headers,
            },
        ));
        let got = if raw {
            Got::Raw(body)
        } else {
            Got::Bytes(p.read(body, max_response_bytes).await?)
        };
        Ok::<_, Failure>(answer.with(got).0)
    };
    let timeout = async {
        match timeout_ms {
            0 => pending().await,
            ms => alarm.until(sent.saturating_add(ms.into())).await,
        }
    };
    let out = match race(abort(p, call.signal), race(exchange, timeout)).await {
        First::A(()) => Err(aborted(p, call.signal)),
        First::B(First::A(Err(f))) if f.error.kind() == ErrorKind::Network => {
            match call.signal.and_then(|s| p.aborted(s)) {
                Some((kind, message)) => Err(Error::new(kind, message).into()),
                None => Err(f),
            }
        }
        First::B(First::A(done)) => done,
        First::B(First::B(())) => Err(Error::new(
            ErrorKind::Timeout,
            format!("no answer within {timeout_ms} ms"),
        )
        .into()),
    };
    if let Err(f) = &out {
        if matches!(
            f.error.kind(),
            ErrorKind::Network | ErrorKind::Timeout | ErrorKind::Aborted
        ) {
            let error = &f.error;
            p.note(&call.note(n, secret, Event::NoAnswer { error, ms: since() }));
        }
    }
    out
}

/// Resolves when the call's signal fires; never without one.
async fn abort<P: Platform>(p: &P, signal: Option<&P::Signal>) {
    match signal {
        Some(s) => p.on_abort(s).await,
        None => pending().await,
    }
}

/// The `aborted` (or `timeout`) error of a call whose signal fired.
fn aborted<P: Platform>(p: &P, signal: Option<&P::Signal>) -> Failure {
    let (kind, message) = signal
        .and_then(|s| p.aborted(s))
        .unwrap_or((ErrorKind::Aborted, ABORTED.to_string()));
    Error::new(kind, message).into()
}

/// Waits `ms` before a retry, or fails with `aborted` when the signal fires first.
async fn pause<P: Platform>(p: &P, signal: Option<&P::Signal>, ms: u64) -> Result<(), Failure> {
    match race(abort(p, signal), p.sleep(ms)).await {
        First::A(()) => Err(aborted(p, signal)),
        First::B(()) => Ok(()),
    }
}

/// A wait in ms as a time offset: `i64::MAX` for any longer.
fn saturate(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

/// The wait a Retry-After asks for, a day at most (`limit::MOST_BACK_OFF_MS`).
fn retry_after_ms(value: Option<&str>, now: i64) -> Option<u64> {
    let most = crate::limit::MOST_BACK_OFF_MS as u64;
    value.and_then(|v| retry::parse_retry_after(v, now).map(|ms| ms.min(most)))
}

/// The final answer decoded (`Client::decode`): its result, the delete an earlier attempt did,
/// or its error with the wait a 429 or 5xx asks for.
fn decode(
    shape: Shape,
    method: Method,
    answer: &Answer<()>,
    body: &[u8],
    uncertain: bool,
    now: i64,
) -> Result<Decoded, Error> {
    let status = answer.status;
    if retry::delete_already_done(method, status, uncertain) {
        return Ok(Decoded::Json(
            r#"{"code":0,"message":"already deleted: an earlier attempt went through"}"#.into(),
        ));
    }
    let content_type = answer.header("content-type");
    response::decode_shape(shape, status, content_type, body).map_err(|mut e| {
        if status == 429 || status >= 500 {
            e = e.with_retry_after(retry_after_ms(answer.header("retry-after"), now));
        }
        if e.status().is_some() {
            e = e.with_headers(&answer.headers);
        }
        e
    })
}
