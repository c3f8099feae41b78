//! The device flow: device codes issued, approved or declined by user code, and polled no faster than the interval.

use super::code::{Grant, Kind};
use super::consent::Choice;
use super::{Accounts, Fields, Granted, Refusal};

/// How long a device code and its user code live.
pub const DEVICE_LIFETIME_MS: i64 = 300_000;
/// Where device codes are issued, polled, and approved by their user code.
pub const CODE_PATH: &str = "/oauth/v3/device/code";
pub const TOKEN_PATH: &str = "/oauth/v3/device/token";
pub const PAGE_PATH: &str = "/oauth/v3/device";

/// The letters of user codes: no vowels (no words), none that look like a digit.
const LETTERS: &[u8] = b"BCDFGHJKLMNPQRSTVWXZ";

#[derive(Clone, Debug, PartialEq)]
enum State {
    Pending,
    Approved { user: String, location: String },
    Declined,
    Done,
}

#[derive(Clone, Debug)]
struct Device {
    device_code: String,
    user_code: String,
    client: usize,
    scopes: String,
    expires_at: i64,
    last_poll: Option<i64>,
    nonce: u64,
    state: State,
}

#[derive(Default)]
pub struct Devices(Vec<Device>);

/// A device code issued.
#[derive(Clone, Debug, PartialEq)]
pub struct Issued {
    pub device_code: String,
    pub user_code: String,
    pub expires_in_s: u64,
    pub interval_ms: u64,
}

/// The answer to a poll.
#[derive(Debug, PartialEq)]
pub enum Poll {
    Granted(Granted),
    Refused(Refusal),
    /// Approved for a user of another location: poll there with `device_code`.
    OtherDc {
        location: String,
        accounts_server: String,
        device_code: String,
    },
}

/// A user code as typed: letters only, uppercase, in two halves.
fn normalized(typed: &str) -> String {
    let letters: String = typed
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .collect();
    match letters.len() {
        8 => format!("{}-{}", &letters[..4], &letters[4..]),
        _ => letters,
    }
}

impl Accounts {
    /// `POST /oauth/v3/device/code` at `now`: `grant_type=device_request`, a registered `client_id` and a scope.
    pub fn device_code(&mut self, f: &Fields, now: i64) -> Result<Issued, Refusal> {
        if f.grant_type.as_deref() != Some("device_request") {
            return Err(Refusal::UnsupportedGrantType);
        }
        let client = f
            .client_id
            .as_deref()
            .and_then(|id| self.client_index(id))
            .ok_or(Refusal::InvalidClient)?;
        let scopes = f.scope.clone().filter(|s| !s.trim().is_empty());
        let scopes = scopes.ok_or(Refusal::InvalidScope)?;
        self.devices
            .0
            .retain(|d| now < d.expires_at + DEVICE_LIFETIME_MS);
        let user_code = loop {
            let n = self.draw();
            let code: String = (0..8)
                .map(|i| LETTERS[(n >> (i * 5)) as usize % LETTERS.len()] as char)
                .collect();
            let code = normalized(&code);
            if !self.devices.0.iter().any(|d| d.user_code == code) {
                break code;
            }
        };
        let (a, b, nonce) = (self.draw(), self.draw(), self.draw());
        let device_code = format!("1000.{a:016x}{b:016x}");
        self.devices.0.push(Device {
            device_code: device_code.clone(),
            user_code: user_code.clone(),
            client,
            scopes,
            expires_at: now + DEVICE_LIFETIME_MS,
            last_poll: None,
            nonce,
            state: State::Pending,
        });
        self.tally.device_codes_issued += 1;
        Ok(Issued {
            device_code,
            user_code,
            expires_in_s: (DEVICE_LIFETIME_MS / 1000) as u64,
            interval_ms: self.options.device_interval_ms,
        })
    }

    /// `POST /oauth/v3/device/token` at `now` (`grant_type=device_token`, the client, `code`): pending,
    /// slow_down, expired, declined, the tokens, or other_dc; `own` is this server's URL. A device grant
    /// another location handed here (the other_dc answer's `device_code`) is redeemed as a code.
    pub fn device_poll(
        &mut self,
        f: &Fields,
        own: &str,
        now: i64,
        make: &mut dyn FnMut(&str) -> String,
    ) -> Poll {
        let result = self.poll(f, own, now, make);
        match &result {
            Poll::Granted(g) => self.count::<&Granted>(&Ok(g)),
            Poll::Refused(why) => self.count::<()>(&Err(*why)),
            Poll::OtherDc { .. } => {}
        }
        result
    }

