//! Every routed row of the table, called as its sample says, is answered in its shape.

use crate::client::{value_of, Sandbox};
use sandbox::generic::{self, path};
use sandbox::http::ClientResponse;
use sandbox::record::Record;
use serde_json::Value;
use std::collections::HashMap;
use svc_core::catalog::{operations, BodyKind, Operation};
use svc_core::examples::sample;
use svc_core::request::{self, Body, Target};
use svc_core::response::{self, Decoded};

/// Makes a record for each item the row's path names (outermost first), in place; the path
/// values that name them.
fn parents(s: &Sandbox, op: &Operation, values: &[String]) -> Vec<String> {
    let names: Vec<&str> = op.path_params().collect();
    let given: HashMap<&str, &str> = names
        .iter()
        .copied()
        .zip(values.iter().map(String::as_str))
        .collect();
    let t = path::target(op, &|p| given.get(p).copied().unwrap_or("x").to_string());
    let mut made: HashMap<&str, String> = HashMap::new();
    let app = s.server.app();
    let mut store = app.store();
    {
        let (org, ids) = store.space(if op.org { s.org() } else { "" }).unwrap();
        let mut outer: Option<String> = None;
        for item in t.items.iter().filter(|i| i.param != "organization_id") {
            let res = generic::resource(&item.coll);
            let parent = outer.as_deref().filter(|_| item.scoped);
            let rec = generic::insert(org, ids, &res, parent, &Record::new(), 0);
            let id = sandbox::record::id_text(&rec[res.id]).unwrap();
            made.insert(item.param, id.clone());
            outer = Some(id);
        }
    }
    app.restore(store);
    names
        .iter()
        .zip(values)
        .map(|(n, v)| match made.get(n) {
            Some(id) => id.clone(),
            None if *n == "organization_id" => s.org().to_string(),
            None => v.clone(),
        })
        .collect()
}

/// Sends a row's sample call as the SDK builds it.
fn send(s: &Sandbox, op: &Operation, values: &[String], params: &Value) -> ClientResponse {
    let target = Target::new(None, None, Some(s.org()), None).unwrap();
    let refs: Vec<&str> = values.iter().map(String::as_str).collect();
    let prepared = request::build(op, &target, &refs, params).unwrap();
    let at = prepared.url.find("://").map_or(0, |i| i + 3);
    let url = &prepared.url[at..];
    let url = &url[url.find('/').unwrap_or(url.len())..];
    let mut headers: Vec<(String, String)> = prepared.headers.clone();
    headers.push(("Authorization".into(), "Svc-oauthtoken dev-token".into()));
    let boundary = "every-row-boundary";
    let body: Vec<u8> = match &prepared.body {
        Body::None => Vec::new(),
        Body::Json(text) => text.clone().into_bytes(),
        Body::Multipart { field } => {
            let kind = match op.body {
                BodyKind::Multipart { accept, .. } => accept.first().copied().unwrap_or("pdf"),
                _ => "pdf",
            };
            headers.retain(|(k, _)| !k.eq_ignore_ascii_case("content-type"));
            headers.push((
                "Content-Type".into(),
                format!("multipart/form-data; boundary={boundary}"),
            ));
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"a.{kind}\"\r\nContent-Type: application/octet-stream\r\n\r\n%PDF-1.4\r\n--{boundary}--\r\n"
            )
            .into_bytes()
        }
    };
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    s.raw(op.method.as_str(), url, &headers, &body)
}

/// Hand-written rows whose sample call meets their handler's rules about state the sample does not
/// set up (a receipt, a user on the project, a name already taken, an item to adjust, an invoice to apply a payment
/// to, the vendor's placeholders in params the handler checks): they answer the service's error, as the service would.
const REFUSED_BY_THEIR_HANDLERS: &[&str] = &[
    "createJournal",
    "updateJournal",
    "getExpenseReceipt",
    "deleteExpenseReceipt",
    "updateCurrency",
    "removeProjectUser",
    "getProjectUser",
    "updateProjectUser",
    "deleteAccountTransaction",
    "deleteJournalComment",
    "deleteFixedAssetComment",
    "updateRecurringInvoice",
    "updateRecurringInvoiceByUniqueField",
    "createCustomerPayment",
    "createItemAdjustment",
];

#[test]
fn every_routed_row_answers_its_sample_call_in_its_shape() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let mut failed = Vec::new();
    let mut served = 0;
    for op in operations().iter().filter(|op| op.routed) {
        let sample = sample(op);
        let values = parents(&s, op, &sample.path);
        let r = send(&s, op, &values, &sample.params);
        let decoded = response::decode(op, r.status, r.header("content-type"), &r.body);
        if REFUSED_BY_THEIR_HANDLERS.contains(&op.id) {
            let code = value_of(&r)["code"].as_i64();
            assert!(
                (400..500).contains(&r.status) && code.is_some_and(|c| c != 1404),
                "{}: {} {code:?}",
                op.id,
                r.status
            );
            continue;
        }
        match decoded {
            Ok(Decoded::Json(_) | Decoded::Binary) if (200..300).contains(&r.status) => served += 1,
            other => failed.push(format!(
                "{} {} {}: {} {:?} {}",
                op.id,
                op.method.as_str(),
                op.path,
                r.status,
                other.err(),
                String::from_utf8_lossy(&r.body)
                    .chars()
                    .take(200)
                    .collect::<String>()
            )),
        }
    }
    assert!(
        failed.is_empty(),
        "{} failed, {served} served:\n{}",
        failed.len(),
        failed.join("\n")
    );
    let routed = operations().iter().filter(|op| op.routed).count();
    assert_eq!(served + REFUSED_BY_THEIR_HANDLERS.len(), routed);
}
