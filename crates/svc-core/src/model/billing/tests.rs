//! Decoding and declaration tests of the billing wire types.

use super::*;
use crate::catalog;
use crate::model::common::Id;
use serde_json::json;
use serde_json::Value;
use tsify::Tsify;

/// The vendor's task examples (the accounting ones stand in for billing), with their rows.
fn task_examples() -> impl Iterator<Item = (&'static catalog::Operation, &'static Value)> {
    catalog::operations()
        .iter()
        .filter(|op| op.family == crate::family::Family::Billing)
        .filter_map(|op| crate::examples::vendor_of(op).map(|f| (op, &f.json)))
}

#[test]
fn every_vendor_task_example_decodes() {
    let mut decoded = 0;
    for (op, example) in task_examples() {
        if example["request_body"].is_object() {
            let input: Result<TaskInput, _> =
                serde_json::from_value(example["request_body"].clone());
            assert!(input.is_ok(), "{}: {input:?}", op.id);
        }
        for item in crate::model::tests::resources(op.response, &example["response_body"]) {
            let task: Task =
                serde_json::from_value(item.clone()).unwrap_or_else(|e| panic!("{}: {e}", op.id));
            assert_eq!(task.task_id, Id::from("90300000072369"), "{}", op.id);
            decoded += 1;
        }
    }
    assert_eq!(decoded, 4);
}

#[test]
fn task_ids_sent_as_numbers_become_strings_and_hours_stay_text() {
    let task: Task =
        serde_json::from_value(task_examples().next().unwrap().1["response_body"]["task"].clone())
            .unwrap();
    assert_eq!(task.currency_id, Some(Id::from("982000000000190")));
    assert_eq!(task.billed_hours, Some(NumberOrText::Text("12:06".into())));
    let back = serde_json::to_value(&task).unwrap();
    assert_eq!(back["currency_id"], json!("982000000000190"));
}

#[test]
fn unknown_task_fields_are_kept() {
    let task: Task =
        serde_json::from_value(json!({"task_id": 1, "task_custom_fields": [{"x": 1}]})).unwrap();
    assert_eq!(
        task.extra["task_custom_fields"],
        svc_json::of_value(&json!([{"x": 1}]))
    );
    assert_eq!(
        serde_json::to_value(&task).unwrap()["task_custom_fields"],
        json!([{"x": 1}])
    );
}

#[test]
fn task_input_serializes_only_what_is_set() {
    let input: TaskInput =
        serde_json::from_value(json!({"task_name": "Painting", "rate": 3, "budget_hours": ""}))
            .unwrap();
    assert_eq!(input.rate, Some(NumberOrText::Int(3)));
    assert_eq!(
        serde_json::to_value(&input).unwrap(),
        json!({"task_name": "Painting", "rate": 3, "budget_hours": ""})
    );
}

const PLAN_EXAMPLE: &str = r#"{
    "plan_code": "basic-monthly",
    "name": "Basic",
    "status": "active",
    "product_id": 903000000045012,
    "recurring_price": 12.5,
    "interval": 2,
    "interval_unit": "months",
    "billing_cycles": -1,
    "trial_period": 14,
    "setup_fee": 5.5,
    "product_type": "goods",
    "tags": [{"tag_id": "1", "tag_option_id": "2", "tag_name": "Region", "tag_option_name": "EU", "is_tag_mandatory": false}],
    "custom_fields": [{
        "customfield_id": 46000000012845, "is_active": true, "show_in_all_pdf": true,
        "value_formatted": "Normal", "data_type": "string", "index": 1, "label": "Priority",
        "show_on_pdf": false, "placeholder": "cf_priority", "value": "Normal"
    }],
    "item_tax_preferences": [{"tax_id": "903000000000061", "tax_specification": "intra", "tax_name": "GST", "tax_percentage": 18}],
    "addons": [{
        "addon_code": "extra-seat", "name": "Extra seat", "status": "active",
        "pricing_scheme": "volume", "unit_name": "seat",
        "price_brackets": [{"start_quantity": 1, "end_quantity": 10, "price": 4.5}]
    }],
    "url": "https://subscriptions.example.com/subscribe/basic-monthly",
    "created_time": "2016-06-05T18:10:26+0530",
    "updated_time": "2016-06-05T18:10:26+0530",
    "store_markup_description": "All basics"
}"#;

fn plan_example() -> Value {
    serde_json::from_str(PLAN_EXAMPLE).unwrap()
}

