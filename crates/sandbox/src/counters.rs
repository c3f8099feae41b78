//! Request counters that tests read to prove nothing was lost or sent twice.

use crate::record::Value;
use std::collections::BTreeMap;
use svc_json::json;
use svc_json::ToValue;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub received: u64,
    /// Requests that changed state or were answered 2xx (a dropped answer still counts).
    pub applied: u64,
    /// Answers by status; `dropped` when the connection was closed instead.
    pub statuses: BTreeMap<String, u64>,
}

impl ToValue for Tally {
    fn to_value(&self) -> Value {
        json!({ "received": self.received, "applied": self.applied, "statuses": self.statuses })
    }
}

#[derive(Default)]
pub struct Counters {
    operations: BTreeMap<&'static str, Tally>,
    methods: BTreeMap<&'static str, Tally>,
    faults: BTreeMap<&'static str, u64>,
}

impl Counters {
    pub fn received(&mut self, op: &'static str, method: &'static str) {
        self.operations.entry(op).or_default().received += 1;
        self.methods.entry(method).or_default().received += 1;
    }

    /// Records the end of a request: its status (`None` when dropped) and whether it was applied.
    pub fn finished(
        &mut self,
        op: &'static str,
        method: &'static str,
        status: Option<u16>,
        applied: bool,
    ) {
        let key = status.map_or_else(|| "dropped".to_string(), |s| s.to_string());
        for tally in [
            self.operations.entry(op).or_default(),
            self.methods.entry(method).or_default(),
        ] {
            tally.applied += u64::from(applied);
            *tally.statuses.entry(key.clone()).or_default() += 1;
        }
    }

    pub fn fault(&mut self, kind: &'static str) {
        *self.faults.entry(kind).or_default() += 1;
    }

    pub fn reset(&mut self) {
        *self = Counters::default();
    }

    pub fn to_json(&self, peaks: BTreeMap<String, u32>, in_flight: BTreeMap<String, u32>) -> Value {
        json!({
            "code": 0,
            "message": "success",
            "operations": self.operations,
            "methods": self.methods,
            "faults": self.faults,
            "peak_in_flight": peaks,
            "in_flight": in_flight,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_operation_and_method() {
        let mut c = Counters::default();
        c.received("createPlan", "POST");
        c.finished("createPlan", "POST", None, true);
        c.received("createPlan", "POST");
        c.finished("createPlan", "POST", Some(201), true);
        c.received("listPlans", "GET");
        c.finished("listPlans", "GET", Some(500), false);
        c.fault("500");
        let v = c.to_json(BTreeMap::from([("1".to_string(), 2)]), BTreeMap::new());
        assert_eq!(v["operations"]["createPlan"]["received"], json!(2));
        assert_eq!(v["operations"]["createPlan"]["applied"], json!(2));
        assert_eq!(
            v["operations"]["createPlan"]["statuses"],
            json!({"201": 1, "dropped": 1})
        );
        assert_eq!(v["methods"]["GET"]["applied"], json!(0));
        assert_eq!(v["faults"]["500"], json!(1));
        assert_eq!(v["peak_in_flight"]["1"], json!(2));
        c.reset();
        assert_eq!(
            c.to_json(BTreeMap::new(), BTreeMap::new())["operations"],
            json!({})
        );
    }
}
