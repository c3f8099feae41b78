//! The one table: every operation of the service, declared once as data.
//!
//! Request building, `operations()`, `requiredScopes()`, the `Client` methods (made from it at build),
//! the sandbox's routing and the per-row tests all read `operations()`: the hand-written `ROWS`, then
//! the rows generated from the vendor's OpenAPI documents (`crate::published`).

use crate::declare::Declared;
use crate::family::Family;
use crate::schema::Schema;
use serde::Serialize;

#[cfg(not(target_arch = "wasm32"))]
pub use crate::row::Types;
pub use crate::row::{op, BodyKind, Method, Operation, Shape, Source};

/// The params of an update by a unique custom field, and the headers they travel in.
pub const UNIQUE_FIELD_HEADERS: &[(&str, &str)] = &[
    ("x_unique_identifier_key", "X-Unique-Identifier-Key"),
    ("x_unique_identifier_value", "X-Unique-Identifier-Value"),
    ("x_upsert", "X-Upsert"),
];

/// File types the expense attachment upload accepts.
pub const ATTACHMENT_TYPES: &[&str] = &[
    "gif", "png", "jpeg", "jpg", "bmp", "pdf", "xls", "xlsx", "doc", "docx", "txt", "csv",
];
/// File types the expense receipt upload accepts (the attachment's without txt and csv).
pub const RECEIPT_TYPES: &[&str] = &[
    "gif", "png", "jpeg", "jpg", "bmp", "pdf", "xls", "xlsx", "doc", "docx",
];
/// Image types the composite item image upload accepts.
pub const IMAGE_TYPES: &[&str] = &["gif", "png", "jpeg", "jpg", "bmp"];

use crate::model::{billing, books, crm, inventory, invoice};
use Family::{Billing, Books, Crm, Inventory, Invoice};
use Method::{Delete as DELETE, Get as GET, Patch as PATCH, Post as POST, Put as PUT};

/// The params of an upload: its files under `param`, any JSON to the rules.
macro_rules! upload {
    ($param:literal) => {
        &Schema {
            fields: &[crate::schema::opt($param, crate::schema::Kind::Any)],
            checks: &[],
        }
    };
}

macro_rules! catalog {
    ($($id:ident: $row:expr;)*) => {
        /// The hand-written operations: those of the service's documentation in its order, then
        /// those only the vendor's examples show.
        pub static ROWS: &[Operation] = &[$($row.named(stringify!($id))),*];
    };
}

