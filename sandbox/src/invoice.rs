//! Invoicing: currencies, projects (users, comments, invoices, the extra delete), recurring invoices.

use crate::call::{Handler, Reply, Req};
use crate::common::{self, currency_code, price_lines, USER_ID};
use crate::error::{code, required, ApiError};
use crate::list::{self, num};
use crate::record::Value;
use crate::record::{defaults, id_text, json_obj, merge, patch, same_id, stamp, Record};
use crate::resource::{
    COMMENT, CURRENCY, EXPENSE, JOURNAL, PROJECT, PROJECT_INVOICE, RECURRING_INVOICE,
    RECURRING_INVOICE_HISTORY, TASK, USER, VENDOR_CREDIT,
};
use crate::store::{Ids, Org, Store};
use crate::time;
use crate::unique::{self, Upsert};
use svc_core::json;
use svc_core::model::invoice::{ProjectInvoiceSortColumn, ProjectSortColumn};

pub const HANDLERS: &[(&str, Handler)] = &[
    ("createCurrency", create_currency),
    ("listCurrencies", list_currencies),
    ("updateCurrency", update_currency),
    ("deleteCurrency", delete_currency),
    ("createProject", create_project),
    ("listProjects", list_projects),
    ("getProject", get_project),
    ("updateProject", update_project),
    ("updateProjectByUniqueField", update_project_by_unique_field),
    ("cloneProject", clone_project),
    ("markProjectActive", mark_project_active),
    ("markProjectInactive", mark_project_inactive),
    ("addProjectUsers", add_project_users),
    ("inviteProjectUser", invite_project_user),
    ("listProjectUsers", list_project_users),
    ("getProjectUser", get_project_user),
    ("updateProjectUser", update_project_user),
    ("removeProjectUser", remove_project_user),
    ("addProjectComment", add_project_comment),
    ("listProjectInvoices", list_project_invoices),
    ("createRecurringInvoice", create_recurring_invoice),
    ("listRecurringInvoices", list_recurring_invoices),
    ("updateRecurringInvoice", update_recurring_invoice),
    (
        "updateRecurringInvoiceByUniqueField",
        update_recurring_invoice_by_unique_field,
    ),
    ("deleteRecurringInvoice", delete_recurring_invoice),
    ("stopRecurringInvoice", stop_recurring_invoice),
    ("resumeRecurringInvoice", resume_recurring_invoice),
    (
        "updateRecurringInvoiceTemplate",
        update_recurring_invoice_template,
    ),
    ("deleteProject", delete_project),
];

/// The rows that answer 4031 to a recurring invoice without a name.
const NAMED_RECURRING: &[&str] = &[
    "createRecurringInvoice",
    "updateRecurringInvoice",
    "updateRecurringInvoiceByUniqueField",
];

/// The rows that answer 20004 to a negative amount of a project.
const PROJECT_AMOUNTS: &[&str] = &[
    "createProject",
    "updateProject",
    "updateProjectByUniqueField",
    "addProjectUsers",
    "inviteProjectUser",
    "updateProjectUser",
];

/// The documented errors that come before the generic rules: 4031 and 20004.
pub fn precheck(op_id: &str, params: &Record) -> Option<ApiError> {
    if NAMED_RECURRING.contains(&op_id) {
        let named = params
            .get("recurrence_name")
            .and_then(Value::as_str)
            .is_some_and(|n| !n.trim().is_empty());
        return (!named).then(|| {
            ApiError::bad(
                code::RECURRING_NAME,
                "A recurring invoice needs a name (recurrence_name).",
            )
        });
    }
    if PROJECT_AMOUNTS.contains(&op_id) {
        return negative_amount(params).map(|field| {
            ApiError::bad(
                code::NEGATIVE_AMOUNT,
                format!("{field} of a project may not be negative."),
            )
        });
    }
    None
}

fn is_amount(key: &str) -> bool {
    key == "rate" || key == "cost_rate" || key.contains("amount")
}

/// The first amount of a project (its own, or of a task or user) that is below zero.
fn negative_amount(params: &Record) -> Option<String> {
    let negative = |v: &Value| list::number(Some(v)).is_some_and(|n| n < 0.0);
    if let Some((k, _)) = params.iter().find(|(k, v)| is_amount(k) && negative(v)) {
        return Some(k.to_string());
    }
    for list in ["tasks", "users"] {
        let Some(items) = params.get(list).and_then(Value::as_array) else {
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            let found = item
                .as_object()
                .and_then(|o| o.iter().find(|(k, v)| is_amount(k) && negative(v)));
            if let Some((k, _)) = found {
                return Some(format!("{list}[{i}].{k}"));
            }
        }
    }
    None
}

