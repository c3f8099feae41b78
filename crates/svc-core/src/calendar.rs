//! The civil calendar: dates, timestamps with a UTC offset, day counts, and the lengths of a day and a week.

use crate::decimal::digits;

pub const DAY_SECS: i64 = 86_400;
pub const DAY_MS: i64 = DAY_SECS * 1000;
pub const WEEK_MS: i64 = 7 * DAY_MS;

/// The months as HTTP dates abbreviate them (`Sun, 06 Nov 1994 08:49:37 GMT`).
pub const MONTH_ABBREVIATIONS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// `(year, month, day)` of a valid `yyyy-mm-dd` date.
pub fn parse_date(s: &str) -> Option<(i32, u32, u32)> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let (y, m, d) = (digits(&s[0..4])?, digits(&s[5..7])?, digits(&s[8..10])?);
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (d >= 1 && d <= days).then_some((y as i32, m, d))
}

/// Seconds since the Unix epoch of a timestamp with an offset.
pub fn parse_timestamp(s: &str) -> Option<i64> {
    if s.len() < 20 || !s.is_char_boundary(10) || !s.is_char_boundary(19) {
        return None;
    }
    let (y, mo, d) = parse_date(&s[..10])?;
    let b = s.as_bytes();
    if !(b[10] == b'T' || b[10] == b't') || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (h, mi, se) = (
        digits(&s[11..13])?,
        digits(&s[14..16])?,
        digits(&s[17..19])?,
    );
    if h > 23 || mi > 59 || se > 60 {
        return None;
    }
    let mut rest = &s[19..];
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return None;
        }
        rest = &frac[n..];
    }
    let offset = match rest {
        "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let o = &rest[1..];
            if !o.is_ascii() {
                return None;
            }
            let (oh, om) = match o.len() {
                4 => (digits(&o[..2])?, digits(&o[2..])?),
                5 if o.as_bytes()[2] == b':' => (digits(&o[..2])?, digits(&o[3..])?),
                _ => return None,
            };
            if oh > 23 || om > 59 {
                return None;
            }
            sign * (oh as i64 * 3600 + om as i64 * 60)
        }
    };
    Some(days_from_civil(y, mo, d) * DAY_SECS + (h * 3600 + mi * 60 + se) as i64 - offset)
}

/// `yyyy-mm-ddThh:mm:ss[.mmm]Z` of milliseconds since the Unix epoch.
pub fn iso_utc(ms: i64) -> String {
    let (secs, milli) = (ms.div_euclid(1000), ms.rem_euclid(1000));
    let (days, sod) = (secs.div_euclid(DAY_SECS), secs.rem_euclid(DAY_SECS));
    let (y, m, d) = civil_from_days(days);
    let time = format!("{:02}:{:02}:{:02}", sod / 3600, sod % 3600 / 60, sod % 60);
    match milli {
        0 => format!("{y:04}-{m:02}-{d:02}T{time}Z"),
        _ => format!("{y:04}-{m:02}-{d:02}T{time}.{milli:03}Z"),
    }
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
pub fn days_from_civil(y: i32, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y } as i64;
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// `(year, month, day)` of a day counted from 1970-01-01 (Howard Hinnant's algorithm).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_need_an_offset() {
        assert_eq!(parse_timestamp("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_timestamp("1970-01-01T05:30:00+0530"), Some(0));
        assert_eq!(parse_timestamp("1970-01-01T05:30:00+05:30"), Some(0));
        assert_eq!(
            parse_timestamp("2013-01-17T15:27:23.123-0700").map(|_| ()),
            Some(())
        );
        assert!(parse_timestamp("2013-01-17T15:27:23").is_none());
        assert!(parse_timestamp("2013-01-17 15:27:23+0000").is_none());
    }

    #[test]
    fn offsets_with_other_than_ascii_are_no_timestamp() {
        for s in [
            "2024-05-01T10:40:00+1\u{e9}2",
            "2024-05-01T10:40:00+\u{e9}12",
            "2024-05-01T10:40:00+12\u{e9}",
        ] {
            assert_eq!(parse_timestamp(s), None, "{s}");
        }
    }

    #[test]
    fn civil_days_round_trip() {
        for days in [-719_468, -1, 0, 59, 365, 19_723, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y as i32, m, d), days, "{days}");
        }
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
    }

    #[test]
    fn iso_times_match_the_timestamp_parser() {
        const NOW: i64 = 1_714_560_000_000;
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_utc(NOW), "2024-05-01T10:40:00Z");
        assert_eq!(iso_utc(951_782_400_123), "2000-02-29T00:00:00.123Z");
        assert_eq!(iso_utc(-1000), "1969-12-31T23:59:59Z");
        for ms in [0, NOW, NOW + WEEK_MS, 4_102_444_799_000, -DAY_MS] {
            assert_eq!(
                parse_timestamp(&iso_utc(ms)),
                Some(ms / 1000),
                "{}",
                iso_utc(ms)
            );
        }
    }
}