catalog! {
    // books: organizations
    createOrganization: op(Books, POST, "/organizations", "SvcBooks.settings.CREATE").no_org().key(&["organization"])
        .params::<books::OrganizationCreateInput>().returns::<books::Organization>();
    listOrganizations: op(Books, GET, "/organizations", "SvcBooks.settings.READ").no_org().list("organizations")
        .returns::<books::Organization>();
    updateOrganization: op(Books, PUT, "/organizations/{organization_id}", "SvcBooks.settings.UPDATE").key(&["organization"])
        .params::<books::OrganizationUpdateInput>().returns::<books::Organization>();
    // books: chart of accounts
    createAccount: op(Books, POST, "/chartofaccounts", "SvcBooks.accountants.CREATE").key(&["chart_of_account"])
        .params::<books::AccountInput>().returns::<books::Account>();
    listAccounts: op(Books, GET, "/chartofaccounts", "SvcBooks.accountants.READ").list("chartofaccounts")
        .params::<books::AccountListQuery>().returns::<books::AccountListEntry>();
    getAccount: op(Books, GET, "/chartofaccounts/{account_id}", "SvcBooks.accountants.READ").top_level()
        .returns::<books::Account>();
    updateAccount: op(Books, PUT, "/chartofaccounts/{account_id}", "SvcBooks.accountants.UPDATE").key(&["chart_of_account"])
        .params::<books::AccountInput>().returns::<books::Account>();
    // books: journals
    createJournal: op(Books, POST, "/journals", "SvcBooks.accountants.CREATE").key(&["journal"])
        .params::<books::JournalInput>().returns::<books::Journal>();
    // books: fixed assets and their types
    createFixedAsset: op(Books, POST, "/fixedassets", "SvcBooks.fixedasset.CREATE").key(&["fixed_asset"])
        .params::<books::FixedAssetInput>().returns::<books::FixedAsset>();
    listFixedAssets: op(Books, GET, "/fixedassets", "SvcBooks.fixedasset.READ").list("fixedassets")
        .params::<books::FixedAssetListQuery>().returns::<books::FixedAssetListEntry>();
    updateFixedAsset: op(Books, PUT, "/fixedassets/{fixed_asset_id}", "SvcBooks.fixedasset.UPDATE").key(&["fixed_asset"])
        .params::<books::FixedAssetInput>().returns::<books::FixedAsset>();
    createFixedAssetType: op(Books, POST, "/fixedassettypes", "SvcBooks.fixedasset.CREATE").key(&["fixed_asset_type"])
        .params::<books::FixedAssetTypeInput>().returns::<books::FixedAssetType>();
    listFixedAssetTypes: op(Books, GET, "/fixedassettypes", "SvcBooks.fixedasset.READ").list("fixed_asset_types")
        .params::<books::FixedAssetTypeListQuery>().returns::<books::FixedAssetType>();
    updateFixedAssetType: op(Books, PUT, "/fixedassettypes/{fixed_asset_type_id}", "SvcBooks.fixedasset.UPDATE").key(&["fixed_asset_type"])
        .params::<books::FixedAssetTypeUpdateInput>().returns::<books::FixedAssetType>();
    deleteFixedAssetType: op(Books, DELETE, "/fixedassettypes/{fixed_asset_type_id}", "SvcBooks.fixedasset.DELETE").empty();
    // books: expenses
    createExpense: op(Books, POST, "/expenses", "SvcBooks.expenses.CREATE").key(&["expense"])
        .params::<books::ExpenseInput>().returns::<books::Expense>();
    updateExpenseByUniqueField: op(Books, PUT, "/expenses", "SvcBooks.expenses.UPDATE")
        .headers(UNIQUE_FIELD_HEADERS)
        .key(&["expense"])
        .params::<books::ExpenseUniqueFieldUpdateInput>().returns::<books::Expense>();
    getExpenseReceipt: op(Books, GET, "/expenses/{expense_id}/receipt", "SvcBooks.expenses.READ").binary()
        .params::<books::ExpenseReceiptQuery>();
    deleteExpenseReceipt: op(Books, DELETE, "/expenses/{expense_id}/receipt", "SvcBooks.expenses.DELETE").empty();
    addExpenseAttachment: op(Books, POST, "/expenses/{expense_id}/attachment", "SvcBooks.expenses.CREATE")
        .files(upload!("files"), "attachment", true, ATTACHMENT_TYPES)
        .key_array(&["comments", "documents"])
        .returns::<books::ExpenseAttachmentResult>();
    // books: vendor credits and refunds
    createVendorCredit: op(Books, POST, "/vendorcredits", "SvcBooks.debitnotes.CREATE").key(&["vendor_credit"])
        .params::<books::VendorCreditInput>().returns::<books::VendorCredit>();
    listVendorCredits: op(Books, GET, "/vendorcredits", "SvcBooks.debitnotes.READ").list("vendorcredits")
        .params::<books::VendorCreditListQuery>().returns::<books::VendorCreditListEntry>();
    createVendorCreditRefund: op(Books, POST, "/vendorcredits/{vendor_credit_id}/refunds", "SvcBooks.debitnotes.CREATE").key(&["vendor_credit_refund"])
        .params::<books::VendorCreditRefundInput>().returns::<books::VendorCreditRefund>();
    listVendorCreditRefunds: op(Books, GET, "/vendorcredits/{vendor_credit_id}/refunds", "SvcBooks.debitnotes.READ").list("vendor_credit_refunds")
        .params::<books::VendorCreditRefundListQuery>().returns::<books::VendorCreditRefundListEntry>();
    getVendorCreditRefund: op(Books, GET, "/vendorcredits/{vendor_credit_id}/refunds/{vendor_credit_refund_id}", "SvcBooks.debitnotes.READ").key(&["vendor_credit_refund"])
        .returns::<books::VendorCreditRefund>();
    updateVendorCreditRefund: op(Books, PUT, "/vendorcredits/{vendor_credit_id}/refunds/{vendor_credit_refund_id}", "SvcBooks.debitnotes.UPDATE").key(&["vendor_credit_refund"])
        .params::<books::VendorCreditRefundInput>().returns::<books::VendorCreditRefund>();
    deleteVendorCreditRefund: op(Books, DELETE, "/vendorcredits/{vendor_credit_id}/refunds/{vendor_credit_refund_id}", "SvcBooks.debitnotes.DELETE").empty();
    listAllVendorCreditRefunds: op(Books, GET, "/vendorcredits/refunds", "SvcBooks.debitnotes.READ").list("vendor_credit_refunds")
        .params::<books::AllVendorCreditRefundsQuery>().returns::<books::VendorCreditRefundListEntry>();
    // inventory: packages
    createPackage: op(Inventory, POST, "/packages", "SvcInventory.packages.CREATE").query(&["salesorder_id"]).one_or_array("package")
        .params::<inventory::PackageInput>().returns::<inventory::Package>();
    listPackages: op(Inventory, GET, "/packages", "SvcInventory.packages.READ").list("packagea")
        .params::<inventory::PackageListQuery>().returns::<inventory::Package>();
    getPackage: op(Inventory, GET, "/packages/{package_id}", "SvcInventory.packages.READ").key(&["package"])
        .returns::<inventory::Package>();
    updatePackage: op(Inventory, PUT, "/packages/{package_id}", "SvcInventory.packages.UPDATE").one_or_array("package")
        .params::<inventory::PackageUpdateInput>().returns::<inventory::Package>();
    // inventory: composite items
    createCompositeItem: op(Inventory, POST, "/compositeitems", "SvcInventory.compositeitems.CREATE").key(&["composite_item"])
        .params::<inventory::CompositeItemInput>().returns::<inventory::CompositeItem>();
    listCompositeItems: op(Inventory, GET, "/compositeitems", "SvcInventory.compositeitems.READ").list("composite_items")
        .params::<inventory::CompositeItemListQuery>().returns::<inventory::CompositeItem>();
    updateCompositeItem: op(Inventory, PUT, "/compositeitems/{composite_item_id}", "SvcInventory.compositeitems.UPDATE").key(&["composite_item"])
        .params::<inventory::CompositeItemInput>().returns::<inventory::CompositeItem>();
    uploadCompositeItemImage: op(Inventory, POST, "/compositeitems/{composite_item_id}/image", "SvcInventory.compositeitems.CREATE")
        .files(upload!("image"), "image", false, IMAGE_TYPES)
        .empty();
    // invoice: currencies
    createCurrency: op(Invoice, POST, "/settings/currencies", "SvcInvoice.settings.CREATE").one_or_array("currency")
        .params::<invoice::CurrencyInput>().returns::<invoice::Currency>();
    listCurrencies: op(Invoice, GET, "/settings/currencies", "SvcInvoice.settings.READ").list("currencies")
        .params::<invoice::CurrencyListQuery>().returns::<invoice::CurrencyListEntry>();
    getCurrency: op(Invoice, GET, "/settings/currencies/{currency_id}", "SvcInvoice.settings.READ").key(&["currency"])
        .returns::<invoice::Currency>();
    updateCurrency: op(Invoice, PUT, "/settings/currencies/{currency_id}", "SvcInvoice.settings.UPDATE").one_or_array("currency")
        .params::<invoice::CurrencyInput>().returns::<invoice::Currency>();
    deleteCurrency: op(Invoice, DELETE, "/settings/currencies/{currency_id}", "SvcInvoice.settings.DELETE").empty();
    // invoice: projects
    createProject: op(Invoice, POST, "/projects", "SvcInvoice.projects.CREATE").key(&["project"])
        .params::<invoice::ProjectInput>().returns::<invoice::Project>();
    listProjects: op(Invoice, GET, "/projects", "SvcInvoice.projects.READ").list("projects")
        .params::<invoice::ProjectListQuery>().returns::<invoice::Project>();
    updateProject: op(Invoice, PUT, "/projects/{project_id}", "SvcInvoice.projects.UPDATE").key(&["project"])
        .params::<invoice::ProjectInput>().returns::<invoice::Project>();
    removeProjectUser: op(Invoice, DELETE, "/projects/{project_id}/users/{user_id}", "SvcInvoice.projects.DELETE").empty();
    addProjectComment: op(Invoice, POST, "/projects/{project_id}/comments", "SvcInvoice.projects.CREATE").key_array(&["comments", "comment"])
        .params::<invoice::ProjectCommentInput>().returns::<Vec<invoice::ProjectComment>>();
    listProjectComments: op(Invoice, GET, "/projects/{project_id}/comments", "SvcInvoice.projects.READ").list("comments")
        .params::<invoice::ProjectCommentListQuery>().returns::<invoice::ProjectComment>();
    deleteProjectComment: op(Invoice, DELETE, "/projects/{project_id}/comments/{comment_id}", "SvcInvoice.projects.DELETE").empty();
    listProjectInvoices: op(Invoice, GET, "/projects/{project_id}/invoices", "SvcInvoice.projects.READ").list("invoices")
        .params::<invoice::ProjectInvoiceListQuery>().returns::<invoice::ProjectInvoice>();
    // invoice: recurring invoices
    createRecurringInvoice: op(Invoice, POST, "/recurringinvoices", "SvcInvoice.invoices.CREATE").key(&["recurring_invoice"])
        .params::<invoice::RecurringInvoiceInput>().returns::<invoice::RecurringInvoice>();
    // billing: tasks
    createTask: op(Billing, POST, "/projects/{project_id}/tasks", "SvcSubscriptions.projects.CREATE").key(&["task"])
        .params::<billing::TaskInput>().returns::<billing::Task>();
    listTasks: op(Billing, GET, "/projects/{project_id}/tasks", "SvcSubscriptions.projects.READ").list("tasks")
        .params::<billing::TaskListQuery>().returns::<billing::Task>();
    getTask: op(Billing, GET, "/projects/{project_id}/tasks/{task_id}", "SvcSubscriptions.projects.READ").key(&["task"])
        .returns::<billing::Task>();
    updateTask: op(Billing, PUT, "/projects/{project_id}/tasks/{task_id}", "SvcSubscriptions.projects.UPDATE").key(&["task"])
        .params::<billing::TaskInput>().returns::<billing::Task>();
    deleteTask: op(Billing, DELETE, "/projects/{project_id}/tasks/{task_id}", "SvcSubscriptions.projects.DELETE").empty();
    // billing: plans
    createPlan: op(Billing, POST, "/plans", "SvcSubscriptions.plans.CREATE").key(&["plan"])
        .params::<billing::PlanInput>().returns::<billing::Plan>();
    listPlans: op(Billing, GET, "/plans", "SvcSubscriptions.plans.READ").list("plans")
        .params::<billing::PlanListQuery>().returns::<billing::Plan>();
    updatePlan: op(Billing, PUT, "/plans/{plan_code}", "SvcSubscriptions.plans.UPDATE").key(&["plan"])
        .params::<billing::PlanInput>().returns::<billing::Plan>();
    // billing: events
    getEvent: op(Billing, GET, "/events/{event_id}", "SvcSubscriptions.webhooks.READ").key(&["event"])
        .returns::<billing::Event>();
    listEvents: op(Billing, GET, "/events", "SvcSubscriptions.webhooks.READ").list("events")
        .params::<billing::EventListQuery>().returns::<billing::Event>();
    // crm: notification channels
    updateNotificationChannels: op(Crm, PATCH, "/actions/watch", "SvcCRM.notifications.ALL").key_array(&["watch"])
        .params::<crm::WatchParams>().returns::<Vec<crm::WatchResult>>();
    // ---- published by the vendor, not shown in the spec ----
    // books
    getOrganization: op(Books, GET, "/organizations/{organization_id}", "SvcBooks.settings.READ").vendor().key(&["organization"])
        .returns::<books::Organization>();
    deleteAccount: op(Books, DELETE, "/chartofaccounts/{account_id}", "SvcBooks.accountants.DELETE").vendor().empty();
    markAccountActive: op(Books, POST, "/chartofaccounts/{account_id}/active", "SvcBooks.accountants.CREATE").vendor().empty();
    markAccountInactive: op(Books, POST, "/chartofaccounts/{account_id}/inactive", "SvcBooks.accountants.CREATE").vendor().empty();
    listAccountTransactions: op(Books, GET, "/chartofaccounts/transactions", "SvcBooks.accountants.READ").vendor().list("transactions")
        .params::<books::AccountTransactionListQuery>().returns::<books::AccountTransaction>();
    deleteAccountTransaction: op(Books, DELETE, "/chartofaccounts/transactions/{transaction_id}", "SvcBooks.accountants.DELETE").vendor().empty();
    listJournals: op(Books, GET, "/journals", "SvcBooks.accountants.READ").vendor().list("journals")
        .params::<books::JournalListQuery>().returns::<books::Journal>();
    getJournal: op(Books, GET, "/journals/{journal_id}", "SvcBooks.accountants.READ").vendor().key(&["journal"])
        .returns::<books::Journal>();
    updateJournal: op(Books, PUT, "/journals/{journal_id}", "SvcBooks.accountants.UPDATE").vendor().key(&["journal"])
        .params::<books::JournalInput>().returns::<books::Journal>();
    deleteJournal: op(Books, DELETE, "/journals/{journal_id}", "SvcBooks.accountants.DELETE").vendor().empty();
    publishJournal: op(Books, POST, "/journals/{journal_id}/status/publish", "SvcBooks.accountants.CREATE").vendor().empty();
    addJournalAttachment: op(Books, POST, "/journals/{journal_id}/attachment", "SvcBooks.accountants.CREATE").vendor().files(upload!("files"), "attachment", true, ATTACHMENT_TYPES).empty();
    addJournalComment: op(Books, POST, "/journals/{journal_id}/comments", "SvcBooks.accountants.CREATE").vendor().key_array(&["comment"])
        .params::<books::JournalCommentInput>().returns::<Vec<books::JournalComment>>();
    deleteJournalComment: op(Books, DELETE, "/journals/{journal_id}/comments/{comment_id}", "SvcBooks.accountants.DELETE").vendor().empty();
    getFixedAsset: op(Books, GET, "/fixedassets/{fixed_asset_id}", "SvcBooks.fixedasset.READ").vendor().key(&["fixed_asset", "fissed-asset"])
        .returns::<books::FixedAsset>();
    deleteFixedAsset: op(Books, DELETE, "/fixedassets/{fixed_asset_id}", "SvcBooks.fixedasset.DELETE").vendor().empty();
    markFixedAssetActive: op(Books, POST, "/fixedassets/{fixed_asset_id}/status/active", "SvcBooks.fixedasset.CREATE").vendor().empty();
    markFixedAssetCancelled: op(Books, POST, "/fixedassets/{fixed_asset_id}/status/cancel", "SvcBooks.fixedasset.CREATE").vendor().empty();
    markFixedAssetDraft: op(Books, POST, "/fixedassets/{fixed_asset_id}/status/draft", "SvcBooks.fixedasset.CREATE").vendor().empty();
    sellFixedAsset: op(Books, POST, "/fixedassets/{fixed_asset_id}/sell", "SvcBooks.fixedasset.CREATE").vendor().empty()
        .params::<books::FixedAssetSaleInput>();
    writeOffFixedAsset: op(Books, POST, "/fixedassets/{fixed_asset_id}/writeoff", "SvcBooks.fixedasset.CREATE").vendor().empty()
        .params::<books::FixedAssetWriteOffInput>();
    getFixedAssetForecast: op(Books, GET, "/fixedassets/{fixed_asset_id}/forecast", "SvcBooks.fixedasset.READ").vendor().key_array(&["data"])
        .returns::<Vec<books::FixedAssetForecastEntry>>();
    getFixedAssetHistory: op(Books, GET, "/fixedassets/{fixed_asset_id}/history", "SvcBooks.fixedasset.READ").vendor().list("asset_history")
        .params::<books::FixedAssetHistoryQuery>().returns::<books::FixedAssetHistoryEntry>();
    addFixedAssetComment: op(Books, POST, "/fixedassets/{fixed_asset_id}/comments", "SvcBooks.fixedasset.CREATE").vendor().key(&["comment"])
        .params::<books::FixedAssetCommentInput>().returns::<books::FixedAssetComment>();
    deleteFixedAssetComment: op(Books, DELETE, "/fixedassets/{fixed_asset_id}/comments/{comment_id}", "SvcBooks.fixedasset.DELETE").vendor().empty();
    listExpenses: op(Books, GET, "/expenses", "SvcBooks.expenses.READ").vendor().list("expenses")
        .params::<books::ExpenseListQuery>().returns::<books::Expense>();
    getExpense: op(Books, GET, "/expenses/{expense_id}", "SvcBooks.expenses.READ").vendor().key(&["expense"])
        .returns::<books::Expense>();
    updateExpense: op(Books, PUT, "/expenses/{expense_id}", "SvcBooks.expenses.UPDATE").vendor().key(&["expense"])
        .params::<books::ExpenseInput>().returns::<books::Expense>();
    deleteExpense: op(Books, DELETE, "/expenses/{expense_id}", "SvcBooks.expenses.DELETE").vendor().empty();
    addExpenseReceipt: op(Books, POST, "/expenses/{expense_id}/receipt", "SvcBooks.expenses.CREATE").vendor().files(upload!("receipt"), "receipt", false, RECEIPT_TYPES).empty();
    listExpenseComments: op(Books, GET, "/expenses/{expense_id}/comments", "SvcBooks.expenses.READ").vendor().list("comments")
        .returns::<books::ExpenseComment>();
    getVendorCredit: op(Books, GET, "/vendorcredits/{vendor_credit_id}", "SvcBooks.debitnotes.READ").vendor().key(&["vendor_credit"])
        .params::<books::VendorCreditGetQuery>().returns::<books::VendorCredit>();
    updateVendorCredit: op(Books, PUT, "/vendorcredits/{vendor_credit_id}", "SvcBooks.debitnotes.UPDATE").vendor().key(&["vendor_credit"])
        .params::<books::VendorCreditInput>().returns::<books::VendorCredit>();
    deleteVendorCredit: op(Books, DELETE, "/vendorcredits/{vendor_credit_id}", "SvcBooks.debitnotes.DELETE").vendor().empty();
    markVendorCreditOpen: op(Books, POST, "/vendorcredits/{vendor_credit_id}/status/open", "SvcBooks.debitnotes.CREATE").vendor().empty();
    markVendorCreditVoid: op(Books, POST, "/vendorcredits/{vendor_credit_id}/status/void", "SvcBooks.debitnotes.CREATE").vendor().empty();
    submitVendorCredit: op(Books, POST, "/vendorcredits/{vendor_credit_id}/submit", "SvcBooks.debitnotes.CREATE").vendor().empty();
    approveVendorCredit: op(Books, POST, "/vendorcredits/{vendor_credit_id}/approve", "SvcBooks.debitnotes.CREATE").vendor().empty();
    applyVendorCreditToBills: op(Books, POST, "/vendorcredits/{vendor_credit_id}/bills", "SvcBooks.debitnotes.CREATE").vendor().empty()
        .params::<books::VendorCreditBillsInput>();
    listVendorCreditBills: op(Books, GET, "/vendorcredits/{vendor_credit_id}/bills", "SvcBooks.debitnotes.READ").vendor().list("bills_credited")
        .returns::<books::BillCredited>();
    deleteVendorCreditBill: op(Books, DELETE, "/vendorcredits/{vendor_credit_id}/bills/{vendor_credit_bill_id}", "SvcBooks.debitnotes.DELETE").vendor().empty();
    addVendorCreditComment: op(Books, POST, "/vendorcredits/{vendor_credit_id}/comments", "SvcBooks.debitnotes.CREATE").vendor().key(&["comment"])
        .params::<books::VendorCreditCommentInput>().returns::<books::VendorCreditComment>();
    listVendorCreditComments: op(Books, GET, "/vendorcredits/{vendor_credit_id}/comments", "SvcBooks.debitnotes.READ").vendor().list("comments")
        .returns::<books::VendorCreditComment>();
    deleteVendorCreditComment: op(Books, DELETE, "/vendorcredits/{vendor_credit_id}/comments/{comment_id}", "SvcBooks.debitnotes.DELETE").vendor().empty();
    // invoice (the accounting examples of the same paths stand in)
    getProject: op(Invoice, GET, "/projects/{project_id}", "SvcInvoice.projects.READ").vendor().key(&["project"])
        .returns::<invoice::Project>();
    deleteProject: op(Invoice, DELETE, "/projects/{project_id}", "SvcInvoice.projects.DELETE").vendor().empty();
    cloneProject: op(Invoice, POST, "/projects/{project_id}/clone", "SvcInvoice.projects.CREATE").vendor().key(&["project"])
        .params::<invoice::ProjectCloneInput>().returns::<invoice::Project>();
    markProjectActive: op(Invoice, POST, "/projects/{project_id}/active", "SvcInvoice.projects.CREATE").vendor().empty();
    markProjectInactive: op(Invoice, POST, "/projects/{project_id}/inactive", "SvcInvoice.projects.CREATE").vendor().empty();
    updateProjectByUniqueField: op(Invoice, PUT, "/projects", "SvcInvoice.projects.UPDATE").vendor().headers(UNIQUE_FIELD_HEADERS).key(&["project"])
        .params::<invoice::ProjectUniqueFieldUpdateInput>().returns::<invoice::Project>();
    addProjectUsers: op(Invoice, POST, "/projects/{project_id}/users", "SvcInvoice.projects.CREATE").vendor().key_array(&["users"])
        .params::<invoice::ProjectUsersInput>().returns::<Vec<invoice::ProjectUser>>();
    inviteProjectUser: op(Invoice, POST, "/projects/{project_id}/users/invite", "SvcInvoice.projects.CREATE").vendor().key_array(&["users"])
        .params::<invoice::ProjectUserDetailsInput>().returns::<Vec<invoice::ProjectUser>>();
    listProjectUsers: op(Invoice, GET, "/projects/{project_id}/users", "SvcInvoice.projects.READ").vendor().list("users")
        .returns::<invoice::ProjectUser>();
    getProjectUser: op(Invoice, GET, "/projects/{project_id}/users/{user_id}", "SvcInvoice.projects.READ").vendor().key(&["user"])
        .returns::<invoice::ProjectUser>();
    updateProjectUser: op(Invoice, PUT, "/projects/{project_id}/users/{user_id}", "SvcInvoice.projects.UPDATE").vendor().key_array(&["users"])
        .params::<invoice::ProjectUserDetailsInput>().returns::<Vec<invoice::ProjectUser>>();
    listRecurringInvoices: op(Invoice, GET, "/recurringinvoices", "SvcInvoice.invoices.READ").vendor().list("recurring_invoices")
        .params::<invoice::RecurringInvoiceListQuery>().returns::<invoice::RecurringInvoice>();
    getRecurringInvoice: op(Invoice, GET, "/recurringinvoices/{recurring_invoice_id}", "SvcInvoice.invoices.READ").vendor().key(&["recurring_invoice"])
        .returns::<invoice::RecurringInvoice>();
    updateRecurringInvoice: op(Invoice, PUT, "/recurringinvoices/{recurring_invoice_id}", "SvcInvoice.invoices.UPDATE").vendor().key(&["recurring_invoice"])
        .params::<invoice::RecurringInvoiceInput>().returns::<invoice::RecurringInvoice>();
    updateRecurringInvoiceByUniqueField: op(Invoice, PUT, "/recurringinvoices", "SvcInvoice.invoices.UPDATE").vendor().headers(UNIQUE_FIELD_HEADERS).key(&["recurring_invoice"])
        .params::<invoice::RecurringInvoiceUniqueFieldUpdateInput>().returns::<invoice::RecurringInvoice>();
    deleteRecurringInvoice: op(Invoice, DELETE, "/recurringinvoices/{recurring_invoice_id}", "SvcInvoice.invoices.DELETE").vendor().empty();
    stopRecurringInvoice: op(Invoice, POST, "/recurringinvoices/{recurring_invoice_id}/status/stop", "SvcInvoice.invoices.CREATE").vendor().empty()
        .params::<invoice::RecurringInvoiceStatusInput>();
    resumeRecurringInvoice: op(Invoice, POST, "/recurringinvoices/{recurring_invoice_id}/status/resume", "SvcInvoice.invoices.CREATE").vendor().empty()
        .params::<invoice::RecurringInvoiceStatusInput>();
    updateRecurringInvoiceTemplate: op(Invoice, PUT, "/recurringinvoices/{recurring_invoice_id}/templates/{template_id}", "SvcInvoice.invoices.UPDATE").vendor().empty()
        .params::<invoice::RecurringInvoiceTemplateInput>();
    listRecurringInvoiceHistory: op(Invoice, GET, "/recurringinvoices/{recurring_invoice_id}/comments", "SvcInvoice.invoices.READ").vendor().list("comments")
        .returns::<invoice::RecurringInvoiceHistoryEntry>();
}

