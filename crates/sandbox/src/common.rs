//! What more than one family writes: the sandbox's user, currencies, tasks of projects, priced lines.

use crate::error::ApiError;
use crate::list::{self, num};
use crate::record::Value;
use crate::record::{defaults, json_obj, stamp, Record};
use crate::resource::{CURRENCY, PROJECT, TASK};
use crate::store::{Ids, Org};
use crate::time;
use svc_json::json;

/// The user that every token acts as: the contact of new organizations, the author of comments.
pub const USER_ID: &str = "460000000024003";
pub const USER_NAME: &str = "John David";

/// Who wrote a comment or a history entry, and when: the sandbox's user, now.
pub fn authored(now_ms: i64) -> Record {
    json_obj(json!({
        "commented_by_id": USER_ID,
        "commented_by": USER_NAME,
        "date": time::date(now_ms),
        "date_description": "few seconds ago",
        "time": time::time_of_day(now_ms),
    }))
}
pub use crate::accounts::users::USER_EMAIL;

const CURRENCY_NAMES: &[(&str, &str, &str)] = &[
    ("USD", "US Dollar", "$"),
    ("EUR", "Euro", "€"),
    ("GBP", "Pound Sterling", "£"),
    ("INR", "Indian Rupee", "₹"),
    ("AUD", "Australian Dollar", "$"),
    ("CAD", "Canadian Dollar", "$"),
    ("JPY", "Japanese Yen", "¥"),
    ("CNY", "Yuan Renminbi", "¥"),
    ("SAR", "Saudi Riyal", "SAR"),
    ("AED", "UAE Dirham", "AED"),
];

/// The currency code of a record, in capitals.
pub fn currency_code(rec: &Record) -> String {
    rec.get("currency_code")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_ascii_uppercase()
}

/// Adds a currency (an organization's base currency when `base`), named after its code.
pub fn insert_currency(
    org: &mut Org,
    ids: &Ids,
    fields: &Record,
    base: bool,
    now_ms: i64,
) -> Record {
    let mut rec = fields.clone();
    let code = currency_code(&rec);
    let (name, symbol) = CURRENCY_NAMES
        .iter()
        .find(|(c, _, _)| *c == code)
        .map_or((code.as_str(), code.as_str()), |(_, n, s)| (*n, *s));
    defaults(
        &mut rec,
        json!({
            "currency_name": format!("{code}- {name}"),
            "currency_symbol": symbol,
            "price_precision": 2,
            "currency_format": "1,234,567.89",
            "is_base_currency": base,
            "exchange_rate": 1,
            "effective_date": time::date(now_ms),
        }),
    );
    org.insert(&CURRENCY, ids.next(&CURRENCY), rec, None)
}

/// Adds a task to a project, with the project's name and customer.
pub fn insert_task(
    org: &mut Org,
    ids: &Ids,
    project_id: &str,
    fields: &Record,
    now_ms: i64,
) -> Result<Record, ApiError> {
    let project = org.get(&PROJECT, project_id, None)?.clone();
    let mut rec = fields.clone();
    for key in ["project_name", "customer_id", "customer_name"] {
        if let Some(v) = project.get(key) {
            rec.or_insert_with(key, || v.clone());
        }
    }
    defaults(
        &mut rec,
        json!({
            "currency_id": org.info.get("currency_id").cloned().unwrap_or_default(),
            "status": "active",
            "is_billable": true,
            "billed_hours": "00:00",
            "log_time": "00:00",
            "un_billed_hours": "00:00",
        }),
    );
    stamp(&mut rec, now_ms, true);
    Ok(org.insert(&TASK, ids.next(&TASK), rec, Some(project_id)))
}

/// Gives lines their ids and `item_total` (rate × quantity); returns the sum of the totals.
pub fn price_lines(rec: &mut Record, ids: &Ids) -> f64 {
    let mut total = 0.0;
    if let Some(Value::Arr(lines)) = rec.get_mut("line_items") {
        for line in lines.iter_mut().filter_map(Value::as_object_mut) {
            line.or_insert_with("line_item_id", || ids.text());
            let item_total = list::number(line.get("rate")).unwrap_or(0.0)
                * list::number(line.get("quantity")).unwrap_or(1.0);
            line.insert("item_total".into(), num(item_total));
            total += item_total;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::json_obj;

    #[test]
    fn lines_are_priced_and_numbered() {
        let ids = Ids::default();
        let mut rec =
            json_obj(json!({"line_items": [{"rate": 30, "quantity": 2}, {"rate": "2.5"}]}));
        assert_eq!(price_lines(&mut rec, &ids), 62.5);
        assert_eq!(rec["line_items"][0]["item_total"], json!(60));
        assert!(rec["line_items"][1]["line_item_id"].is_string());
    }
}
