//! The users of a project, kept in the project's record (users).

use super::project::{merge_users, objects};
use crate::call::{Reply, Req};
use crate::error::ApiError;
use crate::list;
use crate::record::Value;
use crate::record::{id_text, json_obj, merge, patch, same_id, Record};
use crate::resource::{PROJECT, USER};
use crate::store::{Org, Store};
use svc_json::json;

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

pub(super) fn add_project_users(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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
pub(super) fn invite_project_user(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

pub(super) fn list_project_users(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let users = users_of(store.read(req.org)?, req.path("project_id"))?;
    Ok(list::page(users, req.params))
}

pub(super) fn get_project_user(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let user = req.path("user_id");
    let users = users_of(store.read(req.org)?, req.path("project_id"))?;
    let found = users
        .into_iter()
        .find(|u| same_id(u.get("user_id"), user))
        .ok_or_else(|| user_not_on_project(user))?;
    Ok(Reply::ok("success", found))
}

pub(super) fn update_project_user(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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

pub(super) fn remove_project_user(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
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
