//! The tests of the rules of the billing operations' params: tasks, plans, events (the rules are
//! declared with their types in `crate::model::billing`).

use crate::issue::{Issue, IssueCode};
use crate::model::billing as m;
use crate::schema::Params;
use crate::validate::tests::support::{expect_all, expect_none, expect_one, issues_at};
use crate::validate::Schema;
use serde_json::json;
use serde_json::Value;

const NOW: i64 = 1_714_560_000_000;

fn run(schema: &Schema, params: Value) -> Vec<Issue> {
    issues_at(schema, &params, NOW)
}

fn passes(schema: &Schema, params: Value) {
    expect_none(&run(schema, params));
}

/// Asserts exactly one issue, with this path, code and details.
fn fails(schema: &Schema, params: Value, path: Value, code: IssueCode, details: Value) {
    expect_one(&run(schema, params), path, code, details);
}

fn text(n: usize) -> String {
    "x".repeat(n)
}

fn allowed(values: &[&str]) -> Value {
    json!({ "allowed": values })
}

// tasks

/// Asserts that the rows `ids` all check their params with `schema`: one schema's tests are theirs.
fn rows_take(ids: &[&str], schema: &Schema) {
    for id in ids {
        let row = crate::catalog::find(id).unwrap_or_else(|| panic!("no row {id}"));
        let same = format!("{:?}", row.params) == format!("{schema:?}");
        assert!(same, "{id} checks another schema");
    }
}

#[test]
fn create_and_update_of_a_task_take_one_schema() {
    rows_take(&["createTask", "updateTask"], m::TaskInput::SCHEMA);
}

#[test]
fn a_documented_task_passes() {
    let task = json!({"task_name": "Painting", "description": "Walls and doors", "rate": 30, "budget_hours": 12});
    passes(m::TaskInput::SCHEMA, task);
}

#[test]
fn task_name_is_required() {
    for params in [json!({"rate": 3}), json!({"task_name": " "})] {
        fails(
            m::TaskInput::SCHEMA,
            params,
            json!(["task_name"]),
            IssueCode::Required,
            json!({}),
        );
    }
}

#[test]
fn task_name_of_100_characters_passes() {
    passes(m::TaskInput::SCHEMA, json!({"task_name": text(100)}));
}

#[test]
fn task_name_of_101_characters_is_too_long() {
    fails(
        m::TaskInput::SCHEMA,
        json!({"task_name": text(101)}),
        json!(["task_name"]),
        IssueCode::TooLong,
        json!({"maximum": 100}),
    );
}

#[test]
fn task_description_of_500_characters_passes() {
    passes(
        m::TaskInput::SCHEMA,
        json!({"task_name": "t", "description": text(500)}),
    );
}

#[test]
fn task_description_of_501_characters_is_too_long() {
    let params = json!({"task_name": "t", "description": text(501)});
    fails(
        m::TaskInput::SCHEMA,
        params,
        json!(["description"]),
        IssueCode::TooLong,
        json!({"maximum": 500}),
    );
}

#[test]
fn task_rate_and_budget_hours_pass_as_integers_or_integer_text() {
    for v in [
        json!(0),
        json!(-3),
        json!(90000000000u64),
        json!("40"),
        json!(""),
    ] {
        passes(
            m::TaskInput::SCHEMA,
            json!({"task_name": "t", "rate": v.clone(), "budget_hours": v}),
        );
    }
}

#[test]
fn task_rate_with_a_fraction_is_not_an_integer() {
    let params = json!({"task_name": "t", "rate": 3.5});
    fails(
        m::TaskInput::SCHEMA,
        params,
        json!(["rate"]),
        IssueCode::InvalidType,
        json!({"expected": "integer"}),
    );
}

#[test]
fn task_budget_hours_as_other_text_is_not_an_integer() {
    for v in [json!("12:30"), json!("1.5"), json!(true)] {
        let params = json!({"task_name": "t", "budget_hours": v});
        let expected = json!({"expected": "integer"});
        fails(
            m::TaskInput::SCHEMA,
            params,
            json!(["budget_hours"]),
            IssueCode::InvalidType,
            expected,
        );
    }
}

#[test]
fn every_task_issue_is_reported_at_once() {
    let issues = run(
        m::TaskInput::SCHEMA,
        json!({"description": text(501), "rate": "x", "budget_hours": [1]}),
    );
    expect_all(
        &issues,
        &[
            ("task_name", IssueCode::Required),
            ("description", IssueCode::TooLong),
            ("rate", IssueCode::InvalidType),
            ("budget_hours", IssueCode::InvalidType),
        ],
    );
}

