//! The generic store's reading of paths and its calls on made-up rows.

use super::*;
use crate::error::code;
use crate::record::json_obj;
use crate::record::Value;
use crate::resource::NAMED;
use svc_core::catalog::{find, op, operations, Shape};
use svc_core::family::Family;
use svc_json::json;

fn coll(table: &str, id: &str, parent: Option<&str>) -> (String, String, Option<String>) {
    (table.into(), id.into(), parent.map(String::from))
}

fn parts(c: &Coll) -> (String, String, Option<String>) {
    (c.table.clone(), c.id.clone(), c.parent.clone())
}

fn of(id: &str) -> Target {
    target_of(find(id).unwrap())
}

#[test]
fn paths_name_items_collections_and_actions_as_the_table_does() {
    let refund = of("getVendorCreditRefund");
    assert_eq!(refund.items.len(), 2);
    assert_eq!(
        parts(&refund.items[1].coll),
        coll(
            "/vendorcredits/{vendor_credit_id}/refunds",
            "vendor_credit_refund_id",
            Some("vendor_credit_id")
        )
    );
    let sent = of("markInvoiceSent");
    assert_eq!(
        parts(&sent.items[0].coll),
        coll("/invoices", "invoice_id", None)
    );
    assert_eq!(sent.tail, ["status", "sent"]);
    let refunds = of("createCustomerPaymentRefund");
    assert_eq!(
        parts(refunds.coll.as_ref().unwrap()),
        coll(
            "/customerpayments/{payment_id}/refunds",
            "refund_id",
            Some("payment_id")
        ),
        "one table whatever its parent's parameter is called"
    );
    let person = of("markContactPersonPrimary");
    assert_eq!(
        parts(&person.items[0].coll),
        coll(
            "/contacts/{contact_id}/contactpersons",
            "contact_person_id",
            Some("contact_id")
        ),
        "contact persons live under their contact"
    );
    assert!(!person.items[0].scoped);
    assert_eq!(person.tail, ["primary"]);
    let custom = of("updateCustomFieldsInBill");
    assert_eq!(parts(&custom.items[0].coll).0, "/bills");
    let matched = of("matchBankTransaction");
    assert_eq!(parts(&matched.items[0].coll).0, "/banktransactions");
    assert_eq!(matched.tail, ["match"]);
    let template = of("updateInvoiceTemplate");
    assert_eq!(template.tail, ["templates", "template_id"]);
    let email = of("emailInvoices");
    assert_eq!(parts(email.coll.as_ref().unwrap()).0, "/invoices");
    assert_eq!(email.tail, ["email"]);
    let module = path::target(find("getCustomModuleRecordDetails").unwrap(), &|p| {
        format!("[{p}]")
    });
    assert_eq!(
        parts(&module.items[0].coll),
        coll("/[module_name]", "module_id", None)
    );
}

#[test]
fn what_the_generic_store_does_for_catalog_rows() {
    let of = |id: &str| action(find(id).unwrap());
    assert_eq!(of("getAccount"), Some(Action::Get), "a TopLevel answer");
    assert_eq!(of("createFixedAssetType"), Some(Action::Create));
    assert_eq!(of("listVendorCreditRefunds"), Some(Action::List));
    assert_eq!(of("updateTask"), Some(Action::Update));
    assert_eq!(of("deleteTask"), Some(Action::Delete));
    assert_eq!(of("markInvoiceVoid"), Some(Action::Act));
    assert_eq!(of("getInvoiceEmail"), Some(Action::Act));
    assert_eq!(of("updateInvoiceUsingCustomField"), Some(Action::Bulk));
    assert_eq!(of("bulkExportInvoicesAsPdf"), Some(Action::Bulk));
    assert_eq!(of("bulkDeleteCustomerPayments"), Some(Action::Bulk));
    let comment = creates(find("booksAddProjectComment").unwrap()).unwrap();
    assert_eq!(comment.id, "comment_id");
    assert_eq!(
        creates(find("createJournal").unwrap()).unwrap().id,
        "journal_id"
    );
}

#[test]
fn named_resources_are_where_the_catalog_paths_put_them() {
    for named in NAMED {
        let mut seen = false;
        for op in operations() {
            let t = target_of(op);
            for c in t.items.iter().map(|i| &i.coll).chain(&t.coll) {
                if c.table == named.table {
                    seen = true;
                    assert_eq!(
                        (c.id.as_str(), c.parent.as_deref()),
                        (named.id, named.parent),
                        "{}",
                        op.id
                    );
                }
            }
        }
        assert!(seen, "{} is the collection of a catalog row", named.table);
    }
}

