//! `consent` and `approveDevice` for tests: the same Rust decisions as the consent and device pages' forms.

use crate::{client, Sandbox};
use sandbox::accounts::consent::Choice;
use sandbox::record::Value;
use wasm_bindgen::prelude::*;

/// The choice of `{ user?, deny?, location? }` (JSON text; null: the defaults), `location` where
/// `located`, or why it is not one; `call` names the method in messages.
pub fn choice(text: &str, call: &str, located: bool) -> Result<Choice, String> {
    let members = match sandbox::record::parse(text.as_bytes()) {
        Ok(Value::Obj(m)) => m,
        Ok(Value::Null) => return Ok(Choice::default()),
        _ => return Err(format!("{call}: options must be an object")),
    };
    let mut c = Choice::default();
    for (key, v) in members.iter().filter(|(_, v)| !v.is_null()) {
        match (key, v) {
            ("user", Value::Str(u)) => c.user = Some(u.to_string()),
            ("deny", Value::Bool(b)) => c.deny = *b,
            ("location", Value::Str(l)) if located => c.location = Some(l.to_string()),
            ("user", _) => return Err(format!("{call}: user must be a string")),
            ("location", _) if located => return Err(format!("{call}: location must be a string")),
            ("deny", _) => return Err(format!("{call}: deny must be true or false")),
            _ => return Err(format!("{call}: unknown option {key:?}")),
        }
    }
    Ok(c)
}

#[wasm_bindgen]
impl Sandbox {
    /// The redirect URL a browser would follow from the consent page of `authorize_url` (this
    /// sandbox's `/oauth/v2/auth?...`), given `{ user?, deny?, location? }`.
    pub fn consent(&self, authorize_url: &str, options: JsValue) -> Result<String, JsError> {
        let text = client::options_text(&options, "consent").map_err(|e| JsError::new(&e))?;
        let c = choice(&text, "consent", true).map_err(|e| JsError::new(&e))?;
        self.app
            .consent(authorize_url, &c, svc_core::clock::now_ms())
            .map_err(|e| JsError::new(&e))
    }

    /// Approves (or with `deny`, declines) the device code of `user_code` for `{ user? }`, as the
    /// device page's form does.
    #[wasm_bindgen(js_name = approveDevice)]
    pub fn approve_device(&self, user_code: &str, options: JsValue) -> Result<(), JsError> {
        let text = client::options_text(&options, "approveDevice").map_err(|e| JsError::new(&e))?;
        let c = choice(&text, "approveDevice", false).map_err(|e| JsError::new(&e))?;
        self.app
            .approve_device(user_code, &c, svc_core::clock::now_ms())
            .map_err(|e| JsError::new(&e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandbox::accounts::DEMO_CLIENT_ID;
    use sandbox::config::Config;
    use sandbox::App;
    use svc_json::json;

    fn app(accounts: Value) -> App {
        let options = json!({ "accounts": accounts });
        let config =
            Config::from_args(crate::flags(options.as_object().unwrap()).unwrap()).unwrap();
        App::new(config, crate::ORIGIN.into(), &[], 1_700_000_000_000, 1).unwrap()
    }

    #[test]
    fn the_users_and_data_centers_round_trip_through_flags() {
        let options = json!({ "accounts": { "users": [{ "email": "a@x.test", "organizations": ["7"] }], "location": "eu", "peers": { "us": "http://127.0.0.1:9" }, "deviceIntervalMs": 50 } });
        let args = crate::flags(options.as_object().unwrap()).unwrap();
        assert_eq!(
            args,
            [
                "--oauth-user",
                "a@x.test:7",
                "--oauth-location",
                "eu",
                "--oauth-peer",
                "us=http://127.0.0.1:9",
                "--oauth-device-interval-ms",
                "50"
            ]
        );
        let a = Config::from_args(args).unwrap().accounts;
        assert_eq!(
            (a.users[0].organizations.as_slice(), a.location.as_str()),
            (&["7".to_string()][..], "eu")
        );
        assert_eq!((a.peers.len(), a.device_interval_ms), (1, 50));
    }

    #[test]
    fn a_consent_gives_the_redirect_a_browser_follows() {
        let app = app(json!({ "peers": { "eu": "http://eu.sandbox.localhost" } }));
        let url = format!(
            "{}/oauth/v2/auth?response_type=code&client_id={DEMO_CLIENT_ID}&scope=SvcBooks.fullaccess.all&redirect_uri=http%3A%2F%2Fapp.test%2Fcb&access_type=offline&prompt=consent&state=xyz",
            crate::ORIGIN
        );
        let now = 1_700_000_000_000;
        let to = app.consent(&url, &Choice::default(), now).unwrap();
        assert!(to.starts_with("http://app.test/cb?code=1000."), "{to}");
        assert!(
            to.ends_with("&location=us&accounts-server=http%3A%2F%2Fsandbox.localhost&state=xyz"),
            "{to}"
        );
        let eu = Choice {
            location: Some("eu".into()),
            ..Choice::default()
        };
        assert!(app
            .consent(&url, &eu, now)
            .unwrap()
            .contains("&location=eu&accounts-server=http%3A%2F%2Feu.sandbox.localhost&"));
        let deny = Choice {
            deny: true,
            ..Choice::default()
        };
        assert_eq!(
            app.consent(&url, &deny, now).unwrap(),
            "http://app.test/cb?error=access_denied&state=xyz"
        );
        let e = app
            .consent(&url.replace(DEMO_CLIENT_ID, "nope"), &deny, now)
            .unwrap_err();
        assert!(
            e.starts_with("consent: The client_id is not a client registered"),
            "{e}"
        );
        let e = app
            .consent("https://accounts.example/oauth/v2/auth?x=1", &deny, now)
            .unwrap_err();
        assert!(e.contains("this sandbox's consent page"), "{e}");
        let e = app
            .approve_device("ABCD-EFGH", &Choice::default(), now)
            .unwrap_err();
        assert!(
            e.starts_with("approveDevice: The code is not one waiting"),
            "{e}"
        );
    }

    #[test]
    fn choices_are_read_and_checked() {
        let c = choice(
            r#"{"user":"a@x.test","deny":false,"location":"eu"}"#,
            "consent",
            true,
        )
        .unwrap();
        assert_eq!(c.user.as_deref(), Some("a@x.test"));
        assert_eq!((c.deny, c.location.as_deref()), (false, Some("eu")));
        assert_eq!(choice("null", "consent", true), Ok(Choice::default()));
        assert!(
            choice(r#"{"deny":true}"#, "approveDevice", false)
                .unwrap()
                .deny
        );
        for (text, located, needle) in [
            ("[]", true, "consent: options must be an object"),
            (r#"{"user":1}"#, true, "user must be a string"),
            (r#"{"deny":"yes"}"#, true, "deny must be true or false"),
            (r#"{"location":"eu"}"#, false, "unknown option \"location\""),
            (r#"{"nope":1}"#, true, "unknown option"),
        ] {
            let e = choice(text, "consent", located).unwrap_err();
            assert!(e.contains(needle), "{text}: {e}");
        }
    }
}
