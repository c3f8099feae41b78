//! Wire types of the chart of accounts: accounts, their list entries and transactions.

use super::shared::{CustomField, CustomFieldInput, Scalar};
use crate::model::billing::NumberOrText;
use crate::model::common::{value_set, wire, Id, JsonNumber, PageNumber};

value_set! {
    AccountType {
        OtherAsset = "other_asset",
        OtherCurrentAsset = "other_current_asset",
        Cash = "cash",
        Bank = "bank",
        FixedAsset = "fixed_asset",
        OtherCurrentLiability = "other_current_liability",
        CreditCard = "credit_card",
        LongTermLiability = "long_term_liability",
        OtherLiability = "other_liability",
        Equity = "equity",
        Income = "income",
        OtherIncome = "other_income",
        Expense = "expense",
        CostOfGoodsSold = "cost_of_goods_sold",
        OtherExpense = "other_expense",
        AccountsReceivable = "accounts_receivable",
        AccountsPayable = "accounts_payable",
    }
}

value_set! {
    /// Filter of the chart-of-accounts list.
    blank AccountFilter {
        All = "AccountType.All",
        Active = "AccountType.Active",
        Inactive = "AccountType.Inactive",
        Asset = "AccountType.Asset",
        Liability = "AccountType.Liability",
        Equity = "AccountType.Equity",
        Income = "AccountType.Income",
        Expense = "AccountType.Expense",
    }
}

value_set! {
    blank AccountSortColumn { AccountName = "account_name", AccountType = "account_type" }
}

wire! {
    /// Body of `createAccount` and `updateAccount`.
    request AccountInput {
        account_name?: String,
        account_code?: String,
        account_type?: AccountType,
        currency_id?: Id,
        description?: String,
        show_on_dashboard?: bool,
        can_show_in_ze?: bool,
        include_in_vat_return?: bool,
        custom_fields?: Vec<CustomFieldInput>,
        parent_account_id?: Id,
    }
}

wire! {
    /// An account as create, update and `getAccount` return it.
    response Account {
        account_id: Id,
        account_name?: String,
        account_code?: String,
        is_active?: bool,
        #[tsify(type = "AccountType")]
        account_type?: String,
        currency_id?: Id,
        currency_code?: String,
        description?: String,
        is_system_account?: bool,
        is_involved_in_transaction?: bool,
        can_show_in_ze?: bool,
        include_in_vat_return?: bool,
        custom_fields?: Vec<CustomField>,
        parent_account_id?: Id,
        documents?: Vec<String>,
        created_time?: String,
        last_modified_time?: String,
        closing_balance?: JsonNumber,
    }
}

wire! {
    /// An entry of `listAccounts`.
    response AccountListEntry {
        account_id: Id,
        account_name?: String,
        account_code?: String,
        is_active?: bool,
        #[tsify(type = "AccountType")]
        account_type?: String,
        currency_id?: Id,
        currency_code?: String,
        description?: String,
        is_system_account?: bool,
        is_involved_in_transaction?: bool,
        can_show_in_ze?: bool,
        include_in_vat_return?: bool,
        custom_fields?: Vec<CustomField>,
        parent_account_id?: Id,
        documents?: Vec<String>,
        created_time?: String,
        last_modified_time?: String,
        is_user_created?: bool,
        is_standalone_account?: bool,
        #[tsify(type = "number | string")]
        current_balance?: Scalar,
        parent_account_name?: String,
        #[tsify(type = "number | string")]
        depth?: Scalar,
        has_attachment?: bool,
        #[tsify(type = "boolean | string")]
        is_child_present?: Scalar,
        #[tsify(type = "number | string")]
        child_count?: Scalar,
    }
}

wire! {
    /// Query of `listAccounts`.
    request AccountListQuery {
        filter_by?: AccountFilter,
        sort_column?: AccountSortColumn,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

wire! {
    /// A posting to an account, as `listAccountTransactions` lists it.
    response AccountTransaction {
        transaction_id: Id,
        categorized_transaction_id?: Id,
        transaction_type?: String,
        transaction_status?: String,
        transaction_source?: String,
        transaction_date?: String,
        account_id?: Id,
        customer_id?: Id,
        payee?: String,
        description?: String,
        entry_number?: String,
        currency_id?: Id,
        currency_code?: String,
        #[tsify(type = "DebitOrCredit")]
        debit_or_credit?: String,
        offset_account_name?: String,
        reference_number?: String,
        reconcile_status?: String,
        #[tsify(type = "number | string")]
        debit_amount?: Scalar,
        #[tsify(type = "number | string")]
        credit_amount?: Scalar,
    }
}

wire! {
    /// Query of `listAccountTransactions`.
    request AccountTransactionListQuery {
        account_id?: Id,
        date?: String,
        amount?: NumberOrText,
        filter_by?: String,
        transaction_type?: String,
        sort_column?: String,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}
