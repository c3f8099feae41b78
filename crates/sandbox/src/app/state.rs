//! The sandbox's state (configuration, tokens, records, limits, counters, faults) and a call's.

use crate::accounts::Accounts;
use crate::call::Handler;
use crate::config::Config;
use crate::counters::Counters;
use crate::crm::Delivery;
use crate::error::ApiError;
use crate::faults::Faults;
use crate::http::Response;
use crate::limits::{self, Limiter};
use crate::store::Store;
use crate::{billing, books, crm, inventory, invoice, seed};
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use svc_core::catalog::Operation;
use svc_core::route::Router;

/// What the handling needs from its host: the clock and callbacks' delivery.
pub trait Platform {
    fn now_ms(&self) -> i64;
    /// Posts a CRM callback; the status it got, or why not.
    fn deliver(&self, delivery: &Delivery) -> Result<u16, String>;
}

/// The answer to a request (`None`: close without one) and what it was, for the log.
pub struct Answer {
    pub response: Option<Response>,
    pub what: &'static str,
}

/// How far `App::begin` took a request: its answer, or a slow fault's wait, which the host spends
/// (the server sleeps its connection's thread; wasm waits on the runtime's timers) before `App::resume`.
pub enum Step {
    Done(Answer),
    Wait(u64, Box<Held>),
}

/// A call that a slow fault holds: admitted and counted in flight, its fault drawn, nothing applied.
pub struct Held {
    pub(super) call: Admitted,
    pub(super) t: Trace,
}

/// A call past its token, organization, limits, scope and fault draw: what the rest of it needs.
pub(super) struct Admitted {
    pub(super) op: &'static Operation,
    pub(super) path: Vec<(String, String)>,
    pub(super) query: Vec<(String, String)>,
    pub(super) org: String,
    /// The limiter's key, whose time in flight ends with the call.
    pub(super) key: String,
    /// The drawn fault's answer, given after the wait.
    pub(super) fault: Result<(), ApiError>,
    /// The organizations the call's token reaches.
    pub(super) reach: crate::accounts::Reach,
}

/// The limiter's key for calls that name no organization (CRM).
pub(super) const NO_ORG: &str = "-";

/// Every routed operation: the catalog's rows.
pub fn operations() -> impl Iterator<Item = &'static Operation> {
    svc_core::catalog::operations().iter()
}

/// The hand-written handlers by operation id; every other row is served by `generic::serve`.
pub fn handlers() -> HashMap<&'static str, Handler> {
    written().into_iter().collect()
}

fn written() -> Vec<(&'static str, Handler)> {
    [
        books::HANDLERS,
        inventory::HANDLERS,
        invoice::HANDLERS,
        billing::HANDLERS,
        crm::HANDLERS,
    ]
    .concat()
}

pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Tokens the sandbox mints (every scope) and tokens it no longer accepts, for tests of refreshes.
#[derive(Default)]
pub(super) struct Tokens {
    pub(super) minted: Vec<String>,
    pub(super) revoked: Vec<String>,
}

/// A sandbox's whole state: configuration, tokens, records, limits, counters and faults.
pub struct App {
    pub config: Config,
    pub(super) tokens: Mutex<Tokens>,
    pub(super) accounts: Mutex<Accounts>,
    pub(super) router: Router,
    pub(super) handlers: HashMap<&'static str, Handler>,
    pub(super) store: Mutex<Store>,
    pub(super) limiter: Mutex<Limiter>,
    pub(super) counters: Mutex<Counters>,
    pub(super) faults: Mutex<Faults>,
    pub(super) base: String,
}

impl App {
    /// Seeds the organization of `config` at `now`; `base` is the origin URLs in answers name, and
    /// `extra` rows the catalog does not have (yet) are served by the generic store.
    pub fn new(
        config: Config,
        base: String,
        extra: &'static [Operation],
        now: i64,
        seed: u64,
    ) -> Result<App, String> {
        let router = Router::new(operations().chain(extra))?;
        let mut store = Store::default();
        seed::organization(&mut store, &config.org_id, config.plan.name(), &base, now)
            .map_err(|e| e.message)?;
        let app = App {
            limiter: Mutex::new(Limiter::new(config.policy())),
            faults: Mutex::new(Faults::new(config.faults, config.seed.unwrap_or(seed))),
            counters: Mutex::default(),
            tokens: Mutex::default(),
            accounts: Mutex::new(Accounts::new(
                config.accounts.clone(),
                config.seed.unwrap_or(seed),
            )),
            store: Mutex::new(store),
            handlers: handlers(),
            router,
            base,
            config,
        };
        app.seed_users(now);
        Ok(app)
    }

    /// `http://127.0.0.1:PORT`, or the wasm build's origin.
    pub fn url(&self) -> &str {
        &self.base
    }

    /// A copy of the records, for a restore.
    pub fn store(&self) -> Store {
        lock(&self.store).clone()
    }

    pub fn restore(&self, store: Store) {
        *lock(&self.store) = store;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generic;
    use crate::resource::NAMED;
    use std::collections::HashSet;

    #[test]
    fn every_operation_is_served_by_its_handler_or_the_generic_store() {
        let written = written();
        let ids: HashSet<&str> = written.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids.len(), written.len(), "no handler is declared twice");
        let ops: HashSet<&str> = operations().map(|op| op.id).collect();
        assert_eq!(ops.len(), svc_core::catalog::operations().len());
        assert!(ids.is_subset(&ops), "every handler serves a routed row");
        let unserved: Vec<&str> = operations()
            .filter(|op| !ids.contains(op.id) && !generic::serves(op))
            .map(|op| op.id)
            .collect();
        assert_eq!(unserved, Vec::<&str>::new());
    }

    #[test]
    fn generic_creates_name_ids_as_the_handlers_of_their_collection_do() {
        let written = handlers();
        for op in operations().filter(|op| !written.contains_key(op.id)) {
            let Some(coll) = generic::creates(op) else {
                continue;
            };
            for named in NAMED.iter().filter(|r| r.table == coll.table) {
                assert_eq!(coll.id, named.id, "{}", op.id);
            }
        }
    }
}

/// What happened to a call on its way through the pipeline, from its arrival at `now`.
#[derive(Default)]
pub(super) struct Trace {
    pub(super) now: i64,
    pub(super) key: Option<String>,
    /// The day's headers as the limiter stated them on admitting (or refusing) the call.
    pub(super) rate: Option<limits::Status>,
    pub(super) retry_after: Option<u64>,
    pub(super) applied: bool,
    pub(super) drop: bool,
}
