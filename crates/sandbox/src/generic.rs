//! Rows without a handler, served from the row alone: create, list, get, update and delete.

use crate::call::{Reply, Req};
use crate::error::{code, ApiError};
use crate::list;
use crate::record::{patch, stamp, Record};
use crate::resource::Resource;
use crate::store::{Ids, Org, Store};
use std::borrow::Cow;
use svc_core::catalog::{BodyKind, Method, Operation, Shape};

/// What a row does to its collection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Create,
    List,
    Get,
    Update,
    Delete,
}

/// Where the records of a path sit: the resources of its parents (outermost first), the table of
/// its collection, and the path parameter of the item it names, if it names one.
#[derive(Debug, PartialEq, Eq)]
pub struct Place {
    pub parents: Vec<Resource<'static>>,
    pub table: &'static str,
    pub item: Option<&'static str>,
}

/// The place of a path of collections and ids, such as `/a/{a_id}/b/{b_id}` or `/settings/currencies`;
/// `None` for any other path, such as an action (`/journals/{journal_id}/status/publish`).
pub fn place(path: &'static str) -> Option<Place> {
    let mut levels: Vec<Resource<'static>> = Vec::new();
    let mut names = 0;
    let mut start = 1;
    for seg in path.strip_prefix('/')?.split('/') {
        let at = start;
        start += seg.len() + 1;
        match seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(param) => {
                if param.is_empty() || names == 0 || (!levels.is_empty() && names > 1) {
                    return None;
                }
                let mut level = Resource::new(&path[..at - 1], param);
                level.parent = levels.last().map(|p| p.id);
                levels.push(level);
                names = 0;
            }
            None if seg.is_empty() || seg.contains(['{', '}']) => return None,
            None => names += 1,
        }
    }
    if names == 0 {
        let item = levels.pop()?;
        return Some(Place {
            parents: levels,
            table: item.table,
            item: Some(item.id),
        });
    }
    (names == 1 || levels.is_empty()).then_some(Place {
        parents: levels,
        table: path,
        item: None,
    })
}

fn key(shape: Shape) -> Option<&'static str> {
    match shape {
        Shape::Key(keys) | Shape::KeyArray(keys) => keys.first().copied(),
        Shape::KeyOrOneElementArray(key) => Some(key),
        _ => None,
    }
}

/// The id field of a row's records: the parameter at the end of its path, or else the key its
/// answer has with `_id` (`journal` gives `journal_id`).
pub fn id_field(op: &Operation) -> Option<Cow<'static, str>> {
    match (place(op.path)?.item, key(op.response)) {
        (Some(param), _) => Some(Cow::Borrowed(param)),
        (None, Some(key)) => Some(Cow::Owned(format!("{key}_id"))),
        (None, None) => None,
    }
}

/// What the generic store does for a row, from its method, path and response shape; `None` when
/// the row is not plain CRUD (an action, an upload, a file, an update of a whole collection).
pub fn action(op: &Operation) -> Option<Action> {
    let place = place(op.path)?;
    if matches!(op.body, BodyKind::Multipart { .. }) {
        return None;
    }
    let one = matches!(
        op.response,
        Shape::Key(_) | Shape::KeyArray(_) | Shape::KeyOrOneElementArray(_) | Shape::TopLevel
    );
    match (op.method, place.item.is_some()) {
        (Method::Post, false) if key(op.response).is_some() => Some(Action::Create),
        (Method::Get, false) if matches!(op.response, Shape::List(_)) => Some(Action::List),
        (Method::Get, true) if one => Some(Action::Get),
        (Method::Put | Method::Patch, true) if one => Some(Action::Update),
        (Method::Delete, true) if op.response == Shape::Empty => Some(Action::Delete),
        _ => None,
    }
}

pub fn serves(op: &Operation) -> bool {
    action(op).is_some()
}

/// What a row without a handler answers when the generic store cannot serve it either.
pub fn unserved(op: &Operation) -> ApiError {
    ApiError::new(
        501,
        code::NO_ROUTE,
        format!(
            "The sandbox does not implement {} ({} {}): it is not a plain create, list, get, update or delete, and it has no handler.",
            op.id,
            op.method.as_str(),
            op.path
        ),
    )
}

/// Stores a new record with a fresh id, its parent's id, the fields and its time stamps.
pub fn insert(
    org: &mut Org,
    ids: &Ids,
    res: &Resource,
    parent: Option<&str>,
    fields: &Record,
    now_ms: i64,
) -> Record {
    let mut rec = fields.clone();
    stamp(&mut rec, now_ms, true);
    org.insert(res, ids.next(res), rec, parent)
}

/// The id of the row's parent, once each parent on the path is known to exist (else 1002).
fn parent_of<'r>(
    org: &Org,
    parents: &[Resource],
    req: &'r Req,
) -> Result<Option<&'r str>, ApiError> {
    let mut outer = None;
    for p in parents {
        let id = req.path(p.id);
        org.get(p, id, outer)?;
        outer = Some(id);
    }
    Ok(outer)
}

