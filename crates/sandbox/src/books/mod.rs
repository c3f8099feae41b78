//! Accounting (organizations, accounts, journals, fixed assets, expenses, vendor credits): its handlers.

mod account;
mod comment;
mod expense;
mod fixed_asset;
mod journal;
mod organization;
mod receivable;
mod refund;
mod transaction;
mod vendor_credit;

use crate::call::Handler;

pub use account::insert_account;
pub use expense::insert_expense;
pub use organization::new_organization;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("createOrganization", organization::create_organization),
    ("listOrganizations", organization::list_organizations),
    (
        "inventoryListOrganizations",
        organization::inventory_list_organizations,
    ),
    ("updateOrganization", organization::update_organization),
    ("getOrganization", organization::get_organization),
    (
        "inventoryUpdateOrganization",
        organization::update_organization,
    ),
    ("inventoryGetOrganization", organization::get_organization),
    ("createInvoice", receivable::create_invoice),
    ("createCustomerPayment", receivable::create_customer_payment),
    ("createAccount", account::create_account),
    ("listAccounts", account::list_accounts),
    ("markAccountActive", account::mark_account_active),
    ("markAccountInactive", account::mark_account_inactive),
    (
        "listAccountTransactions",
        transaction::list_account_transactions,
    ),
    (
        "deleteAccountTransaction",
        transaction::delete_account_transaction,
    ),
    ("createJournal", journal::create_journal),
    ("listJournals", journal::list_journals),
    ("updateJournal", journal::update_journal),
    ("publishJournal", journal::publish_journal),
    ("addJournalAttachment", journal::add_journal_attachment),
    ("addJournalComment", journal::add_journal_comment),
    ("deleteJournalComment", journal::delete_journal_comment),
    ("createFixedAsset", fixed_asset::create_fixed_asset),
    ("listFixedAssets", fixed_asset::list_fixed_assets),
    ("updateFixedAsset", fixed_asset::update_fixed_asset),
    ("deleteFixedAsset", fixed_asset::delete_fixed_asset),
    ("markFixedAssetActive", fixed_asset::mark_fixed_asset_active),
    (
        "markFixedAssetCancelled",
        fixed_asset::mark_fixed_asset_cancelled,
    ),
    ("markFixedAssetDraft", fixed_asset::mark_fixed_asset_draft),
    ("sellFixedAsset", fixed_asset::sell_fixed_asset),
    ("writeOffFixedAsset", fixed_asset::write_off_fixed_asset),
    (
        "getFixedAssetForecast",
        fixed_asset::get_fixed_asset_forecast,
    ),
    ("addFixedAssetComment", fixed_asset::add_fixed_asset_comment),
    (
        "deleteFixedAssetComment",
        fixed_asset::delete_fixed_asset_comment,
    ),
    ("createExpense", expense::create_expense),
    ("updateExpense", expense::update_expense),
    ("deleteExpense", expense::delete_expense),
    (
        "updateExpenseByUniqueField",
        expense::update_expense_by_unique_field,
    ),
    ("getExpenseReceipt", expense::get_expense_receipt),
    ("addExpenseReceipt", expense::add_expense_receipt),
    ("deleteExpenseReceipt", expense::delete_expense_receipt),
    ("addExpenseAttachment", expense::add_expense_attachment),
    ("listExpenseComments", expense::list_expense_comments),
    ("createVendorCredit", vendor_credit::create_vendor_credit),
    ("listVendorCredits", vendor_credit::list_vendor_credits),
    ("getVendorCredit", vendor_credit::get_vendor_credit),
    ("updateVendorCredit", vendor_credit::update_vendor_credit),
    ("deleteVendorCredit", vendor_credit::delete_vendor_credit),
    (
        "markVendorCreditOpen",
        vendor_credit::mark_vendor_credit_open,
    ),
    (
        "markVendorCreditVoid",
        vendor_credit::mark_vendor_credit_void,
    ),
    ("submitVendorCredit", vendor_credit::submit_vendor_credit),
    ("approveVendorCredit", vendor_credit::approve_vendor_credit),
    (
        "applyVendorCreditToBills",
        vendor_credit::apply_vendor_credit_to_bills,
    ),
    (
        "deleteVendorCreditBill",
        vendor_credit::delete_vendor_credit_bill,
    ),
    (
        "addVendorCreditComment",
        vendor_credit::add_vendor_credit_comment,
    ),
    ("createVendorCreditRefund", refund::create_refund),
    ("listVendorCreditRefunds", refund::list_refunds),
    ("updateVendorCreditRefund", refund::update_refund),
    ("deleteVendorCreditRefund", refund::delete_refund),
    ("listAllVendorCreditRefunds", refund::list_all_refunds),
];