#[test]
fn a_plan_from_the_documents_decodes_and_round_trips() {
    let plan: Plan = serde_json::from_value(plan_example()).unwrap();
    assert_eq!(plan.product_id, Some(Id::from("903000000045012")));
    let addon = &plan.addons.as_ref().unwrap()[0];
    assert_eq!(
        addon.price_brackets.as_ref().unwrap()[0].price,
        Some(NumberOrText::Float(4.5))
    );
    assert_eq!(
        plan.custom_fields.as_ref().unwrap()[0].customfield_id,
        Some(Id::from("46000000012845"))
    );
    let mut back = serde_json::to_value(&plan).unwrap();
    back["product_id"] = json!(903000000045012u64);
    back["custom_fields"][0]["customfield_id"] = json!(46000000012845u64);
    assert_eq!(back, plan_example());
}

#[test]
fn a_new_plan_status_still_decodes() {
    let plan: Plan =
        serde_json::from_value(json!({"plan_code": "p", "status": "archived"})).unwrap();
    assert_eq!(plan.status.as_deref(), Some("archived"));
}

#[test]
fn plan_input_uses_the_value_sets() {
    let input: PlanInput = serde_json::from_value(json!({
        "status": "inactive", "interval_unit": "years",
        "item_tax_preferences": [{"tax_specification": "inter"}],
        "addons": [{"addon_code": "a", "name": "A"}]
    }))
    .unwrap();
    assert_eq!(input.status, Some(PlanStatus::Inactive));
    assert_eq!(input.interval_unit, Some(IntervalUnit::Years));
    assert!(serde_json::from_value::<PlanInput>(json!({"interval_unit": "weeks"})).is_err());
}

#[test]
fn plan_filters_are_written_as_documented() {
    let all = [
        PlanFilter::All,
        PlanFilter::Active,
        PlanFilter::Inactive,
        PlanFilter::StatusAll,
        PlanFilter::StatusActive,
        PlanFilter::StatusInactive,
    ];
    let names: Vec<Value> = all
        .iter()
        .map(|f| serde_json::to_value(f).unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "All",
            "ACTIVE",
            "INACTIVE",
            "PlanStatus.All",
            "PlanStatus.ACTIVE",
            "PlanStatus.INACTIVE"
        ]
    );
}

#[test]
fn an_event_with_its_webhooks_decodes() {
    let event: Event = serde_json::from_value(json!({
        "event_id": 2000000094077u64,
        "event_type": "payment_thankyou",
        "event_time": "2016-06-05T18:10:26+0530",
        "payload": {"payment": {"amount": 10}},
        "webhooks": [{"webhook_id": "2000000011001", "url": "https://hooks.example.com/svc", "status": "success", "last_updated_time": "2016-06-05T18:10:30+0530"}]
    }))
    .unwrap();
    assert_eq!(event.event_id, Id::from("2000000094077"));
    assert_eq!(event.kind(), Some(EventType::PaymentThankyou));
    assert_eq!(
        event.webhooks.unwrap()[0].status.as_deref(),
        Some("success")
    );
}

#[test]
fn an_undocumented_event_type_still_decodes() {
    let event: Event = serde_json::from_value(
        json!({"event_id": "1", "event_type": "refund_added", "payload": "{}"}),
    )
    .unwrap();
    assert_eq!(event.kind(), None);
    assert_eq!(event.payload, Some(svc_json::of_value(&json!("{}"))));
}

#[test]
fn event_type_is_the_union_of_the_24_documented_types() {
    let decl = EventType::DECL;
    assert_eq!(decl.matches(" | ").count() + 1, 24, "{decl}");
    for name in [
        "\"subscription_created\"",
        "\"subscription_move_to_free_scheduled\"",
        "\"card_deleted\"",
    ] {
        assert!(decl.contains(name), "{decl}");
    }
    assert!(
        Event::DECL.contains("event_type?: EventType"),
        "{}",
        Event::DECL
    );
    assert!(
        EventWebhook::DECL.contains("status?: WebhookStatus"),
        "{}",
        EventWebhook::DECL
    );
}

#[test]
fn typescript_names_value_sets_and_keeps_request_types_closed() {
    assert!(
        PlanInput::DECL.contains("interval_unit?: IntervalUnit"),
        "{}",
        PlanInput::DECL
    );
    assert!(Plan::DECL.contains("status?: PlanStatus"), "{}", Plan::DECL);
    assert!(
        PlanFilter::DECL.contains("\"PlanStatus.INACTIVE\""),
        "{}",
        PlanFilter::DECL
    );
    assert!(
        !TaskInput::DECL.contains("Record<string, unknown>"),
        "{}",
        TaskInput::DECL
    );
    assert!(
        Task::DECL.contains("Record<string, unknown>"),
        "{}",
        Task::DECL
    );
}
