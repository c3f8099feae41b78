//! What the send loop needs of its host, implemented once per platform (JS; the tests).

use super::{Answer, Failure, Note, Outgoing, Reason, TokenResult};
use std::future::Future;
use svc_core::error::ErrorKind;

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
