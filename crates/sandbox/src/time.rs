//! Wall-clock helpers: dates and timestamps in the formats the documents use.

pub use svc_core::calendar::{civil_from_days, DAY_MS, WEEK_MS};
use svc_core::calendar::{days_from_civil, parse_timestamp, MONTH_ABBREVIATIONS};

pub const HOUR_MS: i64 = 3_600_000;

pub fn now_ms() -> i64 {
    svc_core::clock::now_ms()
}

/// `yyyy-mm-dd` (UTC).
pub fn date(ms: i64) -> String {
    let (y, m, d) = civil_from_days(ms.div_euclid(DAY_MS));
    format!("{y:04}-{m:02}-{d:02}")
}

/// `dd Mon yyyy`, as in `account_created_date_formatted`.
pub fn date_formatted(ms: i64) -> String {
    let (y, m, d) = civil_from_days(ms.div_euclid(DAY_MS));
    format!("{d:02} {} {y:04}", MONTH_ABBREVIATIONS[(m - 1) as usize])
}

fn clock(ms: i64) -> (String, i64, i64, i64) {
    let secs = ms.div_euclid(1000).rem_euclid(86_400);
    (date(ms), secs / 3600, secs / 60 % 60, secs % 60)
}

/// `yyyy-mm-ddThh:mm:ss+0000`, the service's timestamp form.
pub fn timestamp(ms: i64) -> String {
    let (d, h, m, s) = clock(ms);
    format!("{d}T{h:02}:{m:02}:{s:02}+0000")
}

/// `yyyy-mm-ddThh:mm:ss+00:00`, the ISO form of CRM channel expiries.
pub fn iso(ms: i64) -> String {
    let (d, h, m, s) = clock(ms);
    format!("{d}T{h:02}:{m:02}:{s:02}+00:00")
}

/// `h:mm AM`, the time of day of comments.
pub fn time_of_day(ms: i64) -> String {
    let (_, h, m, _) = clock(ms);
    let (h12, half) = match h {
        0 => (12, "AM"),
        1..=11 => (h, "AM"),
        12 => (12, "PM"),
        _ => (h - 12, "PM"),
    };
    format!("{h12}:{m:02} {half}")
}

/// Milliseconds since the epoch of a timestamp with a UTC offset.
pub fn parse_ms(s: &str) -> Option<i64> {
    parse_timestamp(s).map(|secs| secs * 1000)
}

/// Milliseconds left until the next UTC midnight.
pub fn until_next_day(ms: i64) -> i64 {
    DAY_MS - ms.rem_euclid(DAY_MS)
}

/// Day number of a `yyyy-mm-dd` date.
pub fn day_of(date: &str) -> Option<i64> {
    svc_core::calendar::parse_date(date).map(|(y, m, d)| days_from_civil(y, m, d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_round_trip() {
        for days in [-800_000, -1, 0, 59, 365, 11_016, 19_782, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y as i32, m, d), days, "{days}");
        }
    }

    #[test]
    fn formats() {
        let ms = 1_700_000_000_123;
        assert_eq!(date(ms), "2023-11-14");
        assert_eq!(timestamp(ms), "2023-11-14T22:13:20+0000");
        assert_eq!(iso(ms), "2023-11-14T22:13:20+00:00");
        assert_eq!(time_of_day(ms), "10:13 PM");
        assert_eq!(time_of_day(0), "12:00 AM");
        assert_eq!(date_formatted(0), "01 Jan 1970");
        assert_eq!(parse_ms(&timestamp(ms)), Some(ms / 1000 * 1000));
        assert_eq!(parse_ms(&iso(ms)), Some(ms / 1000 * 1000));
        assert_eq!(until_next_day(DAY_MS - 1), 1);
        assert_eq!(day_of("1970-01-02"), Some(1));
    }
}
