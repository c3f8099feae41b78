//! Wire types of the invoice family.
