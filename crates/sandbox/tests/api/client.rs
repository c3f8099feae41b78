//! A sandbox per test and a small client that sends calls the way the SDK does.

use sandbox::http::{self, ClientResponse};
use sandbox::{Config, Server};
use serde_json::Value;
use std::io;
use std::time::Duration;
use svc_core::catalog::Operation;

pub struct Sandbox {
    pub server: Server,
}

/// One part of a multipart body: field name, file name (none for a text field), bytes.
pub type FormPart<'a> = (&'a str, Option<&'a str>, &'a [u8]);

impl Sandbox {
    pub fn start(args: &[&str]) -> Sandbox {
        Sandbox::start_with(args, &[])
    }

    /// A sandbox that also routes `extra` rows, which the catalog does not have.
    pub fn start_with(args: &[&str], extra: &'static [Operation]) -> Sandbox {
        let all = ["--port", "0", "--quiet"]
            .iter()
            .chain(args)
            .map(|s| s.to_string());
        let config = Config::from_args(all).expect("flags");
        Sandbox {
            server: sandbox::start_with(config, extra).expect("the sandbox starts"),
        }
    }

    pub fn org(&self) -> &str {
        self.server.org_id()
    }

    pub fn try_raw(
        &self,
        method: &str,
        target: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> io::Result<ClientResponse> {
        let host = self.server.addr().to_string();
        http::send(
            self.server.addr(),
            &host,
            method,
            target,
            headers,
            body,
            Duration::from_secs(20),
        )
    }

    pub fn raw(
        &self,
        method: &str,
        target: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> ClientResponse {
        self.try_raw(method, target, headers, body)
            .expect("an answer")
    }

    /// Path below the family root (a query may follow), and the headers that carry the organization.
    pub fn target(&self, family: &str, path: &str) -> (String, Vec<(String, String)>) {
        let root = match family {
            "books" => "/books/v3",
            "inventory" => "/inventory/v1",
            "invoice" => "/invoice/v3",
            "billing" => "/billing/v1",
            "crm" => "/crm/v8",
            other => panic!("no family {other}"),
        };
        let mut target = format!("{root}{path}");
        let mut headers = Vec::new();
        match family {
            "books" | "inventory" => {
                target.push(if path.contains('?') { '&' } else { '?' });
                target.push_str(&format!("organization_id={}", self.org()));
            }
            "invoice" => {
                headers.push(("X-com-svc-invoice-organizationid".into(), self.org().into()))
            }
            "billing" => headers.push((
                "X-com-svc-subscriptions-organizationid".into(),
                self.org().into(),
            )),
            _ => {}
        }
        (target, headers)
    }

    pub fn try_call_as(
        &self,
        token: &str,
        family: &str,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> io::Result<ClientResponse> {
        let (target, org_headers) = self.target(family, path);
        let auth = format!("Svc-oauthtoken {token}");
        let mut headers: Vec<(&str, &str)> = org_headers
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        headers.push(("Authorization", &auth));
        let text = body.map(|b| b.to_string()).unwrap_or_default();
        if !text.is_empty() {
            headers.push(("Content-Type", "application/json"));
        }
        self.try_raw(method, &target, &headers, text.as_bytes())
    }

    pub fn call_as(
        &self,
        token: &str,
        family: &str,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> ClientResponse {
        self.try_call_as(token, family, method, path, body)
            .expect("an answer")
    }

    pub fn call(
        &self,
        family: &str,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> ClientResponse {
        self.call_as("dev-token", family, method, path, body)
    }

    /// A multipart/form-data POST.
    pub fn upload(&self, family: &str, path: &str, parts: &[FormPart]) -> ClientResponse {
        let boundary = "sandbox-test-boundary";
        let mut body = Vec::new();
        for (field, file, data) in parts {
            body.extend(
                format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"").bytes(),
            );
            if let Some(name) = file {
                body.extend(
                    format!("; filename=\"{name}\"\r\nContent-Type: application/octet-stream")
                        .bytes(),
                );
            }
            body.extend(b"\r\n\r\n");
            body.extend(*data);
            body.extend(b"\r\n");
        }
        body.extend(format!("--{boundary}--\r\n").bytes());
        let (target, org_headers) = self.target(family, path);
        let content_type = format!("multipart/form-data; boundary={boundary}");
        let mut headers: Vec<(&str, &str)> = org_headers
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        headers.push(("Authorization", "Svc-oauthtoken dev-token"));
        headers.push(("Content-Type", &content_type));
        self.raw("POST", &target, &headers, &body)
    }

    pub fn counters(&self) -> Value {
        value_of(&self.raw("GET", "/__sandbox/counters", &[], b""))
    }
}

/// The body as serde_json reads it (the tests compare with it), or null.
pub fn value_of(r: &ClientResponse) -> Value {
    serde_json::from_slice(&r.body).unwrap_or(Value::Null)
}

/// The text of an id (a JSON string or number).
pub fn id(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => panic!("not an id: {other}"),
    }
}

/// Asserts the status and the envelope's code of an answer, showing the body when they differ.
#[track_caller]
pub fn expect(r: &ClientResponse, status: u16, code: i64) -> Value {
    let v = value_of(r);
    assert_eq!((r.status, v["code"].as_i64()), (status, Some(code)), "{v}");
    v
}
