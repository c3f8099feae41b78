//! Packages: numeric ids, listed under packagea, and numbered lines.

use crate::call::{Reply, Req};
use crate::error::{required, ApiError};
use crate::list::{self, num, Cmp};
use crate::record::Value;
use crate::record::{defaults, patch, stamp, Record};
use crate::resource::PACKAGE;
use crate::store::{Ids, Org, Store};
use crate::time;
use svc_core::model::inventory::PackageSortColumn;
use svc_json::json;

/// Gives the members of an array field a numeric `line_item_id` where they have none.
pub(super) fn number_lines(rec: &mut Record, field: &str, ids: &Ids) {
    if let Some(Value::Arr(lines)) = rec.get_mut(field) {
        for line in lines.iter_mut().filter_map(Value::as_object_mut) {
            line.or_insert_with("line_item_id", || ids.big());
        }
    }
}

pub fn insert_package(org: &mut Org, ids: &Ids, fields: &Record, now_ms: i64) -> Record {
    let mut rec = fields.clone();
    number_lines(&mut rec, "line_items", ids);
    let (number, _) = org.next_number("PA");
    let quantity = num(list::sum(&rec, "line_items", "quantity"));
    defaults(
        &mut rec,
        json!({
            "package_number": number,
            "date": time::date(now_ms),
            "status": "not_shipped",
            "is_emailed": false,
            "total_quantity": quantity,
        }),
    );
    stamp(&mut rec, now_ms, true);
    org.insert(&PACKAGE, ids.next(&PACKAGE), rec, None)
}

pub(super) fn create_package(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    if req.params.get("salesorder_id").is_none_or(Value::is_null) {
        return Err(ApiError::invalid(vec![required("salesorder_id")]));
    }
    let (org, ids) = store.open(req.org)?;
    Ok(Reply::created(
        "The package has been created.",
        insert_package(org, ids, req.params, req.now_ms),
    ))
}

pub(super) fn list_packages(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let p = req.params;
    let mut rows = store.read(req.org)?.list(&PACKAGE, None);
    let status = list::filter_value(p, "status").or_else(|| list::filter_value(p, "filter_by"));
    list::keep_status(&mut rows, "status", status.as_deref());
    list::keep_range(
        &mut rows,
        p,
        "date",
        &[("date_after", Cmp::Gt), ("date_before", Cmp::Lt)],
    );
    list::keep_range(
        &mut rows,
        p,
        "shipment_date",
        &[
            ("shipment_date_after", Cmp::Gt),
            ("shipment_date_before", Cmp::Lt),
        ],
    );
    list::sort_renamed(
        &mut rows,
        p,
        PackageSortColumn::VALUES,
        &[(PackageSortColumn::Quantity.as_str(), "total_quantity")],
    );
    Ok(list::page(rows, p))
}

pub(super) fn update_package(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let mut p = patch(req.params, req.now_ms);
    if p.contains_key("line_items") {
        number_lines(&mut p, "line_items", ids);
        p.insert(
            "total_quantity".into(),
            num(list::sum(&p, "line_items", "quantity")),
        );
    }
    Ok(Reply::ok(
        "The package has been updated.",
        org.update(&PACKAGE, req.path("package_id"), None, &p)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::Handler;
    use crate::list::tests::sorted;

    #[test]
    fn packages_sort_by_every_column_of_the_core() {
        let columns = PackageSortColumn::VALUES;
        let mut fields = columns.to_vec();
        fields.push("total_quantity");
        let (mut store, ids) = sorted::two_rows(&PACKAGE, None, &fields);
        let op = ("listPackages", list_packages as Handler);
        sorted::by_every_column(&mut store, op, &[], columns, (PACKAGE.id, &ids));
    }
}
