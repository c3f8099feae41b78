//! Numbers a JS double cannot hold: which they are, and the marker they cross the JS boundary in.
//!
//! A JSON number reaches JS as a number only when a double holds its value exactly (its text and the
//! shortest text of the double parsed from it are the same decimal, so the value goes back unchanged).
//! Any other number (an integer beyond 2^53, more significant digits than a double keeps, an exponent
//! out of range) crosses as `{"$svc_exact": "<its text>"}`, which the JS glue makes an `ExactNumber`
//! and which `params.js` writes for an `ExactNumber` (and for `-0`) on the way back: the core reads
//! the marker as the number its text is, and writes that text byte for byte.

use crate::json::{Json, Obj};
use std::borrow::Cow;

/// The key of the marker an exact number crosses the JS boundary in, both ways.
pub const EXACT: &str = "$svc_exact";

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
    let Some(mut near) = crate::json::number(text).map(crate::json::Num::as_f64) else {
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
    fn of(text: &'a str) -> Option<Decimal<'a>> {
        let unsigned = text.strip_prefix('-').unwrap_or(text);
        let (mantissa, exp) = match unsigned.find(['e', 'E']) {
            Some(i) => (&unsigned[..i], saturated(&unsigned[i + 1..])?),
            None => (unsigned, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if int.is_empty() || !(int.bytes().chain(frac.bytes())).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let lead = int.len() as i64;
        let all: Cow<str> = if frac.is_empty() {
            Cow::Borrowed(int)
        } else {
            Cow::Owned(format!("{int}{frac}"))
        };
        let zeros = all.bytes().take_while(|&b| b == b'0').count();
        let trimmed = all[zeros..].trim_end_matches('0');
        let digits = match all {
            Cow::Borrowed(s) => Cow::Borrowed(&s[zeros..zeros + trimmed.len()]),
            Cow::Owned(ref s) => Cow::Owned(s[zeros..zeros + trimmed.len()].to_string()),
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

/// Whether `text` is a JSON number, as the marker's text must be.
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

/// The text of an exact-number marker (`{"$svc_exact": "<number>"}`), if `m` is one.
pub fn marked<'m>(m: &'m Obj<'_>) -> Option<&'m str> {
    if m.len() != 1 {
        return None;
    }
    m.get(EXACT)
        .and_then(Json::as_str)
        .filter(|t| is_number_text(t))
}

/// Reads JSON text that JS wrote (`params.js`), its exact-number markers read as the numbers they hold.
pub fn read(text: &str) -> Result<Json<'_>, crate::json::Error> {
    let mut v = crate::json::parse(text)?;
    unmark(text, &mut v);
    Ok(v)
}

/// Whether `text` holds the marker's key anywhere (a superset of holding a marker): its `$`s
/// are found eight bytes at a time, where `str::contains` on wasm goes nearly byte by byte.
pub fn mentions_marker(text: &str) -> bool {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let (b, key) = (text.as_bytes(), EXACT.as_bytes());
    let at = |from: usize, to: usize| {
        b[from..to.min(b.len())]
            .windows(key.len())
            .any(|w| w == key)
    };
    let mut i = 0;
    while let Some(chunk) = b.get(i..i + 8) {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or_default()) ^ (ONES * u64::from(b'$'));
        if x.wrapping_sub(ONES) & !x & HIGH != 0 && at(i, i + 8 + key.len()) {
            return true;
        }
        i += 8;
    }
    at(i, b.len())
}

/// Turns every exact-number marker below `v` into the number its text is (an owned `Json::Num`,
/// which tells it from a number JSON.stringify wrote for a double). Quick when there is none.
pub fn unmark(text: &str, v: &mut Json<'_>) {
    if mentions_marker(text) {
        unmark_all(v);
    }
}

fn unmark_all(v: &mut Json<'_>) {
    match v {
        Json::Obj(m) => {
            if let Some(t) = marked(m) {
                *v = Json::Num(Cow::Owned(t.to_string()));
            } else {
                m.values_mut().for_each(unmark_all);
            }
        }
        Json::Arr(items) => items.iter_mut().for_each(unmark_all),
        _ => {}
    }
}

/// Whether a number was written by JSON.stringify for a JS double (so it may have been rounded
/// before the SDK saw it), rather than given exactly (an `ExactNumber`, a BigInt).
pub fn from_double(v: &Json<'_>) -> bool {
    matches!(v, Json::Num(Cow::Borrowed(_)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn the_marker_is_mentioned_wherever_its_key_sits() {
        for pad in 0..20 {
            let text = format!("{}{{\"{EXACT}\":\"1\"}}", "é$".repeat(pad));
            assert!(mentions_marker(&text), "{text}");
            assert!(mentions_marker(&text[..text.len() - 6]), "{text}");
            assert!(!mentions_marker(&text[..text.len() - 7]), "{text}");
        }
        assert!(!mentions_marker("$svc_exac$svc_exac$svc_exac"));
        assert!(!mentions_marker(""));
    }

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
    fn markers_become_owned_numbers_and_read_numbers_stay_borrowed() {
        let text = r#"{"a":{"$svc_exact":"9007199254740993"},"b":[{"$svc_exact":"1e400"}],"c":5,"d":{"$svc_exact":"x"},"e":{"$svc_exact":"1","f":2}}"#;
        let mut v = json::parse(text).unwrap();
        unmark(text, &mut v);
        assert_eq!(v["a"], Json::Num(Cow::Owned("9007199254740993".into())));
        assert!(!from_double(&v["a"]));
        assert!(matches!(&v["b"], Json::Arr(a) if !from_double(&a[0])));
        assert!(from_double(&v["c"]));
        assert!(
            v["d"].as_object().is_some(),
            "a marker without a number is left as it is"
        );
        assert!(
            v["e"].as_object().is_some(),
            "an object with more members is no marker"
        );
        assert_eq!(
            json::ToJson::to_json_text(&v),
            r#"{"a":9007199254740993,"b":[1e400],"c":5,"d":{"$svc_exact":"x"},"e":{"$svc_exact":"1","f":2}}"#
        );
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