    fn poll(
        &mut self,
        f: &Fields,
        own: &str,
        now: i64,
        make: &mut dyn FnMut(&str) -> String,
    ) -> Poll {
        if f.grant_type.as_deref() != Some("device_token") {
            return Poll::Refused(Refusal::UnsupportedGrantType);
        }
        let client = match self.client_of(f) {
            Ok(c) => c,
            Err(why) => return Poll::Refused(why),
        };
        let code = f.code.as_deref().unwrap_or_default();
        let Some(at) = self
            .devices
            .0
            .iter()
            .position(|d| d.device_code == code && d.client == client)
        else {
            return match self.redeem(f, Kind::Device, now, make) {
                Ok(g) => Poll::Granted(g),
                Err(why) => Poll::Refused(why),
            };
        };
        let interval = self.options.device_interval_ms as i64;
        let d = &mut self.devices.0[at];
        if now >= d.expires_at {
            return Poll::Refused(Refusal::Expired);
        }
        if d.last_poll.is_some_and(|t| now - t < interval) {
            return Poll::Refused(Refusal::SlowDown);
        }
        d.last_poll = Some(now);
        match d.state.clone() {
            State::Pending => Poll::Refused(Refusal::AuthorizationPending),
            State::Declined => Poll::Refused(Refusal::Declined),
            State::Done => Poll::Refused(Refusal::InvalidCode),
            State::Approved { user, location } if location == self.options.location => {
                d.state = State::Done;
                Poll::Granted(self.issue_tokens(client, &user, now))
            }
            State::Approved { user, location } => self.hand_off(at, user, location, own),
        }
    }

    /// The other_dc answer of a device approved for a user of `location`: a device grant signed for it.
    fn hand_off(&self, at: usize, user: String, location: String, own: &str) -> Poll {
        let d = &self.devices.0[at];
        let c = &self.options.clients[d.client];
        let grant = Grant {
            kind: Kind::Device,
            client_id: c.id.clone(),
            user,
            scopes: d.scopes.clone(),
            redirect_uri: String::new(),
            location: location.clone(),
            expires_at: d.expires_at,
            nonce: d.nonce,
        };
        Poll::OtherDc {
            accounts_server: self
                .options
                .accounts_url(&location, own)
                .unwrap_or_default(),
            location,
            device_code: grant.seal(&c.secret),
        }
    }

    /// The client id and scopes of a pending device code, by its user code as typed.
    pub fn device_request(&self, user_code: &str, now: i64) -> Option<(String, String)> {
        let code = normalized(user_code);
        self.devices
            .0
            .iter()
            .find(|d| d.user_code == code && d.state == State::Pending && now < d.expires_at)
            .map(|d| (self.options.clients[d.client].id.clone(), d.scopes.clone()))
    }

