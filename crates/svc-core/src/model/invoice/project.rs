//! Wire types of projects: bodies, tasks, users, list queries, clones and updates by a unique field.

use crate::format::Format;
use crate::model::billing::NumberOrText;
use crate::model::common::{value_set, wire, Id, JsonNumber, PageNumber};

value_set! {
    /// How a project is billed.
    ProjectBillingType {
        FixedCostForProject = "fixed_cost_for_project",
        BasedOnProjectHours = "based_on_project_hours",
        BasedOnStaffHours = "based_on_staff_hours",
        BasedOnTaskHours = "based_on_task_hours",
    }
}

value_set! {
    /// What a project's budget counts.
    ProjectBudgetType {
        TotalProjectCost = "total_project_cost",
        TotalProjectHours = "total_project_hours",
        HoursPerTask = "hours_per_task",
        HoursPerStaff = "hours_per_staff",
    }
}

value_set! {
    ProjectStatus {
        Active = "active",
        Inactive = "inactive",
    }
}

value_set! {
    /// Role of a user on a project.
    ProjectUserRole {
        Staff = "staff",
        Admin = "admin",
        TimesheetStaff = "timesheetstaff",
    }
}

wire! {
    /// A task in a project create or update body.
    request ProjectTaskInput {
        task_name: String [MaxLen(100)],
        description?: String [MaxLen(500)],
        rate?: NumberOrText,
        budget_hours?: NumberOrText,
    }
}

wire! {
    /// A user in a project create or update body.
    request ProjectUserInput {
        user_id: Id,
        is_current_user?: bool,
        user_name?: String [MaxLen(200)],
        email?: String [MaxLen(100)],
        user_role?: ProjectUserRole,
        status?: String,
        rate?: NumberOrText,
        budget_hours?: NumberOrText,
        /// `hh:mm`.
        total_hours?: String [Format(Format::Duration)],
        /// `hh:mm`.
        billed_hours?: String [Format(Format::Duration)],
        /// `hh:mm`.
        un_billed_hours?: String [Format(Format::Duration)],
    }
}

