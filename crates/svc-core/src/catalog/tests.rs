//! The table's tests: ids, routes, scopes, the operations as JS reads them, and the recipe's new row.
//! Each row's sample call and the builder's edge cases are in `rows`, each row's vendor mark in
//! `vendor_marks`.

mod rows;
mod vendor_marks;

use super::*;
use std::collections::HashSet;

#[test]
fn the_core_writes_the_operations_as_serde_json_writes_them() {
    use svc_json::ToJson;
    let infos = operation_infos();
    assert_eq!(infos.to_json_text(), serde_json::to_string(&infos).unwrap());
    let one: serde_json::Value = serde_json::from_str(&infos[0].to_json_text()).unwrap();
    let keys: Vec<&str> = one
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        crate::declare::names(&OperationInfo::DECLARED),
        "as declared"
    );
}

#[test]
fn no_operation_or_route_is_declared_twice() {
    let ids: HashSet<_> = operations().iter().map(|o| o.id).collect();
    assert_eq!(ids.len(), operations().len());
    let routed: Vec<_> = operations().iter().filter(|o| o.routed).collect();
    let routes: HashSet<_> = routed
        .iter()
        .map(|o| (o.family, o.method, o.path))
        .collect();
    assert_eq!(routes.len(), routed.len(), "no route is declared twice");
}

#[test]
fn scopes_name_their_family() {
    for op in operations() {
        let prefix = match op.family {
            Family::Books => "SvcBooks.",
            Family::Inventory => "SvcInventory.",
            Family::Invoice => "SvcInvoice.",
            Family::Billing => "SvcSubscriptions.",
            Family::Crm => "SvcCRM.",
        };
        assert!(op.scope.starts_with(prefix), "{}", op.id);
        if op.source == Source::Published {
            continue;
        }
        let verb = op.scope.rsplit('.').next().unwrap();
        let expected = match op.method {
            Method::Get => "READ",
            Method::Post => "CREATE",
            Method::Put => "UPDATE",
            Method::Delete => "DELETE",
            Method::Patch => "ALL",
        };
        assert_eq!(verb, expected, "{}", op.id);
    }
}

#[test]
fn required_scopes_are_sorted_and_unique() {
    assert_eq!(
        required_scopes(["listPlans", "createPlan", "updatePlan", "createPlan"]).unwrap(),
        vec![
            "SvcSubscriptions.plans.CREATE",
            "SvcSubscriptions.plans.READ",
            "SvcSubscriptions.plans.UPDATE"
        ]
    );
    let err = required_scopes(["listplans"]).unwrap_err();
    assert!(err.contains("did you mean \"listPlans\""), "{err}");
}

mod recipe {
    //! CONTRIBUTING.md's "Add an operation", proven on a row the table does not hold: a new
    //! request type whose fields carry their rules (one new rule among them), one row that takes
    //! it. What follows by itself is checked here; what fails until it is added is named.
    use super::*;
    use crate::issue::IssueCode;
    use crate::model::common::{value_set, wire};

    value_set! {
        /// The colours of a journal's label.
        LabelColor { Red = "red", Green = "green" }
    }

    wire! {
        /// A label on a journal.
        request JournalLabelInput {
            label: String [MaxLen(20)],
            color?: LabelColor,
        }
    }

    static ROW: Operation = op(
        Books,
        POST,
        "/journals/{journal_id}/labels",
        "SvcBooks.accountants.CREATE",
    )
    .key(&["journal"])
    .params::<JournalLabelInput>()
    .returns::<books::Journal>()
    .named("addJournalLabel");

    #[test]
    fn the_row_is_routed_built_and_validated_by_its_declaration() {
        assert!(
            find(ROW.id).is_none(),
            "the table now holds {}: this proof needs a row it does not hold, so rename ROW here",
            ROW.id
        );
        let router = crate::route::Router::new(operations().iter().chain([&ROW])).unwrap();
        let found = router.find("POST", "/books/v3/journals/460000000038001/labels");
        let crate::route::Found::Op(op, values) = found else {
            panic!("not routed: {found:?}");
        };
        assert_eq!(op.id, "addJournalLabel");
        assert_eq!(values, [("journal_id".into(), "460000000038001".into())]);

        let params = serde_json::json!({ "label": "audit", "color": LabelColor::Red.as_str() });
        assert_eq!(crate::validate::validate(&ROW, &params), vec![]);
        let target = crate::request::Target::new(None, None, Some("10234695"), None).unwrap();
        let built = crate::request::build(&ROW, &target, &["460000000038001"], &params).unwrap();
        assert_eq!(
            built.url,
            "https://www.svcapis.com/books/v3/journals/460000000038001/labels?organization_id=10234695"
        );
        assert_eq!(
            built.body,
            crate::request::Body::Json(r#"{"label":"audit","color":"red"}"#.into())
        );

        // The new rule, the required field and the value set, from the one declaration.
        let bad = serde_json::json!({ "label": "a".repeat(21), "color": "blue" });
        let codes: Vec<IssueCode> = crate::validate::validate(&ROW, &bad)
            .into_iter()
            .map(|i| i.code())
            .collect();
        assert_eq!(codes, [IssueCode::TooLong, IssueCode::InvalidValue]);
        let missing = crate::validate::validate(&ROW, &serde_json::json!({}));
        assert_eq!(missing[0].code(), IssueCode::Required);
    }

    #[test]
    fn its_docs_and_types_follow_from_the_declaration() {
        let table = crate::rules_doc::table(&ROW).expect("the row takes params");
        assert!(
            table.contains("| `label` | string | yes | at most 20 characters |"),
            "{table}"
        );
        assert!(
            table.contains("| `color` | string |  | one of `red`, `green` |"),
            "{table}"
        );
        assert_eq!(
            (ROW.ts.params, ROW.ts.result),
            ("JournalLabelInput", "Journal")
        );
        let decl = <JournalLabelInput as tsify::Tsify>::DECL;
        assert!(
            decl.contains("label: string") && decl.contains("color?: LabelColor"),
            "{decl}"
        );
    }

    #[test]
    fn what_is_not_added_by_itself_is_named() {
        // No vendor example and no sample: the sample test names the row and where a sample goes.
        let sample = std::panic::catch_unwind(|| crate::examples::sample(&ROW));
        let why = sample
            .err()
            .and_then(|e| e.downcast::<String>().ok())
            .expect("a message");
        assert!(
            why.contains("addJournalLabel") && why.contains("SAMPLES"),
            "{why}"
        );
        // The generated rules of docs/VALIDATION.md lack the row until they are written again.
        assert!(!crate::rules_doc::markdown().contains("addJournalLabel"));
    }
}

#[test]
fn a_key_holds_an_array_exactly_when_the_result_type_is_one() {
    // Result types that are arrays under another name.
    const ARRAYS: &[&str] = &["ExpenseAttachmentResult"];
    for op in operations() {
        let array = op.ts.many || ARRAYS.contains(&op.ts.result);
        match op.response {
            Shape::Key(_) => assert!(!array, "{}: {} under .key()", op.id, op.ts.result),
            Shape::KeyArray(_) => {
                assert!(array, "{}: {} under .key_array()", op.id, op.ts.result)
            }
            _ => {}
        }
    }
}

#[test]
fn path_params_come_in_path_order() {
    let op = find("getVendorCreditRefund").unwrap();
    assert_eq!(
        op.path_params().collect::<Vec<_>>(),
        ["vendor_credit_id", "vendor_credit_refund_id"]
    );
    assert_eq!(find("listPlans").unwrap().path_param_count(), 0);
}
