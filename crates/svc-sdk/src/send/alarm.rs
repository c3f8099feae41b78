//! One timer per call: the call's deadline and each attempt's timeout wait on one armed timer, set
//! for the earliest moment any of them waits for and armed again when it passes for the others.

use super::Platform;
use std::cell::RefCell;
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::task::{Context, Poll};

type Sleep<'p> = Pin<Box<dyn Future<Output = ()> + 'p>>;

/// The timer of one call: when it fires (ms since the epoch) and the platform's wait for it.
pub struct Alarm<'p, P> {
    p: &'p P,
    armed: RefCell<Option<(i64, Sleep<'p>)>>,
}

impl<'p, P: Platform> Alarm<'p, P> {
    pub fn new(p: &'p P) -> Self {
        Alarm {
            p,
            armed: RefCell::new(None),
        }
    }

    /// Resolves once the platform's clock reaches `at`.
    pub async fn until(&self, at: i64) {
        poll_fn(|cx| self.poll_until(at, cx)).await
    }

    fn poll_until(&self, at: i64, cx: &mut Context<'_>) -> Poll<()> {
        loop {
            let now = self.p.now_ms();
            if now >= at {
                return Poll::Ready(());
            }
            let mut armed = self.armed.borrow_mut();
            if !matches!(&*armed, Some((when, _)) if *when <= at) {
                let ms = u64::try_from(at - now).unwrap_or(0);
                *armed = Some((at, Box::pin(self.p.sleep(ms))));
            }
            let Some((_, sleep)) = armed.as_mut() else {
                return Poll::Pending;
            };
            match sleep.as_mut().poll(cx) {
                Poll::Ready(()) => *armed = None,
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}
