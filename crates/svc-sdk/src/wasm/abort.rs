//! Abort signals as the core waits on them: one listener per signal however many waits share it
//! (a page's one controller for a thousand queued calls), removed when the last of them ends.

use super::js;
use super::settle::{self, Settled};
use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use svc_core::numbered::Numbered;
use wasm_bindgen::prelude::*;

/// A signal waited on: its listener (the resolve of the promise it settles) and the waits on it.
struct Watched {
    signal: JsValue,
    listener: Option<js_sys::Function>,
    /// The listener's promise, settled into the core once for all the waits.
    fired: Settled,
    done: bool,
    /// Each wait's waker, by the wait's number; a wait not yet polled has none.
    waits: HashMap<u32, Option<Waker>>,
    next: u32,
}

thread_local! {
    /// The signals waited on, each to the number of its `Watched`.
    static KEYS: js_sys::Map = js_sys::Map::new();
    static WATCHED: RefCell<Numbered<Watched>> = RefCell::default();
}

/// Wakes every wait on signal `0` when its listener's promise settles.
struct FanOut(u32);

impl Wake for FanOut {
    fn wake(self: Arc<Self>) {
        let wakers: Vec<Waker> = WATCHED.with(|w| {
            let mut w = w.borrow_mut();
            let Some(watched) = w.get_mut(self.0) else {
                return Vec::new();
            };
            watched
                .waits
                .values_mut()
                .filter_map(Option::take)
                .collect()
        });
        for waker in wakers {
            waker.wake();
        }
    }
}

/// A wait for a signal to fire; dropped, it lets go of its share of the listener.
pub struct Abort {
    signal: u32,
    wait: u32,
}

/// Resolves when `signal` fires (at once if it has, or if it cannot be listened to).
pub fn on_abort(signal: &JsValue) -> Abort {
    let known = KEYS.with(|k| k.get(signal).as_f64()).map(|n| n as u32);
    let watched = known.filter(|id| WATCHED.with(|w| w.borrow().get(*id).is_some()));
    let id = watched.unwrap_or_else(|| {
        let (promise, listener) = js::on_abort(signal);
        let fired = settle::promise(&promise);
        let watched = Watched {
            signal: signal.clone(),
            listener,
            fired,
            done: false,
            waits: HashMap::new(),
            next: 0,
        };
        let id = WATCHED.with(|w| w.borrow_mut().insert(watched));
        KEYS.with(|k| k.set(signal, &JsValue::from(id)));
        id
    });
    let wait = WATCHED.with(|w| {
        let mut w = w.borrow_mut();
        let watched = w.get_mut(id)?;
        watched.next = watched.next.wrapping_add(1).max(1);
        watched.waits.insert(watched.next, None);
        Some(watched.next)
    });
    Abort {
        signal: id,
        wait: wait.unwrap_or(0),
    }
}

impl Future for Abort {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        WATCHED.with(|w| {
            let mut w = w.borrow_mut();
            let Some(watched) = w.get_mut(self.signal) else {
                return Poll::Ready(());
            };
            if !watched.done {
                let fan_out = Waker::from(Arc::new(FanOut(self.signal)));
                let fired = Pin::new(&mut watched.fired).poll(&mut Context::from_waker(&fan_out));
                watched.done = fired.is_ready();
            }
            if watched.done {
                return Poll::Ready(());
            }
            if let Some(slot) = watched.waits.get_mut(&self.wait) {
                *slot = Some(cx.waker().clone());
            }
            Poll::Pending
        })
    }
}

impl Drop for Abort {
    fn drop(&mut self) {
        let ended = WATCHED.with(|w| {
            let mut w = w.borrow_mut();
            let watched = w.get_mut(self.signal)?;
            watched.waits.remove(&self.wait);
            match watched.waits.is_empty() {
                true => w.remove(self.signal),
                false => None,
            }
        });
        if let Some(watched) = ended {
            KEYS.with(|k| k.delete(&watched.signal));
            if let Some(listener) = watched.listener {
                let args = ["abort".into(), listener.into()];
                let _ = js::call_method(&watched.signal, "removeEventListener", &args);
            }
        }
    }
}
