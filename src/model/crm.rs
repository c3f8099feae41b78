//! Wire types of the crm family.
