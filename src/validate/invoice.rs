//! Rules for the params of the invoice operations.
