//! The executor of the calls' futures: every poll runs inside `__settle` (its `RUN` wait), an
//! export that JS calls guarded, so a trap in any poll restarts the core and every pending call
//! still settles.

use super::js;
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use wasm_bindgen::prelude::*;

type Boxed = Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>;

/// The wait that is a run of the woken tasks (`run`) on the microtask queue: `__settle` with it runs them.
pub const RUN: u32 = u32::MAX;

/// A spawned future and the functions that settle its promise.
struct Task {
    future: Boxed,
    resolve: js_sys::Function,
    reject: js_sys::Function,
}

#[derive(Default)]
struct Tasks {
    next: u32,
    live: HashMap<u32, Task>,
    ready: VecDeque<u32>,
    /// A run is queued on the microtask queue.
    scheduled: bool,
}

thread_local! {
    static TASKS: RefCell<Tasks> = RefCell::default();
}

/// Wakes task `id`: puts it in line and has a run queued.
struct Wakes(u32);

impl Wake for Wakes {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        ready(self.0);
    }
}

fn ready(id: u32) {
    let first = TASKS.with(|t| {
        let mut t = t.borrow_mut();
        t.ready.push_back(id);
        !std::mem::replace(&mut t.scheduled, true)
    });
    if first {
        let now = js_sys::Promise::resolve(&JsValue::UNDEFINED);
        js::watch(&now, RUN);
    }
}

/// Runs `future` to its end; the promise of its result.
pub fn spawn(future: impl Future<Output = Result<JsValue, JsValue>> + 'static) -> js_sys::Promise {
    let mut settles = None;
    let promise = js_sys::Promise::new(&mut |yes, no| settles = Some((yes, no)));
    let Some((resolve, reject)) = settles else {
        return promise;
    };
    let id = TASKS.with(|t| {
        let mut t = t.borrow_mut();
        t.next = t.next.wrapping_add(1);
        let id = t.next;
        let task = Task {
            future: Box::pin(future),
            resolve,
            reject,
        };
        t.live.insert(id, task);
        id
    });
    ready(id);
    promise
}

/// Polls every task that was woken, until none is.
pub fn run() {
    TASKS.with(|t| t.borrow_mut().scheduled = false);
    loop {
        let next = TASKS.with(|t| {
            let mut t = t.borrow_mut();
            let id = t.ready.pop_front()?;
            Some((id, t.live.remove(&id)))
        });
        let Some((id, task)) = next else { return };
        let Some(mut task) = task else { continue };
        let waker = Waker::from(Arc::new(Wakes(id)));
        match task.future.as_mut().poll(&mut Context::from_waker(&waker)) {
            Poll::Pending => TASKS.with(|t| {
                t.borrow_mut().live.insert(id, task);
            }),
            Poll::Ready(Ok(v)) => {
                let _ = task.resolve.call1(&JsValue::UNDEFINED, &v);
            }
            Poll::Ready(Err(e)) => {
                let _ = task.reject.call1(&JsValue::UNDEFINED, &e);
            }
        }
    }
}
