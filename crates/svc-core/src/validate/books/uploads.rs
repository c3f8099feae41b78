//! The file types of the expense receipt upload (an upload's params are its files: `upload!` in the table).

/// File types the expense receipt upload accepts (the attachment's without txt and csv).
pub const RECEIPT_TYPES: &[&str] = &[
    "gif", "png", "jpeg", "jpg", "bmp", "pdf", "xls", "xlsx", "doc", "docx",
];
