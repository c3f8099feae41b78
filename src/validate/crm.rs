//! Rules for the params of the crm operations.