/// Declares a request whose fields are `$head`'s and then a project body's (the update by a unique
/// field sends the body beside its header params).
macro_rules! project_request {
    ($(#[$m:meta])* $name:ident { $($head:tt)* }) => {
        wire! {
            $(#[$m])*
            request $name {
                $($head)*
                project_name: String [MaxLen(100)],
                customer_id: Id,
                /// The first user to add.
                user_id: Id,
                billing_type: ProjectBillingType,
                currency_id?: Id,
                description?: String [MaxLen(500)],
                status?: ProjectStatus,
                /// A number; the documents send it as a string.
                rate?: NumberOrText,
                /// A blank string sends none.
                budget_type?: ProjectBudgetType [OneOfUnlessBlank(ProjectBudgetType::VALUES)],
                budget_hours?: NumberOrText,
                budget_amount?: NumberOrText,
                tasks?: Vec<ProjectTaskInput>,
                users?: Vec<ProjectUserInput>,
            }
        }
    };
}

project_request! {
    /// Create and update body of a project (the update parameters equal the create parameters).
    ProjectInput {}
}

wire! {
    /// A task of a project response.
    response ProjectTask {
        task_id?: Id,
        task_name?: String,
        description?: String,
        #[tsify(type = "number | string")]
        rate?: svc_json::Value,
        #[tsify(type = "number | string")]
        budget_hours?: svc_json::Value,
        total_hours?: String,
        billed_hours?: String,
        un_billed_hours?: String,
        non_billable_hours?: String,
        status?: String,
        is_billable?: bool,
        #[tsify(type = "unknown")]
        task_custom_fields?: svc_json::Value,
    }
}

wire! {
    /// A user of a project response.
    response ProjectUser {
        user_id?: Id,
        is_current_user?: bool,
        user_name?: String,
        email?: String,
        #[tsify(type = "ProjectUserRole")]
        user_role?: String,
        status?: String,
        #[tsify(type = "number | string")]
        rate?: svc_json::Value,
        #[tsify(type = "number | string")]
        budget_hours?: svc_json::Value,
        total_hours?: String,
        billed_hours?: String,
        un_billed_hours?: String,
        #[tsify(type = "number | string")]
        cost_rate?: svc_json::Value,
    }
}

wire! {
    /// A project as returned by create, update and the list.
    response Project {
        project_id: Id,
        project_name?: String,
        customer_id?: Id,
        customer_name?: String,
        currency_code?: String,
        description?: String,
        #[tsify(type = "ProjectStatus")]
        status?: String,
        #[tsify(type = "ProjectBillingType")]
        billing_type?: String,
        #[tsify(type = "number | string")]
        rate?: svc_json::Value,
        #[tsify(type = "ProjectBudgetType")]
        budget_type?: String,
        #[tsify(type = "number | string")]
        budget_hours?: svc_json::Value,
        #[tsify(type = "number | string")]
        budget_amount?: svc_json::Value,
        #[tsify(type = "number | string")]
        cost_budget_amount?: svc_json::Value,
        user_id?: Id,
        /// `hh:mm`, as are the other `*_hours`.
        total_hours?: String,
        billed_hours?: String,
        un_billed_hours?: String,
        billable_hours?: String,
        non_billable_hours?: String,
        total_amount?: JsonNumber,
        billed_amount?: JsonNumber,
        un_billed_amount?: JsonNumber,
        billable_amount?: JsonNumber,
        non_billable_amount?: JsonNumber,
        is_recurrence_associated?: bool,
        #[tsify(type = "unknown[]")]
        recurring_invoices?: Vec<svc_json::Value>,
        created_time?: String,
        show_in_dashboard?: bool,
        has_attachment?: bool,
        tasks?: Vec<ProjectTask>,
        users?: Vec<ProjectUser>,
    }
}

value_set! {
    /// Filter of the project list.
    ProjectFilter {
        All = "Status.All",
        Active = "Status.Active",
        Inactive = "Status.Inactive",
    }
}

value_set! {
    /// Sort column of the project list.
    ProjectSortColumn {
        ProjectName = "project_name",
        CustomerName = "customer_name",
        Rate = "rate",
        CreatedTime = "created_time",
    }
}

wire! {
    /// Query of the project list.
    request ProjectListQuery {
        filter_by?: ProjectFilter,
        customer_id?: Id,
        sort_column?: ProjectSortColumn,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

wire! {
    /// Body of a project clone: the new project's name and description.
    request ProjectCloneInput {
        project_name?: String [MaxLen(100)],
        description?: String [MaxLen(500)],
    }
}

project_request! {
    /// Params of `updateProjectByUniqueField`: the values of its three headers, then the project body.
    ProjectUniqueFieldUpdateInput {
        /// API name of the unique custom field (header X-Unique-Identifier-Key).
        x_unique_identifier_key: String,
        /// Its value (header X-Unique-Identifier-Value).
        x_unique_identifier_value: String,
        /// Create the project when none matches (header X-Upsert).
        x_upsert?: bool as BoolLike,
    }
}

wire! {
    /// Body of `addProjectUsers`: the organization's users to put on the project.
    request ProjectUsersInput {
        users?: Vec<ProjectUserInput>,
        /// The cost rate of the users added.
        cost_rate?: NumberOrText,
    }
}

wire! {
    /// Body of `inviteProjectUser` and `updateProjectUser`: a user's details on a project.
    request ProjectUserDetailsInput {
        user_name?: String [MaxLen(200)],
        email?: String [MaxLen(100)],
        user_role?: ProjectUserRole,
        rate?: NumberOrText,
        budget_hours?: NumberOrText,
        cost_rate?: NumberOrText,
    }
}
