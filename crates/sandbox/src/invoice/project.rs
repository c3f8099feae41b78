//! Projects: their tasks, users, clone, status, comments, invoices and the extra delete.

use crate::call::{Reply, Req};
use crate::common::{self, USER_ID};
use crate::error::{code, ApiError};
use crate::list::{self, num};
use crate::record::Value;
use crate::record::{defaults, id_text, json_obj, merge, patch, same_id, stamp, Record};
use crate::resource::{COMMENT, EXPENSE, PROJECT, PROJECT_INVOICE, TASK, USER};
use crate::store::{Ids, Org, Store};
use crate::unique::{self, Upsert};
use svc_core::model::invoice::{ProjectInvoiceSortColumn, ProjectSortColumn, ProjectStatus};
use svc_json::json;

/// A user of a project, completed from the organization's users.
fn project_user(org: &Org, user: &Record) -> Record {
    let mut u = user.clone();
    let id = u.get("user_id").and_then(id_text).unwrap_or_default();
    if let Some(known) = org.lookup(USER.table, USER.id, &id) {
        for key in ["user_name", "email", "user_role"] {
            if let Some(v) = known.get(key) {
                u.or_insert_with(key, || v.clone());
            }
        }
    }
    defaults(
        &mut u,
        json!({
            "is_current_user": id == USER_ID,
            "user_role": "staff",
            "status": "active",
            "total_hours": "00:00",
            "billed_hours": "00:00",
            "un_billed_hours": "00:00",
        }),
    );
    u
}

pub(super) fn objects(v: Option<&Value>) -> Vec<Record> {
    v.and_then(Value::as_array)
        .map(|items| items.iter().filter_map(Value::as_object).cloned().collect())
        .unwrap_or_default()
}

/// Merges users by `user_id` into a list; the users of `extra` win.
pub(super) fn merge_users(org: &Org, mut users: Vec<Record>, extra: Vec<Record>) -> Vec<Record> {
    for u in extra {
        let id = u.get("user_id").and_then(id_text).unwrap_or_default();
        let u = project_user(org, &u);
        match users.iter_mut().find(|x| same_id(x.get("user_id"), &id)) {
            Some(x) => merge(x, &u, &[]),
            None => users.push(u),
        }
    }
    users
}

/// A project as answered: its record and its tasks.
pub fn render_project(org: &Org, mut rec: Record) -> Record {
    let id = rec.get("project_id").and_then(id_text).unwrap_or_default();
    let tasks: Vec<Value> = org
        .list(&TASK, Some(&id))
        .into_iter()
        .map(Value::Obj)
        .collect();
    rec.insert("tasks".into(), Value::Arr(tasks));
    rec
}

/// The project's `rate` as a number (requests may send it as a string).
fn numeric_rate(rec: &mut Record) {
    if let Some(n) = rec
        .get("rate")
        .filter(|v| v.is_string())
        .and_then(|v| list::number(Some(v)))
    {
        rec.insert("rate".into(), num(n));
    }
}

/// Creates or updates the tasks given with a project.
fn save_tasks(
    org: &mut Org,
    ids: &Ids,
    project: &str,
    tasks: Vec<Record>,
    now_ms: i64,
) -> Result<(), ApiError> {
    for task in tasks {
        match task.get("task_id").and_then(id_text) {
            Some(id) => {
                org.update(&TASK, &id, Some(project), &task)?;
            }
            None => {
                common::insert_task(org, ids, project, &task, now_ms)?;
            }
        }
    }
    Ok(())
}

