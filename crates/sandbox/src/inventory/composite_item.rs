//! Composite items with their image.

use super::package::number_lines;
use crate::call::{Reply, Req};
use crate::error::{required, ApiError};
use crate::list;
use crate::record::Value;
use crate::record::{defaults, patch, stamp, Record};
use crate::resource::COMPOSITE_ITEM;
use crate::store::{Ids, Org, Store};
use svc_core::model::inventory::CompositeItemSortColumn;
use svc_json::json;

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

pub(super) fn create_composite_item(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    Ok(Reply::created(
        "The composite item has been added.",
        insert_composite_item(org, ids, req.params, req.now_ms),
    ))
}

pub(super) fn list_composite_items(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

pub(super) fn update_composite_item(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let mut p = patch(req.params, req.now_ms);
    number_lines(&mut p, "mapped_items", ids);
    let rec = org.update(&COMPOSITE_ITEM, req.path("composite_item_id"), None, &p)?;
    Ok(Reply::ok("The composite item has been updated.", rec))
}

pub(super) fn upload_composite_item_image(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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
    use crate::call::Handler;
    use crate::list::tests::sorted;

    #[test]
    fn composite_items_sort_by_every_column_of_the_core() {
        let columns = CompositeItemSortColumn::VALUES;
        let (mut store, ids) = sorted::two_rows(&COMPOSITE_ITEM, None, columns);
        let op = ("listCompositeItems", list_composite_items as Handler);
        sorted::by_every_column(&mut store, op, &[], columns, (COMPOSITE_ITEM.id, &ids));
    }
}
