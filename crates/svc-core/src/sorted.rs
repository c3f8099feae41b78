//! Sorted lists of unique strings, kept in order as items arrive (no sort routine in the wasm).

/// Adds `item` to a sorted list of unique items, in its place.
pub fn insert<'a>(list: &mut Vec<&'a str>, item: &'a str) {
    if let Err(at) = list.binary_search(&item) {
        list.insert(at, item);
    }
}