pub fn insert_project(
    org: &mut Org,
    ids: &Ids,
    fields: &Record,
    now_ms: i64,
) -> Result<Record, ApiError> {
    let mut rec = fields.clone();
    let tasks = objects(rec.remove("tasks").as_ref());
    let mut extra = objects(rec.remove("users").as_ref());
    if let Some(first) = rec.get("user_id").cloned() {
        if !extra
            .iter()
            .any(|u| u.get("user_id").and_then(id_text) == id_text(&first))
        {
            extra.insert(0, json_obj(json!({ "user_id": first })));
        }
    }
    let users: Vec<Value> = merge_users(org, Vec::new(), extra)
        .into_iter()
        .map(Value::Obj)
        .collect();
    numeric_rate(&mut rec);
    let base = org.info.get("currency_code").cloned().unwrap_or_default();
    defaults(
        &mut rec,
        json!({
            "status": "active",
            "currency_code": base,
            "total_hours": "00:00",
            "billed_hours": "00:00",
            "un_billed_hours": "00:00",
            "billable_hours": "00:00",
            "non_billable_hours": "00:00",
            "total_amount": 0,
            "billed_amount": 0,
            "un_billed_amount": 0,
            "billable_amount": 0,
            "non_billable_amount": 0,
            "is_recurrence_associated": false,
            "recurring_invoices": [],
            "show_in_dashboard": true,
            "has_attachment": false,
            "users": users,
        }),
    );
    stamp(&mut rec, now_ms, true);
    let rec = org.insert(&PROJECT, ids.next(&PROJECT), rec, None);
    let id = rec.get("project_id").and_then(id_text).unwrap_or_default();
    save_tasks(org, ids, &id, tasks, now_ms)?;
    Ok(render_project(org, rec))
}

pub(super) fn create_project(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    Ok(Reply::created(
        "The project has been created.",
        insert_project(org, ids, req.params, req.now_ms)?,
    ))
}

pub(super) fn list_projects(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let mut rows = org.list(&PROJECT, None);
    list::keep_status(
        &mut rows,
        "status",
        list::filter_value(req.params, "filter_by").as_deref(),
    );
    list::keep_equal(&mut rows, req.params, "customer_id");
    list::sort(&mut rows, req.params, ProjectSortColumn::VALUES);
    Ok(list::page(rows, req.params))
}

pub(super) fn get_project(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let rec = org.get(&PROJECT, req.path("project_id"), None)?.clone();
    Ok(Reply::ok("success", render_project(org, rec)))
}

/// Merges an update into a project: its fields, its tasks, and its users by `user_id`.
fn apply_project_update(
    org: &mut Org,
    ids: &Ids,
    id: &str,
    params: &Record,
    now_ms: i64,
) -> Result<Record, ApiError> {
    let current = org.get(&PROJECT, id, None)?.clone();
    let mut p = patch(params, now_ms);
    let tasks = objects(p.remove("tasks").as_ref());
    let mut extra = objects(p.remove("users").as_ref());
    if let Some(user) = p.get("user_id").cloned() {
        extra.push(json_obj(json!({ "user_id": user })));
    }
    let users = merge_users(org, objects(current.get("users")), extra);
    p.insert(
        "users".into(),
        Value::Arr(users.into_iter().map(Value::Obj).collect()),
    );
    numeric_rate(&mut p);
    save_tasks(org, ids, id, tasks, now_ms)?;
    let rec = org.update(&PROJECT, id, None, &p)?;
    Ok(render_project(org, rec))
}

pub(super) fn update_project(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let rec = apply_project_update(org, ids, req.path("project_id"), req.params, req.now_ms)?;
    Ok(Reply::ok("The project has been updated.", rec))
}

pub(super) fn update_project_by_unique_field(
    store: &mut Store,
    req: &Req,
) -> Result<Reply, ApiError> {
    unique::update(
        store,
        req,
        &Upsert {
            resource: &PROJECT,
            noun: "project",
            create: "createProject",
            updated: "The project information has been updated.",
            created: "The project has been created.",
            update: apply_project_update,
            insert: insert_project,
        },
    )
}

/// Fields of a project that a clone does not take over: its identity, times, totals and status.
const NOT_CLONED: &[&str] = &[
    "project_id",
    "created_time",
    "last_modified_time",
    "status",
    "total_hours",
    "billed_hours",
    "un_billed_hours",
    "billable_hours",
    "non_billable_hours",
    "total_amount",
    "billed_amount",
    "un_billed_amount",
    "billable_amount",
    "non_billable_amount",
];

