//! Wire types of the books family.
