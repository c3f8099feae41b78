//! Organizations: their create, list, update and read, and the fields their answers rename.

use crate::call::{Body, Reply, Req};
use crate::common::{self, USER_EMAIL, USER_NAME};
use crate::error::ApiError;
use crate::list;
use crate::record::Value;
use crate::record::{id_text, json_obj, Record};
use crate::resource::CURRENCY;
use crate::store::{Org, Store};
use crate::time;
use svc_core::model::books::FiscalYearStartMonth;
use svc_json::json;

/// Request names that the responses spell differently.
const ORG_RENAMES: &[(&str, &str)] = &[
    ("companyid_label", "company_id_label"),
    ("companyid_value", "company_id_value"),
    ("taxid_label", "tax_id_label"),
    ("taxid_value", "tax_id_value"),
];

fn apply_org_fields(org: &Org, info: &mut Record, params: &Record) {
    for (k, v) in params
        .iter()
        .filter(|(k, v)| !v.is_null() && *k != "organization_id")
    {
        let key = ORG_RENAMES
            .iter()
            .find(|(from, _)| *from == k)
            .map_or(k, |(_, to)| *to);
        let value = match (key, v) {
            ("fiscal_year_start_month", Value::Str(m)) => FiscalYearStartMonth::VALUES
                .iter()
                .position(|x| x.eq_ignore_ascii_case(m))
                .map_or(v.clone(), Value::from),
            ("is_logo_uploaded", Value::Bool(b)) => Value::from(b.to_string()),
            _ => v.clone(),
        };
        info.insert(key.to_string().into(), value);
    }
    let currency = info.get("currency_id").and_then(id_text);
    if let Some(c) = currency.and_then(|id| org.lookup(CURRENCY.table, CURRENCY.id, &id)) {
        for key in [
            "currency_code",
            "currency_symbol",
            "currency_format",
            "price_precision",
        ] {
            if let Some(v) = c.get(key) {
                info.insert(key.into(), v.clone());
            }
        }
    }
}

/// Adds an organization (with its base currency) and returns its record.
pub fn new_organization(
    store: &mut Store,
    id: &str,
    params: &Record,
    now_ms: i64,
    is_default: bool,
    plan: &str,
) -> Record {
    let code = params
        .get("currency_code")
        .and_then(Value::as_str)
        .unwrap_or("USD")
        .to_string();
    let mut org = Org::new(id, Record::new());
    common::insert_currency(
        &mut org,
        &store.ids,
        &json_obj(json!({"currency_code": code})),
        true,
        now_ms,
    );
    let mut info = json_obj(json!({
        "organization_id": id,
        "name": "",
        "is_logo_uploaded": "false",
        "is_default_org": is_default,
        "user_role": "admin",
        "account_created_date": time::date(now_ms),
        "time_zone": "Etc/UTC",
        "language_code": "en",
        "date_format": "yyyy-MM-dd",
        "field_separator": "-",
        "fiscal_year_start_month": 0,
        "tax_group_enabled": false,
        "user_status": "active",
        "contact_name": USER_NAME,
        "email": USER_EMAIL,
        "currency_id": org.rows(CURRENCY.table)[0]["currency_id"].clone(),
        "price_precision": 2,
        "plan_name": plan.to_ascii_uppercase(),
        "plan_period": "Monthly",
        "zi_migration_status": 0,
        "is_org_active": true,
    }));
    apply_org_fields(&org, &mut info, params);
    org.info = info.clone();
    store.orgs.push(org);
    info
}

pub(super) fn create_organization(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let id = store.ids.text().as_str().unwrap_or_default().to_string();
    let info = new_organization(store, &id, req.params, req.now_ms, false, "free");
    Ok(Reply::created("The organization has been created.", info))
}

pub(super) fn list_organizations(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let rows = store
        .orgs
        .iter()
        .filter(|o| req.reach.allows(&o.id))
        .map(|o| {
            let mut r = o.info.clone();
            let day = r
                .get("account_created_date")
                .and_then(Value::as_str)
                .and_then(time::day_of);
            if let Some(day) = day {
                r.insert(
                    "account_created_date_formatted".into(),
                    time::date_formatted(day * time::DAY_MS).into(),
                );
            }
            r
        })
        .collect();
    Ok(list::page(rows, req.params))
}

/// listOrganizations' inventory twin: the same organizations, answered as a plain array.
pub(super) fn inventory_list_organizations(
    store: &mut Store,
    req: &Req,
) -> Result<Reply, ApiError> {
    let mut reply = list_organizations(store, req)?;
    if let Body::Page { items, .. } = std::mem::replace(&mut reply.body, Body::Nothing) {
        reply.body = Body::Record(Value::Arr(items));
    }
    Ok(reply)
}

pub(super) fn update_organization(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.path("organization_id"))?;
    let mut info = org.info.clone();
    apply_org_fields(org, &mut info, req.params);
    org.info = info.clone();
    Ok(Reply::ok("Organization details have been updated.", info))
}

pub(super) fn get_organization(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.path("organization_id"))?;
    Ok(Reply::ok("success", org.info.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_renamed_organization_fields_are_fields_of_the_core_update() {
        let update = svc_core::catalog::find("updateOrganization")
            .unwrap()
            .params;
        for (name, _) in ORG_RENAMES {
            assert!(update.field(name).is_some(), "{name}");
        }
    }

    #[test]
    fn organization_fields_are_renamed_and_months_become_numbers() {
        let mut store = Store::default();
        let params = json_obj(
            json!({"name": "Acme", "currency_code": "EUR", "fiscal_year_start_month": "april", "taxid_label": "VAT"}),
        );
        let info = new_organization(&mut store, "9", &params, 0, false, "free");
        assert_eq!(info["fiscal_year_start_month"], json!(3));
        assert_eq!(info["tax_id_label"], json!("VAT"));
        assert_eq!(info["currency_code"], json!("EUR"));
        assert_eq!(info["currency_symbol"], json!("€"));
        assert_eq!(info["account_created_date"], json!("1970-01-01"));
    }
}
