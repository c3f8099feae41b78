//! What the engine carries while it walks params: the issues, the path, the source and the time.

use crate::issue::{Issue, PathSeg, Problem};
use svc_json::Json;

/// Collects issues while the engine walks the params.
#[derive(Default)]
pub struct Ctx {
    pub(super) path: Vec<PathSeg>,
    pub issues: Vec<Issue>,
    /// Now, in milliseconds since the Unix epoch (rules such as "at most one week ahead").
    pub now_ms: i64,
    pub source: Source,
}

/// Where params were written: as JSON text, whose integers are exact at any size, or as JS values,
/// whose numbers beyond 2^53 may have lost digits before the SDK saw them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Source {
    #[default]
    Json,
    Js,
}

impl Ctx {
    pub fn at(now_ms: i64) -> Ctx {
        Ctx {
            now_ms,
            ..Ctx::default()
        }
    }

    pub fn push(&mut self, message: impl Into<String>, problem: Problem) {
        self.issues
            .push(Issue::new(self.path.clone(), message, problem));
    }

    /// Records an issue at a child of the current path.
    pub fn push_at(&mut self, key: &str, message: impl Into<String>, problem: Problem) {
        self.path.push(PathSeg::Key(key.to_string().into()));
        self.push(message, problem);
        self.path.pop();
    }

    pub fn enter<R>(&mut self, seg: PathSeg, f: impl FnOnce(&mut Ctx) -> R) -> R {
        self.path.push(seg);
        let r = f(self);
        self.path.pop();
        r
    }
}

pub use crate::unwritable::UNREPRESENTABLE;

pub(super) fn unrepresentable<'v>(v: &'v Json) -> Option<&'v str> {
    match v {
        Json::Obj(m) if m.len() == 1 => m
            .get(UNREPRESENTABLE)
            .and_then(Json::as_str)
            .map(crate::unwritable::words),
        _ => None,
    }
}
