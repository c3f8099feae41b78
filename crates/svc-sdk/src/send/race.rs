//! Two futures raced: the first to be ready wins and the other is dropped (which cancels it).

use std::future::{poll_fn, Future};
use std::pin::pin;
use std::task::Poll;

/// Which future of a race was ready first, with its output.
pub enum First<A, B> {
    A(A),
    B(B),
}

/// Polls `a`, then `b`, each time the task wakes; resolves with the first that is ready. When both
/// are ready on the same poll, `a` wins: put the one that must take precedence first.
pub async fn race<A: Future, B: Future>(a: A, b: B) -> First<A::Output, B::Output> {
    let mut a = pin!(a);
    let mut b = pin!(b);
    poll_fn(|cx| {
        if let Poll::Ready(v) = a.as_mut().poll(cx) {
            return Poll::Ready(First::A(v));
        }
        if let Poll::Ready(v) = b.as_mut().poll(cx) {
            return Poll::Ready(First::B(v));
        }
        Poll::Pending
    })
    .await
}
