//! The consent at `/oauth/v2/auth`: the request checked, and a user's decision made into its redirect.

use super::code::Kind;
use super::exchange::Draft;
use super::users::is_email;
use super::users::USER_EMAIL;
use super::Accounts;
use svc_core::request::percent_encode;

/// Where the consent page is served.
pub const AUTH_PATH: &str = "/oauth/v2/auth";

/// A checked authorization request.
#[derive(Clone, Debug, PartialEq)]
pub struct AuthRequest {
    pub client: usize,
    pub client_id: String,
    pub scope: String,
    pub redirect_uri: String,
    pub access_type: Option<String>,
    pub prompt: Option<String>,
    pub state: Option<String>,
}

/// What the user chose on the page: who (an email; none: the sandbox's user), approve or decline,
/// and where (a location; none: this server's).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Choice {
    pub user: Option<String>,
    pub deny: bool,
    pub location: Option<String>,
}

/// Whether `uri` can be redirected to: an absolute http(s) URL with a host and no fragment.
fn redirectable(uri: &str) -> bool {
    let rest = uri
        .strip_prefix("http://")
        .or_else(|| uri.strip_prefix("https://"));
    rest.is_some_and(|r| {
        let host = r.split(['/', '?']).next().unwrap_or("");
        !host.is_empty()
            && !uri.contains('#')
            && !uri.chars().any(|c| c.is_whitespace() || c.is_control())
    })
}

/// `base` with the query members `pairs` added after any query it has.
pub fn with_query(base: &str, pairs: &[(&str, &str)]) -> String {
    let mut out = base.to_string();
    let mut sep = match base.find('?') {
        None => "?",
        Some(_) if base.ends_with(['?', '&']) => "",
        Some(_) => "&",
    };
    for (k, v) in pairs {
        out.push_str(sep);
        out.push_str(k);
        out.push('=');
        percent_encode(v, &mut out);
        sep = "&";
    }
    out
}

