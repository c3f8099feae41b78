//! Every number a request gave comes back as it was written: stored, got and listed byte for byte.

use crate::client::{value_of, Sandbox};

const ASSET: &str = r#""asset_name":"Laptop","fixed_asset_type_id":"1","asset_account_id":"2","asset_purchase_date":"2024-01-01""#;

/// Numbers a double cannot hold (or holds as another text), in fields that are not ids.
const ODD: [(&str, &str); 7] = [
    ("legacy_ref", "12345678901234567891"),
    ("salvage_value", "1000.00000000000000000000000001"),
    ("far", "1e400"),
    ("tiny", "1e-400"),
    ("zero", "-0"),
    ("spelled", "1.50E+2"),
    (
        "meta",
        r#"{"refs":[3.14159265358979323846264338327950288,-0.0,2]}"#,
    ),
];

fn create(sb: &Sandbox, cost: &str) -> String {
    let odd: String = ODD.iter().map(|(k, v)| format!(",\"{k}\":{v}")).collect();
    let body = format!("{{{ASSET},\"asset_cost\":{cost}{odd}}}");
    let (target, _) = sb.target("books", "/fixedassets");
    let r = sb.raw(
        "POST",
        &target,
        &[
            ("Authorization", "Svc-oauthtoken dev-token"),
            ("Content-Type", "application/json"),
        ],
        body.as_bytes(),
    );
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    String::from_utf8(r.body).unwrap()
}

fn get(sb: &Sandbox, path: &str) -> String {
    let (target, _) = sb.target("books", path);
    let r = sb.raw(
        "GET",
        &target,
        &[("Authorization", "Svc-oauthtoken dev-token")],
        b"",
    );
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    String::from_utf8(r.body).unwrap()
}

fn assert_kept(text: &str, cost: &str) {
    for (k, v) in ODD.iter().chain([&("asset_cost", cost)]) {
        let member = format!("\"{k}\":{v}");
        assert!(text.contains(&member), "{member} in {text}");
    }
}

#[test]
fn a_created_record_is_got_with_every_number_as_it_was_written() {
    let sb = Sandbox::start(&[]);
    let created = create(&sb, "9007199254740993");
    assert_kept(&created, "9007199254740993");
    assert!(
        created.contains(r#""current_asset_value":9007199254740993"#),
        "a default copied from a number keeps its text: {created}"
    );
    let id = svc_json::parse(&created).unwrap()["fixed_asset"]["fixed_asset_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_kept(&get(&sb, &format!("/fixedassets/{id}")), "9007199254740993");
}

#[test]
fn lists_keep_the_numbers_and_sort_by_their_values() {
    let sb = Sandbox::start(&[]);
    for cost in ["1e400", "1000.00000000000000000000000001", "-0", "999.99"] {
        create(&sb, cost);
    }
    let listed = get(
        &sb,
        "/fixedassets?sort_column=asset_cost&sort_order=A&per_page=10",
    );
    let costs: Vec<&str> = listed
        .split("\"asset_cost\":")
        .skip(1)
        .map(|rest| &rest[..rest.find([',', '}']).unwrap()])
        .collect();
    assert_eq!(
        costs,
        ["-0", "999.99", "1000.00000000000000000000000001", "1e400"]
    );
}

#[test]
fn a_body_with_a_number_beyond_a_double_is_read_not_refused() {
    let sb = Sandbox::start(&[]);
    let created = create(&sb, "1e400");
    assert!(created.contains(r#""asset_cost":1e400"#), "{created}");
    let (target, _) = sb.target("books", "/fixedassets");
    let r = sb.raw(
        "POST",
        &target,
        &[
            ("Authorization", "Svc-oauthtoken dev-token"),
            ("Content-Type", "application/json"),
        ],
        b"{\"asset_name\":1e",
    );
    let v = value_of(&r);
    assert_eq!(r.status, 400);
    assert_eq!(
        v["message"],
        "The body is not valid JSON: EOF while parsing a value at line 1 column 16."
    );
}
