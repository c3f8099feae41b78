//! A row with no handler is served from the row alone: made-up widget rows, over real HTTP.

use crate::client::{expect, id, Sandbox};
use serde_json::json;
use svc_core::catalog::{op, Method, Operation, Shape};
use svc_core::family::Family;

const fn row(id: &'static str, method: Method, path: &'static str, response: Shape) -> Operation {
    let row = op(Family::Books, method, path, "SvcBooks.widgets.ALL").named(id);
    Operation { response, ..row }
}

static WIDGETS: [Operation; 9] = [
    row(
        "createWidget",
        Method::Post,
        "/widgets",
        Shape::Key(&["widget"]),
    ),
    row(
        "listWidgets",
        Method::Get,
        "/widgets",
        Shape::List("widgets"),
    ),
    row(
        "getWidget",
        Method::Get,
        "/widgets/{widget_id}",
        Shape::Key(&["widget"]),
    ),
    row(
        "updateWidget",
        Method::Put,
        "/widgets/{widget_id}",
        Shape::Key(&["widget"]),
    ),
    row(
        "deleteWidget",
        Method::Delete,
        "/widgets/{widget_id}",
        Shape::Empty,
    ),
    row(
        "createWidgetPart",
        Method::Post,
        "/widgets/{widget_id}/parts",
        Shape::KeyOrOneElementArray("part"),
    ),
    row(
        "listWidgetParts",
        Method::Get,
        "/widgets/{widget_id}/parts",
        Shape::List("parts"),
    ),
    row(
        "getWidgetPart",
        Method::Get,
        "/widgets/{widget_id}/parts/{part_id}",
        Shape::TopLevel,
    ),
    row(
        "publishWidget",
        Method::Post,
        "/widgets/{widget_id}/status/publish",
        Shape::Empty,
    ),
];

#[test]
fn a_new_crud_row_is_served_over_the_store() {
    let s = Sandbox::start_with(&["--no-rate-limit"], &WIDGETS);
    let created = expect(
        &s.call(
            "books",
            "POST",
            "/widgets",
            Some(json!({"name": "Sprocket", "size": 3})),
        ),
        201,
        0,
    );
    let widget = &created["widget"];
    assert_eq!(created["message"], "The widget has been created.");
    assert!(widget["widget_id"]
        .as_str()
        .unwrap()
        .bytes()
        .all(|b| b.is_ascii_digit()));
    assert_eq!(
        (widget["name"].clone(), widget["size"].clone()),
        (json!("Sprocket"), json!(3))
    );
    assert!(widget["created_time"].is_string());
    let w = id(&widget["widget_id"]);
    let other = expect(
        &s.call("books", "POST", "/widgets", Some(json!({"name": "Cog"}))),
        201,
        0,
    );
    let o = id(&other["widget"]["widget_id"]);

    let listed = expect(&s.call("books", "GET", "/widgets?per_page=1", None), 200, 0);
    assert_eq!(listed["widgets"], json!([widget]));
    assert_eq!(
        listed["page_context"],
        json!({"page": 1, "per_page": 1, "has_more_page": true})
    );
    let got = expect(
        &s.call("books", "GET", &format!("/widgets/{w}"), None),
        200,
        0,
    );
    assert_eq!(got["widget"], *widget);

    let updated = expect(
        &s.call(
            "books",
            "PUT",
            &format!("/widgets/{w}"),
            Some(json!({"size": 4, "widget_id": "forged"})),
        ),
        200,
        0,
    );
    assert_eq!(updated["widget"]["size"], 4);
    assert_eq!(
        updated["widget"]["name"], "Sprocket",
        "fields not supplied are kept"
    );
    assert_eq!(id(&updated["widget"]["widget_id"]), w);

    let deleted = expect(
        &s.call("books", "DELETE", &format!("/widgets/{w}"), None),
        200,
        0,
    );
    assert_eq!(
        deleted,
        json!({"code": 0, "message": "The widget has been deleted."})
    );
    let listed = expect(&s.call("books", "GET", "/widgets", None), 200, 0);
    assert_eq!(listed["widgets"].as_array().unwrap().len(), 1);
    assert_eq!(id(&listed["widgets"][0]["widget_id"]), o);

    for (method, body) in [
        ("GET", None),
        ("PUT", Some(json!({"size": 1}))),
        ("DELETE", None),
    ] {
        let v = expect(
            &s.call("books", method, &format!("/widgets/{w}"), body),
            404,
            1002,
        );
        assert!(v["message"].as_str().unwrap().contains(&w), "{v}");
    }
    assert_eq!(s.counters()["operations"]["getWidget"]["received"], 2);
}