#[test]
fn task_get_and_delete_take_no_params_and_ignore_unknown_ones() {
    passes(crate::catalog::find("getTask").unwrap().params, json!({}));
    passes(
        crate::catalog::find("deleteTask").unwrap().params,
        json!({"organization_id": "10234695"}),
    );
}

// lists

const LISTS: [&Schema; 3] = [
    m::TaskListQuery::SCHEMA,
    m::PlanListQuery::SCHEMA,
    m::EventListQuery::SCHEMA,
];

#[test]
fn page_and_per_page_of_1_pass() {
    for schema in LISTS {
        passes(schema, json!({"page": 1, "per_page": 1}));
        passes(schema, json!({"page": 4_294_967_295u64, "per_page": 200}));
    }
}

#[test]
fn page_and_per_page_of_0_are_out_of_range() {
    let range = json!({"minimum": 1, "maximum": 4_294_967_295u64});
    for schema in LISTS {
        fails(
            schema,
            json!({"page": 0}),
            json!(["page"]),
            IssueCode::OutOfRange,
            range.clone(),
        );
        fails(
            schema,
            json!({"per_page": 0}),
            json!(["per_page"]),
            IssueCode::OutOfRange,
            range.clone(),
        );
    }
}

#[test]
fn page_must_be_an_integer() {
    for schema in LISTS {
        let expected = json!({"expected": "integer"});
        fails(
            schema,
            json!({"page": 1.5}),
            json!(["page"]),
            IssueCode::InvalidType,
            expected.clone(),
        );
        fails(
            schema,
            json!({"per_page": "2"}),
            json!(["per_page"]),
            IssueCode::InvalidType,
            expected,
        );
    }
}

#[test]
fn a_documented_list_query_passes_each_list() {
    passes(m::TaskListQuery::SCHEMA, json!({"page": 2, "per_page": 50}));
    passes(
        m::PlanListQuery::SCHEMA,
        json!({"filter_by": "PlanStatus.ACTIVE", "product_id": "903000000045012", "page": 1}),
    );
    passes(
        m::EventListQuery::SCHEMA,
        json!({"page": 1, "per_page": 25}),
    );
    passes(crate::catalog::find("getEvent").unwrap().params, json!({}));
}

#[test]
fn every_documented_plan_filter_passes() {
    for f in m::PlanFilter::VALUES {
        passes(m::PlanListQuery::SCHEMA, json!({"filter_by": f}));
    }
}

#[test]
fn an_undocumented_plan_filter_is_invalid() {
    for f in ["active", "PlanStatus.Active", "Status.All"] {
        let params = json!({"filter_by": f});
        fails(
            m::PlanListQuery::SCHEMA,
            params,
            json!(["filter_by"]),
            IssueCode::InvalidValue,
            allowed(m::PlanFilter::VALUES),
        );
    }
}

#[test]
fn plan_list_product_id_passes_as_string_or_integer() {
    passes(
        m::PlanListQuery::SCHEMA,
        json!({"product_id": 903000000045012u64}),
    );
    passes(
        m::PlanListQuery::SCHEMA,
        json!({"product_id": "903000000045012"}),
    );
}

#[test]
fn plan_list_product_id_of_another_type_is_invalid() {
    let expected = json!({"expected": "id (string or integer)"});
    fails(
        m::PlanListQuery::SCHEMA,
        json!({"product_id": true}),
        json!(["product_id"]),
        IssueCode::InvalidType,
        expected,
    );
}

#[test]
fn every_plan_list_issue_is_reported_at_once() {
    let issues = run(
        m::PlanListQuery::SCHEMA,
        json!({"filter_by": "Active", "product_id": [], "page": 0, "per_page": "x"}),
    );
    let paths: Vec<String> = issues.iter().map(Issue::path_string).collect();
    assert_eq!(paths, ["filter_by", "product_id", "page", "per_page"]);
}

// plans

