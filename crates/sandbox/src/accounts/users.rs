//! The accounts server's users: an email each, and the organizations it reaches.

/// The sandbox's user: the default user of its accounts server, the contact of new organizations, the author of comments.
pub const USER_EMAIL: &str = "john.david@example.com";

/// A user of `--oauth-user`: its email and the organizations it reaches (none: one of its own, made at start).
#[derive(Clone, Debug, PartialEq)]
pub struct UserOption {
    pub email: String,
    pub organizations: Vec<String>,
}

/// The organizations a user (and the access tokens of its grants) may name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reach {
    Every,
    Orgs(Vec<String>),
}

impl Reach {
    pub fn allows(&self, org: &str) -> bool {
        match self {
            Reach::Every => true,
            Reach::Orgs(ids) => ids.iter().any(|id| id == org),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct User {
    pub email: String,
    pub reach: Reach,
}

/// Every user, the sandbox's own first (it reaches every organization unless an option says otherwise).
#[derive(Clone, Debug, PartialEq)]
pub struct Users(Vec<User>);

/// Whether `s` is an email a user can be named by: one `@` between non-empty parts, no spaces.
pub fn is_email(s: &str) -> bool {
    let ok = |c: char| !c.is_whitespace() && !c.is_control() && !"<>\"'&,;:\\".contains(c);
    match s.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && domain.contains('.')
                && !domain.contains('@')
                && s.len() <= 254
                && s.chars().all(ok)
        }
        None => false,
    }
}

impl Users {
    /// The sandbox's user, then the users of the options (an empty list of organizations: one to make).
    pub fn new(options: &[UserOption]) -> Users {
        let mut users = Users(vec![User {
            email: USER_EMAIL.into(),
            reach: Reach::Every,
        }]);
        for u in options {
            users.set(&u.email, Reach::Orgs(u.organizations.clone()));
        }
        users
    }

    pub fn get(&self, email: &str) -> Option<&User> {
        self.0.iter().find(|u| u.email.eq_ignore_ascii_case(email))
    }

    pub fn all(&self) -> &[User] {
        &self.0
    }

    /// Adds or replaces a user.
    pub fn set(&mut self, email: &str, reach: Reach) {
        match self
            .0
            .iter_mut()
            .find(|u| u.email.eq_ignore_ascii_case(email))
        {
            Some(u) => u.reach = reach,
            None => self.0.push(User {
                email: email.to_string(),
                reach,
            }),
        }
    }

    /// Makes `email` a user if it is none yet, with the organization `make` creates for it.
    pub fn ensure(&mut self, email: &str, make: &mut dyn FnMut(&str) -> String) {
        if self.get(email).is_none() {
            let org = make(email);
            self.set(email, Reach::Orgs(vec![org]));
        }
    }

    /// Adds an organization to a user that does not reach every one.
    pub fn add_org(&mut self, email: &str, org: &str) {
        let user = self
            .0
            .iter_mut()
            .find(|u| u.email.eq_ignore_ascii_case(email));
        if let Some(User {
            reach: Reach::Orgs(ids),
            ..
        }) = user
        {
            if !ids.iter().any(|id| id == org) {
                ids.push(org.to_string());
            }
        }
    }

    /// The users whose list of organizations is empty, which the sandbox makes one for at start.
    pub fn without_orgs(&self) -> Vec<String> {
        self.0
            .iter()
            .filter(|u| u.reach == Reach::Orgs(Vec::new()))
            .map(|u| u.email.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sandbox_user_reaches_everything_and_new_users_their_own() {
        let mut users = Users::new(&[UserOption {
            email: "a@x.test".into(),
            organizations: vec!["1".into()],
        }]);
        assert_eq!(users.get(USER_EMAIL).unwrap().reach, Reach::Every);
        assert!(users.get("A@X.test").unwrap().reach.allows("1"));
        assert!(!users.get("a@x.test").unwrap().reach.allows("2"));
        let mut made = Vec::new();
        let mut make = |email: &str| {
            made.push(email.to_string());
            format!("org-{}", made.len())
        };
        users.ensure("b@x.test", &mut make);
        users.ensure("b@x.test", &mut make);
        assert_eq!(made, ["b@x.test"], "made once");
        assert_eq!(
            users.get("b@x.test").unwrap().reach,
            Reach::Orgs(vec!["org-1".into()])
        );
        users.add_org("b@x.test", "9");
        users.add_org(USER_EMAIL, "9");
        assert!(users.get("b@x.test").unwrap().reach.allows("9"));
        assert_eq!(users.get(USER_EMAIL).unwrap().reach, Reach::Every);
    }

    #[test]
    fn emails() {
        for ok in ["a@b.c", "first.last+tag@example.com"] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in ["", "a", "@b.c", "a@b", "a b@c.d", "a@b@c.d", "a<b@c.d"] {
            assert!(!is_email(bad), "{bad}");
        }
    }
}
