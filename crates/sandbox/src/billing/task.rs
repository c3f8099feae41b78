//! Tasks of billing projects.

use crate::call::{Reply, Req};
use crate::common::insert_task;
use crate::error::ApiError;
use crate::store::Store;

pub(super) fn create_task(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let task = insert_task(org, ids, req.path("project_id"), req.params, req.now_ms)?;
    Ok(Reply::created("The task has been added.", task))
}
