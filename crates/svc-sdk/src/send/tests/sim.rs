//! A scripted platform for the tests: answers per attempt, a virtual clock, recorded requests, and an executor.

use crate::send::{Answer, Failure, Level, Note, Outgoing, Platform, Reason, TokenResult, ABORTED};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::{pending, poll_fn, Future};
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use svc_core::error::ErrorKind;
use svc_core::headers::Headers;

/// What the scripted service does with one attempt.
pub enum Step {
    /// Answers after `after` ms of virtual time.
    Answer {
        after: u64,
        status: u16,
        headers: Vec<(&'static str, String)>,
        body: Vec<u8>,
    },
    /// The connection fails after `after` ms.
    Fail {
        after: u64,
        what: String,
        code: Option<String>,
    },
    /// Never answers.
    Hang,
}

impl Step {
    pub fn after(mut self, ms: u64) -> Step {
        match &mut self {
            Step::Answer { after, .. } | Step::Fail { after, .. } => *after = ms,
            Step::Hang => {}
        }
        self
    }

    pub fn header(mut self, name: &'static str, value: &str) -> Step {
        if let Step::Answer { headers, .. } = &mut self {
            headers.push((name, value.to_string()));
        }
        self
    }
}

/// An answer with a JSON body.
pub fn json(status: u16, body: &str) -> Step {
    Step::Answer {
        after: 0,
        status,
        headers: vec![("content-type", "application/json".into())],
        body: body.as_bytes().to_vec(),
    }
}

pub fn ok() -> Step {
    json(200, r#"{"code":0,"message":"success"}"#)
}

pub fn fail(what: &str, code: Option<&str>) -> Step {
    Step::Fail {
        after: 0,
        what: what.into(),
        code: code.map(String::from),
    }
}

/// A request as the scripted service saw it.
#[derive(Clone, Debug)]
pub struct Seen {
    pub at: i64,
    pub method: &'static str,
    pub url: String,
    pub authorization: Option<String>,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// A scripted call of the token function: its result after `after` ms.
pub struct TokenStep {
    pub after: u64,
    pub result: TokenResult,
}

pub fn token(t: &str) -> TokenStep {
    TokenStep {
        after: 0,
        result: Ok(Some(t.into())),
    }
}

/// A service that keeps its own count: the answer to an attempt arriving at a time (ms).
pub type Service = Box<dyn FnMut(i64) -> Step>;

/// The accounts server of a world: the answer to a grant arriving at a time, for its form.
pub type Accounts = Box<dyn FnMut(i64, &str) -> Step>;

/// The store's round trip, in virtual ms.
pub const STORE_MS: u64 = 1;

/// The whole scripted world: virtual time, timers, the service and what it saw.
#[derive(Default)]
pub struct World {
    now: Cell<i64>,
    next_timer: Cell<u64>,
    timers: RefCell<Vec<(i64, u64, Waker)>>,
    pub script: RefCell<VecDeque<Step>>,
    /// While set, the service answers each attempt with what this gives at its arrival (ms),
    /// instead of the script: a service that keeps its own count.
    pub service: RefCell<Option<Service>>,
    /// While set, the accounts server: answers each grant (a request to `oauth::TOKEN_PATH`) with
    /// what this gives for its arrival (ms) and form body, apart from the script and `service`.
    pub accounts: RefCell<Option<Accounts>>,
    pub seen: RefCell<Vec<Seen>>,
    /// Every sleep asked for (timeouts, retry waits, limiter waits), in ms.
    pub sleeps: RefCell<Vec<u64>>,
    pub tokens: RefCell<VecDeque<TokenStep>>,
    pub token_calls: Cell<u32>,
    /// Why each call of the token function was made.
    pub reasons: RefCell<Vec<Reason>>,
    /// Fetches dropped before they answered (timeout, abort).
    pub cancelled: Cell<u32>,
    pub discarded: Cell<u32>,
    pub jitter: Cell<f64>,
    /// The fleet store's state as text, shared by every transport of the world.
    pub store: RefCell<Option<String>>,
    /// The store's other states, by key (a credential's token).
    pub keyed: RefCell<std::collections::HashMap<String, String>>,
    /// While set, the store cannot be reached.
    pub store_down: Cell<bool>,
    /// While set, the store never answers a step (a connection that never opens, a user's
    /// `step` whose promise never settles).
    pub store_hangs: Cell<bool>,
    /// While set, the store answers every step with this reply instead of running it (a store
    /// of the user's that runs steps its own way).
    pub store_reply: RefCell<Option<String>>,
    /// Steps the store ran.
    pub store_steps: Cell<u32>,
    /// What the loop told of its calls: each note's log line at debug, or its hook's name.
    pub notes: RefCell<Vec<String>>,
}

impl World {
    pub fn new(script: Vec<Step>) -> Rc<World> {
        let w = World::default();
        w.now.set(1_000_000);
        *w.script.borrow_mut() = script.into();
        Rc::new(w)
    }

    pub fn now(&self) -> i64 {
        self.now.get()
    }

    pub fn with_tokens(self: &Rc<Self>, steps: Vec<TokenStep>) -> Rc<World> {
        *self.tokens.borrow_mut() = steps.into();
        self.clone()
    }
}

/// A virtual-time sleep; dropped, it clears its timer.
pub struct Sleep {
    world: Rc<World>,
    at: i64,
    id: u64,
}

pub fn sleep(world: &Rc<World>, ms: u64) -> Sleep {
    let id = world.next_timer.get();
    world.next_timer.set(id + 1);
    Sleep {
        world: world.clone(),
        at: world.now() + ms as i64,
        id,
    }
}

impl Future for Sleep {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.world.now() >= self.at {
            return Poll::Ready(());
        }
        let mut timers = self.world.timers.borrow_mut();
        timers.retain(|t| t.1 != self.id);
        timers.push((self.at, self.id, cx.waker().clone()));
        Poll::Pending
    }
}

impl Drop for Sleep {
    fn drop(&mut self) {
        self.world.timers.borrow_mut().retain(|t| t.1 != self.id);
    }
}

/// An abort signal: `abort` fires it.
#[derive(Default)]
pub struct Signal {
    fired: RefCell<Option<Option<String>>>,
    wakers: RefCell<Vec<Waker>>,
}

impl Signal {
    pub fn abort(&self, reason: Option<&str>) {
        *self.fired.borrow_mut() = Some(reason.map(String::from));
        for w in self.wakers.borrow_mut().drain(..) {
            w.wake();
        }
    }
}

/// The raw body of a scripted answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Raw {
    pub body: Vec<u8>,
}

/// Counts a fetch dropped before it was done.
struct Inflight<'a>(&'a World, bool);

