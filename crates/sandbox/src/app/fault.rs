//! The fault a call draws: a wait, an injected status, or a dropped answer.

use super::state::{lock, App, Trace};
use crate::error::{code, ApiError};
use crate::faults::Fault;

/// Draws this call's fault: whether it waits first, and then an answer before anything is applied,
/// a drop after, or none.
pub(super) fn draw_fault(sh: &App, t: &mut Trace) -> (bool, Result<(), ApiError>) {
    let draw = lock(&sh.faults).draw();
    if draw.slow {
        lock(&sh.counters).fault("slow");
    }
    let fault = match draw.fault {
        Fault::None => Ok(()),
        Fault::Drop => {
            lock(&sh.counters).fault("drop");
            t.drop = true;
            Ok(())
        }
        Fault::Status(429) => {
            lock(&sh.counters).fault("429");
            t.retry_after = Some(1);
            Err(ApiError::new(
                429,
                code::RATE,
                "Too many requests (a fault injected by the sandbox).",
            ))
        }
        Fault::Status(status) => {
            lock(&sh.counters).fault(if status == 503 { "503" } else { "500" });
            Err(ApiError::new(
                status,
                code::INTERNAL,
                "Internal error (a fault injected by the sandbox); nothing was applied.",
            ))
        }
    };
    (draw.slow, fault)
}
