//! String formats the documents name: dates, durations, timestamps, letters and digits, URLs.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `yyyy-mm-dd`, a real calendar date.
    Date,
    /// `hh:mm`.
    Duration,
    /// `yyyy-mm-ddThh:mm:ss` with a UTC offset (`+hhmm`, `+hh:mm` or `Z`).
    Timestamp,
    /// ASCII letters and digits only.
    Alnum,
    /// An absolute http(s) URL.
    HttpUrl,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Date => "date",
            Format::Duration => "duration",
            Format::Timestamp => "date-time",
            Format::Alnum => "alphanumeric",
            Format::HttpUrl => "url",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Format::Date => "a date yyyy-mm-dd",
            Format::Duration => "a duration hh:mm",
            Format::Timestamp => "a date-time yyyy-mm-ddThh:mm:ss with a UTC offset",
            Format::Alnum => "letters and digits only",
            Format::HttpUrl => "an absolute http:// or https:// URL",
        }
    }

    pub fn matches(self, s: &str) -> bool {
        match self {
            Format::Date => parse_date(s).is_some(),
            Format::Duration => is_duration(s),
            Format::Timestamp => parse_timestamp(s).is_some(),
            Format::Alnum => !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric()),
            Format::HttpUrl => is_http_url(s),
        }
    }
}

fn digits(s: &str) -> Option<u32> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

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

fn is_duration(s: &str) -> bool {
    match s.split_once(':') {
        Some((h, m)) => {
            h.len() >= 2 && digits(h).is_some() && m.len() == 2 && digits(m).is_some_and(|m| m < 60)
        }
        None => false,
    }
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
    Some(days_from_civil(y, mo, d) * 86400 + (h * 3600 + mi * 60 + se) as i64 - offset)
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

fn is_http_url(s: &str) -> bool {
    let rest = match s.split_once("://") {
        Some((scheme, rest))
            if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") =>
        {
            rest
        }
        _ => return false,
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit('@').next().unwrap_or("");
    !host.is_empty()
        && !host.starts_with(':')
        && !s.chars().any(|c| c.is_whitespace() || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert!(Format::Date.matches("2024-02-29"));
        assert!(!Format::Date.matches("2023-02-29"));
        assert!(!Format::Date.matches("2024-13-01"));
        assert!(!Format::Date.matches("2024-1-01"));
        assert!(!Format::Date.matches("2024-01-01T00:00:00"));
    }

    #[test]
    fn durations() {
        assert!(Format::Duration.matches("00:00"));
        assert!(Format::Duration.matches("120:59"));
        assert!(!Format::Duration.matches("1:30"));
        assert!(!Format::Duration.matches("10:60"));
        assert!(!Format::Duration.matches("10-30"));
    }

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
    fn civil_days_round_trip() {
        for days in [-719_468, -1, 0, 59, 365, 19_723, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y as i32, m, d), days, "{days}");
        }
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
    }

    #[test]
    fn alnum_and_urls() {
        assert!(Format::Alnum.matches("Acme2024"));
        assert!(!Format::Alnum.matches("acme-co"));
        assert!(!Format::Alnum.matches("äbc"));
        assert!(Format::HttpUrl.matches("https://hooks.example.com/svc?x=1"));
        assert!(Format::HttpUrl.matches("http://127.0.0.1:9000/cb"));
        assert!(!Format::HttpUrl.matches("ftp://x"));
        assert!(!Format::HttpUrl.matches("https:///x"));
        assert!(!Format::HttpUrl.matches("/relative"));
    }
}
