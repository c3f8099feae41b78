//! Codes issued and redeemed for users' refresh tokens (20 per user and client), and revocation by request.

use super::code::{self, Grant, Kind, CODE_LIFETIME_MS};
use super::{mix, Accounts, Fields, Granted, Refresh, Refusal};

/// Live refresh tokens a user holds per client; issuing one more revokes the oldest.
pub const PER_USER_AND_CLIENT: usize = 20;

impl Accounts {
    /// The next random-looking 64 bits of this server.
    pub(super) fn draw(&mut self) -> u64 {
        self.seq += 1;
        mix(self.salt ^ mix(self.seq))
    }

    /// The index of a registered client by id.
    pub(super) fn client_index(&self, id: &str) -> Option<usize> {
        self.options.clients.iter().position(|c| c.id == id)
    }

    /// A signed code granting `user` the `scopes` of client `client` at `location`, valid for a minute
    /// from `now` (`kind` Device: for the peer a device approval is handed to, valid `until`).
    pub(super) fn issue_code(&mut self, client: usize, grant: Draft, now: i64) -> String {
        let nonce = self.draw();
        let g = Grant {
            kind: grant.kind,
            client_id: self.options.clients[client].id.clone(),
            user: grant.user,
            scopes: grant.scopes,
            redirect_uri: grant.redirect_uri,
            location: grant.location,
            expires_at: grant.until.unwrap_or(now + CODE_LIFETIME_MS),
            nonce,
        };
        if g.kind == Kind::Consent {
            self.tally.codes_issued += 1;
        }
        g.seal(&self.options.clients[client].secret)
    }

    /// `grant_type=authorization_code` at `now`: a refresh token and an access token for the code's
    /// user (made, with an organization from `make`, when this server does not know it).
    pub fn exchange(
        &mut self,
        f: &Fields,
        now: i64,
        make: &mut dyn FnMut(&str) -> String,
    ) -> Result<Granted, Refusal> {
        let result = self.redeem(f, Kind::Consent, now, make);
        self.count(&result);
        result
    }

    /// Checks `f`'s code (its client's, signed, this location's, live, unused; for a consent code the
    /// same redirect_uri) and issues the grant's tokens.
    pub(super) fn redeem(
        &mut self,
        f: &Fields,
        kind: Kind,
        now: i64,
        make: &mut dyn FnMut(&str) -> String,
    ) -> Result<Granted, Refusal> {
        let client = self.client_of(f)?;
        let text = f.code.as_deref().unwrap_or_default();
        let c = &self.options.clients[client];
        let grant = Grant::open(text, &c.secret)
            .filter(|g| g.client_id == c.id && g.kind == kind)
            .filter(|g| g.location == self.options.location && now < g.expires_at)
            .ok_or(Refusal::InvalidCode)?;
        let mark = code::mark(text).unwrap_or_default().to_string();
        self.used.retain(|_, until| now < *until);
        if self.used.contains_key(&mark) {
            return Err(Refusal::InvalidCode);
        }
        if kind == Kind::Consent && f.redirect_uri.as_deref() != Some(grant.redirect_uri.as_str()) {
            return Err(Refusal::InvalidRedirectUri);
        }
        self.used.insert(mark, grant.expires_at);
        self.users.ensure(&grant.user, make);
        Ok(self.issue_tokens(client, &grant.user, now))
    }

    /// A new refresh token of `user` and `client` and its first access token.
    pub(super) fn issue_tokens(&mut self, client: usize, user: &str, now: i64) -> Granted {
        let at = self.issue_refresh(client, user, now);
        self.tally.codes_redeemed += 1;
        let mut granted = self.mint(at, now);
        granted.refresh_token = Some(self.refresh[at].token.clone());
        granted
    }

    /// Registers a new refresh token of `user` and `client`, first revoking the oldest when the user
    /// already holds `PER_USER_AND_CLIENT` live ones; its index.
    fn issue_refresh(&mut self, client: usize, user: &str, now: i64) -> usize {
        let held: Vec<usize> = (0..self.refresh.len())
            .filter(|&i| {
                let r = &self.refresh[i];
                r.client == client
                    && !r.revoked
                    && r.user
                        .as_deref()
                        .is_some_and(|u| u.eq_ignore_ascii_case(user))
            })
            .collect();
        for &oldest in held
            .iter()
            .take((held.len() + 1).saturating_sub(PER_USER_AND_CLIENT))
        {
            self.revoke_at(oldest, now);
            self.tally.revoked_by_user_limit += 1;
        }
        let (a, b) = (self.draw(), self.draw());
        let token = format!("1000.{a:016x}.{b:016x}");
        self.refresh
            .push(Refresh::new(client, token, Some(user.to_string())));
        self.refresh.len() - 1
    }

    /// `POST /oauth/v2/token/revoke`: revokes a refresh token (and its live access tokens) if it is one.
    pub fn revoke_by_request(&mut self, token: &str, now: i64) {
        let found = self
            .refresh
            .iter()
            .position(|r| r.token == token && !r.revoked);
        if let Some(at) = found {
            self.revoke_at(at, now);
            self.tally.revoked_by_request += 1;
        }
    }
}

/// What a code is to grant, before it is signed.
pub struct Draft {
    pub kind: Kind,
    pub user: String,
    pub scopes: String,
    pub redirect_uri: String,
    pub location: String,
    /// The expiry of a device grant; a consent code lives `CODE_LIFETIME_MS`.
    pub until: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::{Check, Options, DEMO_CLIENT_ID, DEMO_CLIENT_SECRET};

