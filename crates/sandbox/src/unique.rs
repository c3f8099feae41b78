//! Updates by a unique custom field (`X-Unique-Identifier-Key`, `-Value`, `X-Upsert`): the record
//! whose custom field holds the value is updated, or, with an upsert, a new one is created.

use crate::call::{Reply, Req};
use crate::error::{required, ApiError};
use crate::record::Value;
use crate::record::{id_text, text_of, Record};
use crate::resource::Resource;
use crate::store::{Ids, Org, Store};
use svc_core::catalog::UNIQUE_FIELD_HEADERS;

/// The three params, in the catalog's order: the field's name, its value, and whether to create.
fn param(i: usize) -> &'static str {
    UNIQUE_FIELD_HEADERS[i].0
}

/// Whether a record's custom fields hold `value` under the field named `key`.
fn has_custom_value(rec: &Record, key: &str, value: &str) -> bool {
    let Some(fields) = rec.get("custom_fields").and_then(Value::as_array) else {
        return false;
    };
    fields.iter().any(|f| {
        let named = ["api_name", "customfield_id", "custom_field_id", "label"]
            .iter()
            .any(|k| f.get(k).is_some_and(|n| text_of(n) == key));
        named && f.get("value").is_some_and(|v| text_of(v) == value)
    })
}

/// The params of an update by a unique custom field: the field's name and value, whether a record
/// is created when none matches, and the body without the three header params.
pub struct UniqueField {
    pub key: String,
    pub value: String,
    pub upsert: bool,
    pub body: Record,
}

impl UniqueField {
    pub fn of(params: &Record) -> Result<UniqueField, ApiError> {
        let key = params.get(param(0)).map(text_of);
        let value = params.get(param(1)).map(text_of);
        let (Some(key), Some(value)) = (key, value) else {
            let missing = [param(0), param(1)]
                .into_iter()
                .filter(|p| !params.contains_key(p))
                .map(required)
                .collect();
            return Err(ApiError::invalid(missing));
        };
        let upsert = params.get(param(2)).is_some_and(|v| text_of(v) == "true");
        let body = params
            .iter()
            .filter(|(k, _)| !UNIQUE_FIELD_HEADERS.iter().any(|(p, _)| p == k))
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        Ok(UniqueField {
            key,
            value,
            upsert,
            body,
        })
    }

    /// The id of the first record of `res` whose custom field holds the value.
    pub fn find(&self, org: &Org, res: &Resource) -> Option<String> {
        org.rows(res.table)
            .iter()
            .find(|r| has_custom_value(r, &self.key, &self.value))
            .and_then(|r| r.get(res.id))
            .and_then(id_text)
    }

    /// Checks the body against the rules of `create` before an upsert creates a record.
    pub fn check_create(&self, create: &str) -> Result<(), ApiError> {
        let Some(op) = svc_core::catalog::find(create) else {
            let why = format!("the sandbox names an operation the catalog lacks: {create}");
            return Err(ApiError::new(500, 1000, why));
        };
        let issues = svc_core::validate::check(
            op,
            &Value::Obj(self.body.clone()),
            svc_core::clock::now_ms(),
            svc_core::validate::Source::Json,
        );
        match issues.is_empty() {
            true => Ok(()),
            false => Err(ApiError::invalid(issues)),
        }
    }

    /// The answer when no record matches and none is to be created.
    pub fn not_found(&self, noun: &str) -> ApiError {
        ApiError::not_found(format!(
            "No {noun} has {:?} in its custom field {:?}.",
            svc_core::echo::shorten(&self.value),
            svc_core::echo::shorten(&self.key)
        ))
    }
}

/// An update by a unique field of one resource: its noun, the create whose rules an upsert passes,
/// its two answers, and how its records are changed and made.
pub struct Upsert {
    pub resource: &'static Resource<'static>,
    pub noun: &'static str,
    pub create: &'static str,
    pub updated: &'static str,
    pub created: &'static str,
    pub update: fn(&mut Org, &Ids, &str, &Record, i64) -> Result<Record, ApiError>,
    pub insert: fn(&mut Org, &Ids, &Record, i64) -> Result<Record, ApiError>,
}

/// The record found by the unique field updated, or one created with an upsert, or 1002.
pub fn update(store: &mut Store, req: &Req, how: &Upsert) -> Result<Reply, ApiError> {
    let unique = UniqueField::of(req.params)?;
    let (org, ids) = store.open(req.org)?;
    match unique.find(org, how.resource) {
        Some(id) => Ok(Reply::ok(
            how.updated,
            (how.update)(org, ids, &id, &unique.body, req.now_ms)?,
        )),
        None if unique.upsert => {
            unique.check_create(how.create)?;
            Ok(Reply::created(
                how.created,
                (how.insert)(org, ids, &unique.body, req.now_ms)?,
            ))
        }
        None => Err(unique.not_found(how.noun)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::json_obj;
    use svc_json::json;

    #[test]
    fn custom_field_matching_accepts_the_names_the_families_use() {
        let rec = json_obj(
            json!({"custom_fields": [{"api_name": "cf_ref", "value": "A-1"}, {"customfield_id": 7, "value": 3}]}),
        );
        assert!(has_custom_value(&rec, "cf_ref", "A-1"));
        assert!(has_custom_value(&rec, "7", "3"));
        assert!(!has_custom_value(&rec, "cf_ref", "A-2"));
        assert!(!has_custom_value(&json_obj(json!({})), "cf_ref", "A-1"));
    }
}
