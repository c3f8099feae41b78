//! Migration check: each request type's declared schema against the hand schema its rows use.
#![cfg(test)]

use crate::schema::Params;

#[test]
fn declared_schemas_match_the_hand_schemas() {
    let pairs: &[(&str, &crate::schema::Schema, &crate::schema::Schema)] = &[
        (
            "inventory::CREATE_PACKAGE",
            &crate::validate::inventory::CREATE_PACKAGE,
            <crate::model::inventory::PackageInput as Params>::SCHEMA,
        ),
        (
            "inventory::LIST_PACKAGES",
            &crate::validate::inventory::LIST_PACKAGES,
            <crate::model::inventory::PackageListQuery as Params>::SCHEMA,
        ),
        (
            "inventory::UPDATE_PACKAGE",
            &crate::validate::inventory::UPDATE_PACKAGE,
            <crate::model::inventory::PackageUpdateInput as Params>::SCHEMA,
        ),
        (
            "inventory::CREATE_COMPOSITE_ITEM",
            &crate::validate::inventory::CREATE_COMPOSITE_ITEM,
            <crate::model::inventory::CompositeItemInput as Params>::SCHEMA,
        ),
        (
            "inventory::LIST_COMPOSITE_ITEMS",
            &crate::validate::inventory::LIST_COMPOSITE_ITEMS,
            <crate::model::inventory::CompositeItemListQuery as Params>::SCHEMA,
        ),
        (
            "inventory::UPDATE_COMPOSITE_ITEM",
            &crate::validate::inventory::UPDATE_COMPOSITE_ITEM,
            <crate::model::inventory::CompositeItemInput as Params>::SCHEMA,
        ),
        (
            "invoice::CREATE_CURRENCY",
            &crate::validate::invoice::CREATE_CURRENCY,
            <crate::model::invoice::CurrencyInput as Params>::SCHEMA,
        ),
        (
            "invoice::LIST_CURRENCIES",
            &crate::validate::invoice::LIST_CURRENCIES,
            <crate::model::invoice::CurrencyListQuery as Params>::SCHEMA,
        ),
        (
            "invoice::UPDATE_CURRENCY",
            &crate::validate::invoice::UPDATE_CURRENCY,
            <crate::model::invoice::CurrencyInput as Params>::SCHEMA,
        ),
        (
            "invoice::CREATE_PROJECT",
            &crate::validate::invoice::CREATE_PROJECT,
            <crate::model::invoice::ProjectInput as Params>::SCHEMA,
        ),
        (
            "invoice::LIST_PROJECTS",
            &crate::validate::invoice::LIST_PROJECTS,
            <crate::model::invoice::ProjectListQuery as Params>::SCHEMA,
        ),
        (
            "invoice::UPDATE_PROJECT",
            &crate::validate::invoice::UPDATE_PROJECT,
            <crate::model::invoice::ProjectInput as Params>::SCHEMA,
        ),
        (
            "invoice::ADD_PROJECT_COMMENT",
            &crate::validate::invoice::ADD_PROJECT_COMMENT,
            <crate::model::invoice::ProjectCommentInput as Params>::SCHEMA,
        ),
        (
            "invoice::LIST_PROJECT_COMMENTS",
            &crate::validate::invoice::LIST_PROJECT_COMMENTS,
            <crate::model::invoice::ProjectCommentListQuery as Params>::SCHEMA,
        ),
        (
            "invoice::LIST_PROJECT_INVOICES",
            &crate::validate::invoice::LIST_PROJECT_INVOICES,
            <crate::model::invoice::ProjectInvoiceListQuery as Params>::SCHEMA,
        ),
        (
            "invoice::CREATE_RECURRING_INVOICE",
            &crate::validate::invoice::CREATE_RECURRING_INVOICE,
            <crate::model::invoice::RecurringInvoiceInput as Params>::SCHEMA,
        ),
        (
            "billing::CREATE_TASK",
            &crate::validate::billing::CREATE_TASK,
            <crate::model::billing::TaskInput as Params>::SCHEMA,
        ),
        (
            "billing::LIST_TASKS",
            &crate::validate::billing::LIST_TASKS,
            <crate::model::billing::TaskListQuery as Params>::SCHEMA,
        ),
        (
            "billing::UPDATE_TASK",
            &crate::validate::billing::UPDATE_TASK,
            <crate::model::billing::TaskInput as Params>::SCHEMA,
        ),
        (
            "billing::CREATE_PLAN",
            &crate::validate::billing::CREATE_PLAN,
            <crate::model::billing::PlanInput as Params>::SCHEMA,
        ),
        (
            "billing::LIST_PLANS",
            &crate::validate::billing::LIST_PLANS,
            <crate::model::billing::PlanListQuery as Params>::SCHEMA,
        ),
        (
            "billing::UPDATE_PLAN",
            &crate::validate::billing::UPDATE_PLAN,
            <crate::model::billing::PlanInput as Params>::SCHEMA,
        ),
        (
            "billing::LIST_EVENTS",
            &crate::validate::billing::LIST_EVENTS,
            <crate::model::billing::EventListQuery as Params>::SCHEMA,
        ),
        (
            "crm::UPDATE_NOTIFICATION_CHANNELS",
            &crate::validate::crm::UPDATE_NOTIFICATION_CHANNELS,
            <crate::model::crm::WatchParams as Params>::SCHEMA,
        ),
        (
            "invoice::CLONE_PROJECT",
            &crate::validate::invoice::CLONE_PROJECT,
            <crate::model::invoice::ProjectCloneInput as Params>::SCHEMA,
        ),
        (
            "invoice::UPDATE_PROJECT_BY_UNIQUE_FIELD",
            &crate::validate::invoice::UPDATE_PROJECT_BY_UNIQUE_FIELD,
            <crate::model::invoice::ProjectUniqueFieldUpdateInput as Params>::SCHEMA,
        ),
        (
            "invoice::ADD_PROJECT_USERS",
            &crate::validate::invoice::ADD_PROJECT_USERS,
            <crate::model::invoice::ProjectUsersInput as Params>::SCHEMA,
        ),
        (
            "invoice::INVITE_PROJECT_USER",
            &crate::validate::invoice::INVITE_PROJECT_USER,
            <crate::model::invoice::ProjectUserDetailsInput as Params>::SCHEMA,
        ),
        (
            "invoice::UPDATE_PROJECT_USER",
            &crate::validate::invoice::UPDATE_PROJECT_USER,
            <crate::model::invoice::ProjectUserDetailsInput as Params>::SCHEMA,
        ),
        (
            "invoice::LIST_RECURRING_INVOICES",
            &crate::validate::invoice::LIST_RECURRING_INVOICES,
            <crate::model::invoice::RecurringInvoiceListQuery as Params>::SCHEMA,
        ),
        (
            "invoice::UPDATE_RECURRING_INVOICE",
            &crate::validate::invoice::UPDATE_RECURRING_INVOICE,
            <crate::model::invoice::RecurringInvoiceInput as Params>::SCHEMA,
        ),
        (
            "invoice::UPDATE_RECURRING_INVOICE_BY_UNIQUE_FIELD",
            &crate::validate::invoice::UPDATE_RECURRING_INVOICE_BY_UNIQUE_FIELD,
            <crate::model::invoice::RecurringInvoiceUniqueFieldUpdateInput as Params>::SCHEMA,
        ),
    ];
    let (mut only_hand, mut only_decl, mut order, mut kind_rules, mut req) = (0, 0, 0, 0, 0);
    for (name, hand, declared) in pairs {
        let hn: Vec<_> = hand.fields.iter().map(|f| f.name).collect();
        let dn: Vec<_> = declared.fields.iter().map(|f| f.name).collect();
        let oh: Vec<_> = hn.iter().filter(|n| !dn.contains(n)).collect();
        let od: Vec<_> = dn.iter().filter(|n| !hn.contains(n)).collect();
        let common_h: Vec<_> = hn.iter().filter(|n| dn.contains(n)).collect();
        let common_d: Vec<_> = dn.iter().filter(|n| hn.contains(n)).collect();
        if !oh.is_empty() {
            only_hand += 1;
            eprintln!("{name}: only in hand {oh:?}");
        }
        if !od.is_empty() {
            only_decl += 1;
            eprintln!("{name}: only declared {od:?}");
        }
        if common_h != common_d {
            order += 1;
            eprintln!("{name}: order differs");
        }
        for f in hand.fields {
            if let Some(d) = declared.fields.iter().find(|d| d.name == f.name) {
                if format!("{:?}{:?}", f.kind, f.rules) != format!("{:?}{:?}", d.kind, d.rules) {
                    kind_rules += 1;
                    eprintln!(
                        "{name}.{}: {:?} {:?} vs {:?} {:?}",
                        f.name, f.kind, f.rules, d.kind, d.rules
                    );
                }
                if f.required != d.required {
                    req += 1;
                    eprintln!(
                        "{name}.{}: required {} vs {}",
                        f.name, f.required, d.required
                    );
                }
            }
        }
        if hand.checks != declared.checks {
            eprintln!("{name}: checks differ");
        }
    }
    eprintln!("only_hand {only_hand} only_decl {only_decl} order {order} kind_rules {kind_rules} req {req}");
    let mut differ = Vec::new();
    for (name, hand, declared) in pairs {
        let (h, d) = (format!("{hand:?}"), format!("{declared:?}"));
        if h == d {
            eprintln!("MATCH {name}");
        }
        if h != d {
            differ.push(format!("{name}\n  hand:     {h}\n  declared: {d}"));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} differ:\n{}",
        differ.len(),
        pairs.len(),
        differ.join("\n")
    );
}
