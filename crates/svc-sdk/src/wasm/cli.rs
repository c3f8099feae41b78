//! The bin `svc-sdk`'s calls into the core (`crate::cli` and the accounts grants): a command's options
//! and help, an error's words and exit status, a call's arguments, exact JSON, and a refresh token from
//! a self-client's code or the device flow, on the connect steps and the platform's fetch.

use super::js::{get, object, to_js_error};
use super::platform::{Js, Watchers};
use crate::cli;
use crate::connect::device;
use crate::connect::login::{self, Login};
use crate::connect::servers::Servers;
use crate::connect::{self, form};
use crate::oauth::{self, Step};
use crate::secret::Secret;
use crate::send::{accounts_post, Failure, Platform};
use svc_core::error::{Error, ErrorKind};
use wasm_bindgen::prelude::*;

fn config(message: impl Into<String>) -> JsValue {
    to_js_error(&Error::config(message))
}

/// `{ options, help }` of a command (`options`: `util.parseArgs`'), or the bin's help for none.
#[wasm_bindgen(js_name = __cliSpec, skip_typescript)]
pub fn spec(name: Option<String>) -> Result<JsValue, JsValue> {
    let Some(name) = name else {
        return Ok(object(&[("help", cli::help(None).into())]).into());
    };
    let Some(c) = cli::command(&name) else {
        let names: Vec<&str> = cli::COMMANDS.iter().map(|c| c.name).collect();
        return Err(config(format!(
            "{} is not a command ({}): svc-sdk --help",
            svc_core::echo::quoted(&name),
            names.join(", ")
        )));
    };
    let options = super::json_to_js(&cli::parse_options(c));
    Ok(object(&[
        ("options", options),
        ("help", cli::help(Some(&name)).into()),
    ])
    .into())
}

#[wasm_bindgen(js_name = __cliExit, skip_typescript)]
pub fn exit(kind: Option<String>) -> u8 {
    cli::exit_status(kind.as_deref().unwrap_or_default())
}

/// The `SVC_*` members of `env` (strings).
fn env_of(env: &JsValue) -> Vec<(String, String)> {
    let names = [
        "SVC_TOKEN",
        "SVC_CLIENT_ID",
        "SVC_CLIENT_SECRET",
        "SVC_REFRESH_TOKEN",
        "SVC_ORGANIZATION_ID",
        "SVC_REGION",
        "SVC_API_DOMAIN",
        "SVC_ACCOUNTS_URL",
    ];
    names
        .iter()
        .filter_map(|n| get(env, n).as_string().map(|v| (n.to_string(), v)))
        .collect()
}

/// The variables of a `.env` file's text, `{ KEY: value }` (for a Node without `process.loadEnvFile`).
#[wasm_bindgen(js_name = __cliDotenv, skip_typescript)]
pub fn dotenv(text: String) -> JsValue {
    let vars = js_sys::Object::new();
    for (k, v) in cli::dotenv(&text) {
        let _ = js_sys::Reflect::set(&vars, &k.into(), &v.into());
    }
    vars.into()
}

/// A Client's options from the environment and `--org` (`dry`: no credential needed).
#[wasm_bindgen(js_name = __cliClient, skip_typescript)]
pub fn client_options(env: JsValue, org: Option<String>, dry: bool) -> Result<JsValue, JsValue> {
    let text =
        cli::client_options(&env_of(&env), org.as_deref(), dry).map_err(|e| to_js_error(&e))?;
    Ok(super::json_to_js(&text))
}

