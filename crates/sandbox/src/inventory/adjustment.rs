//! What an inventory adjustment does beyond its record: a quantity adjustment moves each of its
//! items' stock on hand by the quantity adjusted.

use crate::call::{Reply, Req};
use crate::error::ApiError;
use crate::generic;
use crate::list::{self, number};
use crate::record::{id_text, Value};
use crate::resource::Resource;
use crate::store::Store;

const ITEM: Resource = Resource::new("/items", "item_id");

/// `createItemAdjustment`: every item of a quantity adjustment must exist (else 1002, and nothing
/// moves); each one's `stock_on_hand` and `available_stock` change by its `quantity_adjusted`; the
/// adjustment is stored by the generic store. A value adjustment moves no stock.
pub fn create_item_adjustment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let by_value = req.params.get("adjustment_type").and_then(Value::as_str) == Some("value");
    let lines = req.params.get("line_items").and_then(Value::as_array);
    let moves: Vec<(String, f64)> = match by_value {
        true => Vec::new(),
        false => lines
            .into_iter()
            .flatten()
            .filter_map(|l| {
                Some((
                    id_text(l.get("item_id")?)?,
                    number(l.get("quantity_adjusted"))?,
                ))
            })
            .collect(),
    };
    let (org, _) = store.space(req.org)?;
    for (id, _) in &moves {
        org.get(&ITEM, id, None)?;
    }
    for (id, by) in &moves {
        let item = org.get_mut(&ITEM, id, None)?;
        for field in ["stock_on_hand", "available_stock"] {
            let now = number(item.get(field)).unwrap_or(0.0);
            item.insert(field.into(), list::num(now + by));
        }
    }
    generic::serve(store, req)
}
