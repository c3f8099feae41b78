//! Resources: how each kind of record is kept, and the ones that handlers and the seed name.

/// How one kind of record is kept: its table (the path template of its collection, so that a
/// generic row and a handler of the same collection share it), its id field, its id style, and
/// the field naming its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resource<'a> {
    pub table: &'a str,
    pub id: &'a str,
    /// JSON numbers beyond 2^53 instead of digit strings.
    pub big_ids: bool,
    pub parent: Option<&'a str>,
}

impl<'a> Resource<'a> {
    pub const fn new(table: &'a str, id: &'a str) -> Resource<'a> {
        Resource {
            table,
            id,
            big_ids: false,
            parent: None,
        }
    }

    pub const fn big(self) -> Resource<'a> {
        Resource {
            big_ids: true,
            ..self
        }
    }

    pub const fn under(self, parent: &'a str) -> Resource<'a> {
        Resource {
            parent: Some(parent),
            ..self
        }
    }

    /// What messages call a record: `vendor_credit_refund_id` gives "vendor credit refund".
    pub fn noun(&self) -> String {
        let id = self.id;
        id.strip_suffix("_id")
            .or_else(|| id.strip_suffix("_code"))
            .unwrap_or(id)
            .replace('_', " ")
    }
}

pub const ACCOUNT: Resource = Resource::new("/chartofaccounts", "account_id");
pub const JOURNAL: Resource = Resource::new("/journals", "journal_id");
pub const FIXED_ASSET: Resource = Resource::new("/fixedassets", "fixed_asset_id");
/// The status changes, sale and write-off of a fixed asset, served by `getFixedAssetHistory`.
pub const FIXED_ASSET_HISTORY: Resource =
    Resource::new("/fixedassets/{fixed_asset_id}/history", "valuation_id").under("fixed_asset_id");
pub const FIXED_ASSET_TYPE: Resource = Resource::new("/fixedassettypes", "fixed_asset_type_id");
pub const EXPENSE: Resource = Resource::new("/expenses", "expense_id").big();
pub const VENDOR_CREDIT: Resource = Resource::new("/vendorcredits", "vendor_credit_id");
pub const REFUND: Resource = Resource::new(
    "/vendorcredits/{vendor_credit_id}/refunds",
    "vendor_credit_refund_id",
)
.under("vendor_credit_id");
/// The application of a vendor credit to a bill.
pub const CREDITED_BILL: Resource = Resource::new(
    "/vendorcredits/{vendor_credit_id}/bills",
    "vendor_credit_bill_id",
)
.under("vendor_credit_id");
pub const VENDOR_CREDIT_COMMENT: Resource =
    Resource::new("/vendorcredits/{vendor_credit_id}/comments", "comment_id")
        .under("vendor_credit_id");
pub const PACKAGE: Resource = Resource::new("/packages", "package_id").big();
pub const COMPOSITE_ITEM: Resource = Resource::new("/compositeitems", "composite_item_id").big();
pub const CURRENCY: Resource = Resource::new("/settings/currencies", "currency_id");
pub const PROJECT: Resource = Resource::new("/projects", "project_id");
pub const COMMENT: Resource =
    Resource::new("/projects/{project_id}/comments", "comment_id").under("project_id");
pub const PROJECT_INVOICE: Resource =
    Resource::new("/projects/{project_id}/invoices", "invoice_id").under("project_id");
pub const RECURRING_INVOICE: Resource = Resource::new("/recurringinvoices", "recurring_invoice_id");
/// What happened to a recurring invoice (its history, listed with its comments).
pub const RECURRING_INVOICE_HISTORY: Resource = Resource::new(
    "/recurringinvoices/{recurring_invoice_id}/comments",
    "comment_id",
)
.under("recurring_invoice_id");
pub const TASK: Resource =
    Resource::new("/projects/{project_id}/tasks", "task_id").under("project_id");
pub const PLAN: Resource = Resource::new("/plans", "plan_code");
pub const EVENT: Resource = Resource::new("/events", "event_id");
/// Kept for their names only (seeded, never served): customers, vendors, users.
pub const CUSTOMER: Resource = Resource::new("/customers", "customer_id");
pub const VENDOR: Resource = Resource::new("/vendors", "vendor_id");
pub const USER: Resource = Resource::new("/users", "user_id");

/// Every named resource, for the check that they agree with the catalog's paths.
pub const NAMED: &[Resource] = &[
    ACCOUNT,
    JOURNAL,
    FIXED_ASSET,
    FIXED_ASSET_HISTORY,
    FIXED_ASSET_TYPE,
    EXPENSE,
    VENDOR_CREDIT,
    REFUND,
    CREDITED_BILL,
    VENDOR_CREDIT_COMMENT,
    PACKAGE,
    COMPOSITE_ITEM,
    CURRENCY,
    PROJECT,
    COMMENT,
    PROJECT_INVOICE,
    RECURRING_INVOICE,
    RECURRING_INVOICE_HISTORY,
    TASK,
    PLAN,
    EVENT,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nouns_come_from_the_id_field() {
        assert_eq!(REFUND.noun(), "vendor credit refund");
        assert_eq!(PLAN.noun(), "plan");
        assert_eq!(Resource::new("/x", "thing").noun(), "thing");
    }
}