/// Serves a call of a row that has no handler.
pub fn serve(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let op = req.op;
    let (Some(action), Some(place)) = (action(op), place(op.path)) else {
        return Err(unserved(op));
    };
    let id = id_field(op).unwrap_or_default();
    let res = Resource {
        parent: place.parents.last().map(|p| p.id),
        ..Resource::new(place.table, &id)
    };
    let (org, ids) = store.space(req.org)?;
    let parent = parent_of(org, &place.parents, req)?;
    let item = req.path(&id);
    let noun = res.noun();
    Ok(match action {
        Action::Create => Reply::created(
            format!("The {noun} has been created."),
            insert(org, ids, &res, parent, req.params, req.now_ms),
        ),
        Action::List => list::page(org.list(&res, parent), req.params),
        Action::Get => Reply::ok("success", org.get(&res, item, parent)?.clone()),
        Action::Update => Reply::ok(
            format!("The {noun} has been updated."),
            org.update(&res, item, parent, &patch(req.params, req.now_ms))?,
        ),
        Action::Delete => {
            org.remove(&res, item, parent)?;
            Reply::done(format!("The {noun} has been deleted."))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::json_obj;
    use crate::record::Value;
    use crate::resource::NAMED;
    use svc_core::catalog::{find, op, operations};
    use svc_core::family::Family;
    use svc_core::json;

    #[test]
    fn places_of_collections_items_and_actions() {
        let refund =
            place("/vendorcredits/{vendor_credit_id}/refunds/{vendor_credit_refund_id}").unwrap();
        assert_eq!(
            refund,
            Place {
                parents: vec![Resource::new("/vendorcredits", "vendor_credit_id")],
                table: "/vendorcredits/{vendor_credit_id}/refunds",
                item: Some("vendor_credit_refund_id"),
            }
        );
        let deep = place("/a/{a_id}/b/{b_id}/c").unwrap();
        assert_eq!(
            deep.parents[1],
            Resource::new("/a/{a_id}/b", "b_id").under("a_id")
        );
        assert_eq!((deep.table, deep.item), ("/a/{a_id}/b/{b_id}/c", None));
        let currency = place("/settings/currencies/{currency_id}").unwrap();
        assert_eq!(
            (currency.table, currency.item),
            ("/settings/currencies", Some("currency_id"))
        );
        for action in [
            "/journals/{journal_id}/status/publish",
            "/a/{a_id}/{b_id}",
            "/{a_id}",
            "/a//b",
            "",
        ] {
            assert_eq!(place(action), None, "{action}");
        }
    }

    #[test]
    fn what_the_generic_store_does_for_catalog_rows() {
        let of = |id: &str| action(find(id).unwrap());
        assert_eq!(of("getAccount"), Some(Action::Get), "a TopLevel answer");
        assert_eq!(of("createFixedAssetType"), Some(Action::Create));
        assert_eq!(
            of("createPackage"),
            Some(Action::Create),
            "a one-element array"
        );
        assert_eq!(of("listVendorCreditRefunds"), Some(Action::List));
        assert_eq!(of("updateTask"), Some(Action::Update));
        assert_eq!(of("deleteTask"), Some(Action::Delete));
        for id in [
            "getExpenseReceipt",
            "addExpenseAttachment",
            "uploadCompositeItemImage",
            "updateExpenseByUniqueField",
            "updateNotificationChannels",
        ] {
            assert_eq!(of(id), None, "{id}");
        }
        let journal = id_field(find("createJournal").unwrap()).unwrap();
        assert_eq!(journal, "journal_id");
    }

    #[test]
    fn named_resources_are_where_the_catalog_paths_put_them() {
        for named in NAMED {
            let mut seen = false;
            for op in operations() {
                let Some(p) = place(op.path) else { continue };
                for level in &p.parents {
                    if level.table == named.table {
                        assert_eq!(
                            (level.id, level.parent),
                            (named.id, named.parent),
                            "{}",
                            op.id
                        );
                    }
                }
                if p.table == named.table {
                    seen = true;
                    if let Some(item) = p.item {
                        assert_eq!(item, named.id, "{}", op.id);
                    }
                    assert_eq!(p.parents.last().map(|q| q.id), named.parent, "{}", op.id);
                }
            }
            assert!(seen, "{} is the collection of a catalog row", named.table);
        }
    }

    const fn row(
        id: &'static str,
        method: Method,
        path: &'static str,
        response: Shape,
    ) -> Operation {
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
        };
        match serve(store, &req)?.body {
            crate::call::Body::Record(v) => Ok(v),
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
        .unwrap_err();
        assert_eq!((action.status, action.code), (501, code::NO_ROUTE));
        assert!(action.message.contains("publishPart"), "{}", action.message);
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
}
