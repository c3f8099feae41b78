//! Text a message echoes back: cut to a readable length and quoted.

use svc_json::write::ToJson;

/// Cuts text that is echoed into a message to a readable length, on a char boundary.
pub fn shorten(text: &str) -> String {
    const MAX: usize = 64;
    match text.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// Text echoed into a message, shortened and quoted as a JSON string (the JS engine writes it alike),
/// with every character that a terminal or a log viewer would not show as itself written as its
/// `\uXXXX` escape (`hidden`): a name holding U+202E cannot turn the rest of a line around.
pub fn quoted(text: &str) -> String {
    let json = shorten(text).as_str().to_json_text();
    if !json.chars().any(hidden) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        match hidden(c) {
            true => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            false => out.push(c),
        }
    }
    out
}

/// Up to `most` texts, each `quoted`, joined by ", ", then "and N more" for those left out.
pub fn quoted_list(texts: &[impl AsRef<str>], most: usize) -> String {
    let shown: Vec<String> = texts
        .iter()
        .take(most)
        .map(|t| quoted(t.as_ref()))
        .collect();
    match texts.len().saturating_sub(most) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

/// Whether a character is not shown as itself: a control character (C0, DEL, C1), a bidirectional
/// control (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), another format character
/// that is invisible (soft hyphen, zero-width spaces and joiners, word joiner, BOM...), or a line or
/// paragraph separator.
pub fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{ad}'
                | '\u{34f}'
                | '\u{61c}'
                | '\u{115f}'
                | '\u{1160}'
                | '\u{17b4}'
                | '\u{17b5}'
                | '\u{180b}'..='\u{180f}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{3164}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{feff}'
                | '\u{ffa0}'
                | '\u{fff0}'..='\u{fffb}'
                | '\u{e0000}'..='\u{e0fff}'
        )
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

    #[test]
    fn quoted_text_shows_every_hidden_character_as_its_escape() {
        assert_eq!(quoted("abc\u{202e}cba"), r#""abc\u202ecba""#);
        assert_eq!(
            quoted("\u{2066}x\u{200b}\u{feff}\u{7f}\u{85}\u{2028}\u{e0041}\n"),
            r#""\u2066x\u200b\ufeff\u007f\u0085\u2028\udb40\udc41\n""#
        );
        // Still a JSON string of the text as it was, and visible text is left as it is.
        let text = "n\u{202e}\u{61c}é😀";
        let back: String = serde_json::from_str(&quoted(text)).unwrap();
        assert_eq!(back, text);
        assert_eq!(quoted("prix € ü 中"), "\"prix € ü 中\"");
        // Shortened before it is escaped: a long name is bounded.
        let long = "\u{202e}".repeat(1000);
        assert_eq!(quoted(&long), format!("\"{}…\"", "\\u202e".repeat(64)));
    }

    #[test]
    fn a_quoted_list_shows_at_most_its_bound_and_counts_the_rest() {
        let names = ["a", "b\u{202e}", "c", "d"];
        assert_eq!(quoted_list(&names, 10), r#""a", "b\u202e", "c", "d""#);
        assert_eq!(quoted_list(&names, 2), r#""a", "b\u202e" and 2 more"#);
        assert_eq!(quoted_list(&names[..0], 2), "");
    }
}
