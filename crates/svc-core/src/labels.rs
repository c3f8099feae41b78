//! Field labels in place of wire names in the words of an issue's message, for forms shown to people.

use crate::issue::{Issue, PathSeg};

/// The labels a form gives its fields: each wire name with the words it shows for it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Labels(Vec<(String, String)>);

impl Labels {
    pub fn new(pairs: Vec<(String, String)>) -> Labels {
        Labels(pairs)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn of(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(wire, _)| wire == name)
            .map(|(_, label)| label.as_str())
    }

    /// Names the fields of the issue's message by their labels: the field the message opens with
    /// (the one the issue is about), and any other field it names by a wire name with an underscore
    /// (a common word such as "date" is a field's name only where it opens the message). A value the
    /// message quotes, from its first `"` on, is left as it is.
    pub fn apply(&self, issue: &mut Issue) {
        if self.is_empty() {
            return;
        }
        let field = issue.path.iter().rev().find_map(|seg| match seg {
            PathSeg::Key(k) => Some(k.as_ref()),
            PathSeg::Index(_) => None,
        });
        let message = &issue.message;
        let (words, quoted) = message.split_at(message.find('"').unwrap_or(message.len()));
        let mut out = String::with_capacity(message.len());
        let mut rest = words;
        while !rest.is_empty() {
            let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
            let end = match rest.find(|c: char| !is_word(c)) {
                Some(0) => rest.chars().next().map_or(1, char::len_utf8),
                Some(end) => end,
                None => rest.len(),
            };
            let (token, after) = rest.split_at(end);
            let opens = out.is_empty() && Some(token) == field;
            match self.of(token) {
                Some(label) if opens || token.contains('_') => out.push_str(label),
                _ => out.push_str(token),
            }
            rest = after;
        }
        out.push_str(quoted);
        issue.message = out;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::issue::Problem;

    fn labels() -> Labels {
        Labels::new(vec![
            ("fixed_asset_type_id".into(), "Asset type".into()),
            ("depreciation_method".into(), "Method".into()),
            ("date".into(), "Purchase date".into()),
        ])
    }

    fn worded(path: Vec<PathSeg>, message: &str) -> String {
        let mut issue = Issue::new(path, message, Problem::Required {});
        labels().apply(&mut issue);
        issue.message
    }

    fn key(k: &'static str) -> PathSeg {
        PathSeg::Key(k.into())
    }

    #[test]
    fn the_field_an_issue_is_about_is_named_by_its_label() {
        let path = vec![key("fixed_asset_type_id")];
        assert_eq!(
            worded(path, "fixed_asset_type_id is required"),
            "Asset type is required"
        );
        assert_eq!(
            worded(
                vec![key("date")],
                "date must be a date yyyy-mm-dd, got \"date\""
            ),
            "Purchase date must be a date yyyy-mm-dd, got \"date\""
        );
    }

    #[test]
    fn other_fields_are_named_by_their_labels_outside_quoted_values() {
        assert_eq!(
            worded(
                vec![key("depreciation_rate")],
                "depreciation_rate applies only when depreciation_method is \"depreciation_method\""
            ),
            "depreciation_rate applies only when Method is \"depreciation_method\""
        );
        assert_eq!(
            worded(
                vec![key("line_items"), PathSeg::Index(0), key("date")],
                "date is required"
            ),
            "Purchase date is required"
        );
    }

    #[test]
    fn a_common_word_is_a_field_only_where_it_opens_the_message() {
        assert_eq!(
            worded(vec![key("name")], "name must be a date"),
            "name must be a date"
        );
        assert_eq!(
            worded(vec![], "params of createAsset must be an object"),
            "params of createAsset must be an object"
        );
        let mut issue = Issue::new(vec![key("x")], "é x_y", Problem::Required {});
        Labels::default().apply(&mut issue);
        assert_eq!(issue.message, "é x_y");
    }
}
