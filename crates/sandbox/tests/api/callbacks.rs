//! CRM callbacks: the sandbox posts the documented body to a loopback listener started here.

use crate::client::{expect, Sandbox};
use http_body_util::{BodyExt, Empty};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use sandbox::http::Request;
use serde_json::{json, Value};
use std::net::TcpListener;
use std::sync::mpsc;
use std::thread;

/// A listener (hyper, as the sandbox's server) that answers `status` to each of `n` callbacks and
/// hands their requests over.
fn listener(n: usize, status: u16) -> (String, mpsc::Receiver<Request>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            for _ in 0..n {
                let (stream, _) = listener.accept().await.unwrap();
                let tx = tx.clone();
                let service = service_fn(move |req: hyper::Request<Incoming>| {
                    let tx = tx.clone();
                    async move {
                        let (parts, body) = req.into_parts();
                        let headers = parts.headers.iter();
                        tx.send(Request {
                            method: parts.method.to_string(),
                            path: parts.uri.path().into(),
                            query: parts.uri.query().unwrap_or_default().into(),
                            http10: false,
                            headers: headers
                                .map(|(k, v)| (k.to_string(), v.to_str().unwrap().into()))
                                .collect(),
                            body: body.collect().await?.to_bytes().to_vec(),
                        })
                        .unwrap();
                        let mut answer = hyper::Response::new(Empty::<Bytes>::new());
                        *answer.status_mut() = hyper::StatusCode::from_u16(status).unwrap();
                        Ok::<_, hyper::Error>(answer)
                    }
                });
                let conn = http1::Builder::new().serve_connection(TokioIo::new(stream), service);
                let _ = conn.await;
            }
        });
    });
    (base, rx)
}

#[test]
fn callbacks_carry_the_documented_body() {
    let s = Sandbox::start(&[]);
    let (base, rx) = listener(1, 200);
    let watch = json!({"watch": [{
        "channel_id": 1000000068001u64,
        "events": ["Leads.edit"],
        "notify_url": format!("{base}/hook?source=sandbox&key=k1"),
        "token": "verify-me"
    }]});
    expect(
        &s.call("crm", "PATCH", "/actions/watch", Some(watch)),
        200,
        0,
    );
    let trigger = json!({"records": [{"id": "4150868000000224005", "values": {"Last_Name": "Doe", "Email": "doe@example.com"}}]});
    let r = s.raw(
        "POST",
        "/__sandbox/crm/Leads/edit",
        &[],
        trigger.to_string().as_bytes(),
    );
    let v = expect(&r, 200, 0);
    assert_eq!(v["deliveries"][0]["status"], 200, "{v}");
    assert_eq!(v["deliveries"][0]["delivered"], true);

    let req = rx.recv().unwrap();
    assert_eq!(
        (req.method.as_str(), req.path.as_str(), req.query.as_str()),
        ("POST", "/hook", "source=sandbox&key=k1")
    );
    assert_eq!(req.header("content-type"), Some("application/json"));
    let body: Value = serde_json::from_slice(&req.body).unwrap();
    assert_eq!(body["module"], "Leads");
    assert_eq!(body["operation"], "edit");
    assert_eq!(body["channel_id"], 1000000068001u64);
    assert_eq!(body["token"], "verify-me");
    assert_eq!(body["ids"], json!(["4150868000000224005"]));
    assert_eq!(
        body["query_params"],
        json!({"source": "sandbox", "key": "k1"})
    );
    assert_eq!(
        body["affected_fields"],
        json!([{"4150868000000224005": ["Last_Name", "Email"]}])
    );
    assert_eq!(
        body["affected_values"][0]["values"]["Email"],
        "doe@example.com"
    );
    assert!(body["server_time"].as_i64().unwrap() > 0);
    assert!(body["resource_uri"]
        .as_str()
        .unwrap()
        .ends_with("/crm/v8/Leads"));
}

#[test]
fn conditions_other_events_and_foreign_urls() {
    let s = Sandbox::start(&[]);
    let (base, rx) = listener(1, 202);
    let condition = json!([{"type": "field_selection", "module": {"api_name": "Deals", "id": "1"},
                             "field_selection": {"group_operator": "or", "group": [{"field": {"api_name": "Stage", "id": "2"}}]}}]);
    let watch = json!({"watch": [
        {"channel_id": 1, "events": ["Deals.all"], "notify_url": format!("{base}/deals"), "notification_condition": condition},
        {"channel_id": 2, "events": ["Deals.create"], "notify_url": "http://example.com/hook"},
        {"channel_id": 3, "events": ["Leads.all"], "notify_url": format!("{base}/leads")}
    ]});
    expect(
        &s.call("crm", "PATCH", "/actions/watch", Some(watch)),
        200,
        0,
    );

    let amount_only = json!({"records": [{"id": 7, "values": {"Amount": 5}}]});
    let v = expect(
        &s.raw(
            "POST",
            "/__sandbox/crm/Deals/edit",
            &[],
            amount_only.to_string().as_bytes(),
        ),
        200,
        0,
    );
    assert_eq!(v["deliveries"], json!([]));
    assert_eq!(v["skipped"][0]["channel_id"], 1);

    let created = json!({"records": [{"id": 8, "values": {"Stage": "Won"}}]});
    let v = expect(
        &s.raw(
            "POST",
            "/__sandbox/crm/Deals/create",
            &[],
            created.to_string().as_bytes(),
        ),
        200,
        0,
    );
    let deliveries = v["deliveries"].as_array().unwrap();
    assert_eq!(deliveries.len(), 2);
    assert_eq!(
        (
            deliveries[0]["channel_id"].clone(),
            deliveries[0]["status"].clone()
        ),
        (json!(1), json!(202))
    );
    assert_eq!(deliveries[1]["status"], Value::Null);
    assert!(
        deliveries[1]["error"]
            .as_str()
            .unwrap()
            .contains("loopback"),
        "{v}"
    );
    assert_eq!(rx.recv().unwrap().path, "/deals");

    expect(
        &s.raw(
            "POST",
            "/__sandbox/crm/Deals/all",
            &[],
            created.to_string().as_bytes(),
        ),
        400,
        1400,
    );
    expect(
        &s.raw(
            "POST",
            "/__sandbox/crm/Deals/edit",
            &[],
            b"{\"records\": []}",
        ),
        400,
        1001,
    );
}
