//! Fixed assets: status changes with their history, sale, write-off, the depreciation forecast.

use super::comment::{new_comment, push, remove_comment};
use crate::call::{Reply, Req};
use crate::error::ApiError;
use crate::list::{self, num};
use crate::record::Value;
use crate::record::{defaults, json_obj, patch, same_id, stamp, Record};
use crate::resource::{FIXED_ASSET, FIXED_ASSET_HISTORY};
use crate::store::{Ids, Org, Store};
use crate::time;
use svc_core::model::books::{FixedAssetSortColumn, FixedAssetStatus};
use svc_json::json;

const ASSET_LIST_FIELDS: &[&str] = &[
    "fixed_asset_id",
    "asset_number",
    "asset_name",
    "status",
    "current_asset_value",
    "asset_cost",
    "fixed_asset_type_name",
];

pub fn insert_fixed_asset(org: &mut Org, ids: &Ids, fields: &Record, now_ms: i64) -> Record {
    let mut rec = fields.clone();
    let (number, n) = org.next_number("FA");
    let cost = rec.get("asset_cost").cloned().unwrap_or(Value::from(0));
    defaults(
        &mut rec,
        json!({
            "asset_number": number,
            "asset_number_prefix": "FA-",
            "asset_number_suffix": n,
            "status": "draft",
            "current_asset_value": cost,
            "accumulated_dep_value": 0,
            "associated_transactions": [],
            "comments": [],
        }),
    );
    stamp(&mut rec, now_ms, true);
    org.insert(&FIXED_ASSET, ids.next(&FIXED_ASSET), rec, None)
}

pub(super) fn create_fixed_asset(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    Ok(Reply::created(
        "The fixed asset has been created.",
        insert_fixed_asset(org, ids, req.params, req.now_ms),
    ))
}

pub(super) fn list_fixed_assets(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let mut rows = org.list(&FIXED_ASSET, None);
    list::keep_status(
        &mut rows,
        "status",
        list::filter_value(req.params, "filter_by").as_deref(),
    );
    list::sort(&mut rows, req.params, FixedAssetSortColumn::VALUES);
    let rows = rows
        .iter()
        .map(|r| list::pick(r, ASSET_LIST_FIELDS))
        .collect();
    Ok(list::page(rows, req.params))
}

pub(super) fn update_fixed_asset(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let id = req.path("fixed_asset_id");
    let mut p = patch(req.params, req.now_ms);
    let depreciated = list::number(
        org.get(&FIXED_ASSET, id, None)?
            .get("accumulated_dep_value"),
    )
    .unwrap_or(0.0);
    if let (Some(cost), true) = (p.get("asset_cost").cloned(), depreciated == 0.0) {
        p.insert("current_asset_value".into(), cost);
    }
    Ok(Reply::ok(
        "The fixed asset has been updated.",
        org.update(&FIXED_ASSET, id, None, &p)?,
    ))
}

pub(super) fn delete_fixed_asset(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let id = req.path("fixed_asset_id");
    org.remove(&FIXED_ASSET, id, None)?;
    org.rows_mut(FIXED_ASSET_HISTORY.table)
        .retain(|r| !same_id(r.get("fixed_asset_id"), id));
    Ok(Reply::done("The selected fixed asset has been deleted."))
}

/// A status the asset takes, with what its history says of the change.
struct AssetChange<'a> {
    status: &'static str,
    description: String,
    /// The asset leaves the books: its value goes to zero.
    disposal: bool,
    date: Option<&'a str>,
}

/// Sets the asset's status and records the change in its history.
fn change_asset(store: &mut Store, req: &Req, change: AssetChange) -> Result<(), ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path("fixed_asset_id");
    let asset = org.get(&FIXED_ASSET, id, None)?;
    let value = list::number(asset.get("current_asset_value")).unwrap_or(0.0);
    let accumulated = list::number(asset.get("accumulated_dep_value")).unwrap_or(0.0);
    let mut p = json_obj(json!({ "status": change.status }));
    let (removed, left) = match change.disposal {
        true => {
            p.insert("current_asset_value".into(), 0.into());
            (value, 0.0)
        }
        false => (0.0, value),
    };
    org.update(&FIXED_ASSET, id, None, &patch(&p, req.now_ms))?;
    let entry = json_obj(json!({
        "description": change.description,
        "valuation_date": change.date.map_or_else(|| time::date(req.now_ms), String::from),
        "depreciated_value": num(removed),
        "current_value": num(left),
        "accumulated_value": num(accumulated),
        "type": change.status,
        "is_journal_posted": false,
    }));
    let entry_id = ids.next(&FIXED_ASSET_HISTORY);
    org.insert(&FIXED_ASSET_HISTORY, entry_id, entry, Some(id));
    Ok(())
}

