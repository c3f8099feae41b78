//! One step on the shared state as a store runs it: the request a holder sends as JSON text, the state loaded, the reply.

use super::{Acquire, Fleet, Stored, TokenClaim};
use crate::limit::{Lane, Limits, State, DEFAULT_PLAN};
use crate::secret::Secret;
use svc_core::error::Error;
use svc_json::{Json, Obj};

fn is_interactive(lane: &Lane) -> bool {
    *lane == Lane::default()
}
use serde::Serialize;

/// What a holder asks of the fleet's state.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Request {
    Acquire {
        holder: String,
        limits: Limits,
        lease_ms: i64,
        /// The call's lane (interactive, no reserve, when left out).
        #[serde(skip_serializing_if = "is_interactive")]
        lane: Lane,
    },
    Renew {
        lease: u64,
        lease_ms: i64,
    },
    /// The answer of the call holding `lease` came; what it said of the limits, if anything.
    Release {
        lease: u64,
        seen: Seen,
    },
    TokenClaim {
        holder: String,
        lease_ms: i64,
        /// The grant's most refreshes in a window; `None` for a token function.
        #[serde(skip_serializing_if = "Option::is_none")]
        budget: Option<u32>,
    },
    TokenStore {
        claim: u64,
        #[serde(flatten)]
        stored: Stored,
    },
    TokenAbandon {
        claim: u64,
        /// The accounts server said Access Denied.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        denied: bool,
    },
    TokenInvalidate {
        token: Secret,
    },
    /// The fleet's figures; changes nothing but the leases whose time is up.
    State,
}

/// What an answer told of the limits: its x-rate-limit-* headers and a 429's wait.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Seen {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remaining: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reset_secs: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub back_off_ms: Option<i64>,
}

/// What a step gave the holder.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Outcome {
    Acquire(Acquire),
    /// A renewed lease's new end; `None`: it had ended.
    Renewed(Option<i64>),
    /// Whether the lease was still held.
    Released(bool),
    Token(TokenClaim),
    /// Whether a stored token or an invalidation was taken.
    Taken(bool),
    Done,
}

impl Seen {
    fn from_obj(o: &Obj) -> Result<Seen, String> {
        Ok(Seen {
            limit: o.optional("limit")?,
            remaining: o.optional("remaining")?,
            reset_secs: o.optional("resetSecs")?,
            back_off_ms: o.optional("backOffMs")?,
        })
    }
}

/// The reply to a step: the store's clock, the fleet's figures after it, its outcome, and why the
/// state was replaced if the store held one that could not be read.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reply {
    pub now: i64,
    pub state: State,
    pub outcome: Outcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repaired: Option<String>,
}

/// A step run: the state's text to save if it changed, the version it was loaded at (what the
/// store compares), the reply's text, and when the first lease or claim ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Applied {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    pub expected: u64,
    pub version: u64,
    pub reply: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wake_at: Option<i64>,
}

impl Request {
    /// A step on a credential's token, which its own state holds (`fleet::Options::token_key`).
    pub fn is_token(&self) -> bool {
        matches!(
            self,
            Request::TokenClaim { .. }
                | Request::TokenStore { .. }
                | Request::TokenAbandon { .. }
                | Request::TokenInvalidate { .. }
        )
    }

    /// The request a store received as text.
    pub fn from_json(text: &str) -> Result<Request, Error> {
        Request::read(text).map_err(|e| Error::decode(format!("the fleet step is not valid: {e}")))
    }

    fn read(text: &str) -> Result<Request, String> {
        let value = svc_json::parse(text).map_err(|e| e.to_string())?;
        let (name, content) = value.variant()?;
        if name == "state" && content.is_none() {
            return Ok(Request::State);
        }
        let o: &Obj = svc_json::expect(content.unwrap_or(&Json::Null), name)?;
        let text = |key| o.field::<&str>(key).map(str::to_string);
        Ok(match name {
            "acquire" => Request::Acquire {
                holder: text("holder")?,
                limits: Limits::from_obj(o.field("limits")?)?,
                lease_ms: o.field("leaseMs")?,
                lane: o
                    .optional("lane")?
                    .map(Lane::from_obj)
                    .transpose()?
                    .unwrap_or_default(),
            },
            "renew" => Request::Renew {
                lease: o.field("lease")?,
                lease_ms: o.field("leaseMs")?,
            },
            "release" => Request::Release {
                lease: o.field("lease")?,
                seen: o
                    .optional("seen")?
                    .map(Seen::from_obj)
                    .transpose()?
                    .unwrap_or_default(),
            },
            "tokenClaim" => Request::TokenClaim {
                holder: text("holder")?,
                lease_ms: o.field("leaseMs")?,
                budget: o.optional("budget")?,
            },
            "tokenStore" => Request::TokenStore {
                claim: o.field("claim")?,
                stored: Stored::from_obj(o)?,
            },
            "tokenAbandon" => Request::TokenAbandon {
                claim: o.field("claim")?,
                denied: o.optional("denied")?.unwrap_or(false),
            },
            "tokenInvalidate" => Request::TokenInvalidate {
                token: text("token")?.into(),
            },
            _ => return Err(format!("`{name}` is not a step")),
        })
    }

