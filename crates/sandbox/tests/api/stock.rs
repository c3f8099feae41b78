//! Stock moved by an adjustment: a quantity adjustment raises or lowers its items' stock on hand; an
//! adjustment naming an item the sandbox does not hold moves nothing.

use crate::client::{expect, id, Sandbox};
use serde_json::json;

fn stock(s: &Sandbox, item: &str) -> (serde_json::Value, serde_json::Value) {
    let got = expect(
        &s.call("inventory", "GET", &format!("/items/{item}"), None),
        200,
        0,
    );
    (
        got["item"]["stock_on_hand"].clone(),
        got["item"]["available_stock"].clone(),
    )
}

fn adjust(s: &Sandbox, body: serde_json::Value) -> sandbox::http::ClientResponse {
    s.call("inventory", "POST", "/inventoryadjustments", Some(body))
}

#[test]
fn a_quantity_adjustment_moves_its_items_stock() {
    let s = Sandbox::start(&["--no-rate-limit"]);
    let made = expect(
        &s.call(
            "inventory",
            "POST",
            "/items",
            Some(json!({"name": "Desk", "rate": 100, "stock_on_hand": 5})),
        ),
        201,
        0,
    );
    let item = id(&made["item"]["item_id"]);
    let line = |q: i64| json!({"item_id": item, "quantity_adjusted": q});
    let body = |q: i64| json!({"date": "2026-11-29", "reason": "Count", "adjustment_type": "quantity", "line_items": [line(q)]});
    expect(&adjust(&s, body(10)), 201, 0);
    assert_eq!(stock(&s, &item), (json!(15), json!(10)));
    expect(&adjust(&s, body(-3)), 201, 0);
    assert_eq!(stock(&s, &item).0, json!(12));
    let by_value = json!({"date": "2026-11-29", "reason": "Revalued", "adjustment_type": "value", "line_items": [line(100)]});
    expect(&adjust(&s, by_value), 201, 0);
    assert_eq!(
        stock(&s, &item).0,
        json!(12),
        "a value adjustment moves no stock"
    );
    let unknown = json!({"date": "2026-11-29", "reason": "Count", "adjustment_type": "quantity",
        "line_items": [line(1), {"item_id": "404", "quantity_adjusted": 1}]});
    assert_eq!(adjust(&s, unknown).json()["code"].as_i64(), Some(1002));
    assert_eq!(stock(&s, &item).0, json!(12), "nothing moved");
}