fn mark_asset(store: &mut Store, req: &Req, status: &'static str) -> Result<Reply, ApiError> {
    let change = AssetChange {
        status,
        description: format!("Marked as {status}."),
        disposal: false,
        date: None,
    };
    change_asset(store, req, change)?;
    Ok(Reply::done("Fixed asset's status changed"))
}

pub(super) fn mark_fixed_asset_active(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    mark_asset(store, req, FixedAssetStatus::Active.as_str())
}

pub(super) fn mark_fixed_asset_cancelled(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    mark_asset(store, req, FixedAssetStatus::Cancel.as_str())
}

pub(super) fn mark_fixed_asset_draft(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    mark_asset(store, req, FixedAssetStatus::Draft.as_str())
}

/// `Sold.` or `Written off.`, and the reason given.
fn with_reason(what: &str, req: &Req) -> String {
    match req.text("reason").filter(|r| !r.trim().is_empty()) {
        Some(reason) => format!("{what}: {reason}"),
        None => format!("{what}."),
    }
}

pub(super) fn sell_fixed_asset(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let change = AssetChange {
        status: FixedAssetStatus::Sold.as_str(),
        description: with_reason("Sold", req),
        disposal: true,
        date: None,
    };
    change_asset(store, req, change)?;
    Ok(Reply::done("Fixed asset has been sold"))
}

pub(super) fn write_off_fixed_asset(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let change = AssetChange {
        status: FixedAssetStatus::WriteOff.as_str(),
        description: with_reason("Written off", req),
        disposal: true,
        date: req.text("date").filter(|d| !d.is_empty()),
    };
    change_asset(store, req, change)?;
    Ok(Reply::done("Fixed asset has been written off"))
}

/// The last day of the month `months` after the month of `start` (`yyyy-mm-dd`).
fn month_end(start: (i32, u32, u32), months: i64) -> String {
    let index = i64::from(start.0) * 12 + i64::from(start.1 - 1) + months;
    let (y, m) = (index.div_euclid(12), index.rem_euclid(12) as u32 + 1);
    let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    let first_of_next = svc_core::calendar::days_from_civil(ny as i32, nm, 1);
    time::date((first_of_next - 1) * time::DAY_MS)
}

/// The longest forecast, in periods.
const FORECAST_PERIODS: f64 = 1200.0;

/// The depreciation still to come, period by period, from the asset's value, salvage value, life,
/// method, rate and frequency; nothing for an asset that is sold, written off or cancelled.
pub fn forecast(asset: &Record, today: &str) -> Vec<Value> {
    let status = asset.get("status").and_then(Value::as_str).unwrap_or("");
    let ended = [
        FixedAssetStatus::Sold,
        FixedAssetStatus::WriteOff,
        FixedAssetStatus::Cancel,
    ];
    if ended.iter().any(|s| s.as_str() == status) {
        return Vec::new();
    }
    let n = |k: &str| list::number(asset.get(k));
    let mut value = n("current_asset_value")
        .or(n("dep_start_value"))
        .or(n("asset_cost"))
        .unwrap_or(0.0);
    let mut accumulated = n("accumulated_dep_value").unwrap_or(0.0);
    let salvage = n("salvage_value").unwrap_or(0.0);
    let life = n("total_life").unwrap_or(0.0);
    let step = match asset.get("depreciation_frequency").and_then(Value::as_str) {
        Some("monthly") => 1.0,
        _ => 12.0,
    };
    let periods = (life / step).ceil().clamp(0.0, FORECAST_PERIODS) as i64;
    let years = life / 12.0;
    let yearly_rate = match asset.get("depreciation_method").and_then(Value::as_str) {
        Some("straight_line") => None,
        Some("200_declining_method") if years > 0.0 => Some(2.0 / years),
        Some("150_declining_method") if years > 0.0 => Some(1.5 / years),
        _ => Some(n("depreciation_percentage").unwrap_or(0.0) / 100.0),
    };
    let start = ["depreciation_start_date", "asset_purchase_date"]
        .iter()
        .find_map(|k| asset.get(k).and_then(Value::as_str))
        .and_then(svc_core::calendar::parse_date)
        .or_else(|| svc_core::calendar::parse_date(today))
        .unwrap_or((1970, 1, 1));
    let cents = |f: f64| (f * 100.0).round() / 100.0;
    let mut out = Vec::new();
    for k in 1..=periods {
        let left = (value - salvage).max(0.0);
        let dep = match yearly_rate {
            _ if k == periods => left,
            None => left / (periods - k + 1) as f64,
            Some(rate) => (value * rate * step / 12.0).min(left),
        };
        let dep = cents(dep);
        value = cents(value - dep);
        accumulated = cents(accumulated + dep);
        out.push(json!({
            "valuation_date": month_end(start, k * step as i64 - 1),
            "depreciated_value": num(dep),
            "current_value": num(value),
            "accumulated_value": num(accumulated),
        }));
    }
    out
}

