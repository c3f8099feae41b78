//! Where a param travels (the query, a header) as the table says, and the issues of params that
//! cannot travel there: the part of an operation's rules that the table, not its schema, gives.

use crate::catalog::Operation;
use crate::issue::{Issue, PathSeg, Problem};
use crate::json::{Json, Obj};

/// An issue of the top-level param `path`.
pub(crate) fn issue(path: &str, message: String, problem: Problem) -> Issue {
    Issue::new(
        vec![PathSeg::Key(path.to_string().into())],
        message,
        problem,
    )
}

/// The text of a scalar that travels in a query or a header.
pub(crate) fn scalar_text(name: &str, v: &Json) -> Result<String, Box<Issue>> {
    match v {
        Json::Str(s) => Ok(s.to_string()),
        Json::Num(text) => Ok(text.to_string()),
        Json::Bool(b) => Ok(b.to_string()),
        other => Err(Box::new(issue(
            name,
            format!(
                "{name} is sent in the URL or a header and must be a string, number or boolean, got {}",
                crate::validate::type_name(other)
            ),
            Problem::InvalidType { expected: "string, number or boolean".into() },
        ))),
    }
}

/// Whether a param travels in the query: every param of GET and DELETE, the listed ones of the others.
pub(crate) fn in_query(op: &Operation, name: &str, value: &Json) -> bool {
    let listed = !op.method.has_body() || op.query.contains(&name);
    listed && !value.is_null() && !op.headers.iter().any(|(p, _)| *p == name)
}

/// Issues of params that cannot travel where the table sends them: a query value that is not a
/// scalar (or, for GET and DELETE, an array of scalars), a header value that is not printable ASCII.
pub fn wire_issues(op: &Operation, params: &Obj) -> Vec<Issue> {
    let mut issues = Vec::new();
    for (name, value) in params.iter().filter(|(n, v)| in_query(op, n, v)) {
        match value {
            Json::Arr(items) if !op.method.has_body() => {
                for (i, item) in items.iter().enumerate() {
                    if let Err(mut e) = scalar_text(name, item) {
                        e.path.push(PathSeg::Index(i));
                        issues.push(*e);
                    }
                }
            }
            _ => issues.extend(scalar_text(name, value).err().map(|e| *e)),
        }
    }
    for (param, header) in op.headers {
        let Some(value) = params.get(param).filter(|v| !v.is_null()) else {
            continue;
        };
        match scalar_text(param, value) {
            Ok(text) if !text.chars().all(|c| c == ' ' || c.is_ascii_graphic()) => issues.push(issue(
                param,
                format!("{param} is sent as the {header} header and may hold only printable ASCII characters (no line breaks, no accents or other Unicode)"),
                Problem::InvalidFormat { format: "header value".into(), allowed: None },
            )),
            Ok(_) => {}
            Err(e) => issues.push(*e),
        }
    }
    issues
}

impl crate::validate::Rules for Operation {
    fn schema(&self) -> &'static crate::validate::Schema {
        self.params
    }

    fn wire_issues(&self, params: &Obj) -> Vec<Issue> {
        wire_issues(self, params)
    }
}
