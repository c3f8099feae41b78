//! Wire types of the inventory family.
