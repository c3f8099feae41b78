//! Plans, and the billing events their create and updates record.

use crate::call::{Reply, Req};
use crate::error::{code, ApiError};
use crate::list;
use crate::record::Value;
use crate::record::{defaults, id_text, Record};
use crate::resource::{EVENT, PLAN};
use crate::store::{Ids, Org, Store};
use crate::time;
use svc_json::json;

/// The documents name no plan event; these documented types fit best (see sandbox/README.md).
pub const PLAN_CREATED_EVENT: &str = "subscription_activation";
pub const PLAN_PRICE_UP_EVENT: &str = "subscription_upgraded";
pub const PLAN_PRICE_DOWN_EVENT: &str = "subscription_downgraded";
pub const PLAN_CHANGED_EVENT: &str = "billing_date_changed";

/// Records a billing event whose payload is the plan as JSON text.
fn record_event(org: &mut Org, ids: &Ids, event_type: &str, plan: &Record, now_ms: i64) {
    let rec = json!({
        "event_type": event_type,
        "event_time": time::timestamp(now_ms),
        "payload": Value::Obj(plan.clone()).to_string(),
        "webhooks": [],
    });
    if let Value::Obj(rec) = rec {
        org.insert(&EVENT, ids.next(&EVENT), rec, None);
    }
}

pub fn insert_plan(
    org: &mut Org,
    ids: &Ids,
    fields: &Record,
    base: &str,
    now_ms: i64,
) -> Result<Record, ApiError> {
    let code = match fields
        .get("plan_code")
        .and_then(id_text)
        .filter(|c| !c.trim().is_empty())
    {
        Some(c) => c,
        None => org.next_number("PLAN").0,
    };
    if org.exists(&PLAN, &code).is_ok() {
        return Err(ApiError::bad(
            code::DUPLICATE,
            format!(
                "A plan with the code {:?} already exists.",
                svc_core::echo::shorten(&code)
            ),
        ));
    }
    let mut rec = fields.clone();
    rec.remove("plan_code");
    if let Some(Value::Arr(addons)) = rec.get_mut("addons") {
        for addon in addons.iter_mut().filter_map(Value::as_object_mut) {
            addon.or_insert_with("status", || "active".into());
        }
    }
    let t = time::timestamp(now_ms);
    let mut url = format!("{base}/subscribe/");
    svc_core::request::encode_segment(&code, &mut url);
    defaults(
        &mut rec,
        json!({
            "status": "active",
            "url": url,
            "created_time": t,
            "updated_time": t,
        }),
    );
    let rec = org.insert(&PLAN, Value::from(code), rec, None);
    record_event(org, ids, PLAN_CREATED_EVENT, &rec, now_ms);
    Ok(rec)
}

pub(super) fn create_plan(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    Ok(Reply::created(
        "The plan has been created.",
        insert_plan(org, ids, req.params, req.base, req.now_ms)?,
    ))
}

pub(super) fn list_plans(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let mut rows = store.read(req.org)?.list(&PLAN, None);
    list::keep_status(
        &mut rows,
        "status",
        list::filter_value(req.params, "filter_by").as_deref(),
    );
    list::keep_equal(&mut rows, req.params, "product_id");
    Ok(list::page(rows, req.params))
}

/// The event type of a plan update: by the move of its recurring price.
fn update_event(before: Option<f64>, after: Option<f64>) -> &'static str {
    match (before, after) {
        (Some(b), Some(a)) if a > b => PLAN_PRICE_UP_EVENT,
        (Some(b), Some(a)) if a < b => PLAN_PRICE_DOWN_EVENT,
        _ => PLAN_CHANGED_EVENT,
    }
}

pub(super) fn update_plan(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let code = req.path("plan_code");
    let before = list::number(org.get(&PLAN, code, None)?.get("recurring_price"));
    let mut p = req.params.clone();
    p.insert("updated_time".into(), time::timestamp(req.now_ms).into());
    let rec = org.update(&PLAN, code, None, &p)?;
    let event = update_event(before, list::number(rec.get("recurring_price")));
    record_event(org, ids, event, &rec, req.now_ms);
    Ok(Reply::ok("The plan details have been updated.", rec))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_update_events_follow_the_price() {
        assert_eq!(
            update_event(Some(10.0), Some(12.0)),
            "subscription_upgraded"
        );
        assert_eq!(
            update_event(Some(10.0), Some(8.0)),
            "subscription_downgraded"
        );
        assert_eq!(update_event(Some(10.0), Some(10.0)), "billing_date_changed");
        assert_eq!(update_event(None, Some(10.0)), "billing_date_changed");
    }

    #[test]
    fn plans_record_events_with_the_plan_as_payload() {
        let ids = Ids::default();
        let mut org = Org::new("1", Record::new());
        let fields = crate::record::json_obj(
            json!({"plan_code": "gold", "name": "Gold", "recurring_price": 5}),
        );
        let plan = insert_plan(&mut org, &ids, &fields, "http://x", 0).unwrap();
        assert_eq!(plan["plan_code"], json!("gold"));
        assert_eq!(plan["url"], json!("http://x/subscribe/gold"));
        let err = insert_plan(&mut org, &ids, &fields, "http://x", 0).unwrap_err();
        assert_eq!(err.code, code::DUPLICATE);
        let events = org.list(&EVENT, None);
        assert_eq!(events.len(), 1);
        assert_eq!(events[0]["event_type"], json!(PLAN_CREATED_EVENT));
        let payload =
            crate::record::parse(events[0]["payload"].as_str().unwrap().as_bytes()).unwrap();
        assert_eq!(payload["name"], json!("Gold"));
        let generated = insert_plan(&mut org, &ids, &Record::new(), "http://x", 0).unwrap();
        assert_eq!(generated["plan_code"], json!("PLAN-00001"));
    }
}