impl Drop for Inflight<'_> {
    fn drop(&mut self) {
        if !self.1 {
            self.0.cancelled.set(self.0.cancelled.get() + 1);
        }
    }
}

#[derive(Clone)]
pub struct Sim(pub Rc<World>);

impl Platform for Sim {
    type Body = String;
    type Raw = Raw;
    type Signal = Signal;

    fn fetch(
        &self,
        req: Outgoing<'_, String>,
    ) -> impl Future<Output = Result<Answer<Raw>, Failure>> {
        let w = &self.0;
        w.seen.borrow_mut().push(Seen {
            at: w.now(),
            method: req.method.as_str(),
            url: req.url.to_string(),
            authorization: req.authorization.map(String::from),
            headers: req.headers.to_vec(),
            body: req.body.clone(),
        });
        let grant = req.url.ends_with(crate::oauth::TOKEN_PATH);
        let step = match (&mut *w.accounts.borrow_mut(), &mut *w.service.borrow_mut()) {
            (Some(accounts), _) if grant => Some(accounts(w.now(), req.body)),
            (_, Some(service)) => Some(service(w.now())),
            _ => w.script.borrow_mut().pop_front(),
        };
        let url = req.url.to_string();
        let host = req
            .url
            .split('/')
            .nth(2)
            .unwrap_or("the service")
            .to_string();
        async move {
            let mut guard = Inflight(w, false);
            let step = step.expect("a scripted step for every attempt");
            let out = match step {
                Step::Hang => pending().await,
                Step::Fail { after, what, code } => {
                    sleep(w, after).await;
                    Err(Failure::network(&host, &what, code.as_deref(), None))
                }
                Step::Answer {
                    after,
                    status,
                    headers,
                    body,
                } => {
                    sleep(w, after).await;
                    let headers = headers
                        .into_iter()
                        .map(|(k, v)| (k.to_ascii_lowercase(), v))
                        .collect();
                    Ok(Answer {
                        status,
                        url,
                        headers: Headers(headers),
                        raw: Raw { body },
                    })
                }
            };
            guard.1 = true;
            out
        }
    }

    fn read(&self, raw: Raw, max: usize) -> impl Future<Output = Result<Vec<u8>, Failure>> {
        std::future::ready(if raw.body.len() > max {
            Err(crate::send::too_large(max).into())
        } else {
            Ok(raw.body)
        })
    }

    fn discard(&self, _raw: Raw) {
        self.0.discarded.set(self.0.discarded.get() + 1);
    }

    fn sleep(&self, ms: u64) -> impl Future<Output = ()> {
        self.0.sleeps.borrow_mut().push(ms);
        sleep(&self.0, ms)
    }

