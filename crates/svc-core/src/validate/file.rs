//! The issue of a file whose name does not end in an accepted type.

use crate::issue::{Issue, PathSeg, Problem};

/// An issue when a file's name does not end in one of the accepted types.
pub fn file_type_issue(
    param: &str,
    index: Option<usize>,
    name: &str,
    accept: &'static [&'static str],
) -> Option<Issue> {
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    if accept.contains(&ext.as_str()) {
        return None;
    }
    let mut path = vec![PathSeg::Key(param.to_string().into())];
    path.extend(index.map(PathSeg::Index));
    Some(Issue {
        path,
        message: crate::message::Message::FileType
            .say(&[&crate::echo::quoted(name), &accept.join(", ")]),
        problem: Problem::InvalidFormat {
            format: "file type".into(),
            allowed: Some(accept),
        },
    })
}