const fn row(id: &'static str, method: Method, path: &'static str, response: Shape) -> Operation {
    let row = op(Family::Books, method, path, "SvcBooks.widgets.ALL").named(id);
    Operation { response, ..row }
}

static CREATE_PART: Operation = row(
    "createPart",
    Method::Post,
    "/widgets/{widget_id}/parts",
    Shape::Key(&["part"]),
);
static GET_PART: Operation = row(
    "getPart",
    Method::Get,
    "/widgets/{widget_id}/parts/{part_id}",
    Shape::Key(&["part"]),
);
static PUBLISH_PART: Operation = row(
    "publishPart",
    Method::Post,
    "/widgets/{widget_id}/parts/{part_id}/status/publish",
    Shape::Empty,
);

static CREATE_NOTE: Operation = Operation {
    family: Family::Crm,
    org: false,
    ..row("createNote", Method::Post, "/notes", Shape::Key(&["note"]))
};
static GET_NOTE: Operation = Operation {
    family: Family::Crm,
    org: false,
    ..row(
        "getNote",
        Method::Get,
        "/notes/{note_id}",
        Shape::Key(&["note"]),
    )
};

fn call(
    store: &mut Store,
    op: &'static Operation,
    path: &[(&str, &str)],
    params: Value,
) -> Result<Value, ApiError> {
    call_in(store, "1", op, path, params)
}

fn call_in(
    store: &mut Store,
    org: &str,
    op: &'static Operation,
    path: &[(&str, &str)],
    params: Value,
) -> Result<Value, ApiError> {
    let path: Vec<(String, String)> = path
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let params = json_obj(params);
    let req = Req {
        op,
        org,
        path: &path,
        params: &params,
        files: &[],
        now_ms: 0,
        base: "http://127.0.0.1:1",
        reach: &crate::accounts::Reach::Every,
    };
    match serve(store, &req)?.body {
        crate::call::Body::Record(v) => Ok(v),
        crate::call::Body::Nothing => Ok(Value::Null),
        other => panic!("{other:?}"),
    }
}

#[test]
fn children_live_under_parents_that_exist() {
    let mut store = Store::default();
    store.orgs.push(Org::new("1", Record::new()));
    let widgets = Resource::new("/widgets", "widget_id");
    let (org, ids) = store.open("1").unwrap();
    let widget = insert(org, ids, &widgets, None, &Record::new(), 0);
    let w = crate::record::id_text(&widget["widget_id"]).unwrap();
    let missing = call(&mut store, &CREATE_PART, &[("widget_id", "9")], json!({})).unwrap_err();
    assert_eq!((missing.status, missing.code), (404, code::NOT_FOUND));
    assert!(missing.message.contains("widget"), "{}", missing.message);
    let part = call(
        &mut store,
        &CREATE_PART,
        &[("widget_id", &w)],
        json!({"n": 1}),
    )
    .unwrap();
    assert_eq!(part["widget_id"], json!(w));
    let p = crate::record::id_text(&part["part_id"]).unwrap();
    assert_eq!(
        call(
            &mut store,
            &GET_PART,
            &[("widget_id", &w), ("part_id", &p)],
            json!({})
        )
        .unwrap(),
        part
    );
    let elsewhere = call(
        &mut store,
        &GET_PART,
        &[("widget_id", "9"), ("part_id", &p)],
        json!({}),
    );
    assert_eq!(elsewhere.unwrap_err().code, code::NOT_FOUND);
    let action = call(
        &mut store,
        &PUBLISH_PART,
        &[("widget_id", &w), ("part_id", &p)],
        json!({}),
    )
    .unwrap();
    assert_eq!(action, Value::Null, "an empty answer");
    let published = call(
        &mut store,
        &GET_PART,
        &[("widget_id", &w), ("part_id", &p)],
        json!({}),
    )
    .unwrap();
    assert_eq!(published["status"], json!("publish"));
}

#[test]
fn rows_without_an_organization_share_one_place() {
    let mut store = Store::default();
    let note = call_in(&mut store, "", &CREATE_NOTE, &[], json!({"text": "hi"})).unwrap();
    let id = crate::record::id_text(&note["note_id"]).unwrap();
    let got = call_in(&mut store, "", &GET_NOTE, &[("note_id", &id)], json!({})).unwrap();
    assert_eq!(got["text"], json!("hi"));
    assert!(store.orgs.is_empty(), "no organization is made up for them");
}
