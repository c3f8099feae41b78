//! The sandbox over real HTTP: each test starts its own server on port 0 in this process.

mod accounts;
mod callbacks;
mod client;
mod connections;
mod errors;
mod every_row;
mod exact;
mod families;
mod faults;
mod generic;
mod limits;
mod process;
mod receivables;
mod routing;
mod shapes;
mod stock;
mod uploads;
mod wire;