#[test]
fn nested_rows_are_scoped_by_their_parent() {
    let s = Sandbox::start_with(&["--no-rate-limit"], &WIDGETS);
    let created = expect(
        &s.call("books", "POST", "/widgets", Some(json!({"name": "Frame"}))),
        201,
        0,
    );
    let w = id(&created["widget"]["widget_id"]);
    let other = expect(
        &s.call("books", "POST", "/widgets", Some(json!({"name": "Wheel"}))),
        201,
        0,
    );
    let o = id(&other["widget"]["widget_id"]);

    let part = expect(
        &s.call(
            "books",
            "POST",
            &format!("/widgets/{w}/parts"),
            Some(json!({"name": "Bolt"})),
        ),
        201,
        0,
    );
    let part = &part["part"][0];
    assert_eq!(part["widget_id"], json!(w));
    let p = id(&part["part_id"]);
    let got = expect(
        &s.call("books", "GET", &format!("/widgets/{w}/parts/{p}"), None),
        200,
        0,
    );
    assert_eq!(
        (got["part_id"].clone(), got["name"].clone()),
        (json!(p), json!("Bolt"))
    );
    let parts = expect(
        &s.call("books", "GET", &format!("/widgets/{w}/parts"), None),
        200,
        0,
    );
    assert_eq!(parts["parts"].as_array().unwrap().len(), 1);
    let none = expect(
        &s.call("books", "GET", &format!("/widgets/{o}/parts"), None),
        200,
        0,
    );
    assert_eq!(none["parts"], json!([]));
    expect(
        &s.call("books", "GET", &format!("/widgets/{o}/parts/{p}"), None),
        404,
        1002,
    );
    let v = expect(
        &s.call("books", "GET", "/widgets/404/parts", None),
        404,
        1002,
    );
    assert!(v["message"].as_str().unwrap().contains("widget"), "{v}");
    expect(
        &s.call(
            "books",
            "POST",
            "/widgets/404/parts",
            Some(json!({"name": "Nut"})),
        ),
        404,
        1002,
    );

    expect(
        &s.call(
            "books",
            "POST",
            &format!("/widgets/{w}/status/publish"),
            Some(json!({})),
        ),
        200,
        0,
    );
    let got = expect(
        &s.call("books", "GET", &format!("/widgets/{w}"), None),
        200,
        0,
    );
    assert_eq!(
        got["widget"]["status"], "publish",
        "an action's plain change"
    );
    expect(
        &s.call(
            "books",
            "POST",
            "/widgets/404/status/publish",
            Some(json!({})),
        ),
        404,
        1002,
    );
}

static GET_JOURNAL: [Operation; 1] = [row(
    "getJournal",
    Method::Get,
    "/journals/{journal_id}",
    Shape::Key(&["journal"]),
)];

#[test]
fn a_row_added_next_to_a_handler_sees_the_records_the_handler_keeps() {
    let extra: &'static [Operation] = match svc_core::catalog::find("getJournal") {
        Some(_) => &[],
        None => &GET_JOURNAL,
    };
    let s = Sandbox::start_with(&["--no-rate-limit"], extra);
    let accounts = expect(&s.call("books", "GET", "/chartofaccounts", None), 200, 0);
    let account = id(&accounts["chartofaccounts"][0]["account_id"]);
    let journal = json!({"journal_date": "2024-05-01", "line_items": [
        {"account_id": account, "debit_or_credit": "debit", "amount": 25},
        {"account_id": account, "debit_or_credit": "credit", "amount": 25}
    ]});
    let created = expect(&s.call("books", "POST", "/journals", Some(journal)), 201, 0);
    let j = id(&created["journal"]["journal_id"]);
    let got = expect(
        &s.call("books", "GET", &format!("/journals/{j}"), None),
        200,
        0,
    );
    assert_eq!(got["journal"], created["journal"]);
    assert_eq!(got["journal"]["entry_number"], "JE-00001");
    expect(&s.call("books", "GET", "/journals/404", None), 404, 1002);
}
