//! Where a param travels (the query, a header) as the table says, and the issues of params that
//! cannot travel there: the part of an operation's rules that the table, not its schema, gives.

use crate::catalog::Operation;
use crate::family::OrgPlacement;
use crate::issue::{Issue, PathSeg, Problem};
use svc_json::{Json, Obj};

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
///
/// Where the family sends the organization in the query (books, inventory), a param sent in the
/// query under a name the service may read as it (`names_organization`) is `not_allowed`: the
/// organization is the client's `organizationId` (or the proxy's), sent once, and no param may add
/// another.
pub fn wire_issues(op: &Operation, params: &Obj) -> Vec<Issue> {
    let mut issues = Vec::new();
    if let (true, OrgPlacement::Query(org)) = (op.org, op.family.org_placement()) {
        let named = |(n, v): &(&str, &Json)| in_query(op, n, v) && names_organization(n);
        for (name, _) in params.iter().filter(|p| named(p)) {
            issues.push(issue(
                name,
                format!(
                    "{} names the organization, which the client sends as the query parameter {org} from its organizationId (a proxy from its own): leave it out of params",
                    crate::echo::quoted(name)
                ),
                Problem::NotAllowed {},
            ));
        }
    }
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

/// Whether a param or query name names the organization in a spelling a server may read as
/// `organization_id`: in another case, by letters that fold to its own (`ı`, `İ`) or in full-width
/// forms; with invisible format characters anywhere; with `-`, `.`, a blank, `[` or nothing for its
/// `_`; and with anything but a letter, a digit or `_` before or after it (`organization_id[]`, a NUL,
/// blanks, `.x`: what PHP, qs or a C string reads as the name). `organization_idx` and
/// `organization_id_2` are other names. The name as the service reads it: decoded (a proxy decodes
/// what it received first, `proxy`).
pub fn names_organization(key: &str) -> bool {
    let folded: String = key.chars().filter_map(fold).collect();
    let rest = folded.trim_start_matches(|c: char| !c.is_ascii_alphanumeric());
    let Some(rest) = rest.strip_prefix("organization") else {
        return false;
    };
    let rest = rest.strip_prefix(['_', '-', '.', ' ', '[']).unwrap_or(rest);
    rest.strip_prefix("id")
        .is_some_and(|after| !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
}

/// A character as a server that ignores case may compare it: ASCII in lower case, and so the
/// letters whose simple upper or lower case is ASCII (`ı` and `İ` are `i`, `ſ` is `s`, the Kelvin
/// sign `k`) and the full-width forms of ASCII; none for an invisible format character
/// (`echo::hidden`, controls aside: a NUL ends a C string's name). No Unicode case table: the wasm
/// stays as small.
fn fold(c: char) -> Option<char> {
    match c {
        '\u{130}' | '\u{131}' => Some('i'),
        '\u{17f}' => Some('s'),
        '\u{212a}' => Some('k'),
        '\u{ff01}'..='\u{ff5e}' => {
            char::from_u32(c as u32 - 0xfee0).map(|a| a.to_ascii_lowercase())
        }
        c if crate::echo::hidden(c) && !c.is_control() => None,
        c => Some(c.to_ascii_lowercase()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::find;
    use crate::issue::IssueCode;

    #[test]
    fn every_spelling_a_server_may_read_as_the_organization_names_it() {
        let named = [
            "organization_id",
            "Organization_ID",
            "ORGANIZATION_ID",
            " organization_id ",
            "organization_id[]",
            "organization_id[0]",
            "organization_id\0",
            "organization_id\0x",
            "organization_id.x",
            "organization.id",
            "organization id",
            "organization-id",
            "organization[id",
            "organizationId",
            "organizationid",
            "[organization_id]",
            "_organization_id",
            "organ\u{200b}ization_id",
            "organization_id\u{feff}",
            "organızatıon_ıd",
            "ORGANİZATİON_İD",
            "ｏｒｇａｎｉｚａｔｉｏｎ＿ｉｄ",
        ];
        for key in named {
            assert!(names_organization(key), "{key:?}");
        }
        for key in [
            "organization_idx",
            "organization_id_2",
            "organization",
            "org_id",
            "x.organization_id",
            "my_organization_id",
            "organisation_id",
            "",
            "organization%5Fid",
        ] {
            assert!(!names_organization(key), "{key:?}");
        }
    }

    #[test]
    fn a_query_param_naming_the_organization_is_not_allowed_where_the_query_carries_it() {
        let issues = |id: &str, params: &str| {
            let params = svc_json::parse(params).unwrap();
            wire_issues(find(id).unwrap(), params.as_object().unwrap())
        };
        let got = issues(
            "listAccounts",
            r#"{"organization_id":"666","Organization_ID[]":"7","page":1}"#,
        );
        let paths: Vec<_> = got.iter().map(|i| i.path.clone()).collect();
        assert_eq!(
            paths,
            [
                vec![PathSeg::Key("organization_id".into())],
                vec![PathSeg::Key("Organization_ID[]".into())]
            ]
        );
        assert!(got
            .iter()
            .all(|i| i.problem.code() == IssueCode::NotAllowed));
        assert!(
            got[0].message.starts_with("\"organization_id\" names the organization, which the client sends as the query parameter organization_id from its organizationId"),
            "{}",
            got[0].message
        );
        // In a JSON body it is a field like any other (a read-modify-write sends back what it read).
        let body = r#"{"account_id":"1","date":"2024-01-02","amount":1,"organization_id":"666"}"#;
        assert!(issues("createExpense", body).is_empty());
        // Not sent (null), or a family that sends the organization in a header, or a row without it.
        assert!(issues("listAccounts", r#"{"organization_id":null}"#).is_empty());
        assert!(issues("listCurrencies", r#"{"organization_id":"666"}"#).is_empty());
        assert!(issues("listOrganizations", r#"{"organization_id":"666"}"#).is_empty());
    }
}
