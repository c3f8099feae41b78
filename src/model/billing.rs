//! Wire types of the billing family.
