//! The `channel_expiry` of a notification channel: not in the past, at most one week ahead.

use crate::calendar::{iso_utc, parse_timestamp, WEEK_MS};
use crate::message::Message;
use crate::validate::{Ctx, Problem};
use svc_json::{Json, Obj};

/// Not in the past (to the second) and no more than one week after now.
pub(in crate::validate) fn expiry_within_a_week(channel: &Obj, ctx: &mut Ctx) {
    let Some(Json::Str(s)) = channel.get("channel_expiry") else {
        return;
    };
    let Some(secs) = parse_timestamp(s) else {
        return;
    };
    // Whole seconds, as the field is written: both bounds read with one precision.
    let at = secs.saturating_mul(1000);
    let earliest = ctx.now_ms.div_euclid(1000) * 1000;
    let latest = ctx.now_ms.saturating_add(WEEK_MS).div_euclid(1000) * 1000;
    if at < earliest || at > latest {
        let (min, max) = (iso_utc(earliest), iso_utc(latest));
        ctx.push_at(
            "channel_expiry",
            Message::ExpiryWithinAWeek.say(&[&"channel_expiry", &min, &max]),
            Problem::OutOfRange {
                minimum: min.into(),
                maximum: max.into(),
            },
        );
    }
}
