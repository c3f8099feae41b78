//! The documented errors some invoicing rows answer before the generic rules: 4031 and 20004.

use crate::error::{code, ApiError};
use crate::list;
use crate::record::Record;
use crate::record::Value;

/// The rows that answer 4031 to a recurring invoice without a name.
const NAMED_RECURRING: &[&str] = &[
    "createRecurringInvoice",
    "updateRecurringInvoice",
    "updateRecurringInvoiceByUniqueField",
];

/// The rows that answer 20004 to a negative amount of a project.
const PROJECT_AMOUNTS: &[&str] = &[
    "createProject",
    "updateProject",
    "updateProjectByUniqueField",
    "addProjectUsers",
    "inviteProjectUser",
    "updateProjectUser",
];

/// The documented errors that come before the generic rules: 4031 and 20004.
pub fn precheck(op_id: &str, params: &Record) -> Option<ApiError> {
    if NAMED_RECURRING.contains(&op_id) {
        let named = params
            .get("recurrence_name")
            .and_then(Value::as_str)
            .is_some_and(|n| !n.trim().is_empty());
        return (!named).then(|| {
            ApiError::bad(
                code::RECURRING_NAME,
                "A recurring invoice needs a name (recurrence_name).",
            )
        });
    }
    if PROJECT_AMOUNTS.contains(&op_id) {
        return negative_amount(params).map(|field| {
            ApiError::bad(
                code::NEGATIVE_AMOUNT,
                format!("{field} of a project may not be negative."),
            )
        });
    }
    None
}

fn is_amount(key: &str) -> bool {
    key == "rate" || key == "cost_rate" || key.contains("amount")
}

/// The first amount of a project (its own, or of a task or user) that is below zero.
fn negative_amount(params: &Record) -> Option<String> {
    let negative = |v: &Value| list::number(Some(v)).is_some_and(|n| n < 0.0);
    if let Some((k, _)) = params.iter().find(|(k, v)| is_amount(k) && negative(v)) {
        return Some(k.to_string());
    }
    for list in ["tasks", "users"] {
        let Some(items) = params.get(list).and_then(Value::as_array) else {
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            let found = item
                .as_object()
                .and_then(|o| o.iter().find(|(k, v)| is_amount(k) && negative(v)));
            if let Some((k, _)) = found {
                return Some(format!("{list}[{i}].{k}"));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::json_obj;
    use svc_json::json;

    #[test]
    fn prechecks_name_rows_of_the_core_whose_params_hold_their_fields() {
        for id in NAMED_RECURRING {
            let op = svc_core::catalog::find(id).unwrap();
            assert!(op.params.field("recurrence_name").is_some(), "{id}");
        }
        for id in PROJECT_AMOUNTS {
            let op = svc_core::catalog::find(id).unwrap();
            assert!(
                op.params
                    .fields
                    .iter()
                    .any(|f| is_amount(f.name) || f.name == "users"),
                "{id}"
            );
        }
    }

    #[test]
    fn prechecks_answer_the_documented_codes() {
        let p = |v: Value| json_obj(v);
        let code_of = |op: &str, v: Value| precheck(op, &p(v)).map(|e| (e.status, e.code));
        assert_eq!(
            code_of("createRecurringInvoice", json!({})),
            Some((400, 4031))
        );
        assert_eq!(
            code_of("createRecurringInvoice", json!({"recurrence_name": "  "})),
            Some((400, 4031))
        );
        assert_eq!(
            code_of("createRecurringInvoice", json!({"recurrence_name": "M"})),
            None
        );
        assert_eq!(
            code_of("createProject", json!({"rate": "-1"})),
            Some((400, 20004))
        );
        assert_eq!(
            code_of("updateProject", json!({"budget_amount": -0.5})),
            Some((400, 20004))
        );
        assert_eq!(
            code_of(
                "createProject",
                json!({"users": [{"rate": 1}, {"cost_rate": "-3"}]})
            ),
            Some((400, 20004))
        );
        assert_eq!(
            code_of("createProject", json!({"rate": " ", "budget_hours": "-1"})),
            None
        );
        let e = precheck("createProject", &p(json!({"tasks": [{"rate": -2}]}))).unwrap();
        assert!(e.message.contains("tasks[0].rate"), "{}", e.message);
        assert_eq!(
            code_of("updateRecurringInvoiceByUniqueField", json!({})),
            Some((400, 4031))
        );
        assert_eq!(
            code_of("updateProjectUser", json!({"cost_rate": "-1"})),
            Some((400, 20004))
        );
        assert_eq!(
            code_of("addProjectUsers", json!({"users": [{"rate": -2}]})),
            Some((400, 20004))
        );
        assert!(precheck("listProjects", &p(json!({"rate": -1}))).is_none());
    }
}
