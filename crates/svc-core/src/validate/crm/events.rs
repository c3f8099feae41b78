//! The `events` of a notification channel: each a custom module's API name and an operation.

use crate::message::Message;
use crate::validate::{Ctx, PathSeg, Problem};
use svc_json::{Json, Obj};

/// The operation half of an `events` entry.
pub const EVENT_OPERATIONS: &[&str] = &["create", "delete", "edit", "all"];

/// The format name reported for an `events` entry of the wrong shape.
pub const EVENT_FORMAT: &str = "{module_api_name}.{operation}";

/// A custom module's API name: letters, digits and underscores, starting with a letter.
fn is_module_name(s: &str) -> bool {
    s.as_bytes().first().is_some_and(u8::is_ascii_alphabetic)
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

fn check_event(event: &str, ctx: &mut Ctx) {
    match event.split_once('.') {
        Some((module, operation)) if is_module_name(module) => {
            if !EVENT_OPERATIONS.contains(&operation) {
                ctx.push(
                    Message::EventOperation
                        .say(&[&crate::echo::quoted(event), &EVENT_OPERATIONS.join(", ")]),
                    Problem::InvalidValue {
                        allowed: EVENT_OPERATIONS,
                    },
                );
            }
        }
        _ => ctx.push(
            Message::EventFormat.say(&[&EVENT_FORMAT, &crate::echo::quoted(event)]),
            Problem::InvalidFormat {
                format: EVENT_FORMAT.into(),
                allowed: None,
            },
        ),
    }
}

pub(in crate::validate) fn events_name_module_and_operation(channel: &Obj, ctx: &mut Ctx) {
    let Some(Json::Arr(events)) = channel.get("events") else {
        return;
    };
    ctx.enter(PathSeg::Key("events".into()), |ctx| {
        for (i, event) in events.iter().enumerate() {
            if let Json::Str(s) = event {
                ctx.enter(PathSeg::Index(i), |ctx| check_event(s, ctx));
            }
        }
    });
}