/// A call's arguments: its path params from `positionals`, then its params from the JSON text `data`
/// (read as an answer is: ids as strings, a number a double cannot hold an `ExactNumber`).
#[wasm_bindgen(js_name = __cliArgs, skip_typescript)]
pub fn args(
    id: JsValue,
    positionals: Vec<String>,
    data: Option<String>,
) -> Result<js_sys::Array, JsValue> {
    let op = super::operation_by_id(&id)?;
    let names: Vec<&str> = op.path_params().collect();
    if positionals.len() != names.len() {
        return Err(config(format!(
            "{} takes {} path parameter(s){}{}, not {}",
            op.id,
            names.len(),
            if names.is_empty() { "" } else { ": " },
            names.join(", "),
            positionals.len()
        )));
    }
    let out: js_sys::Array = positionals.iter().map(|p| JsValue::from_str(p)).collect();
    if let Some(text) = data {
        let bad = |e: String| config(format!("--data is not a JSON object: {e}"));
        let rewritten = svc_core::lossless::rewrite(text.trim()).map_err(bad)?;
        let value = super::answer_to_js(&rewritten);
        if !value.is_object() || js_sys::Array::is_array(&value) {
            return Err(bad("give the params as {...}".into()));
        }
        out.push(&value);
    } else {
        out.push(&JsValue::UNDEFINED);
    }
    Ok(out)
}

/// `value` as JSON text, every number exact: compact (0), indented (1) or indented in colour (2).
#[wasm_bindgen(js_name = __cliJson, skip_typescript)]
pub fn json(value: JsValue, style: u8) -> Result<String, JsValue> {
    let mut text = String::from(svc_validate::js::to_wire(&value)?);
    if svc_core::exact::mentions_marker(&text) {
        use svc_json::write::ToJson;
        let read = svc_core::exact::read(&text).map_err(|e| config(e.to_string()))?;
        text = read.to_json_text();
    }
    Ok(match style {
        0 => text + "\n",
        s => cli::indent(&text, s == 2),
    })
}

/// A call's result from the texts of its answers (each page's with `all`: their items in one array),
/// every number and id as the service spelled it (`cli::result`), in `style` as `__cliJson`.
#[wasm_bindgen(js_name = __cliResult, skip_typescript)]
pub fn result(id: JsValue, texts: Vec<String>, all: bool, style: u8) -> Result<String, JsValue> {
    let op = super::operation_by_id(&id)?;
    let text = cli::result(op, &texts, all).map_err(|e| to_js_error(&e))?;
    Ok(match style {
        0 => text + "\n",
        s => cli::indent(&text, s == 2),
    })
}

#[wasm_bindgen(js_name = __cliOps, skip_typescript)]
pub fn ops(filter: Option<String>, json: bool) -> String {
    cli::ops(filter.as_deref(), json)
}

