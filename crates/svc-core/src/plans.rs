//! The service's plans and their documented limits: requests per minute, calls in flight, the daily quota.

use svc_json::Obj;

/// The limits of a plan, or as configured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    pub per_minute: u32,
    pub max_concurrent: u32,
    pub daily: u32,
}

/// Requests per minute, on every plan.
pub const PER_MINUTE: u32 = 100;

/// The service's plans, cheapest first, with their documented calls in flight and daily quota.
const PLAN_LIMITS: [(&str, u32, u32); 6] = [
    ("free", 5, 1000),
    ("standard", 10, 2000),
    ("professional", 10, 5000),
    ("premium", 10, 10_000),
    ("elite", 10, 10_000),
    ("ultimate", 10, 10_000),
];

/// The service's plans, cheapest first.
pub const PLANS: [&str; PLAN_LIMITS.len()] = {
    let mut names = [""; PLAN_LIMITS.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = PLAN_LIMITS[i].0;
        i += 1;
    }
    names
};

/// The plan a client assumes when it is given none.
pub const DEFAULT_PLAN: &str = PLANS[0];

/// The TypeScript type `ServicePlan`, written from [`PLANS`].
pub const PLAN_TS: &str = crate::family::ts_string_union!(
    "One of the service's plans; it sets the limiter's default limits.",
    "ServicePlan",
    PLANS
);

impl Limits {
    /// The documented limits of a plan; a name that is not a plan gets the highest plan's.
    pub fn for_plan(plan: &str) -> Limits {
        let highest = &PLAN_LIMITS[PLAN_LIMITS.len() - 1];
        let (_, max_concurrent, daily) = PLAN_LIMITS
            .iter()
            .find(|(name, ..)| *name == plan)
            .unwrap_or(highest);
        Limits {
            per_minute: PER_MINUTE,
            max_concurrent: *max_concurrent,
            daily: *daily,
        }
    }

    /// The limits as `Serialize` wrote them.
    pub fn from_obj(o: &Obj) -> Result<Limits, String> {
        Ok(Limits {
            per_minute: o.field("perMinute")?,
            max_concurrent: o.field("maxConcurrent")?,
            daily: o.field("daily")?,
        })
    }
}