    /// A user's approval or refusal of the device code of `user_code` at `now`. A new user of this
    /// location is made (with an organization from `make`).
    pub fn approve_device(
        &mut self,
        user_code: &str,
        choice: &Choice,
        now: i64,
        make: &mut dyn FnMut(&str) -> String,
    ) -> Result<(), String> {
        let code = normalized(user_code);
        let at = self
            .devices
            .0
            .iter()
            .position(|d| d.user_code == code && d.state == State::Pending && now < d.expires_at)
            .ok_or(
                "The code is not one waiting for approval: mistyped, expired, or already answered.",
            )?;
        if choice.deny {
            self.devices.0[at].state = State::Declined;
            self.tally.device_codes_declined += 1;
            return Ok(());
        }
        let (user, location) = self.chosen(choice)?;
        if self.options.accounts_url(&location, "").is_none() {
            return Err(format!(
                "The location {location:?} is not a data center this server knows."
            ));
        }
        if location == self.options.location {
            self.users.ensure(&user, make);
        }
        self.devices.0[at].state = State::Approved { user, location };
        self.tally.device_codes_approved += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::{Check, Options, DEMO_CLIENT_ID, DEMO_CLIENT_SECRET};

    const T0: i64 = 1_700_000_000_000;

    fn server(edit: impl FnOnce(&mut Options)) -> Accounts {
        let mut o = Options {
            device_interval_ms: 100,
            ..Options::default()
        };
        o.peers.push(("eu".into(), "http://eu".into()));
        edit(&mut o);
        Accounts::new(o, 5)
    }

    fn request() -> Fields {
        Fields {
            grant_type: Some("device_request".into()),
            client_id: Some(DEMO_CLIENT_ID.into()),
            scope: Some("SvcBooks.fullaccess.all".into()),
            ..Fields::default()
        }
    }

    fn poll(code: &str) -> Fields {
        Fields {
            grant_type: Some("device_token".into()),
            client_id: Some(DEMO_CLIENT_ID.into()),
            client_secret: Some(DEMO_CLIENT_SECRET.into()),
            code: Some(code.into()),
            ..Fields::default()
        }
    }

    fn no_org(_: &str) -> String {
        "9".into()
    }

    #[test]
    fn pending_slow_down_then_granted_once() {
        let mut a = server(|_| {});
        let issued = a.device_code(&request(), T0).unwrap();
        assert_eq!(issued.user_code.len(), 9);
        assert_eq!(&issued.user_code[4..5], "-");
        assert_eq!((issued.expires_in_s, issued.interval_ms), (300, 100));
        let code = issued.device_code.as_str();
        let at =
            |a: &mut Accounts, ms| a.device_poll(&poll(code), "http://us", T0 + ms, &mut no_org);
        assert_eq!(at(&mut a, 0), Poll::Refused(Refusal::AuthorizationPending));
        assert_eq!(at(&mut a, 99), Poll::Refused(Refusal::SlowDown));
        assert_eq!(
            at(&mut a, 100),
            Poll::Refused(Refusal::AuthorizationPending)
        );
        assert_eq!(
            a.device_request(&issued.user_code.to_lowercase(), T0),
            Some((DEMO_CLIENT_ID.into(), "SvcBooks.fullaccess.all".into()))
        );
        let choice = Choice {
            user: Some("d@x.test".into()),
            ..Choice::default()
        };
        a.approve_device(
            &issued.user_code.replace('-', " "),
            &choice,
            T0 + 150,
            &mut no_org,
        )
        .unwrap();
        assert!(
            a.approve_device(&issued.user_code, &choice, T0 + 150, &mut no_org)
                .is_err(),
            "answered once"
        );
        let Poll::Granted(g) = at(&mut a, 200) else {
            panic!("granted")
        };
        assert!(g.refresh_token.is_some());
        assert_eq!(a.check(&g.access_token, T0 + 200), Check::Live);
        assert_eq!(
            a.reach(&g.access_token),
            crate::accounts::Reach::Orgs(vec!["9".into()])
        );
        assert_eq!(
            at(&mut a, 300),
            Poll::Refused(Refusal::InvalidCode),
            "redeemed once"
        );
    }

    #[test]
    fn declined_expired_and_refused() {
        let mut a = server(|_| {});
        let d1 = a.device_code(&request(), T0).unwrap();
        let d2 = a.device_code(&request(), T0).unwrap();
        let deny = Choice {
            deny: true,
            ..Choice::default()
        };
        a.approve_device(&d1.user_code, &deny, T0, &mut no_org)
            .unwrap();
        let at =
            |a: &mut Accounts, f: Fields, ms| a.device_poll(&f, "http://us", T0 + ms, &mut no_org);
        assert_eq!(
            at(&mut a, poll(&d1.device_code), 1),
            Poll::Refused(Refusal::Declined)
        );
        assert_eq!(
            at(&mut a, poll(&d2.device_code), 300_000),
            Poll::Refused(Refusal::Expired)
        );
        assert_eq!(
            at(&mut a, poll("1000.nope"), 1),
            Poll::Refused(Refusal::InvalidCode)
        );
        let wrong = Fields {
            client_secret: Some("x".into()),
            ..poll(&d2.device_code)
        };
        assert_eq!(at(&mut a, wrong, 1), Poll::Refused(Refusal::InvalidClient));
        let grant = Fields {
            grant_type: Some("refresh_token".into()),
            ..poll(&d2.device_code)
        };
        assert_eq!(
            at(&mut a, grant, 1),
            Poll::Refused(Refusal::UnsupportedGrantType)
        );
        let no_scope = Fields {
            scope: None,
            ..request()
        };
        assert_eq!(a.device_code(&no_scope, T0), Err(Refusal::InvalidScope));
        let unknown = Fields {
            client_id: Some("x".into()),
            ..request()
        };
        assert_eq!(a.device_code(&unknown, T0), Err(Refusal::InvalidClient));
        assert!(a
            .approve_device(&d2.user_code, &Choice::default(), T0 + 300_000, &mut no_org)
            .is_err());
    }

    #[test]
    fn a_user_of_another_location_is_handed_to_its_server() {
        let mut us = server(|_| {});
        let mut eu = server(|o| {
            o.location = "eu".into();
            o.peers = vec![("us".into(), "http://us".into())];
        });
        let d = us.device_code(&request(), T0).unwrap();
        let choice = Choice {
            user: Some("e@x.test".into()),
            location: Some("eu".into()),
            ..Choice::default()
        };
        us.approve_device(&d.user_code, &choice, T0, &mut |_| panic!("made at eu"))
            .unwrap();
        let Poll::OtherDc {
            location,
            accounts_server,
            device_code,
        } = us.device_poll(&poll(&d.device_code), "http://us", T0 + 1, &mut no_org)
        else {
            panic!("other_dc")
        };
        assert_eq!(
            (location.as_str(), accounts_server.as_str()),
            ("eu", "http://eu")
        );
        assert_eq!(
            us.device_poll(&poll(&device_code), "http://us", T0 + 1, &mut no_org),
            Poll::Refused(Refusal::InvalidCode),
            "not redeemable at us"
        );
        let Poll::Granted(_) =
            eu.device_poll(&poll(&device_code), "http://eu", T0 + 2, &mut no_org)
        else {
            panic!("granted at eu")
        };
        assert_eq!(
            eu.device_poll(&poll(&device_code), "http://eu", T0 + 3, &mut no_org),
            Poll::Refused(Refusal::InvalidCode),
            "once"
        );
    }
}