fn plan() -> Value {
    serde_json::from_str(
        r#"{
            "plan_code": "basic-monthly",
            "name": "Basic",
            "description": "Everything to start",
            "store_markup_description": "All basics",
            "status": "active",
            "product_id": "903000000045012",
            "account_id": 903000000000388,
            "tax_id": "903000000000061",
            "trial_period": 14,
            "setup_fee": 5.5,
            "setup_fee_account_id": "903000000000388",
            "tags": [{"tag_id": 903000000000400, "tag_option_id": "903000000000401"}],
            "custom_fields": [{"label": "Priority", "value": "Normal"}, {"label": "Seats", "value": 5}],
            "recurring_price": 12.5,
            "unit": "seat",
            "interval": 2,
            "interval_unit": "months",
            "billing_cycles": -1,
            "product_type": "goods",
            "hsn_or_sac": "998314",
            "sat_item_key_code": 71121206,
            "unitkey_code": "E48",
            "item_tax_preferences": [
                {"tax_specification": "intra", "tax_id": "903000000000061", "tax_name": "GST", "tax_percentage": 18},
                {"tax_specification": "inter", "tax_id": "903000000000062"}
            ],
            "addons": [{"addon_code": "extra-seat", "name": "Extra seat"}],
            "is_taxable": true,
            "tax_exemption_id": "903000000000070",
            "tax_exemption_code": "EXEMPT",
            "can_charge_setup_fee_immediately": false
        }"#,
    )
    .unwrap()
}

fn plan_with(key: &str, value: Value) -> Value {
    let mut p = plan();
    p[key] = value;
    p
}

#[test]
fn create_and_update_of_a_plan_take_one_schema() {
    rows_take(&["createPlan", "updatePlan"], m::PlanInput::SCHEMA);
}

#[test]
fn a_documented_plan_passes() {
    passes(m::PlanInput::SCHEMA, plan());
}

#[test]
fn no_plan_field_is_required() {
    passes(m::PlanInput::SCHEMA, json!({}));
    passes(
        m::PlanInput::SCHEMA,
        json!({"addons": [{"addon_code": "extra-seat"}]}),
    );
}

#[test]
fn plan_interval_passes_as_an_integer() {
    passes(m::PlanInput::SCHEMA, plan_with("interval", json!(1)));
}

#[test]
fn plan_interval_with_a_fraction_is_not_an_integer() {
    let params = plan_with("interval", json!(1.5));
    fails(
        m::PlanInput::SCHEMA,
        params,
        json!(["interval"]),
        IssueCode::InvalidType,
        json!({"expected": "integer"}),
    );
}

#[test]
fn plan_interval_unit_years_passes() {
    passes(
        m::PlanInput::SCHEMA,
        plan_with("interval_unit", json!("years")),
    );
}

#[test]
fn plan_interval_unit_weeks_is_invalid() {
    let params = plan_with("interval_unit", json!("weeks"));
    let want = allowed(&["months", "years"]);
    fails(
        m::PlanInput::SCHEMA,
        params,
        json!(["interval_unit"]),
        IssueCode::InvalidValue,
        want,
    );
}

#[test]
fn plan_status_inactive_passes() {
    passes(m::PlanInput::SCHEMA, plan_with("status", json!("inactive")));
}

#[test]
fn plan_status_archived_is_invalid() {
    let params = plan_with("status", json!("archived"));
    fails(
        m::PlanInput::SCHEMA,
        params,
        json!(["status"]),
        IssueCode::InvalidValue,
        allowed(&["active", "inactive"]),
    );
}

#[test]
fn plan_tax_specification_inter_and_intra_pass() {
    let prefs = json!([{"tax_specification": "inter"}, {"tax_specification": "intra"}]);
    passes(
        m::PlanInput::SCHEMA,
        plan_with("item_tax_preferences", prefs),
    );
}

#[test]
fn plan_tax_specification_outside_the_set_is_invalid() {
    let prefs = json!([{"tax_specification": "intra"}, {"tax_specification": "outer"}]);
    let params = plan_with("item_tax_preferences", prefs);
    let path = json!(["item_tax_preferences", 1, "tax_specification"]);
    fails(
        m::PlanInput::SCHEMA,
        params,
        path,
        IssueCode::InvalidValue,
        allowed(&["inter", "intra"]),
    );
}

#[test]
fn plan_addon_code_and_name_pass_as_text() {
    let addons = json!([{"addon_code": "a", "name": "A"}, {"addon_code": "b", "name": "B"}]);
    passes(m::PlanInput::SCHEMA, plan_with("addons", addons));
}

#[test]
fn plan_addon_code_and_name_of_another_type_are_invalid() {
    let addons = json!([{"addon_code": "a"}, {"addon_code": "b", "name": 2}]);
    let path = json!(["addons", 1, "name"]);
    let want = json!({"expected": "string"});
    fails(
        m::PlanInput::SCHEMA,
        plan_with("addons", addons),
        path,
        IssueCode::InvalidType,
        want.clone(),
    );
    let addons = json!([{"addon_code": 7}]);
    fails(
        m::PlanInput::SCHEMA,
        plan_with("addons", addons),
        json!(["addons", 0, "addon_code"]),
        IssueCode::InvalidType,
        want,
    );
}

