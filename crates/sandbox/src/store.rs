//! In-memory state: organizations with their tables of records, identifiers, notification channels.

use crate::error::ApiError;
use crate::record::Value;
use crate::record::{id_text, merge, same_id, Record};
use crate::resource::{Resource, ACCOUNT, CURRENCY, CUSTOMER, FIXED_ASSET_TYPE, PROJECT, VENDOR};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

/// First string id; string ids look like the service's.
const FIRST_TEXT_ID: u64 = 460_000_000_050_001;
/// First numeric id: 2^53 + 1, beyond what a JavaScript number holds exactly.
pub const FIRST_BIG_ID: u64 = 9_007_199_254_740_993;

/// Hands out identifiers: digit strings, or JSON numbers beyond 2^53 where the documents show numbers.
pub struct Ids {
    text: AtomicU64,
    big: AtomicU64,
}

impl Default for Ids {
    fn default() -> Ids {
        Ids {
            text: AtomicU64::new(FIRST_TEXT_ID),
            big: AtomicU64::new(FIRST_BIG_ID),
        }
    }
}

impl Clone for Ids {
    fn clone(&self) -> Ids {
        Ids {
            text: AtomicU64::new(self.text.load(Ordering::SeqCst)),
            big: AtomicU64::new(self.big.load(Ordering::SeqCst)),
        }
    }
}

impl Ids {
    pub fn text(&self) -> Value {
        Value::from(self.text.fetch_add(1, Ordering::Relaxed).to_string())
    }

    pub fn big(&self) -> Value {
        Value::from(self.big.fetch_add(1, Ordering::Relaxed))
    }

    pub fn next(&self, res: &Resource) -> Value {
        if res.big_ids {
            self.big()
        } else {
            self.text()
        }
    }
}

/// A field whose value names a record of another resource, and the name field copied from it.
struct Link {
    to: &'static Resource<'static>,
    field: &'static str,
    name: &'static str,
    out: &'static str,
}

const fn link(
    to: &'static Resource<'static>,
    field: &'static str,
    name: &'static str,
    out: &'static str,
) -> Link {
    Link {
        to,
        field,
        name,
        out,
    }
}

static LINKS: &[Link] = &[
    link(&ACCOUNT, "account_id", "account_name", "account_name"),
    link(
        &ACCOUNT,
        "parent_account_id",
        "account_name",
        "parent_account_name",
    ),
    link(
        &ACCOUNT,
        "asset_account_id",
        "account_name",
        "asset_account_name",
    ),
    link(
        &ACCOUNT,
        "expense_account_id",
        "account_name",
        "expense_account_name",
    ),
    link(
        &ACCOUNT,
        "depreciation_account_id",
        "account_name",
        "depreciation_account_name",
    ),
    link(
        &ACCOUNT,
        "paid_through_account_id",
        "account_name",
        "paid_through_account_name",
    ),
    link(
        &ACCOUNT,
        "purchase_account_id",
        "account_name",
        "purchase_account_name",
    ),
    link(
        &ACCOUNT,
        "inventory_account_id",
        "account_name",
        "inventory_account_name",
    ),
    link(
        &ACCOUNT,
        "setup_fee_account_id",
        "account_name",
        "setup_fee_account_name",
    ),
    link(
        &FIXED_ASSET_TYPE,
        "fixed_asset_type_id",
        "fixed_asset_type_name",
        "fixed_asset_type_name",
    ),
    link(&CUSTOMER, "customer_id", "customer_name", "customer_name"),
    link(&VENDOR, "vendor_id", "vendor_name", "vendor_name"),
    link(&CURRENCY, "currency_id", "currency_code", "currency_code"),
    link(&PROJECT, "project_id", "project_name", "project_name"),
];

/// Arrays of objects whose members name other records too.
const LINKED_ARRAYS: &[&str] = &["line_items", "mapped_items"];

/// A stored receipt of an expense.
#[derive(Clone)]
pub struct Receipt {
    pub name: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

#[derive(Clone, Default)]
pub struct Org {
    pub id: String,
    pub info: Record,
    tables: HashMap<String, Vec<Record>>,
    pub receipts: HashMap<String, Receipt>,
    numbers: HashMap<&'static str, u64>,
}

impl Org {
    pub fn new(id: &str, info: Record) -> Org {
        Org {
            id: id.into(),
            info,
            tables: HashMap::new(),
            receipts: HashMap::new(),
            numbers: HashMap::new(),
        }
    }

    pub fn rows(&self, table: &str) -> &[Record] {
        self.tables.get(table).map_or(&[], Vec::as_slice)
    }

