//! Migration check: each request type's declared schema against the hand schema its rows use.
#![cfg(test)]

use crate::schema::Params;

#[test]
fn declared_schemas_match_the_hand_schemas() {
    let pairs: &[(&str, &crate::schema::Schema, &crate::schema::Schema)] = &[
        (
            "books::CREATE_ORGANIZATION",
            &crate::validate::books::CREATE_ORGANIZATION,
            <crate::model::books::OrganizationCreateInput as Params>::SCHEMA,
        ),
        (
            "books::CREATE_ACCOUNT",
            &crate::validate::books::CREATE_ACCOUNT,
            <crate::model::books::AccountInput as Params>::SCHEMA,
        ),
        (
            "books::LIST_ACCOUNTS",
            &crate::validate::books::LIST_ACCOUNTS,
            <crate::model::books::AccountListQuery as Params>::SCHEMA,
        ),
        (
            "books::UPDATE_ACCOUNT",
            &crate::validate::books::UPDATE_ACCOUNT,
            <crate::model::books::AccountInput as Params>::SCHEMA,
        ),
        (
            "books::CREATE_JOURNAL",
            &crate::validate::books::CREATE_JOURNAL,
            <crate::model::books::JournalInput as Params>::SCHEMA,
        ),
        (
            "books::CREATE_FIXED_ASSET",
            &crate::validate::books::CREATE_FIXED_ASSET,
            <crate::model::books::FixedAssetInput as Params>::SCHEMA,
        ),
        (
            "books::LIST_FIXED_ASSETS",
            &crate::validate::books::LIST_FIXED_ASSETS,
            <crate::model::books::FixedAssetListQuery as Params>::SCHEMA,
        ),
        (
            "books::UPDATE_FIXED_ASSET",
            &crate::validate::books::UPDATE_FIXED_ASSET,
            <crate::model::books::FixedAssetInput as Params>::SCHEMA,
        ),
        (
            "books::CREATE_FIXED_ASSET_TYPE",
            &crate::validate::books::CREATE_FIXED_ASSET_TYPE,
            <crate::model::books::FixedAssetTypeInput as Params>::SCHEMA,
        ),
        (
            "books::LIST_FIXED_ASSET_TYPES",
            &crate::validate::books::LIST_FIXED_ASSET_TYPES,
            <crate::model::books::FixedAssetTypeListQuery as Params>::SCHEMA,
        ),
        (
            "books::UPDATE_FIXED_ASSET_TYPE",
            &crate::validate::books::UPDATE_FIXED_ASSET_TYPE,
            <crate::model::books::FixedAssetTypeUpdateInput as Params>::SCHEMA,
        ),
        (
            "books::CREATE_EXPENSE",
            &crate::validate::books::CREATE_EXPENSE,
            <crate::model::books::ExpenseInput as Params>::SCHEMA,
        ),
        (
            "books::UPDATE_EXPENSE_BY_UNIQUE_FIELD",
            &crate::validate::books::UPDATE_EXPENSE_BY_UNIQUE_FIELD,
            <crate::model::books::ExpenseUniqueFieldUpdateInput as Params>::SCHEMA,
        ),
        (
            "books::CREATE_VENDOR_CREDIT",
            &crate::validate::books::CREATE_VENDOR_CREDIT,
            <crate::model::books::VendorCreditInput as Params>::SCHEMA,
        ),
        (
            "books::LIST_VENDOR_CREDITS",
            &crate::validate::books::LIST_VENDOR_CREDITS,
            <crate::model::books::VendorCreditListQuery as Params>::SCHEMA,
        ),
        (
            "books::CREATE_VENDOR_CREDIT_REFUND",
            &crate::validate::books::CREATE_VENDOR_CREDIT_REFUND,
            <crate::model::books::VendorCreditRefundInput as Params>::SCHEMA,
        ),
        (
            "books::LIST_VENDOR_CREDIT_REFUNDS",
            &crate::validate::books::LIST_VENDOR_CREDIT_REFUNDS,
            <crate::model::books::VendorCreditRefundListQuery as Params>::SCHEMA,
        ),
        (
            "books::UPDATE_VENDOR_CREDIT_REFUND",
            &crate::validate::books::UPDATE_VENDOR_CREDIT_REFUND,
            <crate::model::books::VendorCreditRefundInput as Params>::SCHEMA,
        ),
        (
            "books::LIST_ALL_VENDOR_CREDIT_REFUNDS",
            &crate::validate::books::LIST_ALL_VENDOR_CREDIT_REFUNDS,
            <crate::model::books::AllVendorCreditRefundsQuery as Params>::SCHEMA,
        ),
        (
            "books::LIST_ACCOUNT_TRANSACTIONS",
            &crate::validate::books::LIST_ACCOUNT_TRANSACTIONS,
            <crate::model::books::AccountTransactionListQuery as Params>::SCHEMA,
        ),
        (
            "books::LIST_JOURNALS",
            &crate::validate::books::LIST_JOURNALS,
            <crate::model::books::JournalListQuery as Params>::SCHEMA,
        ),
        (
            "books::ADD_JOURNAL_COMMENT",
            &crate::validate::books::ADD_JOURNAL_COMMENT,
            <crate::model::books::JournalCommentInput as Params>::SCHEMA,
        ),
        (
            "books::SELL_FIXED_ASSET",
            &crate::validate::books::SELL_FIXED_ASSET,
            <crate::model::books::FixedAssetSaleInput as Params>::SCHEMA,
        ),
        (
            "books::WRITE_OFF_FIXED_ASSET",
            &crate::validate::books::WRITE_OFF_FIXED_ASSET,
            <crate::model::books::FixedAssetWriteOffInput as Params>::SCHEMA,
        ),
        (
            "books::FIXED_ASSET_HISTORY",
            &crate::validate::books::FIXED_ASSET_HISTORY,
            <crate::model::books::FixedAssetHistoryQuery as Params>::SCHEMA,
        ),
        (
            "books::ADD_FIXED_ASSET_COMMENT",
            &crate::validate::books::ADD_FIXED_ASSET_COMMENT,
            <crate::model::books::FixedAssetCommentInput as Params>::SCHEMA,
        ),
        (
            "books::LIST_EXPENSES",
            &crate::validate::books::LIST_EXPENSES,
            <crate::model::books::ExpenseListQuery as Params>::SCHEMA,
        ),
        (
            "books::GET_VENDOR_CREDIT",
            &crate::validate::books::GET_VENDOR_CREDIT,
            <crate::model::books::VendorCreditGetQuery as Params>::SCHEMA,
        ),
        (
            "books::APPLY_VENDOR_CREDIT_TO_BILLS",
            &crate::validate::books::APPLY_VENDOR_CREDIT_TO_BILLS,
            <crate::model::books::VendorCreditBillsInput as Params>::SCHEMA,
        ),
        (
            "books::ADD_VENDOR_CREDIT_COMMENT",
            &crate::validate::books::ADD_VENDOR_CREDIT_COMMENT,
            <crate::model::books::VendorCreditCommentInput as Params>::SCHEMA,
        ),
    ];
    let (mut only_hand, mut only_decl, mut order, mut kind_rules, mut req) = (0, 0, 0, 0, 0);
    for (name, hand, declared) in pairs {
        let hn: Vec<_> = hand.fields.iter().map(|f| f.name).collect();
        let dn: Vec<_> = declared.fields.iter().map(|f| f.name).collect();
        let oh: Vec<_> = hn.iter().filter(|n| !dn.contains(n)).collect();
        let od: Vec<_> = dn.iter().filter(|n| !hn.contains(n)).collect();
        let common_h: Vec<_> = hn.iter().filter(|n| dn.contains(n)).collect();
        let common_d: Vec<_> = dn.iter().filter(|n| hn.contains(n)).collect();
        if !oh.is_empty() {
            only_hand += 1;
            eprintln!("{name}: only in hand {oh:?}");
        }
        if !od.is_empty() {
            only_decl += 1;
            eprintln!("{name}: only declared {od:?}");
        }
        if common_h != common_d {
            order += 1;
            eprintln!("{name}: order differs");
        }
        for f in hand.fields {
            if let Some(d) = declared.fields.iter().find(|d| d.name == f.name) {
                if format!("{:?}{:?}", f.kind, f.rules) != format!("{:?}{:?}", d.kind, d.rules) {
                    kind_rules += 1;
                    eprintln!(
                        "{name}.{}: {:?} {:?} vs {:?} {:?}",
                        f.name, f.kind, f.rules, d.kind, d.rules
                    );
                }
                if f.required != d.required {
                    req += 1;
                    eprintln!(
                        "{name}.{}: required {} vs {}",
                        f.name, f.required, d.required
                    );
                }
            }
        }
        if hand.checks != declared.checks {
            eprintln!("{name}: checks differ");
        }
    }
    eprintln!("only_hand {only_hand} only_decl {only_decl} order {order} kind_rules {kind_rules} req {req}");
    let mut differ = Vec::new();
    for (name, hand, declared) in pairs {
        let (h, d) = (format!("{hand:?}"), format!("{declared:?}"));
        if h == d {
            eprintln!("MATCH {name}");
        }
        if h != d {
            differ.push(format!("{name}\n  hand:     {h}\n  declared: {d}"));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} differ:\n{}",
        differ.len(),
        pairs.len(),
        differ.join("\n")
    );
}
