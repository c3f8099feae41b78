//! Rules for the params of the books operations.
