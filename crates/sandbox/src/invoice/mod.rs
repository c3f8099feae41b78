//! Invoicing (currencies, projects and their users, recurring invoices): its handlers.

mod currency;
mod precheck;
mod project;
mod project_user;
mod recurring_invoice;

use crate::call::Handler;

pub use precheck::precheck;
pub use project::insert_project;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("createCurrency", currency::create_currency),
    ("listCurrencies", currency::list_currencies),
    ("updateCurrency", currency::update_currency),
    ("deleteCurrency", currency::delete_currency),
    ("createProject", project::create_project),
    ("listProjects", project::list_projects),
    ("getProject", project::get_project),
    ("updateProject", project::update_project),
    (
        "updateProjectByUniqueField",
        project::update_project_by_unique_field,
    ),
    ("cloneProject", project::clone_project),
    ("markProjectActive", project::mark_project_active),
    ("markProjectInactive", project::mark_project_inactive),
    ("addProjectUsers", project_user::add_project_users),
    ("inviteProjectUser", project_user::invite_project_user),
    ("listProjectUsers", project_user::list_project_users),
    ("getProjectUser", project_user::get_project_user),
    ("updateProjectUser", project_user::update_project_user),
    ("removeProjectUser", project_user::remove_project_user),
    ("addProjectComment", project::add_project_comment),
    ("listProjectInvoices", project::list_project_invoices),
    (
        "createRecurringInvoice",
        recurring_invoice::create_recurring_invoice,
    ),
    (
        "listRecurringInvoices",
        recurring_invoice::list_recurring_invoices,
    ),
    (
        "updateRecurringInvoice",
        recurring_invoice::update_recurring_invoice,
    ),
    (
        "updateRecurringInvoiceByUniqueField",
        recurring_invoice::update_recurring_invoice_by_unique_field,
    ),
    (
        "deleteRecurringInvoice",
        recurring_invoice::delete_recurring_invoice,
    ),
    (
        "stopRecurringInvoice",
        recurring_invoice::stop_recurring_invoice,
    ),
    (
        "resumeRecurringInvoice",
        recurring_invoice::resume_recurring_invoice,
    ),
    (
        "updateRecurringInvoiceTemplate",
        recurring_invoice::update_recurring_invoice_template,
    ),
    ("deleteProject", project::delete_project),
];
