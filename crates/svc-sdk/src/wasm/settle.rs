//! JS promises and timers as futures, settled through one exported callback (`__settle`) instead
//! of two wasm-bindgen closures per promise: a call awaits several, and closures cost more than the wait.

use super::js;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use svc_core::numbered::Numbered;
use wasm_bindgen::prelude::*;

#[derive(Default)]
struct Slot {
    waker: Option<Waker>,
    result: Option<Result<JsValue, JsValue>>,
}

thread_local! {
    /// The waits in progress, by a number not given twice (a promise may settle after its wait was
    /// dropped; its result then finds no slot). It is never 0 (`js::ignore` watches a promise with
    /// it) nor `tasks::RUN`.
    static WAITS: RefCell<Numbered<Slot>> = RefCell::default();
}

fn open() -> u32 {
    WAITS.with(|w| w.borrow_mut().insert(Slot::default()))
}

/// Settles wait `id` (or runs the woken tasks, for `tasks::RUN`): called by `runtime.js` when its promise settles.
#[wasm_bindgen(js_name = __settle, skip_typescript)]
pub fn settle(id: u32, ok: bool, value: JsValue) {
    if id == super::tasks::RUN {
        return super::tasks::run();
    }
    let waker = WAITS.with(|w| {
        let mut w = w.borrow_mut();
        let slot = w.get_mut(id)?;
        slot.result = Some(if ok { Ok(value) } else { Err(value) });
        slot.waker.take()
    });
    if let Some(waker) = waker {
        waker.wake();
    }
}

/// A promise's result, or a timer's end.
pub struct Settled {
    id: u32,
    /// The timer to clear when the wait is dropped first.
    timer: Option<JsValue>,
}

impl Future for Settled {
    type Output = Result<JsValue, JsValue>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        WAITS.with(|w| {
            let mut w = w.borrow_mut();
            let Some(slot) = w.get_mut(self.id) else {
                return Poll::Ready(Err(JsValue::UNDEFINED));
            };
            match slot.result.take() {
                Some(result) => Poll::Ready(result),
                None => {
                    slot.waker = Some(cx.waker().clone());
                    Poll::Pending
                }
            }
        })
    }
}

impl Drop for Settled {
    fn drop(&mut self) {
        let settled = WAITS.with(|w| {
            let mut w = w.borrow_mut();
            w.remove(self.id).is_some_and(|s| s.result.is_some())
        });
        if let Some(timer) = &self.timer {
            js::TIMERS.with(|t| t.delete(timer));
            if !settled {
                js::clear_timeout(timer);
            }
        }
    }
}

/// The result of a promise.
pub fn promise(p: &js_sys::Promise) -> Settled {
    let id = open();
    js::watch(&js::settled_by(p), id);
    Settled { id, timer: None }
}

/// A wait of `ms` milliseconds; dropped before, it clears its timer.
pub fn timer(ms: f64) -> Settled {
    let mut handle = JsValue::UNDEFINED;
    let fired = js_sys::Promise::new(&mut |resolve, _| handle = js::set_timeout(&resolve, ms));
    js::TIMERS.with(|t| t.add(&handle));
    let mut wait = promise(&fired);
    wait.timer = Some(handle);
    wait
}
