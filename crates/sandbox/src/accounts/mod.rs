//! The accounts server: users, consents, codes, grants, revocations and the device flow over a passed-in clock.

pub mod answer;
pub mod code;
pub mod consent;
pub mod device;
pub mod endpoints;
pub mod exchange;
pub mod html;
pub mod mac;
pub mod options;
pub mod route;
pub mod spell;
pub mod users;

pub use options::{Options, DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, DEMO_REFRESH_TOKEN};
use std::collections::{HashMap, VecDeque};
pub use users::{Reach, Users};

/// Where the grant is served, below the accounts URL (the sandbox's own URL).
pub const TOKEN_PATH: &str = "/oauth/v2/token";

/// The fields of a token request (form body or query), as received.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fields {
    pub grant_type: Option<String>,
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    pub refresh_token: Option<String>,
    /// An authorization code, or a device code at the device token endpoint.
    pub code: Option<String>,
    pub redirect_uri: Option<String>,
    pub scope: Option<String>,
}

/// Why a refresh is refused; each is answered HTTP 200 with the vendor's `error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// More than the refresh limit in the window (`Accounts::grant` says precisely when).
    AccessDenied,
    /// The refresh token is unknown, revoked, or another client's.
    InvalidCode,
    /// The client id is unknown or the secret is not its own.
    InvalidClient,
    /// `grant_type` is missing or not one the endpoint takes.
    UnsupportedGrantType,
    /// A code's `redirect_uri` is not the one it was granted for.
    InvalidRedirectUri,
    /// A device code its user has not approved yet.
    AuthorizationPending,
    /// A device code polled sooner than the interval after its last poll.
    SlowDown,
    /// A device code past its lifetime.
    Expired,
    /// A device code its user declined.
    Declined,
    /// A device code asked for without a scope.
    InvalidScope,
}

impl Refusal {
    /// The vendor's `error` value.
    pub fn error(self) -> &'static str {
        match self {
            Refusal::AccessDenied => "Access Denied",
            Refusal::InvalidCode => "invalid_code",
            Refusal::InvalidClient => "invalid_client",
            Refusal::UnsupportedGrantType => "unsupported_grant_type",
            Refusal::InvalidRedirectUri => "invalid_redirect_uri",
            Refusal::AuthorizationPending => "authorization_pending",
            Refusal::SlowDown => "slow_down",
            Refusal::Expired => "expired",
            Refusal::Declined => "access_denied",
            Refusal::InvalidScope => "invalid_scope",
        }
    }
}

/// A granted access token and how long it lives.
#[derive(Clone, Debug, PartialEq)]
pub struct Granted {
    pub access_token: String,
    /// The refresh token a code or device grant issued (none from a refresh).
    pub refresh_token: Option<String>,
    pub lifetime_ms: u64,
}

/// What the API makes of a bearer token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    Live,
    Expired,
    Revoked,
    /// Not minted here: the API's other tokens decide.
    Unknown,
}

/// A registered refresh token and what it has minted.
struct Refresh {
    client: usize,
    token: String,
    /// The user a code or device grant issued it to; none for `--oauth-client` tokens (every organization).
    user: Option<String>,
    revoked: bool,
    /// The times of the grants still in the window, oldest first.
    grants: VecDeque<i64>,
    /// The access tokens minted from it, oldest first, that were live when last looked at.
    live: VecDeque<String>,
    granted: u64,
    denied: u64,
    peak_live: usize,
}

impl Refresh {
    /// A refresh token of `client` that has minted nothing yet.
    fn new(client: usize, token: String, user: Option<String>) -> Refresh {
        Refresh {
            client,
            token,
            user,
            revoked: false,
            grants: VecDeque::new(),
            live: VecDeque::new(),
            granted: 0,
            denied: 0,
            peak_live: 0,
        }
    }
}

struct Minted {
    refresh: usize,
    expires_at: i64,
    revoked: bool,
}

