//! The send loop: a call's token, its slot of the limiter, its attempts, the one wait between them,
//! and its reply decoded.

use super::alarm::Alarm;
use super::attempt::{attempt, decode, discard, pause, retry_after_ms, seen, Got};
#[cfg(feature = "server")]
use super::member;
use super::race::{race, First};
use super::transport::Gate;
use super::{keeper, queue, Again, Answer, Boxed, Call, Credential, Deadline};
use super::{Event, Failure, Platform, Reason, Reply, Transport};
use crate::access::AccessToken;
use crate::retry::{Outcome, Policy};
use crate::secret::Secret;
use std::cell::Cell;
use std::future::pending;
use svc_core::error::ErrorKind;
use svc_core::request;
use svc_core::response::{self, Decoded};

impl<P: Platform> Transport<P> {
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
            let ms = wait.said(call, n, secret, &self.platform, &mut so_far);
            pause(&self.platform, call.signal, ms).await?;
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
    headers: Option<svc_core::headers::Headers>,
    uncertain: bool,
}

impl Wait {
    /// Tells the call's hooks and logger that it is tried again and why, counts the retry, and gives
    /// the wait.
    fn said<P: Platform>(
        self,
        call: &Call<'_, P>,
        n: u32,
        secret: Option<&str>,
        p: &P,
        so_far: &mut SoFar,
    ) -> u64 {
        let retrying = Event::Retrying {
            ms: self.ms,
            again: self.again,
            headers: self.headers.as_ref(),
        };
        p.note(&call.note(n, secret, retrying));
        so_far.retries += 1;
        so_far.uncertain |= self.uncertain;
        self.ms
    }
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
                    member::Held::Local(slot, q) => {
                        let got = attempt(call).await;
                        drop(slot);
                        local(q, &got);
                        got
                    }
                    member::Held::Lease(lease) => {
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