pub(super) fn get_fixed_asset_forecast(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let asset = org.get(&FIXED_ASSET, req.path("fixed_asset_id"), None)?;
    Ok(Reply::ok(
        "success",
        forecast(asset, &time::date(req.now_ms)),
    ))
}

pub(super) fn add_fixed_asset_comment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let rec = org.get_mut(&FIXED_ASSET, req.path("fixed_asset_id"), None)?;
    let comment = new_comment(req, ids, None);
    push(rec, "comments", comment.clone());
    Ok(Reply::ok("Comment has been added", comment))
}

pub(super) fn delete_fixed_asset_comment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let rec = org.get_mut(&FIXED_ASSET, req.path("fixed_asset_id"), None)?;
    remove_comment(rec, req.path("comment_id"))?;
    Ok(Reply::done("Fixed asset comment has been deleted"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::Handler;
    use crate::list::tests::sorted;

    #[test]
    fn fixed_assets_sort_by_every_column_of_the_core() {
        let columns = FixedAssetSortColumn::VALUES;
        let (mut store, ids) = sorted::two_rows(&FIXED_ASSET, None, columns);
        let op = ("listFixedAssets", list_fixed_assets as Handler);
        sorted::by_every_column(&mut store, op, &[], columns, (FIXED_ASSET.id, &ids));
    }

    #[test]
    fn a_forecast_runs_to_the_salvage_value_period_by_period() {
        let straight = json_obj(json!({
            "asset_cost": 1200, "current_asset_value": 1200, "salvage_value": 0, "total_life": 12,
            "depreciation_method": "straight_line", "depreciation_frequency": "monthly",
            "depreciation_start_date": "2024-12-17", "status": "active",
        }));
        let f = forecast(&straight, "2025-01-01");
        assert_eq!(f.len(), 12);
        assert_eq!(
            f[0],
            json!({"valuation_date": "2024-12-31", "depreciated_value": 100, "current_value": 1100, "accumulated_value": 100})
        );
        assert_eq!(f[2]["valuation_date"], json!("2025-02-28"));
        assert_eq!(f[11]["current_value"], json!(0));

        let declining = json_obj(json!({
            "asset_cost": 1000, "current_asset_value": 1000, "salvage_value": 100, "total_life": 60,
            "depreciation_method": "declining_method", "depreciation_percentage": 12,
            "depreciation_frequency": "yearly", "asset_purchase_date": "2024-12-17", "status": "draft",
        }));
        let f = forecast(&declining, "2025-01-01");
        let dep: Vec<&Value> = f.iter().map(|e| &e["depreciated_value"]).collect();
        assert_eq!(dep[..2], [&json!(120), &json!(105.6)]);
        assert_eq!(f[0]["valuation_date"], json!("2025-11-30"));
        assert_eq!(f[4]["current_value"], json!(100));
        assert_eq!(f[4]["accumulated_value"], json!(900));

        let mut sold = declining.clone();
        sold.insert("status".into(), json!("sold"));
        assert!(forecast(&sold, "2025-01-01").is_empty());
    }
}
