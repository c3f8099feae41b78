//! Multipart uploads: expense attachments (one or several files) and the composite item image.

use crate::client::{expect, id, Sandbox};
use serde_json::json;

fn expense(s: &Sandbox) -> String {
    let created = expect(
        &s.call(
            "books",
            "POST",
            "/expenses",
            Some(json!({"account_id": "1", "amount": 5})),
        ),
        201,
        0,
    );
    id(&created["expense"]["expense_id"])
}

#[test]
fn attachments_store_names_and_sizes_and_check_types() {
    let s = Sandbox::start(&[]);
    let path = format!("/expenses/{}/attachment", expense(&s));
    let r = s.upload(
        "books",
        &path,
        &[
            ("attachment", Some("scan.pdf"), b"%PDF-1.4 data"),
            ("attachment", Some("notes.TXT"), b"hello"),
        ],
    );
    let v = expect(&r, 200, 0);
    let comments = v["comments"].as_array().unwrap();
    assert_eq!(comments.len(), 2);
    assert!(comments[0]["description"]
        .as_str()
        .unwrap()
        .contains("scan.pdf"));
    assert_eq!(v["documents"][0]["file_name"], "scan.pdf");
    assert_eq!(v["documents"][0]["file_size"], 13);
    assert_eq!(v["documents"][1]["file_size"], 5);

    let v = expect(
        &s.upload(
            "books",
            &path,
            &[
                ("attachment", Some("a.png"), b"x"),
                ("attachment", Some("run.exe"), b"x"),
            ],
        ),
        400,
        1001,
    );
    assert_eq!(v["issues"][0]["path"], json!(["files", 1]));
    assert_eq!(v["issues"][0]["code"], "invalid_format");
    let v = expect(
        &s.upload("books", &path, &[("file", Some("a.png"), b"x")]),
        400,
        1001,
    );
    assert_eq!(v["issues"][0]["code"], "required");
    expect(&s.call("books", "POST", &path, Some(json!({}))), 400, 1400);
    expect(
        &s.upload(
            "books",
            "/expenses/1/attachment",
            &[("attachment", Some("a.png"), b"x")],
        ),
        404,
        1002,
    );
}

#[test]
fn the_composite_item_image() {
    let s = Sandbox::start(&[]);
    let created = expect(
        &s.call(
            "inventory",
            "POST",
            "/compositeitems",
            Some(json!({"name": "Kit"})),
        ),
        201,
        0,
    );
    let path = format!(
        "/compositeitems/{}/image",
        id(&created["composite_item"]["composite_item_id"])
    );
    let v = expect(
        &s.upload(
            "inventory",
            &path,
            &[
                ("image", Some("kit.jpeg"), &[0xff, 0xd8, 0xff]),
                ("note", None, b"front"),
            ],
        ),
        200,
        0,
    );
    assert_eq!(v.as_object().unwrap().len(), 2, "an empty answer: {v}");
    let v = expect(
        &s.upload("inventory", &path, &[("image", Some("kit.pdf"), b"x")]),
        400,
        1001,
    );
    assert_eq!(v["issues"][0]["path"], json!(["image"]));
    let v = expect(
        &s.upload(
            "inventory",
            &path,
            &[
                ("image", Some("a.png"), b"x"),
                ("image", Some("b.png"), b"x"),
            ],
        ),
        400,
        1001,
    );
    assert_eq!(v["issues"][0]["code"], "too_many");
}