/// Scopes the CRM notification update also accepts besides `SvcCRM.notifications.ALL`.
pub const CRM_WATCH_SCOPES: &[&str] = &[
    "SvcCRM.notifications.ALL",
    "SvcCRM.notifications.WRITE",
    "SvcCRM.notifications.UPDATE",
];

/// The rows generated from the vendor's OpenAPI documents (`crate::published`), read on first use.
fn published() -> &'static [Operation] {
    static ROWS_READ: std::sync::OnceLock<Vec<Operation>> = std::sync::OnceLock::new();
    ROWS_READ.get_or_init(crate::published::rows)
}

/// Every operation: the hand-written rows (`ROWS`), then those generated from the vendor's OpenAPI
/// documents, read only when asked for (a first validation of a hand-written row reads none of them).
#[derive(Clone, Copy, Debug)]
pub struct Table;

pub fn operations() -> Table {
    Table
}

pub type Rows =
    std::iter::Chain<std::slice::Iter<'static, Operation>, std::slice::Iter<'static, Operation>>;

impl Table {
    pub fn iter(self) -> Rows {
        ROWS.iter().chain(published().iter())
    }

    pub fn len(self) -> usize {
        ROWS.len() + published().len()
    }

    pub fn is_empty(self) -> bool {
        false
    }