/// A new project with the source's fields, users and tasks (new task ids), and the given name
/// and description.
pub(super) fn clone_project(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let source = req.path("project_id");
    let mut fields = org.get(&PROJECT, source, None)?.clone();
    fields.retain(|k, _| !NOT_CLONED.contains(&k));
    let tasks: Vec<Value> = org
        .list(&TASK, Some(source))
        .iter()
        .map(|t| {
            Value::Obj(list::pick(
                t,
                &["task_name", "description", "rate", "budget_hours"],
            ))
        })
        .collect();
    fields.insert("tasks".into(), Value::Arr(tasks));
    merge(&mut fields, req.params, &[]);
    Ok(Reply::ok(
        "Project has been cloned successfully.",
        insert_project(org, ids, &fields, req.now_ms)?,
    ))
}

fn set_project_status(req: &Req, store: &mut Store, status: &str) -> Result<(), ApiError> {
    let (org, _) = store.open(req.org)?;
    let p = patch(&json_obj(json!({ "status": status })), req.now_ms);
    org.update(&PROJECT, req.path("project_id"), None, &p)?;
    Ok(())
}

pub(super) fn mark_project_active(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    set_project_status(req, store, ProjectStatus::Active.as_str())?;
    Ok(Reply::done(
        "The selected Projects have been marked as active.",
    ))
}

pub(super) fn mark_project_inactive(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    set_project_status(req, store, ProjectStatus::Inactive.as_str())?;
    Ok(Reply::done(
        "The selected projects have been marked as inactive.",
    ))
}

pub(super) fn add_project_comment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let project = req.path("project_id");
    org.exists(&PROJECT, project)?;
    let mut rec = req.params.clone();
    defaults(&mut rec, json!({ "is_current_user": true }));
    defaults(&mut rec, Value::Obj(common::authored(req.now_ms)));
    let rec = org.insert(&COMMENT, ids.next(&COMMENT), rec, Some(project));
    Ok(Reply::created("Comments added.", json!([rec])))
}

pub(super) fn list_project_invoices(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let project = req.path("project_id");
    org.exists(&PROJECT, project)?;
    let mut rows = org.list(&PROJECT_INVOICE, Some(project));
    list::sort(&mut rows, req.params, ProjectInvoiceSortColumn::VALUES);
    Ok(list::page(rows, req.params))
}

pub(super) fn delete_project(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let id = req.path("project_id");
    org.exists(&PROJECT, id)?;
    if org.refers(EXPENSE.table, "project_id", id) {
        return Err(ApiError::bad(
            code::PROJECT_HAS_EXPENSES,
            "The project has recorded expenses and cannot be deleted.",
        ));
    }
    org.remove(&PROJECT, id, None)?;
    for table in [TASK.table, COMMENT.table, PROJECT_INVOICE.table] {
        org.rows_mut(table)
            .retain(|r| !same_id(r.get("project_id"), id));
    }
    Ok(Reply::done("The project has been deleted."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::Handler;
    use crate::list::tests::sorted;

    #[test]
    fn lists_sort_by_every_column_of_the_core() {
        let columns = ProjectSortColumn::VALUES;
        let (mut store, ids) = sorted::two_rows(&PROJECT, None, columns);
        let op = ("listProjects", list_projects as Handler);
        sorted::by_every_column(&mut store, op, &[], columns, (PROJECT.id, &ids));

        let columns = ProjectInvoiceSortColumn::VALUES;
        let (mut store, projects) = sorted::two_rows(&PROJECT, None, &[]);
        let project = id_text(&projects[0]).unwrap();
        let ids = sorted::add_two(&mut store, &PROJECT_INVOICE, Some(&project), columns);
        let op = ("listProjectInvoices", list_project_invoices as Handler);
        let path = [("project_id", project.as_str())];
        sorted::by_every_column(&mut store, op, &path, columns, (PROJECT_INVOICE.id, &ids));
    }
}
