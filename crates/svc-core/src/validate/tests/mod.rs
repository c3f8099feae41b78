//! The tests of the rule engine (`engine`) and of each family's rules, one file per family (a folder
//! with a file per resource for books), and the helpers they share (`support`: the `edge!` macro).

mod billing;
mod books;
mod crm;
mod engine;
mod inventory;
mod invoice;
pub(crate) mod support;
