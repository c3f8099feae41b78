//! Text a message echoes back: cut to a readable length and quoted.

use crate::json::write::ToJson;

/// Cuts text that is echoed into a message to a readable length, on a char boundary.
pub fn shorten(text: &str) -> String {
    const MAX: usize = 64;
    match text.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// Text echoed into a message, shortened and quoted as a JSON string (the JS engine writes it alike).
pub fn quoted(text: &str) -> String {
    shorten(text).as_str().to_json_text()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorten_cuts_on_char_boundaries() {
        let long = "é".repeat(100);
        assert_eq!(shorten(&long).chars().count(), 65);
        assert_eq!(shorten("abc"), "abc");
        assert_eq!(quoted("a\"b"), r#""a\"b""#);
    }
}
