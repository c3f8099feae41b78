//! Wire types of project tasks: bodies, the task, list queries.

use super::number_or_text::NumberOrText;
use crate::model::common::{wire, Id, PageNumber};
use crate::schema::{Check, IntText};

wire! {
    /// Body of `createTask` and `updateTask`.
    request TaskInput {
        task_name: String [MaxLen(100)],
        description?: String [MaxLen(500)],
        /// Hourly rate, an integer.
        rate?: NumberOrText as Any,
        budget_hours?: NumberOrText as Any,
    }
    // Typed integer; the vendor examples also send them as text (`"budget_hours": ""`).
    checks [
        Check::LooseInteger { field: "rate", text: IntText::Signed },
        Check::LooseInteger { field: "budget_hours", text: IntText::Signed },
    ]
}

wire! {
    /// A task of a project, as the task operations return it.
    response Task {
        task_id: Id,
        project_id?: Id,
        currency_id?: Id,
        customer_id?: Id,
        task_name?: String,
        project_name?: String,
        customer_name?: String,
        /// Hours, in `hh:mm` form.
        billed_hours?: NumberOrText,
        /// Total logged hours, in `hh:mm` form.
        log_time?: NumberOrText,
        un_billed_hours?: NumberOrText,
        description?: String,
        rate?: NumberOrText,
        budget_hours?: NumberOrText,
        /// `active` in the samples.
        status?: String,
        is_billable?: bool,
    }
}

wire! {
    /// Query of `listTasks`.
    #[derive(Default)]
    request TaskListQuery {
        page?: PageNumber,
        per_page?: PageNumber,
    }
}