    const T0: i64 = 1_700_000_000_000;
    const CB: &str = "http://127.0.0.1:1/cb";

    fn draft(user: &str, location: &str) -> Draft {
        Draft {
            kind: Kind::Consent,
            user: user.into(),
            scopes: "SvcBooks.fullaccess.all".into(),
            redirect_uri: CB.into(),
            location: location.into(),
            until: None,
        }
    }

    fn fields(code: &str) -> Fields {
        Fields {
            grant_type: Some("authorization_code".into()),
            client_id: Some(DEMO_CLIENT_ID.into()),
            client_secret: Some(DEMO_CLIENT_SECRET.into()),
            code: Some(code.into()),
            redirect_uri: Some(CB.into()),
            ..Fields::default()
        }
    }

    fn no_org(_: &str) -> String {
        "1".into()
    }

    #[test]
    fn a_code_is_redeemed_once_within_its_minute() {
        let mut a = Accounts::new(Options::default(), 3);
        let code = a.issue_code(0, draft("a@x.test", "us"), T0);
        let g = a
            .exchange(&fields(&code), T0 + 59_999, &mut no_org)
            .unwrap();
        assert!(g.refresh_token.is_some());
        assert_eq!(a.check(&g.access_token, T0 + 60_000), Check::Live);
        assert_eq!(
            a.reach(&g.access_token),
            crate::accounts::Reach::Orgs(vec!["1".into()])
        );
        assert_eq!(
            a.exchange(&fields(&code), T0 + 59_999, &mut no_org),
            Err(Refusal::InvalidCode),
            "single use"
        );
        let late = a.issue_code(0, draft("a@x.test", "us"), T0);
        assert_eq!(
            a.exchange(&fields(&late), T0 + 60_000, &mut no_org),
            Err(Refusal::InvalidCode),
            "expired at 60 s"
        );
        let t = a.tally();
        assert_eq!(
            (t.codes_issued, t.codes_redeemed, t.invalid_code),
            (2, 1, 2)
        );
    }

    #[test]
    fn each_refusal_of_a_code() {
        let mut o = Options::default();
        o.clients.push(crate::accounts::options::Client {
            id: "c2".into(),
            secret: "s2".into(),
            refresh_tokens: Vec::new(),
        });
        let mut a = Accounts::new(o, 3);
        let code = a.issue_code(0, draft("a@x.test", "us"), T0);
        let theirs = a.issue_code(1, draft("a@x.test", "us"), T0);
        let eu = a.issue_code(0, draft("a@x.test", "eu"), T0);
        let wrong_secret = Fields {
            client_secret: Some("x".into()),
            ..fields(&code)
        };
        let other_redirect = Fields {
            redirect_uri: Some("http://127.0.0.1:1/other".into()),
            ..fields(&code)
        };
        let forged = format!("{}0", &code[..code.len() - 1]);
        for (f, why) in [
            (wrong_secret, Refusal::InvalidClient),
            (fields(&theirs), Refusal::InvalidCode),
            (fields(&eu), Refusal::InvalidCode),
            (fields(&forged), Refusal::InvalidCode),
            (fields("1000.nope"), Refusal::InvalidCode),
            (other_redirect, Refusal::InvalidRedirectUri),
        ] {
            assert_eq!(a.exchange(&f, T0, &mut no_org), Err(why), "{why:?}");
        }
        assert!(
            a.exchange(&fields(&code), T0, &mut no_org).is_ok(),
            "a refused redirect does not use the code"
        );
    }

    #[test]
    fn the_twenty_first_refresh_token_revokes_the_oldest() {
        let mut a = Accounts::new(Options::default(), 3);
        let mut issued = Vec::new();
        for i in 0..21 {
            let code = a.issue_code(0, draft("a@x.test", "us"), T0 + i);
            issued.push(a.exchange(&fields(&code), T0 + i, &mut no_org).unwrap());
        }
        let refresh = |g: &Granted| Fields {
            grant_type: Some("refresh_token".into()),
            refresh_token: g.refresh_token.clone(),
            ..fields("")
        };
        assert_eq!(a.check(&issued[0].access_token, T0 + 21), Check::Revoked);
        assert_eq!(
            a.grant(&refresh(&issued[0]), T0 + 21),
            Err(Refusal::InvalidCode)
        );
        assert!(a.grant(&refresh(&issued[1]), T0 + 21).is_ok());
        assert!(a.grant(&refresh(&issued[20]), T0 + 21).is_ok());
        assert_eq!(a.tally().revoked_by_user_limit, 1);
        let other = a.issue_code(0, draft("b@x.test", "us"), T0);
        a.exchange(&fields(&other), T0 + 21, &mut no_org).unwrap();
        assert_eq!(a.tally().revoked_by_user_limit, 1, "per user");
    }

    #[test]
    fn revocation_by_request() {
        let mut a = Accounts::new(Options::default(), 3);
        let code = a.issue_code(0, draft("a@x.test", "us"), T0);
        let g = a.exchange(&fields(&code), T0, &mut no_org).unwrap();
        a.revoke_by_request(g.refresh_token.as_deref().unwrap(), T0);
        a.revoke_by_request(g.refresh_token.as_deref().unwrap(), T0);
        a.revoke_by_request("unknown", T0);
        assert_eq!(a.check(&g.access_token, T0), Check::Revoked);
        assert_eq!(a.tally().revoked_by_request, 1);
    }
}
