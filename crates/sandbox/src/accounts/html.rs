//! The accounts server's HTML pages: consent, device, error and result (self-contained, no external assets).

use super::consent::{AuthRequest, AUTH_PATH};
use super::device::PAGE_PATH;
use super::users::{Reach, User};

/// `s` safe in HTML text and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A whole page: its title and body.
pub fn document(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><style>body{{font:15px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem}}\
         fieldset{{border:1px solid #ccc;border-radius:6px;margin:1rem 0}}label{{display:block;margin:.25rem 0}}\
         .org{{color:#555;font-size:13px}}button{{margin-right:.5rem;padding:.4rem 1rem}}</style></head>\
         <body><h1>{title}</h1>\n{body}\n</body></html>\n",
        title = escape(title)
    )
}

/// An error page's body: what is wrong, and that nothing was sent anywhere.
pub fn error(message: &str) -> String {
    document(
        "Request refused",
        &format!(
            "<p id=\"error\">{}</p><p>Nothing was sent to the application.</p>",
            escape(message)
        ),
    )
}

/// A page that says what was done.
pub fn result(title: &str, message: &str) -> String {
    document(title, &format!("<p id=\"result\">{}</p>", escape(message)))
}

fn hidden(name: &str, value: &str) -> String {
    format!(
        "<input type=\"hidden\" name=\"{name}\" value=\"{}\">",
        escape(value)
    )
}

/// The radio buttons of the users (the first checked), and a field for another email.
fn users(list: &[User]) -> String {
    let mut out = String::from("<fieldset><legend>Sign in as</legend>\n");
    for (i, u) in list.iter().enumerate() {
        let orgs = match &u.reach {
            Reach::Every => "every organization".to_string(),
            Reach::Orgs(ids) => format!("organizations {}", ids.join(", ")),
        };
        out.push_str(&format!(
            "<label><input type=\"radio\" name=\"user\" value=\"{email}\"{checked}> {email} \
             <span class=\"org\">({orgs})</span></label>\n",
            email = escape(&u.email),
            checked = if i == 0 { " checked" } else { "" },
            orgs = escape(&orgs),
        ));
    }
    out.push_str(
        "<label><input type=\"radio\" name=\"user\" value=\"\"> Another user: \
         <input type=\"email\" name=\"email\" placeholder=\"name@example.com\"></label>\n</fieldset>\n",
    );
    out
}

/// The select of the known data centers, this server's first.
fn locations(list: &[&str]) -> String {
    let options: String = list
        .iter()
        .map(|l| format!("<option value=\"{0}\">{0}</option>", escape(l)))
        .collect();
    format!("<label>Location <select name=\"location\">{options}</select></label>\n")
}

const BUTTONS: &str =
    "<p><button type=\"submit\" name=\"decision\" value=\"approve\">Approve</button>\
<button type=\"submit\" name=\"decision\" value=\"decline\">Decline</button></p>";

/// The consent page of a checked request: the client, its scopes, the users, the locations.
pub fn consent(req: &AuthRequest, list: &[User], places: &[&str]) -> String {
    let scopes: String = req
        .scope
        .split(',')
        .map(|s| format!("<li>{}</li>", escape(s.trim())))
        .collect();
    let mut fields = hidden("response_type", "code")
        + &hidden("client_id", &req.client_id)
        + &hidden("scope", &req.scope)
        + &hidden("redirect_uri", &req.redirect_uri);
    for (name, value) in [
        ("access_type", &req.access_type),
        ("prompt", &req.prompt),
        ("state", &req.state),
    ] {
        if let Some(v) = value {
            fields += &hidden(name, v);
        }
    }
    let body = format!(
        "<p>The application <strong id=\"client\">{client}</strong> asks to access your data:</p>\
         <ul id=\"scopes\">{scopes}</ul>\n<form method=\"post\" action=\"{AUTH_PATH}\">{fields}\n{users}{places}{BUTTONS}</form>",
        client = escape(&req.client_id),
        users = users(list),
        places = locations(places),
    );
    document("Authorize an application", &body)
}

/// The device page: a user code (typed, or filled in from the link, with the client and scopes it
/// asks for when it is pending), the users, the locations.
pub fn device(
    user_code: &str,
    asks: Option<(String, String)>,
    list: &[User],
    places: &[&str],
) -> String {
    let asked = asks.map_or_else(String::new, |(client, scopes)| {
        format!(
            "<p>The application <strong id=\"client\">{}</strong> asks for <span id=\"scopes\">{}</span>.</p>",
            escape(&client),
            escape(&scopes)
        )
    });
    let body = format!(
        "{asked}<p>Type the code your device shows.</p><form method=\"post\" action=\"{PAGE_PATH}\">\
         <label>Code <input name=\"user_code\" value=\"{code}\" autocomplete=\"off\" required></label>\n{users}{places}{BUTTONS}</form>",
        code = escape(user_code),
        users = users(list),
        places = locations(places),
    );
    document("Connect a device", &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_escape_what_they_show() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let req = AuthRequest {
            client: 0,
            client_id: "1000.<c>".into(),
            scope: "A.b,C.d".into(),
            redirect_uri: "http://h/cb?a=1&b=\"".into(),
            access_type: Some("offline".into()),
            prompt: None,
            state: Some("s<".into()),
        };
        let users = [
            User {
                email: "a@x.test".into(),
                reach: Reach::Every,
            },
            User {
                email: "b@x.test".into(),
                reach: Reach::Orgs(vec!["1".into(), "2".into()]),
            },
        ];
        let page = consent(&req, &users, &["us", "eu"]);
        assert!(page.contains("<strong id=\"client\">1000.&lt;c&gt;</strong>"));
        assert!(page.contains("<li>A.b</li><li>C.d</li>"));
        assert!(page.contains("value=\"http://h/cb?a=1&amp;b=&quot;\""));
        assert!(page.contains("name=\"state\" value=\"s&lt;\""));
        assert!(!page.contains("name=\"prompt\""));
        assert!(page.contains(
            "value=\"a@x.test\" checked> a@x.test <span class=\"org\">(every organization)"
        ));
        assert!(page.contains("(organizations 1, 2)"));
        assert!(page.contains("<option value=\"eu\">eu</option>"));
        assert!(page.contains("value=\"decline\">Decline"));
        assert!(
            !page.contains("src=") && !page.contains("http-equiv"),
            "no external assets"
        );
        let d = device("ABCD-EFGH", None, &users, &["us"]);
        assert!(d.contains("name=\"user_code\" value=\"ABCD-EFGH\""));
        assert!(!d.contains("id=\"client\""));
        let d = device(
            "ABCD-EFGH",
            Some(("1000.c".into(), "A.b".into())),
            &users,
            &["us"],
        );
        assert!(d.contains(
            "<strong id=\"client\">1000.c</strong> asks for <span id=\"scopes\">A.b</span>"
        ));
        assert!(error("bad <x>").contains("bad &lt;x&gt;"));
    }
}
