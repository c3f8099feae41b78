//! Inventory: packages (numeric ids, listed under `packagea`) and composite items with their image.

use crate::call::{Handler, Reply, Req};
use crate::error::{required, ApiError};
use crate::list::{self, num, Cmp};
use crate::record::Value;
use crate::record::{defaults, patch, stamp, Record};
use crate::resource::{COMPOSITE_ITEM, PACKAGE};
use crate::store::{Ids, Org, Store};
use crate::time;
use svc_core::json;
use svc_core::model::inventory::{CompositeItemSortColumn, PackageSortColumn};

pub const HANDLERS: &[(&str, Handler)] = &[
    ("createPackage", create_package),
    ("listPackages", list_packages),
    ("updatePackage", update_package),
    ("createCompositeItem", create_composite_item),
    ("listCompositeItems", list_composite_items),
    ("updateCompositeItem", update_composite_item),
    ("uploadCompositeItemImage", upload_composite_item_image),
];

/// Gives the members of an array field a numeric `line_item_id` where they have none.
fn number_lines(rec: &mut Record, field: &str, ids: &Ids) {
    if let Some(Value::Arr(lines)) = rec.get_mut(field) {
        for line in lines.iter_mut().filter_map(Value::as_object_mut) {
            line.or_insert_with("line_item_id", || ids.big());
        }
    }
}

// ---- packages

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

fn create_package(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    if req.params.get("salesorder_id").is_none_or(Value::is_null) {
        return Err(ApiError::invalid(vec![required("salesorder_id")]));
    }
    let (org, ids) = store.open(req.org)?;
    Ok(Reply::created(
        "The package has been created.",
        insert_package(org, ids, req.params, req.now_ms),
    ))
}

fn list_packages(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

fn update_package(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

// ---- composite items

pub fn insert_composite_item(org: &mut Org, ids: &Ids, fields: &Record, now_ms: i64) -> Record {
    let mut rec = fields.clone();
    number_lines(&mut rec, "mapped_items", ids);
    let stock = rec.get("initial_stock").cloned().unwrap_or(Value::from(0));
    defaults(
        &mut rec,
        json!({
            "status": "active",
            "is_combo_product": true,
            "item_type": "inventory",
            "product_type": "goods",
            "stock_on_hand": stock,
            "available_stock": stock,
            "actual_available_stock": stock,
        }),
    );
    stamp(&mut rec, now_ms, true);
    org.insert(&COMPOSITE_ITEM, ids.next(&COMPOSITE_ITEM), rec, None)
}

fn create_composite_item(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    Ok(Reply::created(
        "The composite item has been added.",
        insert_composite_item(org, ids, req.params, req.now_ms),
    ))
}

fn list_composite_items(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let mut rows = store.read(req.org)?.list(&COMPOSITE_ITEM, None);
    let filter = list::filter_value(req.params, "status")
        .or_else(|| list::filter_value(req.params, "filter_by"));
    match filter.map(|f| list::norm(&f)).as_deref() {
        Some("lowstock") => rows.retain(|r| {
            match (
                list::number(r.get("stock_on_hand")),
                list::number(r.get("reorder_level")),
            ) {
                (Some(stock), Some(level)) => stock <= level,
                _ => false,
            }
        }),
        other => list::keep_status(&mut rows, "status", other),
    }
    list::sort(&mut rows, req.params, CompositeItemSortColumn::VALUES);
    Ok(list::page(rows, req.params))
}

fn update_composite_item(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let mut p = patch(req.params, req.now_ms);
    number_lines(&mut p, "mapped_items", ids);
    let rec = org.update(&COMPOSITE_ITEM, req.path("composite_item_id"), None, &p)?;
    Ok(Reply::ok("The composite item has been updated.", rec))
}

fn upload_composite_item_image(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let file = req
        .files
        .first()
        .ok_or_else(|| ApiError::invalid(vec![required("image")]))?;
    let rec = org.get_mut(&COMPOSITE_ITEM, req.path("composite_item_id"), None)?;
    let name = file.filename.clone().unwrap_or_default();
    let kind = name
        .rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase();
    rec.insert("image_id".into(), ids.text());
    rec.insert("image_name".into(), name.into());
    rec.insert("image_type".into(), kind.into());
    rec.insert("image_size".into(), file.data.len().into());
    Ok(Reply::done("The image has been uploaded."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::list::sorted;

    #[test]
    fn lists_sort_by_every_column_of_the_core() {
        let columns = PackageSortColumn::VALUES;
        let mut fields = columns.to_vec();
        fields.push("total_quantity");
        let (mut store, ids) = sorted::two_rows(&PACKAGE, None, &fields);
        let op = ("listPackages", list_packages as Handler);
        sorted::by_every_column(&mut store, op, &[], columns, (PACKAGE.id, &ids));

        let columns = CompositeItemSortColumn::VALUES;
        let (mut store, ids) = sorted::two_rows(&COMPOSITE_ITEM, None, columns);
        let op = ("listCompositeItems", list_composite_items as Handler);
        sorted::by_every_column(&mut store, op, &[], columns, (COMPOSITE_ITEM.id, &ids));
    }
}