    /// Its text, for the store.
    pub fn to_json(&self) -> String {
        svc_json::to_string(self)
    }
}

impl Reply {
    /// The reply a store sent back as text.
    pub fn from_json(text: &str) -> Result<Reply, Error> {
        Reply::read(text)
            .map_err(|e| Error::decode(format!("the fleet store's reply is not valid: {e}")))
    }

    fn read(text: &str) -> Result<Reply, String> {
        let value = svc_json::parse(text).map_err(|e| e.to_string())?;
        let o: &Obj = svc_json::expect(&value, "the reply")?;
        let outcome = o.get("outcome").ok_or("`outcome` is missing")?;
        let (name, content) = outcome.variant()?;
        let content = content.unwrap_or(&Json::Null);
        Ok(Reply {
            now: o.field("now")?,
            repaired: o.optional::<&str>("repaired")?.map(str::to_string),
            state: State::from_obj(o.field("state")?)?,
            outcome: match name {
                "acquire" => Outcome::Acquire(Acquire::from_json(content)?),
                "renewed" => Outcome::Renewed(match content {
                    Json::Null => None,
                    until => Some(svc_json::expect(until, "`renewed`")?),
                }),
                "released" => Outcome::Released(svc_json::expect(content, "`released`")?),
                "token" => Outcome::Token(TokenClaim::from_json(content)?),
                "taken" => Outcome::Taken(svc_json::expect(content, "`taken`")?),
                "done" => Outcome::Done,
                _ => return Err(format!("`{name}` is not an outcome")),
            },
        })
    }
}

/// The latest time a store's clock may tell: JS's latest Date (year 275760), far enough from
/// `i64::MAX` that no sum on the state's times overflows.
const CLOCK_MAX: i64 = 8_640_000_000_000_000;

/// Runs `request` at `now` (the store's clock) on the state a store kept (`None`: none yet). A
/// state that cannot be read (not JSON, a field missing or of another type) is replaced by a new
/// one in the same step, saved over the version it had (its own `version` if it can be read, else
/// `version`, what the store keeps beside the text, else 0), and the reply says so.
pub fn apply(
    state: Option<&str>,
    version: Option<u64>,
    now: i64,
    request: &str,
) -> Result<Applied, Error> {
    if !(0..=CLOCK_MAX).contains(&now) {
        return Err(Error::decode(format!(
            "the fleet store's clock says {now}, which is not a time in ms since the epoch"
        )));
    }
    let request = Request::from_json(request)?;
    let (mut fleet, expected, repaired) = match state.map(|t| (t, Fleet::from_json(t))) {
        None => (Fleet::new(Limits::for_plan(DEFAULT_PLAN)), 0, None),
        Some((_, Ok(fleet))) => {
            let v = fleet.version();
            (fleet, v, None)
        }
        Some((text, Err(e))) => {
            let expected = version_in(text).or(version).unwrap_or(0);
            let mut fleet = Fleet::new(Limits::for_plan(DEFAULT_PLAN));
            fleet.version = expected.wrapping_add(1);
            let why = format!("{}; it was replaced by a new one", e.message);
            (fleet, expected, Some(why))
        }
    };
    let outcome = match request {
        Request::Acquire {
            holder,
            limits,
            lease_ms,
            lane,
        } => Outcome::Acquire(fleet.acquire_in(&holder, limits, now, lease_ms, lane)),
        Request::Renew { lease, lease_ms } => Outcome::Renewed(fleet.renew(lease, now, lease_ms)),
        Request::Release { lease, seen } => {
            let released = fleet.release(lease, now);
            if seen.limit.is_some() || seen.remaining.is_some() || seen.reset_secs.is_some() {
                fleet.observe(seen.limit, seen.remaining, seen.reset_secs, now);
            }
            if let Some(ms) = seen.back_off_ms {
                fleet.back_off(ms, now);
            }
            Outcome::Released(released)
        }
        Request::TokenClaim {
            holder,
            lease_ms,
            budget,
        } => Outcome::Token(fleet.token_claim(&holder, now, lease_ms, budget)),
        Request::TokenStore { claim, stored } => {
            Outcome::Taken(fleet.token_store(claim, stored, now))
        }
        Request::TokenAbandon { claim, denied } => {
            fleet.token_abandon(claim, denied, now);
            Outcome::Done
        }
        Request::TokenInvalidate { token } => {
            Outcome::Taken(fleet.token_invalidate(token.expose(), now))
        }
        Request::State => {
            fleet.step(|f| f.sweep(now));
            Outcome::Done
        }
    };
    let reply = Reply {
        now,
        state: fleet.state_of(now),
        outcome,
        repaired,
    };
    let version = fleet.version();
    Ok(Applied {
        state: (version != expected).then(|| fleet.to_json()),
        expected,
        version,
        reply: svc_json::to_string(&reply),
        wake_at: fleet.next_end(),
    })
}

