//! The schemas of the books uploads, whose params are their files.

use crate::validate::{opt, Kind, Schema};

/// The files are checked by the transport (count and type); nothing else travels.
pub static ADD_JOURNAL_ATTACHMENT: Schema = Schema {
    fields: &[opt("files", Kind::Any)],
    checks: &[],
};

/// The files are checked by the transport (count and type); nothing else travels.
pub static ADD_EXPENSE_ATTACHMENT: Schema = Schema {
    fields: &[opt("files", Kind::Any)],
    checks: &[],
};

/// File types the expense receipt upload accepts (the attachment's without txt and csv).
pub const RECEIPT_TYPES: &[&str] = &[
    "gif", "png", "jpeg", "jpg", "bmp", "pdf", "xls", "xlsx", "doc", "docx",
];

/// The file is checked by the transport (one, and its type); nothing else travels.
pub static ADD_EXPENSE_RECEIPT: Schema = Schema {
    fields: &[opt("receipt", Kind::Any)],
    checks: &[],
};
