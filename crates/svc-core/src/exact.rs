//! Numbers a JS double cannot hold: which they are, and the marker they cross the JS boundary in.
//!
//! A JSON number reaches JS as a number only when a double holds its value exactly (its text and the
//! shortest text of the double parsed from it are the same decimal, so the value goes back unchanged).
//! Any other number (an integer beyond 2^53, more significant digits than a double keeps, an exponent
//! out of range) crosses as `{"$svc_exact": "<its text>"}`, which the JS glue makes an `ExactNumber`
//! and which `params.js` writes for an `ExactNumber` (and for `-0`) on the way back: the core reads
//! the marker as the number its text is, and writes that text byte for byte.

use std::borrow::Cow;
use svc_json::{Json, Obj};

pub use svc_json::double::{holds, is_number_text};

/// The key of the marker an exact number crosses the JS boundary in, both ways.
pub const EXACT: &str = "$svc_exact";

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
pub fn read(text: &str) -> Result<Json<'_>, svc_json::Error> {
    let mut v = svc_json::parse(text)?;
    unmark(text, &mut v);
    Ok(v)
}

/// Whether `text` holds the marker's key anywhere (a superset of holding a marker).
pub fn mentions_marker(text: &str) -> bool {
    svc_json::scan::any_after(text, b'$', |rest| rest.starts_with(&EXACT.as_bytes()[1..]))
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
    fn markers_become_owned_numbers_and_read_numbers_stay_borrowed() {
        let text = r#"{"a":{"$svc_exact":"9007199254740993"},"b":[{"$svc_exact":"1e400"}],"c":5,"d":{"$svc_exact":"x"},"e":{"$svc_exact":"1","f":2}}"#;
        let mut v = svc_json::parse(text).unwrap();
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
            svc_json::ToJson::to_json_text(&v),
            r#"{"a":9007199254740993,"b":[1e400],"c":5,"d":{"$svc_exact":"x"},"e":{"$svc_exact":"1","f":2}}"#
        );
    }
}
