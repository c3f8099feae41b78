//! The chart of accounts: accounts, their type groups, and marking them active or inactive.

use crate::call::{Reply, Req};
use crate::error::ApiError;
use crate::list;
use crate::record::Value;
use crate::record::{defaults, id_text, json_obj, patch, same_id, stamp, Record};
use crate::resource::ACCOUNT;
use crate::store::{Ids, Org, Store};
use svc_core::model::books::{AccountFilter, AccountSortColumn, AccountType};
use svc_json::json;

/// The account types that each type filter of the account list keeps.
const ACCOUNT_GROUPS: &[(AccountFilter, &[AccountType])] = {
    use AccountType as T;
    &[
        (
            AccountFilter::Asset,
            &[
                T::OtherAsset,
                T::OtherCurrentAsset,
                T::Cash,
                T::Bank,
                T::FixedAsset,
                T::AccountsReceivable,
            ],
        ),
        (
            AccountFilter::Liability,
            &[
                T::OtherCurrentLiability,
                T::CreditCard,
                T::LongTermLiability,
                T::OtherLiability,
                T::AccountsPayable,
            ],
        ),
        (AccountFilter::Equity, &[T::Equity]),
        (AccountFilter::Income, &[T::Income, T::OtherIncome]),
        (
            AccountFilter::Expense,
            &[T::Expense, T::CostOfGoodsSold, T::OtherExpense],
        ),
    ]
};

/// A filter of the account list as `list::filter_value` and `list::norm` read it (`asset`).
fn filter_name(filter: AccountFilter) -> String {
    list::norm(filter.as_str().rsplit('.').next().unwrap_or_default())
}

pub fn insert_account(org: &mut Org, ids: &Ids, fields: &Record, now_ms: i64) -> Record {
    let mut rec = fields.clone();
    defaults(
        &mut rec,
        json!({
            "is_active": true,
            "is_user_created": true,
            "is_system_account": false,
            "is_involved_in_transaction": false,
            "can_show_in_ze": false,
            "include_in_vat_return": false,
            "currency_id": org.info.get("currency_id").cloned().unwrap_or_default(),
            "current_balance": 0,
            "closing_balance": 0,
            "documents": [],
        }),
    );
    stamp(&mut rec, now_ms, true);
    org.insert(&ACCOUNT, ids.next(&ACCOUNT), rec, None)
}

pub(super) fn create_account(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let (org, ids) = store.open(req.org)?;
    Ok(Reply::created(
        "The account has been created.",
        insert_account(org, ids, req.params, req.now_ms),
    ))
}

pub(super) fn list_accounts(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    let org = store.read(req.org)?;
    let mut rows = org.list(&ACCOUNT, None);
    let filter = list::filter_value(req.params, "filter_by").map(|f| list::norm(&f));
    let active = [AccountFilter::Active, AccountFilter::Inactive]
        .into_iter()
        .find(|f| filter.as_ref() == Some(&filter_name(*f)));
    if let Some(state) = active {
        let want = state == AccountFilter::Active;
        rows.retain(|r| r.get("is_active").and_then(Value::as_bool) == Some(want));
    } else if let Some((_, types)) = ACCOUNT_GROUPS
        .iter()
        .find(|(g, _)| filter.as_ref() == Some(&filter_name(*g)))
    {
        rows.retain(|r| {
            r.get("account_type")
                .and_then(Value::as_str)
                .is_some_and(|t| types.iter().any(|k| k.as_str() == t))
        });
    }
    list::sort(&mut rows, req.params, AccountSortColumn::VALUES);
    for r in &mut rows {
        let id = r.get("account_id").and_then(id_text).unwrap_or_default();
        let children = org
            .rows(ACCOUNT.table)
            .iter()
            .filter(|c| same_id(c.get("parent_account_id"), &id))
            .count();
        defaults(
            r,
            json!({
                "is_standalone_account": true,
                "depth": 0,
                "has_attachment": false,
                "is_child_present": children > 0,
                "child_count": children,
            }),
        );
    }
    Ok(list::page(rows, req.params))
}

fn set_account_active(store: &mut Store, req: &Req, active: bool) -> Result<(), ApiError> {
    let (org, _) = store.open(req.org)?;
    let p = patch(&json_obj(json!({ "is_active": active })), req.now_ms);
    org.update(&ACCOUNT, req.path("account_id"), None, &p)?;
    Ok(())
}

pub(super) fn mark_account_active(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    set_account_active(store, req, true)?;
    Ok(Reply::done("The account has been marked as active."))
}

pub(super) fn mark_account_inactive(store: &mut Store, req: &Req) -> Result<Reply, ApiError> {
    set_account_active(store, req, false)?;
    Ok(Reply::done("The account has been marked as inactive."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::Handler;
    use crate::list::tests::sorted;

    #[test]
    fn the_account_groups_hold_every_account_type_once_and_name_every_type_filter() {
        for t in AccountType::VALUES {
            let groups = ACCOUNT_GROUPS
                .iter()
                .filter(|(_, types)| types.iter().any(|k| k.as_str() == *t))
                .count();
            assert_eq!(groups, 1, "{t}");
        }
        let states = [
            AccountFilter::All,
            AccountFilter::Active,
            AccountFilter::Inactive,
        ];
        for f in AccountFilter::VALUES {
            let grouped = ACCOUNT_GROUPS.iter().any(|(g, _)| g.as_str() == *f);
            assert!(grouped != states.iter().any(|s| s.as_str() == *f), "{f}");
        }
    }

    #[test]
    fn accounts_sort_by_every_column_of_the_core() {
        let columns = AccountSortColumn::VALUES;
        let (mut store, ids) = sorted::two_rows(&ACCOUNT, None, columns);
        let op = ("listAccounts", list_accounts as Handler);
        sorted::by_every_column(&mut store, op, &[], columns, (ACCOUNT.id, &ids));
    }
}
