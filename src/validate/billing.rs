//! Rules for the params of the billing operations.
