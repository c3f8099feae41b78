//! The billing events, listed.

use crate::call::{Reply, Req};
use crate::error::ApiError;
use crate::list;
use crate::record::Record;
use crate::record::Value;
use crate::resource::EVENT;
use crate::store::Store;

pub(super) fn list_events(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let mut rows: Vec<Record> = org
        .list(&EVENT, None)
        .iter()
        .rev()
        .map(|e| list::pick(e, &["event_id", "event_type", "event_time"]))
        .collect();
    if let Some(kind) = req.text("event_type").filter(|k| !k.is_empty()) {
        rows.retain(|e| e.get("event_type").and_then(Value::as_str) == Some(kind));
    }
    Ok(list::page(rows, req.params))
}