/// What the counters route reports.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub granted: u64,
    pub access_denied: u64,
    pub invalid_code: u64,
    pub invalid_client: u64,
    pub unsupported_grant_type: u64,
    /// Access tokens revoked by minting one more than the live-token cap.
    pub revoked_by_cap: u64,
    /// Access tokens revoked by the admin routes (with their refresh token, or one by one).
    pub revoked_by_admin: u64,
    /// API calls answered 401 for an expired access token this server minted.
    pub api_401_expired: u64,
    /// API calls answered 401 for a revoked access token this server minted.
    pub api_401_revoked: u64,
    /// Authorization codes issued by consents (this location's and its peers').
    pub codes_issued: u64,
    /// Authorization and device codes redeemed for tokens.
    pub codes_redeemed: u64,
    pub codes_declined: u64,
    /// Refresh tokens revoked at `POST /oauth/v2/token/revoke`.
    pub revoked_by_request: u64,
    /// Refresh tokens revoked by issuing one more than the per-user-and-client limit.
    pub revoked_by_user_limit: u64,
    pub device_codes_issued: u64,
    pub device_codes_approved: u64,
    pub device_codes_declined: u64,
}

/// One refresh token's state at a time, for the counters route.
#[derive(Clone, Debug, PartialEq)]
pub struct RefreshState<'a> {
    pub refresh_token: &'a str,
    pub client_id: &'a str,
    pub revoked: bool,
    pub granted: u64,
    pub access_denied: u64,
    pub live_tokens: usize,
    pub peak_live_tokens: usize,
    /// Until when refreshes are answered Access Denied, if they are now.
    pub blocked_until_ms: Option<i64>,
}

/// The accounts server's state: its clients and refresh tokens, the access tokens it minted, its counters.
pub struct Accounts {
    options: Options,
    refresh: Vec<Refresh>,
    minted: HashMap<String, Minted>,
    users: Users,
    /// The MACs of redeemed codes, until their expiry.
    used: HashMap<String, i64>,
    devices: device::Devices,
    tally: Tally,
    seq: u64,
    salt: u64,
}

