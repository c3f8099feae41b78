//! A request's way in (the accounts server, the sandbox's endpoints, a catalog call) and its answer.

use super::admin::sandbox_endpoint;
use super::answer::{answered, preflight, rated};
use super::pipeline::{api, api_answer, complete};
use super::state::{Answer, App, Held, Platform, Step, NO_ORG};
use crate::error::code;
use crate::http::{Request, Response};
use svc_json::json;

impl App {
    /// The answer to a request, or the wait of a slow fault before `resume`.
    pub fn begin(&self, req: &Request, p: &dyn Platform) -> Step {
        let origin = req
            .header("origin")
            .and_then(|o| self.config.cors_origin(o));
        if req.method == "OPTIONS" && req.header("access-control-request-method").is_some() {
            let resp = rated(self, preflight(origin.as_deref(), req), NO_ORG, p.now_ms());
            return Step::Done(Answer {
                response: Some(resp),
                what: "preflight",
            });
        }
        let accounts = req
            .path
            .starts_with("/oauth/")
            .then(|| self.accounts_endpoint(req, p.now_ms()))
            .flatten();
        let (resp, what) = if let Some(resp) = accounts {
            (Some(resp), "accounts")
        } else if req.path == "/__sandbox" || req.path.starts_with("/__sandbox/") {
            let resp = rated(self, sandbox_endpoint(self, req, p), NO_ORG, p.now_ms());
            (Some(resp), "sandbox")
        } else {
            match api(self, req, p) {
                Ok(done) => done,
                Err(held) => return Step::Wait(self.config.slow_ms, held),
            }
        };
        Step::Done(answered(self, req, resp, what))
    }

    /// The answer to a request that `begin` held, once its wait is spent.
    pub fn resume(&self, req: &Request, held: Held) -> Answer {
        let Held { call, mut t } = held;
        let op = call.op;
        let result = complete(self, req, call, &mut t);
        let (resp, what) = api_answer(self, op, result, t);
        answered(self, req, resp, what)
    }

    /// The answer to a request that could not be read: `status` and why.
    pub fn unreadable(&self, status: u16, why: String, now: i64) -> Response {
        let c = if status == 413 {
            code::TOO_LARGE
        } else {
            code::BAD_REQUEST
        };
        rated(
            self,
            Response::json(status, &json!({ "code": c, "message": why })),
            NO_ORG,
            now,
        )
    }
}
