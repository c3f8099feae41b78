//! Lists kept in the record they are about (comments, attachments), shared by the resources.

use crate::call::Req;
use crate::common;
use crate::error::ApiError;
use crate::record::Value;
use crate::record::{json_obj, same_id, Record};
use crate::store::Ids;
use svc_json::json;

/// A comment by the sandbox's user, kept in the `comments` of the record it is about.
pub(super) fn new_comment(req: &Req, ids: &Ids, parent: Option<(&str, &str)>) -> Value {
    let mut c = json_obj(json!({
        "comment_id": ids.text(),
        "description": req.params.get("description").cloned().unwrap_or_default(),
        "comment_type": "user",
        "operation_type": "Added",
    }));
    c.extend(common::authored(req.now_ms));
    if let Some((field, id)) = parent {
        c.insert(field.to_string().into(), id.into());
    }
    Value::Obj(c)
}

/// Removes the comment `comment_id` from a record's `comments` (1002 when it has none of that id).
pub(super) fn remove_comment(rec: &mut Record, id: &str) -> Result<(), ApiError> {
    let comments = rec.get_mut("comments").and_then(Value::as_array_mut);
    let at = comments
        .as_ref()
        .and_then(|c| c.iter().position(|x| same_id(x.get("comment_id"), id)));
    match (comments, at) {
        (Some(c), Some(i)) => {
            c.remove(i);
            Ok(())
        }
        _ => Err(ApiError::not_found(format!(
            "The comment {:?} does not exist.",
            svc_core::echo::shorten(id)
        ))),
    }
}

/// Appends `item` to the array `key` of a record (comments, attachments, history).
pub(super) fn push(rec: &mut Record, key: &str, item: Value) {
    match rec.or_insert_with(key.to_string(), || Value::Arr(Vec::new())) {
        Value::Arr(items) => items.push(item),
        other => *other = Value::Arr(vec![item]),
    }
}