impl Accounts {
    /// The authorization request of `params` (a query or a form), or why it cannot be served.
    pub fn auth_request(&self, params: &[(String, String)]) -> Result<AuthRequest, String> {
        let get = |name: &str| {
            params
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        match get("response_type").as_deref() {
            Some("code") => {}
            None | Some("") => {
                return Err("The request has no response_type; it must be code.".into())
            }
            Some(_) => return Err("The response_type must be code.".into()),
        }
        let client_id = get("client_id").filter(|c| !c.is_empty());
        let Some(client_id) = client_id else {
            return Err("The request has no client_id.".into());
        };
        let client = self.client_index(&client_id).ok_or_else(|| {
            "The client_id is not a client registered with this accounts server.".to_string()
        })?;
        let scope = get("scope").filter(|s| !s.trim().is_empty());
        let Some(scope) = scope else {
            return Err("The request has no scope.".into());
        };
        let Some(redirect_uri) = get("redirect_uri").filter(|r| redirectable(r)) else {
            return Err(
                "The redirect_uri is missing or is not an absolute http(s) URL without a fragment."
                    .into(),
            );
        };
        let access_type = get("access_type").filter(|a| !a.is_empty());
        if access_type
            .as_deref()
            .is_some_and(|a| a != "offline" && a != "online")
        {
            return Err("The access_type must be offline or online.".into());
        }
        Ok(AuthRequest {
            client,
            client_id,
            scope,
            redirect_uri,
            access_type,
            prompt: get("prompt").filter(|p| !p.is_empty()),
            state: get("state"),
        })
    }

    /// The redirect of the user's decision at `now`: `{redirect_uri}?code&location&accounts-server&state`,
    /// or `?error=access_denied&state`; `own` is this server's URL. A new user of this location is made
    /// (with an organization from `make`).
    pub fn consent(
        &mut self,
        req: &AuthRequest,
        choice: &Choice,
        own: &str,
        now: i64,
        make: &mut dyn FnMut(&str) -> String,
    ) -> Result<String, String> {
        let state = req.state.as_deref().map(|s| ("state", s));
        if choice.deny {
            self.tally.codes_declined += 1;
            let pairs: Vec<(&str, &str)> = [("error", "access_denied")]
                .into_iter()
                .chain(state)
                .collect();
            return Ok(with_query(&req.redirect_uri, &pairs));
        }
        let (user, location) = self.chosen(choice)?;
        let server = self.options.accounts_url(&location, own).ok_or_else(|| {
            format!("The location {location:?} is not a data center this server knows.")
        })?;
        if location == self.options.location {
            self.users.ensure(&user, make);
        }
        let draft = Draft {
            kind: Kind::Consent,
            user,
            scopes: req.scope.clone(),
            redirect_uri: req.redirect_uri.clone(),
            location: location.clone(),
            until: None,
        };
        let code = self.issue_code(req.client, draft, now);
        let pairs: Vec<(&str, &str)> = [
            ("code", code.as_str()),
            ("location", location.as_str()),
            ("accounts-server", server.as_str()),
        ]
        .into_iter()
        .chain(state)
        .collect();
        Ok(with_query(&req.redirect_uri, &pairs))
    }

    /// The user and location a choice names, checked.
    pub(super) fn chosen(&self, choice: &Choice) -> Result<(String, String), String> {
        let user = choice
            .user
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .unwrap_or(USER_EMAIL);
        if !is_email(user) {
            return Err("The user must be an email address.".into());
        }
        let user = self.users.get(user).map_or(user, |u| u.email.as_str());
        let location = choice
            .location
            .clone()
            .filter(|l| !l.is_empty())
            .unwrap_or_else(|| self.options.location.clone());
        Ok((user.to_string(), location))
    }

    /// This server's location and its peers', in order.
    pub fn locations(&self) -> Vec<&str> {
        std::iter::once(self.options.location.as_str())
            .chain(self.options.peers.iter().map(|(l, _)| l.as_str()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::{Fields, Options, DEMO_CLIENT_ID, DEMO_CLIENT_SECRET};
    use svc_core::request::parse_query;

    const T0: i64 = 1_700_000_000_000;

    fn params(query: &str) -> Vec<(String, String)> {
        parse_query(query).unwrap()
    }

    fn authorize(extra: &str) -> String {
        format!("response_type=code&client_id={DEMO_CLIENT_ID}&scope=SvcBooks.fullaccess.all&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcb%3Fkeep%3D1&access_type=offline&prompt=consent{extra}")
    }

    fn eu() -> Accounts {
        let mut o = Options::default();
        o.peers.push(("eu".into(), "http://127.0.0.1:2".into()));
        Accounts::new(o, 1)
    }

    #[test]
    fn bad_requests_are_explained() {
        let a = eu();
        assert!(a.auth_request(&params(&authorize("&state=s"))).is_ok());
        for (query, needle) in [
            (
                authorize("").replace("response_type=code", "response_type=token"),
                "must be code",
            ),
            (
                authorize("").replace("response_type=code&", ""),
                "no response_type",
            ),
            (
                authorize("").replace(DEMO_CLIENT_ID, "nope"),
                "not a client",
            ),
            (
                authorize("").replace("scope=SvcBooks.fullaccess.all", "scope="),
                "no scope",
            ),
            (
                authorize("").replace("http%3A%2F%2F", "ftp%3A%2F%2F"),
                "redirect_uri",
            ),
            (
                authorize("").replace("%3Fkeep%3D1", "%23frag"),
                "redirect_uri",
            ),
            (authorize("").replace("offline", "forever"), "access_type"),
        ] {
            let e = a.auth_request(&params(&query)).unwrap_err();
            assert!(e.contains(needle), "{query}: {e}");
        }
    }

    #[test]
    fn approve_and_decline_redirect_with_the_state() {
        let mut a = eu();
        let req = a
            .auth_request(&params(&authorize("&state=a%20b%26c")))
            .unwrap();
        let made = std::cell::Cell::new(0);
        let mut make = |_: &str| {
            made.set(made.get() + 1);
            "77".to_string()
        };
        let declined = a
            .consent(
                &req,
                &Choice {
                    deny: true,
                    ..Choice::default()
                },
                "http://me",
                T0,
                &mut make,
            )
            .unwrap();
        assert_eq!(
            declined,
            "http://127.0.0.1:1/cb?keep=1&error=access_denied&state=a%20b%26c"
        );
        let choice = Choice {
            user: Some("new@x.test".into()),
            ..Choice::default()
        };
        let to = a
            .consent(&req, &choice, "http://me", T0, &mut make)
            .unwrap();
        assert!(
            to.starts_with("http://127.0.0.1:1/cb?keep=1&code=1000."),
            "{to}"
        );
        assert!(
            to.ends_with("&location=us&accounts-server=http%3A%2F%2Fme&state=a%20b%26c"),
            "{to}"
        );
        assert_eq!(made.get(), 1, "the new user is made with an organization");
        let query = params(to.split_once('?').unwrap().1);
        let code = &query.iter().find(|(k, _)| k == "code").unwrap().1;
        let f = Fields {
            grant_type: Some("authorization_code".into()),
            client_id: Some(DEMO_CLIENT_ID.into()),
            client_secret: Some(DEMO_CLIENT_SECRET.into()),
            code: Some(code.clone()),
            redirect_uri: Some(req.redirect_uri.clone()),
            ..Fields::default()
        };
        assert!(a.exchange(&f, T0 + 1, &mut |_| unreachable!()).is_ok());
        let elsewhere = Choice {
            location: Some("eu".into()),
            ..Choice::default()
        };
        let to = a
            .consent(&req, &elsewhere, "http://me", T0, &mut make)
            .unwrap();
        assert!(
            to.contains("&location=eu&accounts-server=http%3A%2F%2F127.0.0.1%3A2&"),
            "{to}"
        );
        let nowhere = Choice {
            location: Some("in".into()),
            ..Choice::default()
        };
        assert!(a
            .consent(&req, &nowhere, "http://me", T0, &mut make)
            .is_err());
        let bad = Choice {
            user: Some("not an email".into()),
            ..Choice::default()
        };
        assert!(a.consent(&req, &bad, "http://me", T0, &mut make).is_err());
        assert_eq!((a.tally().codes_issued, a.tally().codes_declined), (2, 1));
    }

    #[test]
    fn a_query_is_kept() {
        assert_eq!(with_query("http://h/cb", &[("a", "1")]), "http://h/cb?a=1");
        assert_eq!(
            with_query("http://h/cb?", &[("a", "1"), ("b", "&")]),
            "http://h/cb?a=1&b=%26"
        );
        assert_eq!(
            with_query("http://h/cb?x=1", &[("a", "1")]),
            "http://h/cb?x=1&a=1"
        );
    }
}
