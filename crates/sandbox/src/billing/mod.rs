//! Subscription billing (tasks, plans, the events that plan changes record): its handlers.

mod event;
mod plan;
mod task;

use crate::call::Handler;

pub use plan::insert_plan;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("createTask", task::create_task),
    ("createPlan", plan::create_plan),
    ("listPlans", plan::list_plans),
    ("updatePlan", plan::update_plan),
    ("listEvents", event::list_events),
];
