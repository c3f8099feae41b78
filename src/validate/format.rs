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

/// A finite decimal number as `f64::from_str` reads one (`+1`, `.5`, `5.`, `007`, `1e3`), written
/// again in JSON's spelling and read by the JSON parser: core's float parser and its tables (about
/// 14 KB gzip of the wasm) stay out of the build.
pub fn decimal(s: &str) -> Option<f64> {
    let (sign, rest) = match s.as_bytes().first()? {
        b'-' => ("-", &s[1..]),
        b'+' => ("", &s[1..]),
        _ => ("", s),
    };
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if (int.is_empty() && frac.is_empty()) || !all_digits(int) || !all_digits(frac) {
        return None;
    }
    let int = int.trim_start_matches('0');
    let mut json = format!("{sign}{}", if int.is_empty() { "0" } else { int });
    if !frac.is_empty() {
        json.push('.');
        json.push_str(frac);
    }
    if let Some(e) = exp {
        let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
        if digits.is_empty() || !all_digits(digits) {
            return None;
        }
        json.push('e');
        json.push_str(e);
    }
    match serde_json::from_str(&json) {
        Ok(serde_json::Value::Number(n)) => n.as_f64().filter(|f| f.is_finite()),
        _ => None,
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
    fn decimals_read_as_f64_from_str_reads_them() {
        for s in [
            "0",
            "-0",
            "+0",
            "12",
            "+12",
            "-12",
            "007",
            "1.",
            ".5",
            "-.5",
            "+.5",
            "0.1",
            "12.50",
            "1e3",
            "1E3",
            "1e+3",
            "1e-3",
            "-1.5E-7",
            "123456789012345678901234567890",
            "0.3",
            "2.2250738585072014e-308",
            "1.7976931348623157e308",
            "1e-400",
            "9007199254740993",
        ] {
            assert_eq!(decimal(s), s.parse::<f64>().ok(), "{s}");
        }
        for s in [
            "",
            ".",
            "+",
            "-",
            "e3",
            ".e3",
            "1e",
            "1e+",
            "1.2.3",
            "1,5",
            " 1",
            "1 ",
            "0x10",
            "1_0",
            "inf",
            "-infinity",
            "NaN",
            "1e400",
            "--1",
            "+-1",
            "١",
        ] {
            assert_eq!(decimal(s), None, "{s}");
        }
    }

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
}