    /// The row at `index` (its place in `iter()`).
    pub fn get(self, index: usize) -> Option<&'static Operation> {
        ROWS.get(index)
            .or_else(|| published().get(index.checked_sub(ROWS.len())?))
    }

    /// The place of a row in `iter()`: a hand-written row's is found without reading the others.
    pub fn index_of(self, op: &Operation) -> Option<usize> {
        let at = |rows: &[Operation]| rows.iter().position(|o| std::ptr::eq(o, op));
        at(ROWS).or_else(|| Some(ROWS.len() + at(published())?))
    }
}

impl IntoIterator for Table {
    type Item = &'static Operation;
    type IntoIter = Rows;

    fn into_iter(self) -> Rows {
        self.iter()
    }
}

/// The row of an id: a hand-written one, else a generated one (the text keeps them sorted by id).
pub fn find(id: &str) -> Option<&'static Operation> {
    ROWS.iter().find(|op| op.id == id).or_else(|| {
        let rows = published();
        rows.binary_search_by(|op| op.id.cmp(id))
            .ok()
            .map(|at| &rows[at])
    })
}

/// The row that a family's namespace on the client calls `name`: the row of that id in the family,
/// or the generated row whose id is the family's name before it (`inventory.createContact` is
/// `inventoryCreateContact`).
pub fn in_family(family: Family, name: &str) -> Option<&'static Operation> {
    if let Some(op) = find(name).filter(|op| op.family == family) {
        return Some(op);
    }
    let mut chars = name.chars();
    let first = chars.next()?;
    let mut id = String::from(family.name());
    id.push(first.to_ascii_uppercase());
    id.push_str(chars.as_str());
    find(&id).filter(|op| op.family == family && op.source == Source::Published)
}