#[test]
fn plan_tag_ids_pass_as_strings_or_integers() {
    let tags = json!([{"tag_id": "1", "tag_option_id": 2}, {"tag_id": 18446744073709551615u64, "tag_option_id": "4"}]);
    passes(m::PlanInput::SCHEMA, plan_with("tags", tags));
}

#[test]
fn plan_tag_ids_of_another_type_are_invalid() {
    let tags = json!([{"tag_id": "1", "tag_option_id": false}]);
    let want = json!({"expected": "id (string or integer)"});
    fails(
        m::PlanInput::SCHEMA,
        plan_with("tags", tags),
        json!(["tags", 0, "tag_option_id"]),
        IssueCode::InvalidType,
        want,
    );
}

#[test]
fn plan_custom_field_label_and_value_pass() {
    let fields = json!([{"label": "Seats", "value": 5}, {"label": "Tier", "value": "Gold"}]);
    passes(m::PlanInput::SCHEMA, plan_with("custom_fields", fields));
}

#[test]
fn plan_custom_field_label_and_value_of_another_type_are_invalid() {
    let fields = json!([{"label": 1, "value": "x"}]);
    let want = json!({"expected": "string"});
    fails(
        m::PlanInput::SCHEMA,
        plan_with("custom_fields", fields),
        json!(["custom_fields", 0, "label"]),
        IssueCode::InvalidType,
        want,
    );
    let fields = json!([{"label": "Tier", "value": {"a": 1}}]);
    let want = json!({"expected": "string or number"});
    fails(
        m::PlanInput::SCHEMA,
        plan_with("custom_fields", fields),
        json!(["custom_fields", 0, "value"]),
        IssueCode::InvalidType,
        want,
    );
}

#[test]
fn plan_request_only_flags_pass_as_booleans() {
    passes(m::PlanInput::SCHEMA, plan_with("is_taxable", json!(false)));
    passes(
        m::PlanInput::SCHEMA,
        plan_with("can_charge_setup_fee_immediately", json!(true)),
    );
}

#[test]
fn plan_request_only_flags_as_text_are_invalid() {
    let want = json!({"expected": "boolean"});
    for key in ["is_taxable", "can_charge_setup_fee_immediately"] {
        let params = plan_with(key, json!("yes"));
        fails(
            m::PlanInput::SCHEMA,
            params,
            json!([key]),
            IssueCode::InvalidType,
            want.clone(),
        );
    }
}

#[test]
fn every_plan_issue_is_reported_at_once() {
    let mut params = plan();
    params["status"] = json!("gone");
    params["interval"] = json!("2");
    params["interval_unit"] = json!("days");
    params["tags"] = json!([{"tag_id": []}]);
    params["addons"] = json!([{"name": 1}]);
    params["item_tax_preferences"] = json!([{"tax_specification": "x"}]);
    let issues = run(m::PlanInput::SCHEMA, params);
    let paths: Vec<String> = issues.iter().map(Issue::path_string).collect();
    assert_eq!(
        paths,
        [
            "status",
            "tags[0].tag_id",
            "interval",
            "interval_unit",
            "item_tax_preferences[0].tax_specification",
            "addons[0].name"
        ]
    );
}

// vendor examples

const VENDOR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/vendor/");

#[test]
fn valid_vendor_requests_pass() {
    let cases: [(&str, &Schema); 5] = [
        ("books-as-billing__add_task.json", m::TaskInput::SCHEMA),
        ("books-as-billing__update_task.json", m::TaskInput::SCHEMA),
        (
            "books-as-billing__list_tasks.json",
            m::TaskListQuery::SCHEMA,
        ),
        (
            "books-as-billing__get_task.json",
            crate::catalog::find("getTask").unwrap().params,
        ),
        (
            "books-as-billing__delete_task.json",
            crate::catalog::find("deleteTask").unwrap().params,
        ),
    ];
    for (file, schema) in cases {
        let text = std::fs::read_to_string(format!("{VENDOR}{file}")).unwrap();
        let example: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            example["type_placeholders_used"]["request"],
            json!([]),
            "{file}"
        );
        let params = match &example["request_body"] {
            Value::Null => example["query_params_example"].clone(),
            body => body.clone(),
        };
        let issues = run(schema, params);
        assert!(issues.is_empty(), "{file}: {issues:#?}");
    }
}
