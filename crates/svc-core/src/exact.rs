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

pub use crate::json::double::{holds, is_number_text, EXACT};

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

/// Whether `text` holds the marker's key anywhere (a superset of holding a marker).
pub fn mentions_marker(text: &str) -> bool {
    crate::json::scan::any_after(text, b'$', |rest| rest.starts_with(&EXACT.as_bytes()[1..]))
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
