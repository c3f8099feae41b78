//! String formats the documents name: dates, durations, timestamps, letters and digits, URLs.

use crate::calendar::{parse_date, parse_timestamp};
use crate::decimal::digits;

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

fn is_duration(s: &str) -> bool {
    match s.split_once(':') {
        Some((h, m)) => {
            h.len() >= 2 && digits(h).is_some() && m.len() == 2 && digits(m).is_some_and(|m| m < 60)
        }
        None => false,
    }
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