/// The `version` of a state whose text is JSON though the rest of it cannot be read.
fn version_in(text: &str) -> Option<u64> {
    let value = svc_json::parse(text).ok()?;
    let o: &Obj = svc_json::expect(&value, "the state").ok()?;
    o.field("version").ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(state: &mut Option<String>, now: i64, request: &Request) -> Reply {
        let applied = apply(state.as_deref(), None, now, &request.to_json()).unwrap();
        if let Some(text) = applied.state {
            *state = Some(text);
        }
        Reply::from_json(&applied.reply).unwrap()
    }

    #[test]
    fn a_slot_is_granted_released_and_its_answer_observed_through_text() {
        let mut state = None;
        let limits = Limits::for_plan("free");
        let acquire = Request::Acquire {
            holder: "a".into(),
            limits,
            lease_ms: 30_000,
            lane: crate::limit::Lane::default(),
        };
        let got = run(&mut state, 1_000, &acquire);
        let Outcome::Acquire(Acquire::Granted { lease, until }) = got.outcome else {
            panic!("{got:?}");
        };
        assert_eq!((until, got.state.in_flight), (31_000, 1));
        let seen = Seen {
            back_off_ms: Some(5_000),
            ..Seen::default()
        };
        let got = run(&mut state, 2_000, &Request::Release { lease, seen });
        assert_eq!(got.outcome, Outcome::Released(true));
        assert_eq!(got.state.in_flight, 0);
        let got = run(&mut state, 3_000, &acquire);
        assert_eq!(
            got.outcome,
            Outcome::Acquire(Acquire::Wait {
                until: 7_000,
                on_release: false
            })
        );
    }

    #[test]
    fn a_step_that_changes_nothing_asks_for_no_write() {
        let mut state = None;
        run(&mut state, 0, &Request::State);
        let before = state.clone();
        let applied = apply(before.as_deref(), None, 10, &Request::State.to_json()).unwrap();
        assert_eq!(applied.state, None);
        assert_eq!(applied.expected, applied.version);
    }

    #[test]
    fn the_token_travels_in_the_reply_but_not_in_its_debug_print() {
        let mut state = None;
        let claim = Request::TokenClaim {
            holder: "a".into(),
            lease_ms: 10_000,
            budget: None,
        };
        let Outcome::Token(TokenClaim::Refresh { claim: id, .. }) =
            run(&mut state, 0, &claim).outcome
        else {
            panic!("no claim");
        };
        let store = Request::TokenStore {
            claim: id,
            stored: Stored::of("tok-secret", None),
        };
        assert_eq!(run(&mut state, 1, &store).outcome, Outcome::Taken(true));
        let got = run(&mut state, 2, &claim);
        assert_eq!(
            got.outcome,
            Outcome::Token(TokenClaim::Use {
                token: "tok-secret".into(),
                domain: None
            })
        );
        assert!(!format!("{got:?}").contains("tok-secret"));
        let requests = [
            store,
            Request::TokenInvalidate {
                token: "tok-secret".into(),
            },
        ];
        assert!(!format!("{requests:?}").contains("tok-secret"));
    }

    #[test]
    fn every_request_and_outcome_reads_back_as_written() {
        let limits = Limits::for_plan("free");
        let seen = Seen {
            limit: Some(100),
            remaining: Some(0),
            reset_secs: Some(30),
            back_off_ms: Some(2_000),
        };
        for request in [
            Request::Acquire {
                holder: "h\"1".into(),
                limits,
                lease_ms: 30_000,
                lane: crate::limit::Lane::default(),
            },
            Request::Renew {
                lease: u64::MAX,
                lease_ms: 1,
            },
            Request::Release { lease: 3, seen },
            Request::Release {
                lease: 3,
                seen: Seen::default(),
            },
            Request::TokenClaim {
                holder: "h".into(),
                lease_ms: 5,
                budget: None,
            },
            Request::TokenStore {
                claim: 4,
                stored: Stored::of("t", Some(-1)),
            },
            Request::TokenStore {
                claim: 4,
                stored: Stored::of("t", None),
            },
            Request::TokenAbandon {
                claim: 4,
                denied: false,
            },
            Request::TokenInvalidate { token: "t".into() },
            Request::State,
        ] {
            assert_eq!(Request::from_json(&request.to_json()).unwrap(), request);
        }
        let state = Fleet::new(limits).state_of(0);
        for outcome in [
            Outcome::Acquire(Acquire::Granted { lease: 1, until: 2 }),
            Outcome::Acquire(Acquire::Wait {
                until: 2,
                on_release: true,
            }),
            Outcome::Acquire(Acquire::QuotaSpent { until: 2 }),
            Outcome::Renewed(Some(9)),
            Outcome::Renewed(None),
            Outcome::Released(false),
            Outcome::Token(TokenClaim::Use {
                token: "t".into(),
                domain: None,
            }),
            Outcome::Token(TokenClaim::Refresh {
                claim: 1,
                until: 2,
                reason: "initial".into(),
            }),
            Outcome::Token(TokenClaim::Wait {
                until: 2,
                budget: false,
            }),
            Outcome::Taken(true),
            Outcome::Done,
        ] {
            let reply = Reply {
                now: 7,
                state,
                outcome,
                repaired: Some("x".into()),
            };
            let text = serde_json::to_string(&reply).unwrap();
            assert_eq!(Reply::from_json(&text).unwrap(), reply, "{text}");
        }
    }

    #[test]
    fn a_wrong_field_is_named_in_the_message() {
        let e = apply(None, None, 0, r#"{"renew":{"lease":-1,"leaseMs":5}}"#).unwrap_err();
        assert_eq!(
            e.message,
            "the fleet step is not valid: `lease` is not a whole number (u64)"
        );
        let e = Reply::from_json(r#"{"now":1,"state":{},"outcome":"done"}"#).unwrap_err();
        assert!(
            e.message.contains("`requestsPerMinute` is missing"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_request_that_is_not_a_step_is_a_decode_error_not_a_panic() {
        for (state, request) in [
            (None, "{"),
            (None, r#"{"op":"fly"}"#),
            (Some("[]"), r#"{"op":"state"}"#),
        ] {
            let e = apply(state, None, 0, request).unwrap_err();
            assert_eq!(e.kind(), svc_core::error::ErrorKind::Decode);
        }
    }

    #[test]
    fn a_state_that_cannot_be_read_is_replaced_in_the_same_step() {
        let acquire = Request::Acquire {
            holder: "a".into(),
            limits: Limits::for_plan("free"),
            lease_ms: 30_000,
            lane: crate::limit::Lane::default(),
        }
        .to_json();
        for (text, hint, expected) in [
            ("not json at all", None, 0),
            ("not json at all", Some(41), 41),
            ("[1,2]", Some(7), 7),
            (r#"{"version":12,"limits":"poisoned"}"#, Some(3), 12),
            (r#"{"version":5}"#, None, 5),
        ] {
            let applied = apply(Some(text), hint, 1_000, &acquire).unwrap();
            assert_eq!(applied.expected, expected, "{text}");
            assert!(applied.version > expected, "{text}");
            let state = applied.state.expect("the new state is saved");
            assert!(Fleet::from_json(&state).is_ok(), "{state}");
            let reply = Reply::from_json(&applied.reply).unwrap();
            assert!(matches!(
                reply.outcome,
                Outcome::Acquire(Acquire::Granted { .. })
            ));
            let why = reply.repaired.expect("the reply says it was replaced");
            assert!(
                why.starts_with("the fleet's shared state is not valid")
                    && why.contains("replaced"),
                "{why}"
            );
        }
        let fine = apply(None, None, 0, &acquire).unwrap();
        assert_eq!(Reply::from_json(&fine.reply).unwrap().repaired, None);
    }
}