/// What a row does, in a few words made from its name (`markInvoiceAsSent` → "Mark invoice as sent").
#[cfg(not(target_arch = "wasm32"))]
pub fn in_words(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push(' ');
        }
        out.push(if i == 0 {
            c.to_ascii_uppercase()
        } else {
            c.to_ascii_lowercase()
        });
    }
    out
}

/// A row's name in its family's namespace on the client (`in_family` finds it by it): its id, less
/// the family's name where a generated row's id carries it (`inventoryCreateContact` → `createContact`).
#[cfg(not(target_arch = "wasm32"))]
pub fn local_name(op: &Operation) -> String {
    let family = op.family.name();
    match op.id.strip_prefix(family) {
        Some(rest)
            if op.source == Source::Published
                && rest.starts_with(|c: char| c.is_ascii_uppercase()) =>
        {
            let mut name = rest[..1].to_ascii_lowercase();
            name.push_str(&rest[1..]);
            name
        }
        _ => op.id.to_string(),
    }
}

/// The sorted, unique scopes that the given operations need.
pub fn required_scopes<'a>(
    ids: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<&'static str>, String> {
    let mut scopes = Vec::new();
    for id in ids {
        let op = find(id).ok_or_else(|| unknown_operation(id))?;
        crate::sorted::insert(&mut scopes, op.scope);
    }
    Ok(scopes)
}

