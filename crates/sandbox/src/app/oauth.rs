//! The accounts server inside the sandbox: its endpoints, users' organizations in the store, decisions for tests.

use super::answer::error_response;
use super::state::{lock, App};
use crate::accounts::consent::{Choice, AUTH_PATH};
use crate::accounts::{endpoints, Reach};
use crate::books::new_organization;
use crate::http::{Request, Response};
use crate::record::json_obj;
use svc_core::request::parse_query;
use svc_json::json;

/// A new organization of `email`'s (its name the email's local part), made as createOrganization
/// makes one, with the id `id` or the next one; its id.
fn make_org(sh: &App, email: &str, id: Option<&str>, now: i64) -> String {
    let mut store = lock(&sh.store);
    let id = id.map_or_else(
        || store.ids.text().as_str().unwrap_or_default().to_string(),
        String::from,
    );
    let local = email.split('@').next().unwrap_or(email);
    let params = json_obj(json!({
        "name": format!("{local}'s organization"),
        "email": email,
        "contact_name": local,
    }));
    new_organization(&mut store, &id, &params, now, false, sh.config.plan.name());
    id
}

impl App {
    /// Gives the users of the options their organizations: a new one for a user listing none, and
    /// each listed one that the store does not hold.
    pub(super) fn seed_users(&self, now: i64) {
        let listed = lock(&self.accounts).options().users.clone();
        for u in listed {
            if u.organizations.is_empty() {
                let org = make_org(self, &u.email, None, now);
                lock(&self.accounts)
                    .users_mut()
                    .set(&u.email, Reach::Orgs(vec![org]));
            }
            for org in &u.organizations {
                if lock(&self.store).org(org).is_none() {
                    make_org(self, &u.email, Some(org), now);
                }
            }
        }
    }

    /// The answer of an accounts endpoint below `/oauth/`, or `None` for another path.
    pub(super) fn accounts_endpoint(&self, req: &Request, now: i64) -> Option<Response> {
        let mut make = |email: &str| make_org(self, email, None, now);
        let mut accounts = lock(&self.accounts);
        let answer = endpoints::serve(&mut accounts, req, &self.base, now, &mut make)?;
        Some(answer.unwrap_or_else(|e| error_response(&e)))
    }

    /// The redirect a browser would follow after the consent page of `authorize_url` (this server's
    /// `/oauth/v2/auth?...`) given `choice`, or why there is none.
    pub fn consent(
        &self,
        authorize_url: &str,
        choice: &Choice,
        now: i64,
    ) -> Result<String, String> {
        let url = authorize_url.split('#').next().unwrap_or_default();
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        if path != format!("{}{AUTH_PATH}", self.base) {
            return Err(format!(
                "consent: the URL must be this sandbox's consent page, {}{AUTH_PATH}?...",
                self.base
            ));
        }
        let params = parse_query(query).ok_or("consent: the URL's query is malformed")?;
        let mut make = |email: &str| make_org(self, email, None, now);
        let mut accounts = lock(&self.accounts);
        let req = accounts
            .auth_request(&params)
            .map_err(|e| format!("consent: {e}"))?;
        accounts
            .consent(&req, choice, &self.base, now, &mut make)
            .map_err(|e| format!("consent: {e}"))
    }

    /// A user's approval (or refusal) of a device's user code, as the device page's form gives it.
    pub fn approve_device(&self, user_code: &str, choice: &Choice, now: i64) -> Result<(), String> {
        let mut make = |email: &str| make_org(self, email, None, now);
        lock(&self.accounts)
            .approve_device(user_code, choice, now, &mut make)
            .map_err(|e| format!("approveDevice: {e}"))
    }
}