    fn now_ms(&self) -> i64 {
        self.0.now()
    }

    fn random(&self) -> f64 {
        self.0.jitter.get()
    }

    fn aborted(&self, signal: &Signal) -> Option<(ErrorKind, String)> {
        let fired = signal.fired.borrow();
        let reason = fired.as_ref()?;
        Some(match reason.as_deref() {
            Some(r) if r.starts_with("TimeoutError") => (ErrorKind::Timeout, r.to_string()),
            r => (ErrorKind::Aborted, r.unwrap_or(ABORTED).to_string()),
        })
    }

    fn on_abort(&self, signal: &Signal) -> impl Future<Output = ()> {
        poll_fn(move |cx| {
            if signal.fired.borrow().is_some() {
                return Poll::Ready(());
            }
            signal.wakers.borrow_mut().push(cx.waker().clone());
            Poll::Pending
        })
    }

    fn token(&self, reason: Reason) -> impl Future<Output = TokenResult> + 'static {
        let w = self.0.clone();
        w.token_calls.set(w.token_calls.get() + 1);
        w.reasons.borrow_mut().push(reason);
        let step = w.tokens.borrow_mut().pop_front();
        async move {
            let step = step.expect("a scripted token for every call of the token function");
            sleep(&w, step.after).await;
            step.result
        }
    }

    fn store_step(
        &self,
        key: Option<&str>,
        request: String,
    ) -> impl Future<Output = Result<String, String>> {
        let w = self.0.clone();
        let key = key.map(str::to_string);
        async move {
            sleep(&w, STORE_MS).await;
            if w.store_down.get() {
                return Err("connection refused".into());
            }
            if w.store_hangs.get() {
                return pending().await;
            }
            w.store_steps.set(w.store_steps.get() + 1);
            if let Some(reply) = w.store_reply.borrow().clone() {
                return Ok(reply);
            }
            let state = match &key {
                None => w.store.borrow().clone(),
                Some(k) => w.keyed.borrow().get(k).cloned(),
            };
            let applied = crate::fleet::apply(state.as_deref(), None, w.now(), &request)
                .map_err(|e| e.message)?;
            if let Some(text) = applied.state {
                match key {
                    None => *w.store.borrow_mut() = Some(text),
                    Some(k) => drop(w.keyed.borrow_mut().insert(k, text)),
                }
            }
            Ok(applied.reply)
        }
    }

    fn note(&self, note: &Note<'_>) {
        let text = match note.line(Some(Level::Debug)) {
            Some((_, line)) => line,
            None => format!("{} attempt {}", note.event.name(), note.attempt),
        };
        self.0.notes.borrow_mut().push(text);
    }
}

struct Flag(AtomicBool);

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// A task of `run`.
pub type Task<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// Runs `tasks` to their ends on virtual time: polls every woken task, and when none is, moves
/// the clock to the next timer. Panics when the tasks wait with no timer left (a lost wake).
pub fn run<'a, T>(world: &Rc<World>, tasks: Vec<Task<'a, T>>) -> Vec<T> {
    let mut tasks: Vec<(Task<'a, T>, Arc<Flag>)> = tasks
        .into_iter()
        .map(|t| (t, Arc::new(Flag(AtomicBool::new(true)))))
        .collect();
    let mut out: Vec<Option<T>> = tasks.iter().map(|_| None).collect();
    loop {
        let mut polled = false;
        for (i, (task, flag)) in tasks.iter_mut().enumerate() {
            if out[i].is_some() || !flag.0.swap(false, Ordering::SeqCst) {
                continue;
            }
            polled = true;
            let waker = Waker::from(flag.clone());
            if let Poll::Ready(v) = task.as_mut().poll(&mut Context::from_waker(&waker)) {
                out[i] = Some(v);
            }
        }
        if out.iter().all(Option::is_some) {
            return out.into_iter().map(Option::unwrap).collect();
        }
        if polled {
            continue;
        }
        let next = world.timers.borrow().iter().map(|t| t.0).min();
        let Some(next) = next else {
            panic!("every task waits and no timer is left: a wake was lost");
        };
        world.now.set(next);
        let due: Vec<Waker> = {
            let mut timers = world.timers.borrow_mut();
            let (due, keep) = timers.drain(..).partition(|t| t.0 <= next);
            *timers = keep;
            due.into_iter().map(|t: (i64, u64, Waker)| t.2).collect()
        };
        for w in due {
            w.wake();
        }
    }
}

/// Runs one future to its end on virtual time.
pub fn block_on<'a, T>(world: &Rc<World>, f: impl Future<Output = T> + 'a) -> T {
    run(world, vec![Box::pin(f)]).pop().unwrap()
}
