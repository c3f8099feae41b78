//! The bound of `toArray({ max })`, which gathers every item of every page of a list into one array.

use crate::error::Error;

/// The most items `toArray()` gathers when `max` is not given.
pub const DEFAULT_MAX: u32 = 10_000;

/// The `max` of `toArray({ max })`: a whole number from 0 to 2^32 - 1 (the longest JS array), or
/// `DEFAULT_MAX` when not given; a `config` error otherwise.
pub fn max_items(given: Option<f64>) -> Result<u32, Error> {
    match given {
        None => Ok(DEFAULT_MAX),
        Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => Ok(n as u32),
        Some(n) => Err(bad_max(&shown(n))),
    }
}

/// A double as JS prints it for the usual numbers (`1.5`, `-1`, `NaN`, `Infinity`), without core's
/// float printer, which would cost a page's wasm more than the rest of this module.
fn shown(n: f64) -> String {
    match n {
        n if n.is_nan() => "NaN".into(),
        n if n.is_infinite() => (if n > 0.0 { "Infinity" } else { "-Infinity" }).into(),
        n => {
            let mut buffer = zmij::Buffer::new();
            let text = buffer.format_finite(n);
            text.strip_suffix(".0").unwrap_or(text).to_owned()
        }
    }
}

/// The error of a `max` that is not a number of items (`got`: what it was).
pub fn bad_max(got: &str) -> Error {
    Error::config(format!(
        "toArray({{ max }}): max must be a whole number from 0 to 4294967295, got {got}"
    ))
}

/// The error of a list with more than `max` items: it is not cut short in silence.
pub fn too_many(max: u32) -> Error {
    Error::config(format!(
        "the list has more than {max} items, the most toArray({{ max: {max} }}) gathers: give a larger max, \
         or go over the items with for await, which holds one page at a time"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_is_a_whole_number_of_items_that_a_js_array_holds() {
        assert_eq!(max_items(None).unwrap(), 10_000);
        assert_eq!(max_items(Some(0.0)).unwrap(), 0);
        assert_eq!(max_items(Some(4_294_967_295.0)).unwrap(), u32::MAX);
        for (bad, got) in [
            (-1.0, "-1"),
            (1.5, "1.5"),
            (4_294_967_296.0, "4294967296"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
        ] {
            let e = max_items(Some(bad)).unwrap_err();
            assert_eq!(
                e.message,
                format!("toArray({{ max }}): max must be a whole number from 0 to 4294967295, got {got}")
            );
        }
        assert!(too_many(3)
            .message
            .starts_with("the list has more than 3 items"));
    }
}
