//! Who may call: the token and its scopes, the organization named, the limiter's refusals.

use super::state::{lock, App};
use crate::accounts::{self, Check, Reach};
use crate::config::Scopes;
use crate::error::{code, ApiError};
use crate::http::{Request, Response};
use crate::limits::Refusal;
use std::borrow::Cow;
use svc_core::catalog::Operation;
use svc_core::echo::shorten;
use svc_core::family::OrgPlacement;
use svc_core::request::AUTHORIZATION_SCHEME;

/// The scopes of the call's token and the organizations it reaches (its user's, for a token of a
/// user's grant; every one for the others).
pub(super) fn authorize<'a>(
    sh: &'a App,
    req: &Request,
    now: i64,
) -> Result<(Cow<'a, Scopes>, Reach), ApiError> {
    let Some(token) = bearer(req) else {
        return Err(ApiError::new(
            401,
            code::UNAUTHORIZED,
            format!("Send the access token as the header Authorization: {AUTHORIZATION_SCHEME} <token>."),
        ));
    };
    let echo = sh.config.accounts.echo_secrets;
    let invalid = || {
        let message = accounts::answer::invalid_token_message(token, echo);
        ApiError::new(401, code::UNAUTHORIZED, message)
    };
    let (check, reach) = {
        let mut accounts = lock(&sh.accounts);
        (accounts.check(token, now), accounts.reach(token))
    };
    match check {
        Check::Live => return Ok((Cow::Owned(Scopes::Every), reach)),
        Check::Expired | Check::Revoked => return Err(invalid()),
        Check::Unknown => {}
    }
    let tokens = lock(&sh.tokens);
    if tokens.revoked.iter().any(|t| t == token) {
        return Err(invalid());
    }
    if tokens.minted.iter().any(|t| t == token) {
        return Ok((Cow::Owned(Scopes::Every), Reach::Every));
    }
    sh.config
        .scopes(token)
        .map(|s| (Cow::Borrowed(s), Reach::Every))
        .ok_or_else(invalid)
}

/// The token of a request's Authorization header.
pub(super) fn bearer(req: &Request) -> Option<&str> {
    req.header("authorization")
        .and_then(|h| h.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case(AUTHORIZATION_SCHEME))
        .map(|(_, token)| token.trim())
        .filter(|token| !token.is_empty())
}

/// After a user's token created an organization (its answer `resp`), the user reaches it too.
pub(super) fn created_organization(sh: &App, req: &Request, reach: &Reach, resp: &Response) {
    let (Reach::Orgs(_), Some(token)) = (reach, bearer(req)) else {
        return;
    };
    let body = crate::record::parse(&resp.body).unwrap_or_default();
    if let Some(id) = body["organization"]["organization_id"].as_str() {
        lock(&sh.accounts).add_org_of(token, id);
    }
}

/// Refuses an organization the caller's token does not reach, as the service refuses an unauthorized one.
pub(super) fn reachable(reach: &Reach, id: &str) -> Result<(), ApiError> {
    if reach.allows(id) {
        return Ok(());
    }
    Err(ApiError::bad(
        code::ORGANIZATION,
        format!(
            "You are not authorized to access the organization {:?}; GET /books/v3/organizations lists those you can reach.",
            shorten(id)
        ),
    ))
}

/// The organization a call names where its family puts it (one `reach` allows); empty for calls without one.
pub(super) fn organization(
    sh: &App,
    req: &Request,
    op: &Operation,
    query: &[(String, String)],
    reach: &Reach,
) -> Result<String, ApiError> {
    if !op.org {
        return Ok(String::new());
    }
    let (value, place) = match op.family.org_placement() {
        OrgPlacement::None => return Ok(String::new()),
        OrgPlacement::Query(name) => (
            query
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str()),
            format!("the query parameter {name}"),
        ),
        OrgPlacement::Header(name) => (req.header(name), format!("the header {name}")),
    };
    let Some(id) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return Err(ApiError::bad(
            code::ORGANIZATION,
            format!(
                "{} calls need the organization id in {place}.",
                op.family.name()
            ),
        ));
    };
    if lock(&sh.store).org(id).is_none() {
        return Err(ApiError::bad(
            code::ORGANIZATION,
            format!(
                "The organization {:?} does not exist; GET /books/v3/organizations lists them.",
                shorten(id)
            ),
        ));
    }
    reachable(reach, id)?;
    Ok(id.to_string())
}

pub(super) fn refusal(why: Refusal) -> ApiError {
    let (c, message) = match why {
        Refusal::PerMinute => (
            code::RATE,
            "Too many requests for this organization in the last minute.",
        ),
        Refusal::InFlight => (
            code::IN_FLIGHT,
            "Too many calls of this organization are in progress at once.",
        ),
        Refusal::Daily => (
            code::DAILY,
            "The daily request quota of this organization's plan is used up.",
        ),
    };
    ApiError::new(429, c, message)
}