pub fn unknown_operation(id: &str) -> String {
    let close: Vec<&str> = operations()
        .iter()
        .map(|op| op.id)
        .filter(|name| name.eq_ignore_ascii_case(id))
        .collect();
    match close.first() {
        Some(name) => format!(
            "unknown operation {}; did you mean \"{name}\"?",
            crate::echo::quoted(id)
        ),
        None => format!("unknown operation {}", crate::echo::quoted(id)),
    }
}

/// What `operations()` reports for a row.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OperationInfo {
    pub id: &'static str,
    pub family: &'static str,
    pub method: Method,
    pub path: &'static str,
    pub scope: &'static str,
    pub path_params: Vec<&'static str>,
    pub source: Source,
}

impl OperationInfo {
    /// Its members as `operations()` gives them, and their TypeScript.
    pub const DECLARED: [Declared; 7] = [
        Declared::new("id", "OperationId"),
        Declared::new("family", "Family"),
        Declared::new("method", "PreparedRequest[\"method\"]"),
        Declared::new("path", "string"),
        Declared::new("scope", "string"),
        Declared::new("pathParams", "string[]"),
        Declared::new("source", "\"spec\" | \"vendor\" | \"published\"").doc(
            "Where the operation is documented: the spec, the vendor's published examples, or only the vendor's OpenAPI documents.",
        ),
    ];
}

impl svc_json::ToJson for OperationInfo {
    fn write_json(&self, out: &mut String) {
        let mut m = svc_json::write::Members::new(out);
        m.str("id", self.id);
        m.str("family", self.family);
        m.str("method", self.method.as_str());
        m.str("path", self.path);
        m.str("scope", self.scope);
        m.value("pathParams", &self.path_params);
        m.str(
            "source",
            match self.source {
                Source::Spec => "spec",
                Source::Vendor => "vendor",
                Source::Published => "published",
            },
        );
        m.end();
    }
}

pub fn operation_infos() -> Vec<OperationInfo> {
    operations()
        .iter()
        .map(|op| OperationInfo {
            id: op.id,
            family: op.family.name(),
            method: op.method,
            path: op.path,
            scope: op.scope,
            path_params: op.path_params().collect(),
            source: op.source,
        })
        .collect()
}

#[cfg(test)]
mod tests;
