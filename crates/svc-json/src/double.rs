//! Whether a double (a JS number) holds a JSON number's text exactly, and whether a text is a JSON
//! number: what a caller needs to decide which numbers can cross to JS as numbers (svc-core's `exact`).

use std::borrow::Cow;

/// Whether a JS double holds the value of `text` (JSON number syntax) exactly: whether it is the
/// shortest text of a double (which JSON.parse reads as that double and JS writes back unchanged).
pub fn holds(text: &str) -> bool {
    // At most 15 characters and no exponent: at most 15 digits, well inside the normal range.
    if text.len() <= 15 && !text.bytes().any(|b| b == b'e' || b == b'E') {
        return is_number_text(text);
    }
    let Some(d) = Decimal::of(text) else {
        return false;
    };
    // A zero, whatever its exponent, is a double's zero (of its sign).
    if d.digits.is_empty() {
        return true;
    }
    // Up to 15 significant digits within the doubles' normal range always come back unchanged; a
    // double's shortest text has at most 17.
    if d.digits.len() <= 15 && (-300..=300).contains(&d.exponent) {
        return true;
    }
    if d.digits.len() > 17 || !(-330..=310).contains(&d.exponent) {
        return false;
    }
    // The reader's value may be an ulp or two off the nearest double: `text` is held when it is the
    // shortest text of one of the doubles around it.
    let Some(mut near) = super::number(text).map(super::Num::as_f64) else {
        return false;
    };
    // The reader may overflow a number just below the largest double.
    if near.is_infinite() && d.exponent <= 308 {
        near = f64::MAX.copysign(near);
    }
    if !near.is_finite() {
        return false;
    }
    let bits = near.to_bits() as i64;
    [0, 1, -1, 2, -2].iter().any(|delta| {
        let h = f64::from_bits(bits.wrapping_add(*delta) as u64);
        h.is_finite()
            && h.is_sign_negative() == near.is_sign_negative()
            && Decimal::of(zmij::Buffer::new().format_finite(h))
                .is_some_and(|s| s.digits == d.digits && s.exponent == d.exponent)
    })
}

/// A decimal's significant digits (no leading or trailing zeros; none for zero) and the power of
/// ten of its first digit.
struct Decimal<'a> {
    digits: Cow<'a, str>,
    exponent: i64,
}

impl<'a> Decimal<'a> {
    /// Read byte by byte (no `format!`, no pattern searches: the code stays small in every build).
    fn of(text: &'a str) -> Option<Decimal<'a>> {
        let unsigned = match text.as_bytes().first() {
            Some(b'-') => &text[1..],
            _ => text,
        };
        let (mantissa, exp) = match unsigned.bytes().position(|b| b == b'e' || b == b'E') {
            Some(i) => (&unsigned[..i], saturated(&unsigned[i + 1..])?),
            None => (unsigned, 0),
        };
        let (int, frac) = match mantissa.bytes().position(|b| b == b'.') {
            Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
            None => (mantissa, ""),
        };
        if int.is_empty() || !(int.bytes().chain(frac.bytes())).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let lead = int.len() as i64;
        let all: Cow<str> = if frac.is_empty() {
            Cow::Borrowed(int)
        } else {
            let mut joined = String::with_capacity(int.len() + frac.len());
            joined.push_str(int);
            joined.push_str(frac);
            Cow::Owned(joined)
        };
        let zeros = all.bytes().take_while(|&b| b == b'0').count();
        let end = all
            .bytes()
            .rposition(|b| b != b'0')
            .map_or(zeros, |i| i + 1);
        let digits = match all {
            Cow::Borrowed(s) => Cow::Borrowed(&s[zeros..end]),
            Cow::Owned(ref s) => Cow::Owned(s[zeros..end].to_string()),
        };
        let exponent = exp.saturating_add(lead - 1 - zeros as i64);
        Some(Decimal { digits, exponent })
    }
}

/// An exponent's value (`+`, `-` or no sign, then digits), saturated at the ends of i64: no double is near.
fn saturated(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = digits.bytes().fold(0i64, |n, b| {
        n.saturating_mul(10).saturating_add(i64::from(b - b'0'))
    });
    Some(if negative { -n } else { n })
}

/// Whether `text` is a JSON number, and nothing else (no blanks, no sign but `-`, no leading zero).
pub fn is_number_text(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = b.get(i) {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_a_double_holds_stay_numbers() {
        for t in [
            "0",
            "-0",
            "0.0",
            "1",
            "-7",
            "1.5",
            "1.50",
            "0.1",
            "1e2",
            "1E+2",
            "9007199254740991",
            "9007199254740992",
            "123456789012345",
            "0.30000000000000004",
            "1.7976931348623157e308",
            "5e-324",
            "2.2250738585072014e-308",
            "100000000000000000000000",
            "1e21",
            "0e999999999999",
            "-0.000e-99999",
            "0e99999999999999999999",
            "1.7976931348623157e308",
            "17976931348623157e292",
            "-179769313486231570000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
        ] {
            assert!(holds(t), "{t} is held by a double");
        }
    }

    #[test]
    fn numbers_a_double_changes_are_exact() {
        for t in [
            "9007199254740993",
            "12345678901234567891",
            "1000.00000000000000000000000001",
            "1e400",
            "-1e400",
            "1e-400",
            "0.1000000000000000055511151231257827",
            "3.14159265358979323846",
            "2.4703282292062327e-324",
            "1e99999999999999999999",
            "1e-99999999999999999999",
        ] {
            assert!(!holds(t), "{t} is not held by a double");
        }
    }

    #[test]
    fn number_text_is_json_syntax() {
        for t in ["0", "-0", "1.5e-3", "12345678901234567890", "1E400"] {
            assert!(is_number_text(t), "{t}");
        }
        for t in [
            "", "-", "01", "1.", ".5", "1e", "+1", "NaN", "Infinity", "1 ", "0x10",
        ] {
            assert!(!is_number_text(t), "{t}");
        }
    }
}
