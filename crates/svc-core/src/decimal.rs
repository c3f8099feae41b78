//! Numbers written as text: decimal numbers as `f64::from_str` reads them, and runs of digits.

/// A finite decimal number as `f64::from_str` reads one (`+1`, `.5`, `5.`, `007`, `1e3`), written
/// again in JSON's spelling and read by the JSON parser: core's float parser and its tables (about
/// 14 KB gzip of the wasm) stay out of the build.
pub fn parse(s: &str) -> Option<f64> {
    spelled(s).and_then(|json| finite(&json))
}

/// `s` in JSON's spelling when `parse` reads it as a finite number.
pub fn json_spelling(s: &str) -> Option<String> {
    spelled(s).filter(|json| finite(json).is_some())
}

fn finite(json: &str) -> Option<f64> {
    svc_json::number(json)
        .map(svc_json::Num::as_f64)
        .filter(|f| f.is_finite())
}

/// `s` in JSON's spelling, if it has the shape of a decimal number.
fn spelled(s: &str) -> Option<String> {
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
    Some(json)
}

/// A non-empty run of ASCII digits as a number (`None` past `u32::MAX`).
pub fn digits(s: &str) -> Option<u32> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
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
            assert_eq!(parse(s), s.parse::<f64>().ok(), "{s}");
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
            assert_eq!(parse(s), None, "{s}");
        }
    }
}