// ---- currencies

fn ensure_unique_code(org: &Org, code: &str, except: Option<&str>) -> Result<(), ApiError> {
    let taken = org.rows(CURRENCY.table).iter().any(|r| {
        currency_code(r) == code.to_ascii_uppercase()
            && !except.is_some_and(|id| same_id(r.get("currency_id"), id))
    });
    match taken {
        true => Err(ApiError::bad(
            code::DUPLICATE,
            format!("The currency {code} has already been added."),
        )),
        false => Ok(()),
    }
}

fn create_currency(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let code = req
        .text("currency_code")
        .ok_or_else(|| ApiError::invalid(vec![required("currency_code")]))?;
    ensure_unique_code(org, code, None)?;
    Ok(Reply::created(
        "The currency has been added.",
        common::insert_currency(org, ids, req.params, false, req.now_ms),
    ))
}

fn list_currencies(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let mut rows = store.read(req.org)?.list(&CURRENCY, None);
    if list::filter_value(req.params, "filter_by")
        .is_some_and(|f| list::norm(&f) == "excludebasecurrency")
    {
        rows.retain(|r| r.get("is_base_currency") != Some(&Value::Bool(true)));
    }
    Ok(list::page(rows, req.params))
}

fn update_currency(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let id = req.path("currency_id");
    org.exists(&CURRENCY, id)?;
    if let Some(code) = req.text("currency_code") {
        ensure_unique_code(org, code, Some(id))?;
    }
    Ok(Reply::ok(
        "The currency information has been saved.",
        org.update(&CURRENCY, id, None, req.params)?,
    ))
}

/// Records that carry a currency: a currency they use cannot be deleted.
const CURRENCY_USERS: &[(&str, &str)] = &[
    (EXPENSE.table, "an expense"),
    (VENDOR_CREDIT.table, "a vendor credit"),
    (RECURRING_INVOICE.table, "a recurring invoice"),
    (JOURNAL.table, "a journal"),
];

fn delete_currency(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let id = req.path("currency_id");
    if org.get(&CURRENCY, id, None)?.get("is_base_currency") == Some(&Value::Bool(true)) {
        return Err(ApiError::bad(
            code::IN_USE,
            "The base currency cannot be deleted.",
        ));
    }
    if let Some((_, what)) = CURRENCY_USERS
        .iter()
        .find(|(table, _)| org.refers(table, "currency_id", id))
    {
        return Err(ApiError::bad(
            code::IN_USE,
            format!("The currency is used by {what} and cannot be deleted."),
        ));
    }
    org.remove(&CURRENCY, id, None)?;
    Ok(Reply::done("The currency has been deleted."))
}

// ---- projects

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

fn objects(v: Option<&Value>) -> Vec<Record> {
    v.and_then(Value::as_array)
        .map(|items| items.iter().filter_map(Value::as_object).cloned().collect())
        .unwrap_or_default()
}

