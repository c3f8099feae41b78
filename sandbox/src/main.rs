//! The sandbox: a stateful local Svc service for every operation of the catalog.

fn main() {}