/// SplitMix64: the minted tokens' random-looking part, from the sandbox's seed and a sequence number.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Accounts {
    /// The server of `options`; `seed` varies the tokens it mints between sandboxes.
    pub fn new(options: Options, seed: u64) -> Accounts {
        let refresh = options
            .clients
            .iter()
            .enumerate()
            .flat_map(|(client, c)| {
                c.refresh_tokens
                    .iter()
                    .map(move |token| Refresh::new(client, token.clone(), None))
            })
            .collect();
        Accounts {
            users: Users::new(&options.users),
            options,
            refresh,
            minted: HashMap::new(),
            used: HashMap::new(),
            devices: device::Devices::default(),
            tally: Tally::default(),
            seq: 0,
            salt: mix(seed),
        }
    }

    /// The refresh-token grant at `now`. Checked in this order: `grant_type`, the client (id and
    /// secret), the refresh token (the client's own, not revoked), the window, then a token is minted.
    ///
    /// The window: a refresh at `now` is granted when fewer than `refresh_limit` grants of its refresh
    /// token fall in `(now - refresh_window_ms, now]`. Otherwise it is answered Access Denied, and so is
    /// every refresh until `first + refresh_window_ms`, `first` being the earliest of those grants (with
    /// the defaults: blocked until 10 minutes after the first of the 10); then one more is granted, as
    /// the window slides past each grant in turn. A refused refresh neither counts nor extends the block.
    ///
    /// The cap: minting when `live_token_cap` tokens of the refresh token are live (neither expired nor
    /// revoked) first revokes the oldest live one, silently.
    pub fn grant(&mut self, f: &Fields, now: i64) -> Result<Granted, Refusal> {
        let result = self.decide(f, now);
        self.count(&result);
        result
    }

    /// Counts a token endpoint's answer.
    fn count<T>(&mut self, result: &Result<T, Refusal>) {
        let t = &mut self.tally;
        match result {
            Ok(_) => t.granted += 1,
            Err(Refusal::AccessDenied) => t.access_denied += 1,
            Err(Refusal::InvalidCode) => t.invalid_code += 1,
            Err(Refusal::InvalidClient) => t.invalid_client += 1,
            Err(Refusal::UnsupportedGrantType) => t.unsupported_grant_type += 1,
            Err(_) => {}
        }
    }

    /// The registered client of `f`'s id whose secret `f` gives.
    fn client_of(&self, f: &Fields) -> Result<usize, Refusal> {
        self.options
            .clients
            .iter()
            .position(|c| Some(&c.id) == f.client_id.as_ref())
            .filter(|&i| Some(&self.options.clients[i].secret) == f.client_secret.as_ref())
            .ok_or(Refusal::InvalidClient)
    }

    fn decide(&mut self, f: &Fields, now: i64) -> Result<Granted, Refusal> {
        if f.grant_type.as_deref() != Some("refresh_token") {
            return Err(Refusal::UnsupportedGrantType);
        }
        let client = self.client_of(f)?;
        let at = self
            .refresh
            .iter()
            .position(|r| r.client == client && Some(&r.token) == f.refresh_token.as_ref())
            .filter(|&i| !self.refresh[i].revoked)
            .ok_or(Refusal::InvalidCode)?;
        let window = self.options.refresh_window_ms as i64;
        let r = &mut self.refresh[at];
        while r.grants.front().is_some_and(|&t| t <= now - window) {
            r.grants.pop_front();
        }
        if r.grants.len() >= self.options.refresh_limit {
            r.denied += 1;
            return Err(Refusal::AccessDenied);
        }
        r.grants.push_back(now);
        r.granted += 1;
        Ok(self.mint(at, now))
    }

    /// Mints an access token of the refresh token at `at`, revoking its oldest live one past the cap.
    fn mint(&mut self, at: usize, now: i64) -> Granted {
        self.prune(at, now);
        let r = &mut self.refresh[at];
        if r.live.len() >= self.options.live_token_cap {
            if let Some(oldest) = r.live.pop_front() {
                if let Some(m) = self.minted.get_mut(&oldest) {
                    m.revoked = true;
                }
                self.tally.revoked_by_cap += 1;
            }
        }
        self.seq += 1;
        let access_token = format!(
            "1000.{:016x}{:016x}.{:016x}",
            mix(self.salt ^ self.seq),
            self.salt,
            mix(self.seq)
        );
        let lifetime_ms = self.options.token_lifetime_ms;
        r.live.push_back(access_token.clone());
        r.peak_live = r.peak_live.max(r.live.len());
        self.minted.insert(
            access_token.clone(),
            Minted {
                refresh: at,
                expires_at: now.saturating_add(lifetime_ms as i64),
                revoked: false,
            },
        );
        Granted {
            access_token,
            refresh_token: None,
            lifetime_ms,
        }
    }

    /// Forgets the tokens of a refresh token that are no longer live at `now`.
    fn prune(&mut self, at: usize, now: i64) {
        let minted = &self.minted;
        self.refresh[at].live.retain(|t| {
            minted
                .get(t)
                .is_some_and(|m| !m.revoked && now < m.expires_at)
        });
    }

    /// What the API makes of `token` at `now`; an expired or revoked one is counted as answered 401.
    pub fn check(&mut self, token: &str, now: i64) -> Check {
        let check = match self.minted.get(token) {
            None => return Check::Unknown,
            Some(m) if m.revoked => Check::Revoked,
            Some(m) if now >= m.expires_at => Check::Expired,
            Some(_) => return Check::Live,
        };
        if check == Check::Revoked {
            self.tally.api_401_revoked += 1;
        } else {
            self.tally.api_401_expired += 1;
        }
        check
    }

    /// Revokes a refresh token and every access token it minted that is still live; how many of
    /// those, or `None` when no such refresh token is registered.
    pub fn revoke_refresh_token(&mut self, token: &str, now: i64) -> Option<usize> {
        let at = self.refresh.iter().position(|r| r.token == token)?;
        let n = self.revoke_at(at, now);
        self.tally.revoked_by_admin += n as u64;
        Some(n)
    }

    /// Revokes the refresh token at `at` and its live access tokens; how many of those.
    fn revoke_at(&mut self, at: usize, now: i64) -> usize {
        self.prune(at, now);
        let r = &mut self.refresh[at];
        r.revoked = true;
        let live: Vec<String> = r.live.drain(..).collect();
        for t in &live {
            if let Some(m) = self.minted.get_mut(t) {
                m.revoked = true;
            }
        }
        live.len()
    }

    /// The organizations a live access token's calls may name: its user's, or every one.
    pub fn reach(&self, token: &str) -> Reach {
        let user = self
            .minted
            .get(token)
            .and_then(|m| self.refresh[m.refresh].user.as_deref());
        match user.and_then(|u| self.users.get(u)) {
            Some(u) => u.reach.clone(),
            None => Reach::Every,
        }
    }

    /// Adds an organization to the user of a token of a user's grant.
    pub fn add_org_of(&mut self, token: &str, org: &str) {
        let user = self
            .minted
            .get(token)
            .and_then(|m| self.refresh[m.refresh].user.clone());
        if let Some(user) = user {
            self.users.add_org(&user, org);
        }
    }

    pub fn users(&self) -> &Users {
        &self.users
    }

    pub fn users_mut(&mut self) -> &mut Users {
        &mut self.users
    }

    /// Revokes an access token this server minted; whether it was live until now (`None`: not minted here).
    pub fn revoke_access_token(&mut self, token: &str, now: i64) -> Option<bool> {
        let m = self.minted.get_mut(token)?;
        let was_live = !m.revoked && now < m.expires_at;
        m.revoked = true;
        if was_live {
            self.tally.revoked_by_admin += 1;
        }
        let at = m.refresh;
        self.prune(at, now);
        Some(was_live)
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// Zeroes the counters (the tokens, windows and revocations stay); a peak restarts at the live count.
    pub fn reset_counters(&mut self, now: i64) {
        self.tally = Tally::default();
        for at in 0..self.refresh.len() {
            self.prune(at, now);
            let r = &mut self.refresh[at];
            (r.granted, r.denied, r.peak_live) = (0, 0, r.live.len());
        }
    }

    /// Each refresh token's state at `now`, in the order of the options.
    pub fn refresh_tokens(&mut self, now: i64) -> Vec<RefreshState<'_>> {
        for at in 0..self.refresh.len() {
            self.prune(at, now);
        }
        let (window, limit) = (
            self.options.refresh_window_ms as i64,
            self.options.refresh_limit,
        );
        self.refresh
            .iter()
            .map(|r| {
                let in_window: Vec<i64> = r
                    .grants
                    .iter()
                    .copied()
                    .filter(|&t| t > now - window)
                    .collect();
                RefreshState {
                    refresh_token: &r.token,
                    client_id: &self.options.clients[r.client].id,
                    revoked: r.revoked,
                    granted: r.granted,
                    access_denied: r.denied,
                    live_tokens: r.live.len(),
                    peak_live_tokens: r.peak_live,
                    blocked_until_ms: (in_window.len() >= limit).then(|| in_window[0] + window),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use options::Client;

    const T0: i64 = 1_700_000_000_000;

    fn server(edit: impl FnOnce(&mut Options)) -> Accounts {
        let mut o = Options::default();
        o.clients.push(Client {
            id: "c2".into(),
            secret: "s2".into(),
            refresh_tokens: vec!["r2".into(), "r3".into()],
        });
        edit(&mut o);
        Accounts::new(o, 7)
    }

    fn demo() -> Fields {
        fields(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, DEMO_REFRESH_TOKEN)
    }

    fn fields(id: &str, secret: &str, refresh: &str) -> Fields {
        Fields {
            grant_type: Some("refresh_token".into()),
            client_id: Some(id.into()),
            client_secret: Some(secret.into()),
            refresh_token: Some(refresh.into()),
            ..Fields::default()
        }
    }

    #[test]
    fn a_grant_mints_a_token_that_lives_its_lifetime() {
        let mut a = server(|o| o.token_lifetime_ms = 1500);
        let g = a.grant(&demo(), T0).unwrap();
        assert_eq!(g.lifetime_ms, 1500);
        assert!(g.access_token.starts_with("1000."), "{}", g.access_token);
        assert_eq!(a.check(&g.access_token, T0 + 1499), Check::Live);
        assert_eq!(a.check(&g.access_token, T0 + 1500), Check::Expired);
        assert_eq!(a.check("dev-token", T0), Check::Unknown);
        let other = a.grant(&demo(), T0).unwrap();
        assert_ne!(other.access_token, g.access_token, "each token is new");
        let elsewhere = Accounts::new(Options::default(), 8)
            .grant(&demo(), T0)
            .unwrap();
        assert_ne!(
            elsewhere.access_token, g.access_token,
            "sandboxes mint apart"
        );
        assert_eq!((a.tally().granted, a.tally().api_401_expired), (2, 1));
    }

    #[test]
    fn each_refusal() {
        let mut a = server(|_| {});
        let refused = |a: &mut Accounts, f: Fields| a.grant(&f, T0).unwrap_err();
        let no_grant_type = Fields {
            grant_type: None,
            ..demo()
        };
        let code = Fields {
            grant_type: Some("authorization_code".into()),
            ..demo()
        };
        for (f, why) in [
            (no_grant_type, Refusal::UnsupportedGrantType),
            (code, Refusal::UnsupportedGrantType),
            (
                fields("nope", DEMO_CLIENT_SECRET, DEMO_REFRESH_TOKEN),
                Refusal::InvalidClient,
            ),
            (
                fields(DEMO_CLIENT_ID, "s2", DEMO_REFRESH_TOKEN),
                Refusal::InvalidClient,
            ),
            (
                Fields {
                    client_secret: None,
                    ..demo()
                },
                Refusal::InvalidClient,
            ),
            (
                fields(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, "nope"),
                Refusal::InvalidCode,
            ),
            (
                fields(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, "r2"),
                Refusal::InvalidCode,
            ),
            (
                Fields {
                    refresh_token: None,
                    ..demo()
                },
                Refusal::InvalidCode,
            ),
        ] {
            assert_eq!(refused(&mut a, f.clone()), why, "{f:?}");
        }
        assert!(a.grant(&fields("c2", "s2", "r3"), T0).is_ok());
        let t = a.tally();
        assert_eq!(
            (
                t.unsupported_grant_type,
                t.invalid_client,
                t.invalid_code,
                t.granted
            ),
            (2, 3, 3, 1)
        );
        assert_eq!(Refusal::AccessDenied.error(), "Access Denied");
    }

    /// Ten in any ten minutes; the eleventh and every one after it are denied until ten minutes after
    /// the first of the ten, then the window slides one grant at a time. Denials do not extend it.
    #[test]
    fn the_window_blocks_until_the_first_of_the_limit_leaves_it() {
        let mut a = server(|o| o.live_token_cap = 100);
        for i in 0..10 {
            a.grant(&demo(), T0 + i * 1000).unwrap();
        }
        for at in [T0 + 9_000, T0 + 60_000, T0 + 599_999] {
            assert_eq!(a.grant(&demo(), at), Err(Refusal::AccessDenied), "{at}");
        }
        assert!(
            a.grant(&fields("c2", "s2", "r2"), T0 + 10).is_ok(),
            "the window is per refresh token"
        );
        let state = a.refresh_tokens(T0 + 599_999);
        assert_eq!(state[0].blocked_until_ms, Some(T0 + 600_000));
        assert_eq!((state[0].granted, state[0].access_denied), (10, 3));
        assert!(
            a.grant(&demo(), T0 + 600_000).is_ok(),
            "the first left the window"
        );
        assert_eq!(a.grant(&demo(), T0 + 600_999), Err(Refusal::AccessDenied));
        assert!(a.grant(&demo(), T0 + 601_000).is_ok(), "then the second");
        assert_eq!(a.tally().access_denied, 4);
    }

    #[test]
    fn the_limit_and_window_are_options() {
        let mut a = server(|o| {
            o.refresh_limit = 2;
            o.refresh_window_ms = 50;
        });
        assert!(a.grant(&demo(), T0).is_ok());
        assert!(a.grant(&demo(), T0 + 1).is_ok());
        assert_eq!(a.grant(&demo(), T0 + 49), Err(Refusal::AccessDenied));
        assert!(a.grant(&demo(), T0 + 50).is_ok());
    }

    #[test]
    fn minting_past_the_cap_revokes_the_oldest_live_token() {
        let mut a = server(|o| {
            o.live_token_cap = 2;
            o.token_lifetime_ms = 100;
        });
        let t1 = a.grant(&demo(), T0).unwrap().access_token;
        let t2 = a.grant(&demo(), T0 + 1).unwrap().access_token;
        let t3 = a.grant(&demo(), T0 + 2).unwrap().access_token;
        assert_eq!(a.check(&t1, T0 + 3), Check::Revoked);
        assert_eq!(a.check(&t2, T0 + 3), Check::Live);
        assert_eq!(a.check(&t3, T0 + 3), Check::Live);
        assert_eq!(a.refresh_tokens(T0 + 3)[0].live_tokens, 2);
        assert_eq!(a.refresh_tokens(T0 + 3)[0].peak_live_tokens, 2);
        // t2 has expired by T0 + 101: minting then revokes nothing.
        let t4 = a.grant(&demo(), T0 + 101).unwrap().access_token;
        assert_eq!(a.check(&t3, T0 + 101), Check::Live);
        assert_eq!(a.check(&t4, T0 + 101), Check::Live);
        let t = a.tally();
        assert_eq!((t.revoked_by_cap, t.api_401_revoked), (1, 1));
    }

    #[test]
    fn revocation() {
        let mut a = server(|_| {});
        let t1 = a.grant(&demo(), T0).unwrap().access_token;
        let t2 = a.grant(&demo(), T0).unwrap().access_token;
        assert_eq!(a.revoke_access_token(&t1, T0), Some(true));
        assert_eq!(a.revoke_access_token(&t1, T0), Some(false), "once");
        assert_eq!(a.revoke_access_token("dev-token", T0), None);
        assert_eq!(a.check(&t1, T0), Check::Revoked);
        assert_eq!(a.refresh_tokens(T0)[0].live_tokens, 1);
        assert_eq!(a.revoke_refresh_token(DEMO_REFRESH_TOKEN, T0), Some(1));
        assert_eq!(
            a.check(&t2, T0),
            Check::Revoked,
            "its live tokens go with it"
        );
        assert_eq!(a.grant(&demo(), T0), Err(Refusal::InvalidCode));
        assert_eq!(a.revoke_refresh_token("nope", T0), None);
        assert!(a.refresh_tokens(T0)[0].revoked);
        assert_eq!(a.tally().revoked_by_admin, 2);
    }

    #[test]
    fn counters_reset_but_state_stays() {
        let mut a = server(|_| {});
        let t = a.grant(&demo(), T0).unwrap().access_token;
        a.reset_counters(T0);
        assert_eq!(a.tally(), &Tally::default());
        let s = &a.refresh_tokens(T0)[0];
        assert_eq!((s.granted, s.live_tokens, s.peak_live_tokens), (0, 1, 1));
        assert_eq!(a.check(&t, T0), Check::Live);
    }
}
