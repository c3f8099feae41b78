//! Invoicing: currencies, projects (users, comments, invoices, the extra delete), recurring invoices.

use crate::call::{Handler, Reply, Req};
use crate::common::{self, currency_code, price_lines, USER_ID, USER_NAME};
use crate::error::{code, required, ApiError};
use crate::list::{self, num};
use crate::record::{defaults, id_text, json_obj, merge, patch, same_id, stamp, Record};
use crate::resource::{
    COMMENT, CURRENCY, EXPENSE, JOURNAL, PROJECT, PROJECT_INVOICE, RECURRING_INVOICE, TASK, USER,
    VENDOR_CREDIT,
};
use crate::store::{Ids, Org, Store};
use crate::time;
use serde_json::{json, Value};

pub const HANDLERS: &[(&str, Handler)] = &[
    ("createCurrency", create_currency),
    ("listCurrencies", list_currencies),
    ("updateCurrency", update_currency),
    ("deleteCurrency", delete_currency),
    ("createProject", create_project),
    ("listProjects", list_projects),
    ("updateProject", update_project),
    ("removeProjectUser", remove_project_user),
    ("addProjectComment", add_project_comment),
    ("listProjectInvoices", list_project_invoices),
    ("createRecurringInvoice", create_recurring_invoice),
    ("deleteProject", delete_project),
];

/// The documented errors that come before the generic rules: 4031 and 20004.
pub fn precheck(op_id: &str, params: &Record) -> Option<ApiError> {
    match op_id {
        "createRecurringInvoice" => {
            let named = params
                .get("recurrence_name")
                .and_then(Value::as_str)
                .is_some_and(|n| !n.trim().is_empty());
            (!named).then(|| {
                ApiError::bad(
                    code::RECURRING_NAME,
                    "A recurring invoice needs a name (recurrence_name).",
                )
            })
        }
        "createProject" | "updateProject" => negative_amount(params).map(|field| {
            ApiError::bad(
                code::NEGATIVE_AMOUNT,
                format!("{field} of a project may not be negative."),
            )
        }),
        _ => None,
    }
}

fn is_amount(key: &str) -> bool {
    key == "rate" || key == "cost_rate" || key.contains("amount")
}

/// The first amount of a project (its own, or of a task or user) that is below zero.
fn negative_amount(params: &Record) -> Option<String> {
    let negative = |v: &Value| list::number(Some(v)).is_some_and(|n| n < 0.0);
    if let Some((k, _)) = params.iter().find(|(k, v)| is_amount(k) && negative(v)) {
        return Some(k.clone());
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
                u.entry(key).or_insert(v.clone());
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
        .map(Value::Object)
        .collect();
    rec.insert("tasks".into(), Value::Array(tasks));
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
        .map(Value::Object)
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
    list::sort(
        &mut rows,
        req.params,
        &["project_name", "customer_name", "rate", "created_time"],
    );
    Ok(list::page(rows, req.params))
}

fn update_project(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let id = req.path("project_id");
    let current = org.get(&PROJECT, id, None)?.clone();
    let mut p = patch(req.params, req.now_ms);
    let tasks = objects(p.remove("tasks").as_ref());
    let mut extra = objects(p.remove("users").as_ref());
    if let Some(user) = p.get("user_id").cloned() {
        extra.push(json_obj(json!({ "user_id": user })));
    }
    let users = merge_users(org, objects(current.get("users")), extra);
    p.insert(
        "users".into(),
        Value::Array(users.into_iter().map(Value::Object).collect()),
    );
    numeric_rate(&mut p);
    save_tasks(org, ids, id, tasks, req.now_ms)?;
    let rec = org.update(&PROJECT, id, None, &p)?;
    Ok(Reply::ok(
        "The project has been updated.",
        render_project(org, rec),
    ))
}

fn remove_project_user(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, _) = store.open(req.org)?;
    let user = req.path("user_id");
    let rec = org.get_mut(&PROJECT, req.path("project_id"), None)?;
    let Some(Value::Array(users)) = rec.get_mut("users") else {
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
    defaults(
        &mut rec,
        json!({
            "commented_by_id": USER_ID,
            "commented_by": USER_NAME,
            "is_current_user": true,
            "date": time::date(req.now_ms),
            "date_description": "few seconds ago",
            "time": time::time_of_day(req.now_ms),
        }),
    );
    let rec = org.insert(&COMMENT, ids.next(&COMMENT), rec, Some(project));
    Ok(Reply::created("Comments added.", json!([rec])))
}

fn list_project_invoices(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let project = req.path("project_id");
    org.exists(&PROJECT, project)?;
    let mut rows = org.list(&PROJECT_INVOICE, Some(project));
    list::sort(
        &mut rows,
        req.params,
        &["invoice_number", "date", "total", "balance", "created_time"],
    );
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

fn create_recurring_invoice(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    let name = req.text("recurrence_name").unwrap_or_default();
    let taken = org
        .rows(RECURRING_INVOICE.table)
        .iter()
        .any(|r| r.get("recurrence_name").and_then(Value::as_str) == Some(name));
    if taken {
        return Err(ApiError::bad(
            code::DUPLICATE,
            format!(
                "A recurring invoice named {:?} already exists.",
                svc_sdk::error::shorten(name)
            ),
        ));
    }
    let mut rec = req.params.clone();
    let total = price_lines(&mut rec, ids);
    let start = rec
        .get("start_date")
        .cloned()
        .unwrap_or_else(|| time::date(req.now_ms).into());
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
    stamp(&mut rec, req.now_ms, true);
    let rec = org.insert(&RECURRING_INVOICE, ids.next(&RECURRING_INVOICE), rec, None);
    Ok(Reply::created(
        "The recurring invoice has been created.",
        rec,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(precheck("listProjects", &p(json!({"rate": -1}))).is_none());
    }
}