    pub fn rows_mut(&mut self, table: &str) -> &mut Vec<Record> {
        self.tables.entry(table.to_string()).or_default()
    }

    /// The next document number of a series: `FA-00001`, `FA-00002`, …
    pub fn next_number(&mut self, prefix: &'static str) -> (String, u64) {
        let n = self.numbers.entry(prefix).or_default();
        *n += 1;
        (format!("{prefix}-{:05}", *n), *n)
    }

    fn position(&self, res: &Resource, id: &str, parent: Option<&str>) -> Result<usize, ApiError> {
        self.rows(res.table)
            .iter()
            .position(|r| {
                same_id(r.get(res.id), id)
                    && match (res.parent, parent) {
                        (Some(field), Some(p)) => same_id(r.get(field), p),
                        _ => true,
                    }
            })
            .ok_or_else(|| missing(res, id))
    }

    pub fn get(&self, res: &Resource, id: &str, parent: Option<&str>) -> Result<&Record, ApiError> {
        let i = self.position(res, id, parent)?;
        Ok(&self.rows(res.table)[i])
    }

    pub fn get_mut(
        &mut self,
        res: &Resource,
        id: &str,
        parent: Option<&str>,
    ) -> Result<&mut Record, ApiError> {
        let i = self.position(res, id, parent)?;
        Ok(&mut self.rows_mut(res.table)[i])
    }

    pub fn exists(&self, res: &Resource, id: &str) -> Result<(), ApiError> {
        self.position(res, id, None).map(|_| ())
    }

    /// Stores a new record with its id (and its parent's id) first; returns what was stored.
    pub fn insert(
        &mut self,
        res: &Resource,
        id: Value,
        fields: Record,
        parent: Option<&str>,
    ) -> Record {
        let mut rec = Record::new();
        rec.insert(res.id.to_string().into(), id);
        if let (Some(field), Some(p)) = (res.parent, parent) {
            rec.insert(field.to_string().into(), p.into());
        }
        for (k, v) in fields {
            if !rec.contains_key(&k) && !v.is_null() {
                rec.insert(k, v);
            }
        }
        self.enrich(&mut rec, res.id);
        self.rows_mut(res.table).push(rec.clone());
        rec
    }

    /// Merges the supplied fields into a record; returns the record as stored.
    pub fn update(
        &mut self,
        res: &Resource,
        id: &str,
        parent: Option<&str>,
        patch: &Record,
    ) -> Result<Record, ApiError> {
        let i = self.position(res, id, parent)?;
        let mut rec = self.rows(res.table)[i].clone();
        merge(&mut rec, patch, &[res.id, res.parent.unwrap_or_default()]);
        self.enrich(&mut rec, res.id);
        self.rows_mut(res.table)[i] = rec.clone();
        Ok(rec)
    }

    pub fn remove(
        &mut self,
        res: &Resource,
        id: &str,
        parent: Option<&str>,
    ) -> Result<Record, ApiError> {
        let i = self.position(res, id, parent)?;
        Ok(self.rows_mut(res.table).remove(i))
    }

    /// Records of a resource, all or those under one parent.
    pub fn list(&self, res: &Resource, parent: Option<&str>) -> Vec<Record> {
        self.rows(res.table)
            .iter()
            .filter(|r| match (res.parent, parent) {
                (Some(field), Some(p)) => same_id(r.get(field), p),
                _ => true,
            })
            .cloned()
            .collect()
    }

    /// Whether any record of `table` has `field` equal to `id`.
    pub fn refers(&self, table: &str, field: &str, id: &str) -> bool {
        self.rows(table).iter().any(|r| same_id(r.get(field), id))
    }

    /// The record of `table` whose `key` is `id`.
    pub fn lookup(&self, table: &str, key: &str, id: &str) -> Option<&Record> {
        self.rows(table).iter().find(|r| same_id(r.get(key), id))
    }

    /// Fills the name fields of the ids a record holds (`account_id` gives `account_name`, …),
    /// except for its own id field.
    pub fn enrich(&self, rec: &mut Record, own_id: &str) {
        self.enrich_one(rec, own_id);
        for key in LINKED_ARRAYS {
            if let Some(Value::Arr(items)) = rec.get_mut(key) {
                for item in items.iter_mut().filter_map(Value::as_object_mut) {
                    self.enrich_one(item, "");
                }
            }
        }
    }