/// Merges users by `user_id` into a list; the users of `extra` win.
fn merge_users(org: &Org, mut users: Vec<Record>, extra: Vec<Record>) -> Vec<Record> {
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

fn create_project(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    Ok(Reply::created(
        "The project has been created.",
        insert_project(org, ids, req.params, req.now_ms)?,
    ))
}

fn list_projects(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

fn get_project(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

fn update_project(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let rec = apply_project_update(org, ids, req.path("project_id"), req.params, req.now_ms)?;
    Ok(Reply::ok("The project has been updated.", rec))
}

fn update_project_by_unique_field(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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
fn clone_project(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

fn mark_project_active(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    set_project_status(req, store, "active")?;
    Ok(Reply::done(
        "The selected Projects have been marked as active.",
    ))
}

fn mark_project_inactive(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    set_project_status(req, store, "inactive")?;
    Ok(Reply::done(
        "The selected projects have been marked as inactive.",
    ))
}

// ---- the users of a project: kept in the project's record (`users`)

/// The users of a project (1002 when the project does not exist).
fn users_of(org: &Org, project: &str) -> Result<Vec<Record>, ApiError> {
    Ok(objects(org.get(&PROJECT, project, None)?.get("users")))
}

fn save_users(org: &mut Org, project: &str, users: &[Record], now_ms: i64) -> Result<(), ApiError> {
    let list: Vec<Value> = users.iter().cloned().map(Value::Obj).collect();
    let p = patch(&json_obj(json!({ "users": list })), now_ms);
    org.update(&PROJECT, project, None, &p)?;
    Ok(())
}

fn user_not_on_project(user: &str) -> ApiError {
    ApiError::not_found(format!(
        "The user {:?} is not on this project.",
        svc_core::echo::shorten(user)
    ))
}

/// Merges users into a project; returns them as stored, in the order given.
fn put_users(
    org: &mut Org,
    project: &str,
    given: Vec<Record>,
    now_ms: i64,
) -> Result<Vec<Value>, ApiError> {
    let wanted: Vec<String> = given
        .iter()
        .filter_map(|u| u.get("user_id").and_then(id_text))
        .collect();
    let users = merge_users(org, users_of(org, project)?, given);
    save_users(org, project, &users, now_ms)?;
    Ok(wanted
        .iter()
        .filter_map(|id| users.iter().find(|u| same_id(u.get("user_id"), id)))
        .cloned()
        .map(Value::Obj)
        .collect())
}

fn add_project_users(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let mut given = objects(req.params.get("users"));
    if let Some(rate) = req.params.get("cost_rate") {
        for u in &mut given {
            u.or_insert_with("cost_rate", || rate.clone());
        }
    }
    let added = put_users(org, req.path("project_id"), given, req.now_ms)?;
    Ok(Reply::created("Users added", Value::Arr(added)))
}

/// Adds a user to the organization (or finds one by `email`) and puts it on the project.
fn invite_project_user(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let project = req.path("project_id");
    org.exists(&PROJECT, project)?;
    let known = req
        .text("email")
        .and_then(|e| org.lookup(USER.table, "email", e))
        .and_then(|u| u.get(USER.id).cloned());
    let id = match known {
        Some(id) => id,
        None => {
            let fields = list::pick(req.params, &["user_name", "email", "user_role"]);
            org.insert(&USER, ids.next(&USER), fields, None)[USER.id].clone()
        }
    };
    let mut user = req.params.clone();
    user.insert("user_id".into(), id);
    let added = put_users(org, project, vec![user], req.now_ms)?;
    Ok(Reply::created(
        "The staff has been added.",
        Value::Arr(added),
    ))
}

fn list_project_users(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let users = users_of(store.read(req.org)?, req.path("project_id"))?;
    Ok(list::page(users, req.params))
}

fn get_project_user(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let user = req.path("user_id");
    let users = users_of(store.read(req.org)?, req.path("project_id"))?;
    let found = users
        .into_iter()
        .find(|u| same_id(u.get("user_id"), user))
        .ok_or_else(|| user_not_on_project(user))?;
    Ok(Reply::ok("success", found))
}

fn update_project_user(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let (project, user) = (req.path("project_id"), req.path("user_id"));
    let mut users = users_of(org, project)?;
    let found = users
        .iter_mut()
        .find(|u| same_id(u.get("user_id"), user))
        .ok_or_else(|| user_not_on_project(user))?;
    merge(found, req.params, &["user_id"]);
    let updated = found.clone();
    save_users(org, project, &users, req.now_ms)?;
    Ok(Reply::ok(
        "The staff information has been updated.",
        json!([updated]),
    ))
}

fn remove_project_user(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let user = req.path("user_id");
    let rec = org.get_mut(&PROJECT, req.path("project_id"), None)?;
    let Some(Value::Arr(users)) = rec.get_mut("users") else {
        return Err(ApiError::not_found(format!(
            "The user {user:?} is not on this project."
        )));
    };
    let at = users
        .iter()
        .position(|u| same_id(u.get("user_id"), user))
        .ok_or_else(|| ApiError::not_found(format!("The user {user:?} is not on this project.")))?;
    users.remove(at);
    Ok(Reply::done("The staff has been removed from the project."))
}

fn add_project_comment(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let project = req.path("project_id");
    org.exists(&PROJECT, project)?;
    let mut rec = req.params.clone();
    defaults(&mut rec, json!({ "is_current_user": true }));
    defaults(&mut rec, Value::Obj(common::authored(req.now_ms)));
    let rec = org.insert(&COMMENT, ids.next(&COMMENT), rec, Some(project));
    Ok(Reply::created("Comments added.", json!([rec])))
}

fn list_project_invoices(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let project = req.path("project_id");
    org.exists(&PROJECT, project)?;
    let mut rows = org.list(&PROJECT_INVOICE, Some(project));
    list::sort(&mut rows, req.params, ProjectInvoiceSortColumn::VALUES);
    Ok(list::page(rows, req.params))
}

fn delete_project(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

// ---- recurring invoices

fn ensure_unique_name(org: &Org, name: &str, except: Option<&str>) -> Result<(), ApiError> {
    let taken = org.rows(RECURRING_INVOICE.table).iter().any(|r| {
        r.get("recurrence_name").and_then(Value::as_str) == Some(name)
            && !except.is_some_and(|id| same_id(r.get(RECURRING_INVOICE.id), id))
    });
    match taken {
        true => Err(ApiError::bad(
            code::DUPLICATE,
            format!(
                "A recurring invoice named {:?} already exists.",
                svc_core::echo::shorten(name)
            ),
        )),
        false => Ok(()),
    }
}

/// Writes what happened to a recurring invoice into its history.
fn record_history(
    org: &mut Org,
    ids: &Ids,
    id: &str,
    operation: &str,
    description: &str,
    now_ms: i64,
) {
    let mut entry = json_obj(json!({
        "comment_description": description,
        "comment_type": "system",
        "operation_type": operation,
    }));
    entry.extend(common::authored(now_ms));
    org.insert(
        &RECURRING_INVOICE_HISTORY,
        ids.next(&RECURRING_INVOICE_HISTORY),
        entry,
        Some(id),
    );
}

fn insert_recurring_invoice(
    org: &mut Org,
    ids: &Ids,
    fields: &Record,
    now_ms: i64,
) -> Result<Record, ApiError> {
    let name = fields
        .get("recurrence_name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    ensure_unique_name(org, name, None)?;
    let mut rec = fields.clone();
    let total = price_lines(&mut rec, ids);
    let start = rec
        .get("start_date")
        .cloned()
        .unwrap_or_else(|| time::date(now_ms).into());
    defaults(
        &mut rec,
        json!({
            "status": "active",
            "start_date": start,
            "next_invoice_date": start,
            "currency_id": org.info.get("currency_id").cloned().unwrap_or_default(),
            "repeat_every": 1,
            "sub_total": num(total),
            "total": num(total),
        }),
    );
    stamp(&mut rec, now_ms, true);
    let rec = org.insert(&RECURRING_INVOICE, ids.next(&RECURRING_INVOICE), rec, None);
    let id = rec
        .get(RECURRING_INVOICE.id)
        .and_then(id_text)
        .unwrap_or_default();
    record_history(org, ids, &id, "Added", "Recurring Invoice created", now_ms);
    Ok(rec)
}

fn create_recurring_invoice(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    Ok(Reply::created(
        "The recurring invoice has been created.",
        insert_recurring_invoice(org, ids, req.params, req.now_ms)?,
    ))
}

fn list_recurring_invoices(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let mut rows = store.read(req.org)?.list(&RECURRING_INVOICE, None);
    for filter in ["status", "filter_by"] {
        list::keep_status(
            &mut rows,
            "status",
            list::filter_value(req.params, filter).as_deref(),
        );
    }
    list::keep_equal(&mut rows, req.params, "customer_id");
    if let Some(name) = req.text("recurrence_name").filter(|n| !n.is_empty()) {
        rows.retain(|r| r.get("recurrence_name").and_then(Value::as_str) == Some(name));
    }
    list::sort(
        &mut rows,
        req.params,
        &["created_time", "recurrence_name", "customer_name"],
    );
    Ok(list::page(rows, req.params))
}

/// Merges an update into a recurring invoice (its lines priced again) and records it.
fn apply_recurring_update(
    org: &mut Org,
    ids: &Ids,
    id: &str,
    params: &Record,
    now_ms: i64,
) -> Result<Record, ApiError> {
    org.exists(&RECURRING_INVOICE, id)?;
    if let Some(name) = params.get("recurrence_name").and_then(Value::as_str) {
        ensure_unique_name(org, name, Some(id))?;
    }
    let mut p = patch(params, now_ms);
    if p.contains_key("line_items") {
        let total = num(price_lines(&mut p, ids));
        p.insert("sub_total".into(), total.clone());
        p.insert("total".into(), total);
    }
    let rec = org.update(&RECURRING_INVOICE, id, None, &p)?;
    record_history(org, ids, id, "Updated", "Recurring Invoice updated", now_ms);
    Ok(rec)
}

fn update_recurring_invoice(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path(RECURRING_INVOICE.id);
    Ok(Reply::ok(
        "The recurring invoice has been updated.",
        apply_recurring_update(org, ids, id, req.params, req.now_ms)?,
    ))
}

fn update_recurring_invoice_by_unique_field(
    store: &mut Store,
    req: &Req,
) -> Result<Reply, ApiError> {
    unique::update(
        store,
        req,
        &Upsert {
            resource: &RECURRING_INVOICE,
            noun: "recurring invoice",
            create: "createRecurringInvoice",
            updated: "The recurring invoice has been updated.",
            created: "The recurring invoice has been created.",
            update: apply_recurring_update,
            insert: insert_recurring_invoice,
        },
    )
}

/// Removes the recurring invoice with its history.
fn delete_recurring_invoice(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let id = req.path(RECURRING_INVOICE.id);
    org.remove(&RECURRING_INVOICE, id, None)?;
    org.rows_mut(RECURRING_INVOICE_HISTORY.table)
        .retain(|r| !same_id(r.get(RECURRING_INVOICE.id), id));
    Ok(Reply::done(
        "The recurring invoice is deleted successfully.",
    ))
}

/// Sets a recurring invoice's status and records it; the vendor answers 201.
fn set_recurring_status(
    store: &mut Store,
    req: &Req,
    status: &str,
    operation: &str,
    message: &str,
) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path(RECURRING_INVOICE.id);
    let p = patch(&json_obj(json!({ "status": status })), req.now_ms);
    org.update(&RECURRING_INVOICE, id, None, &p)?;
    let description = format!("Recurring Invoice {}", operation.to_lowercase());
    record_history(org, ids, id, operation, &description, req.now_ms);
    let mut reply = Reply::done(message);
    reply.status = 201;
    Ok(reply)
}

fn stop_recurring_invoice(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    set_recurring_status(
        store,
        req,
        "stopped",
        "Stopped",
        "The recurring invoice has been stopped.",
    )
}

fn resume_recurring_invoice(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    set_recurring_status(
        store,
        req,
        "active",
        "Resumed",
        "The recurring invoice has been resumed.",
    )
}

/// Keeps the template of the path as the recurring invoice's `template_id`.
fn update_recurring_invoice_template(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path(RECURRING_INVOICE.id);
    let template = req.path("template_id");
    let p = patch(&json_obj(json!({ "template_id": template })), req.now_ms);
    org.update(&RECURRING_INVOICE, id, None, &p)?;
    let description = format!("Template {template} applied");
    record_history(org, ids, id, "Updated", &description, req.now_ms);
    Ok(Reply::done(
        "The template of the recurring invoice has been updated.",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::list::sorted;

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

    #[test]
    fn prechecks_name_rows_of_the_core_whose_params_hold_their_fields() {
        for id in NAMED_RECURRING {
            let op = svc_core::catalog::find(id).unwrap();
            assert!(op.params.field("recurrence_name").is_some(), "{id}");
        }
        for id in PROJECT_AMOUNTS {
            let op = svc_core::catalog::find(id).unwrap();
            assert!(
                op.params
                    .fields
                    .iter()
                    .any(|f| is_amount(f.name) || f.name == "users"),
                "{id}"
            );
        }
    }

    #[test]
    fn prechecks_answer_the_documented_codes() {
        let p = |v: Value| json_obj(v);
        let code_of = |op: &str, v: Value| precheck(op, &p(v)).map(|e| (e.status, e.code));
        assert_eq!(
            code_of("createRecurringInvoice", json!({})),
            Some((400, 4031))
        );
        assert_eq!(
            code_of("createRecurringInvoice", json!({"recurrence_name": "  "})),
            Some((400, 4031))
        );
        assert_eq!(
            code_of("createRecurringInvoice", json!({"recurrence_name": "M"})),
            None
        );
        assert_eq!(
            code_of("createProject", json!({"rate": "-1"})),
            Some((400, 20004))
        );
        assert_eq!(
            code_of("updateProject", json!({"budget_amount": -0.5})),
            Some((400, 20004))
        );
        assert_eq!(
            code_of(
                "createProject",
                json!({"users": [{"rate": 1}, {"cost_rate": "-3"}]})
            ),
            Some((400, 20004))
        );
        assert_eq!(
            code_of("createProject", json!({"rate": " ", "budget_hours": "-1"})),
            None
        );
        let e = precheck("createProject", &p(json!({"tasks": [{"rate": -2}]}))).unwrap();
        assert!(e.message.contains("tasks[0].rate"), "{}", e.message);
        assert_eq!(
            code_of("updateRecurringInvoiceByUniqueField", json!({})),
            Some((400, 4031))
        );
        assert_eq!(
            code_of("updateProjectUser", json!({"cost_rate": "-1"})),
            Some((400, 20004))
        );
        assert_eq!(
            code_of("addProjectUsers", json!({"users": [{"rate": -2}]})),
            Some((400, 20004))
        );
        assert!(precheck("listProjects", &p(json!({"rate": -1}))).is_none());
    }
}