/// What `notify` posts: `{ url, body }` for a billing event (its token in the URL's query), or
/// `{ crm }`, the options of `notification()` for a CRM notification (`Module.operation`).
#[wasm_bindgen(js_name = __cliNotice, skip_typescript)]
pub fn notice(
    url: String,
    event: Option<String>,
    token: Option<String>,
    id: Option<String>,
) -> Result<JsValue, JsValue> {
    let event = event.unwrap_or_else(|| "Leads.edit".into());
    let id = id.unwrap_or_else(|| "4150868000001".into());
    if let Some((module, operation)) = event.split_once('.') {
        let mut crm = String::from(r#"{"channelId":"1000000068001","ids":["#);
        svc_json::write::string(&mut crm, &id);
        crm.push(']');
        let token = token.unwrap_or_default();
        for (k, v) in [
            ("notifyUrl", url.as_str()),
            ("module", module),
            ("operation", operation),
            ("token", &token),
        ] {
            if !v.is_empty() {
                crm.push_str(&format!(r#","{k}":"#));
                svc_json::write::string(&mut crm, v);
            }
        }
        crm.push('}');
        let crm = super::json_to_js(&crm);
        return Ok(object(&[("crm", crm)]).into());
    }
    let body =
        cli::billing_event(&event, &id, js_sys::Date::now() as i64).map_err(|e| to_js_error(&e))?;
    let mut target = url;
    if let Some(t) = token {
        target.push(if target.contains('?') { '&' } else { '?' });
        target.push_str("token=");
        svc_core::request::percent_encode(&t, &mut target);
    }
    Ok(object(&[("url", target.into()), ("body", body.into())]).into())
}

/// An error's lines for stderr: its kind and message, a validation error's issues one a line.
#[wasm_bindgen(js_name = __cliError, skip_typescript)]
pub fn error_text(e: JsValue, colour: bool) -> String {
    let (red, dim, end) = if colour {
        ("\x1b[31m", "\x1b[2m", "\x1b[0m")
    } else {
        ("", "", "")
    };
    let kind = get(&e, "kind").as_string();
    let message = super::message_of(&e);
    let mut out = format!(
        "{red}svc-sdk: {}{end}{message}\n",
        kind.as_deref()
            .map_or("error: ".into(), |k| format!("{k} error: "))
    );
    if kind.as_deref().is_none_or(|k| k == "usage") {
        out.push_str(&format!(
            "  {dim}svc-sdk <command> --help says what each command takes{end}\n"
        ));
    }
    let issues = get(&e, "issues");
    if js_sys::Array::is_array(&issues) {
        for issue in js_sys::Array::from(&issues).iter() {
            let path = get(&issue, "path");
            let path = if js_sys::Array::is_array(&path) {
                js_sys::Array::from(&path).join(".").into()
            } else {
                String::new()
            };
            let message = get(&issue, "message").as_string().unwrap_or_default();
            let at = if path.is_empty() || message.starts_with(&path) {
                String::new()
            } else {
                format!("{dim}{path}:{end} ")
            };
            out.push_str(&format!("  - {at}{message}\n"));
        }
    }
    out
}

/// The accounts side of `login` and `token`: the client, its secret and the accounts server.
struct Accounts {
    client_id: String,
    secret: Secret,
    servers: Servers,
    url: String,
    platform: Js,
}

impl Accounts {
    fn of(env: &JsValue, region: Option<String>) -> Result<Accounts, JsValue> {
        let env = env_of(env);
        let var = |n: &str| {
            env.iter()
                .find(|(k, v)| k == n && !v.is_empty())
                .map(|(_, v)| v.clone())
        };
        let (Some(client_id), Some(secret)) = (var("SVC_CLIENT_ID"), var("SVC_CLIENT_SECRET"))
        else {
            return Err(config("set SVC_CLIENT_ID and SVC_CLIENT_SECRET (your client's, from the developer console), in the environment or a .env file"));
        };
        let region = region
            .or_else(|| var("SVC_REGION"))
            .unwrap_or_else(|| "us".into());
        let regions: Vec<&str> = svc_core::family::ACCOUNTS_SERVERS
            .iter()
            .map(|(r, _)| *r)
            .collect();
        if !regions.contains(&region.as_str()) {
            let (region, all) = (svc_core::echo::quoted(&region), regions.join(", "));
            return Err(config(format!(
                "--region (or SVC_REGION) {region} is not a region ({all})"
            )));
        }
        let overrides: Vec<(String, String)> = var("SVC_ACCOUNTS_URL")
            .map(|u| (region.clone(), u))
            .into_iter()
            .collect();
        let servers = Servers::new(&overrides).map_err(|e| {
            config(
                e.message
                    .replacen(&format!("accountsServers.{region}"), "SVC_ACCOUNTS_URL", 1),
            )
        })?;
        let url = servers.of_region(&region).unwrap_or_default().to_string();
        let watch = Watchers {
            level: None,
            logger: None,
            on_request: None,
            on_response: None,
        };
        let platform = Js {
            fetch: None,
            token: None,
            store: None,
            watch,
        };
        Ok(Accounts {
            client_id,
            secret: secret.into(),
            servers,
            url,
            platform,
        })
    }

    /// Posts `form` to `path` of the accounts server at `url`, and reads the answer: never a secret in the error.
    async fn post(
        &self,
        url: &str,
        path: &str,
        form: String,
        secrets: &[&str],
    ) -> Result<(u16, Vec<u8>), Failure> {
        accounts_post(
            &self.platform,
            &format!("{url}{path}"),
            form,
            0,
            "the command",
        )
        .await
        .map_err(|f| self.redacted(f, secrets))
    }

    fn redacted(&self, f: Failure, secrets: &[&str]) -> Failure {
        f.without_secrets(secrets.iter().copied().chain([self.secret.expose()]))
    }

    fn granted(&self, granted: oauth::Granted) -> Result<JsValue, JsValue> {
        let Some(refresh) = granted.refresh_token else {
            return Err(to_js_error(&Error::new(
                ErrorKind::Decode,
                "the accounts server gave no refresh token",
            )));
        };
        let domain = granted
            .access
            .domain
            .map_or(JsValue::UNDEFINED, JsValue::from);
        Ok(object(&[
            ("refreshToken", refresh.expose().into()),
            ("apiDomain", domain),
        ])
        .into())
    }
}

fn failed(f: Failure) -> JsValue {
    to_js_error(&f.error)
}

/// `token <code>`: the code exchanged for `{ refreshToken, apiDomain }`.
#[wasm_bindgen(js_name = __cliExchange, skip_typescript)]
pub fn exchange(
    env: JsValue,
    code: String,
    region: Option<String>,
    redirect_uri: Option<String>,
) -> js_sys::Promise {
    super::tasks::spawn(async move {
        let a = Accounts::of(&env, region)?;
        let mut fields = vec![
            ("grant_type", "authorization_code"),
            ("client_id", a.client_id.as_str()),
            ("client_secret", a.secret.expose()),
        ];
        if let Some(uri) = &redirect_uri {
            fields.push(("redirect_uri", uri));
        }
        fields.push(("code", &code));
        let (status, body) = a
            .post(&a.url, oauth::TOKEN_PATH, form(&fields), &[&code])
            .await
            .map_err(failed)?;
        let granted = oauth::read(status, &body, a.platform.now_ms(), Step::Exchange)
            .map_err(|r| failed(a.redacted(r.error.into(), &[&code])))?;
        a.granted(granted)
    })
}

/// `login`: `{ userCode, verificationUrl, expiresAt, done }`, `done` the grant once the user approved.
#[wasm_bindgen(js_name = __cliDeviceLogin, skip_typescript)]
pub fn device_login(
    env: JsValue,
    region: Option<String>,
    operations: Option<Vec<String>>,
) -> js_sys::Promise {
    super::tasks::spawn(async move {
        let a = Accounts::of(&env, region)?;
        let every = || {
            svc_core::catalog::operations()
                .iter()
                .map(|o| o.id.to_string())
                .collect()
        };
        let operations = operations.unwrap_or_else(every);
        let scopes =
            connect::authorize::scopes(Some(&operations), None).map_err(|e| to_js_error(&e))?;
        let form = device::code_form(&a.client_id, &scopes);
        let (status, body) = a
            .post(&a.url, connect::DEVICE_CODE_PATH, form, &[])
            .await
            .map_err(failed)?;
        let code =
            device::read_code(status, &body, a.platform.now_ms()).map_err(|e| to_js_error(&e))?;
        let shown = object(&[
            ("userCode", code.user_code.clone().into()),
            ("verificationUrl", code.verification_url.clone().into()),
            ("expiresAt", (code.expires_at as f64).into()),
        ]);
        let done = super::tasks::spawn(async move { poll(a, code).await });
        js_sys::Reflect::set(&shown, &"done".into(), &done)?;
        Ok(shown.into())
    })
}

/// Polls until the user approved, declined, or the code expired.
async fn poll(a: Accounts, code: device::Code) -> Result<JsValue, JsValue> {
    let login = Login {
        client_id: &a.client_id,
        secret: &a.secret,
        servers: &a.servers,
        accounts: a.url.clone(),
        timeout_ms: 0,
    };
    let (granted, _) = login::poll(&a.platform, login, &code)
        .await
        .map_err(failed)?;
    a.granted(granted)
}