    fn enrich_one(&self, rec: &mut Record, own_id: &str) {
        for l in LINKS.iter().filter(|l| l.field != own_id) {
            let Some(id) = rec.get(l.field).and_then(id_text) else {
                continue;
            };
            let name = self
                .lookup(l.to.table, l.to.id, &id)
                .and_then(|r| r.get(l.name))
                .cloned();
            if let Some(name) = name {
                rec.insert(l.out.into(), name);
            }
        }
    }
}

fn missing(res: &Resource, id: &str) -> ApiError {
    ApiError::not_found(format!(
        "The {} {:?} does not exist.",
        res.noun(),
        svc_core::echo::shorten(id)
    ))
}

/// Every organization, the id source, the CRM notification channels, and the records of calls
/// that name no organization.
#[derive(Clone, Default)]
pub struct Store {
    pub orgs: Vec<Org>,
    pub ids: Ids,
    pub channels: Vec<Record>,
    orgless: Org,
}

impl Store {
    pub fn org(&self, id: &str) -> Option<&Org> {
        self.orgs.iter().find(|o| o.id == id)
    }

    pub fn read(&self, id: &str) -> Result<&Org, ApiError> {
        self.org(id)
            .ok_or_else(|| ApiError::not_found(format!("The organization {id:?} does not exist.")))
    }

    /// The organization of a call, with the id source beside it.
    pub fn open(&mut self, id: &str) -> Result<(&mut Org, &Ids), ApiError> {
        let Store { orgs, ids, .. } = self;
        let org = orgs.iter_mut().find(|o| o.id == id).ok_or_else(|| {
            ApiError::not_found(format!("The organization {id:?} does not exist."))
        })?;
        Ok((org, ids))
    }

    /// Where the records of a call are kept: its organization, or for a call that names none
    /// (CRM), the place that such calls share.
    pub fn space(&mut self, id: &str) -> Result<(&mut Org, &Ids), ApiError> {
        if id.is_empty() {
            return Ok((&mut self.orgless, &self.ids));
        }
        self.open(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use svc_json::json;

    const THING: Resource = Resource::new("/things", "thing_id").big();
    const PART: Resource = Resource::new("/things/{thing_id}/parts", "part_id").under("thing_id");

    fn obj(v: Value) -> Record {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn big_ids_start_beyond_2_pow_53_and_are_numbers() {
        let ids = Ids::default();
        let first = ids.next(&THING);
        assert_eq!(first.to_string(), "9007199254740993");
        assert!(first.as_u64().is_some());
        assert!(ids.next(&PART).is_string());
        assert_eq!(id_text(&first).unwrap(), "9007199254740993");
    }

    #[test]
    fn insert_update_remove_with_parents_and_names() {
        let ids = Ids::default();
        let mut org = Org::new("1", Record::new());
        org.rows_mut(ACCOUNT.table)
            .push(obj(json!({"account_id": "7", "account_name": "Rent"})));
        let thing = org.insert(
            &THING,
            ids.next(&THING),
            obj(json!({"thing_id": "forged", "account_id": "7"})),
            None,
        );
        let id = id_text(&thing["thing_id"]).unwrap();
        assert_ne!(id, "forged");
        assert_eq!(thing["account_name"], json!("Rent"));
        let part = org.insert(&PART, ids.next(&PART), obj(json!({"n": 1})), Some(&id));
        let pid = id_text(&part["part_id"]).unwrap();
        assert_eq!(part["thing_id"], json!(id));
        assert!(org.get(&PART, &pid, Some("other")).is_err());
        let updated = org
            .update(
                &PART,
                &pid,
                Some(&id),
                &obj(json!({"n": 2, "part_id": "x", "m": null})),
            )
            .unwrap();
        assert_eq!(
            updated,
            obj(json!({"part_id": pid, "thing_id": id, "n": 2}))
        );
        assert_eq!(org.list(&PART, Some(&id)).len(), 1);
        let renamed = org
            .update(
                &ACCOUNT,
                "7",
                None,
                &obj(json!({"account_name": "Office rent"})),
            )
            .unwrap();
        assert_eq!(
            renamed["account_name"],
            json!("Office rent"),
            "a record is not named after itself"
        );
        org.remove(&PART, &pid, Some(&id)).unwrap();
        let err = org.get(&PART, &pid, None).unwrap_err();
        assert_eq!((err.status, err.code), (404, crate::error::code::NOT_FOUND));
    }

    #[test]
    fn numbers_count_per_series() {
        let mut org = Org::new("1", Record::new());
        assert_eq!(org.next_number("FA").0, "FA-00001");
        assert_eq!(org.next_number("FA"), ("FA-00002".into(), 2));
        assert_eq!(org.next_number("DN").0, "DN-00001");
    }
}
