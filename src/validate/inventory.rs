//! Rules for the params of the inventory operations.
