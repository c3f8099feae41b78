//! A call's params: its JSON body, query and header params, and its multipart files.

use crate::error::{code, issue, ApiError};
use crate::http::Request;
use crate::multipart::{self, Part};
use crate::record::Record;
use svc_core::catalog::{BodyKind, Operation};
use svc_core::family::OrgPlacement;
use svc_core::issue::{Issue, PathSeg, Problem};
use svc_core::message::Message;
use svc_core::route::add_text_param;
use svc_core::validate;
use svc_json::{Json, Obj};

fn json_body(body: &[u8]) -> Result<Record, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Obj::default());
    }
    match crate::record::parse(body) {
        Ok(Json::Obj(m)) => Ok(m),
        Ok(other) => Err(ApiError::invalid(vec![Issue {
            path: Vec::new(),
            message: Message::NotAnObjectGot.say(&[&"the body", &validate::type_name(&other)]),
            problem: Problem::InvalidType {
                expected: "object".into(),
            },
        }])),
        Err(e) => Err(ApiError::bad(
            code::BAD_REQUEST,
            format!("The body is not valid JSON: {e}."),
        )),
    }
}

fn file_issues(
    param: &str,
    field: &str,
    many: bool,
    accept: &'static [&'static str],
    files: &[Part],
) -> Vec<Issue> {
    let at = [PathSeg::Key(param.to_string().into())];
    if files.is_empty() {
        return vec![issue(
            &at,
            format!("{param} is required: send a file in the multipart field {field}"),
            Problem::Required {},
        )];
    }
    let mut out = Vec::new();
    if !many && files.len() > 1 {
        out.push(issue(
            &at,
            format!("{param} takes one file, got {}", files.len()),
            Problem::TooMany { maximum: 1 },
        ));
    }
    for (i, f) in files.iter().enumerate() {
        let name = f.filename.as_deref().unwrap_or("");
        out.extend(validate::file_type_issue(
            param,
            many.then_some(i),
            name,
            accept,
        ));
    }
    out
}

/// The params of a call (JSON body, query and header params), its files, and issues with the files.
pub(super) fn read_params(
    req: &Request,
    op: &Operation,
    query: &[(String, String)],
) -> Result<(Record, Vec<Part>, Vec<Issue>), ApiError> {
    let schema = validate::rules_for(op);
    let org_param = match op.family.org_placement() {
        OrgPlacement::Query(name) => name,
        _ => "",
    };
    let mut params = Obj::default();
    let mut files = Vec::new();
    let mut issues = Vec::new();
    match op.body {
        BodyKind::Query => {
            for (k, v) in query.iter().filter(|(k, _)| k != org_param) {
                add_text_param(&mut params, schema, k, v);
            }
        }
        BodyKind::Json => {
            params = json_body(&req.body)?;
            for (k, v) in query.iter().filter(|(k, _)| op.query.contains(&k.as_str())) {
                add_text_param(&mut params, schema, k, v);
            }
        }
        BodyKind::Multipart {
            param,
            field,
            many,
            accept,
        } => {
            let boundary = req
                .header("content-type")
                .and_then(multipart::boundary)
                .ok_or_else(|| {
                    ApiError::bad(
                        code::BAD_REQUEST,
                        "This upload takes a multipart/form-data body with a boundary.",
                    )
                })?;
            let parts = multipart::parse(&req.body, &boundary).map_err(|e| {
                ApiError::bad(
                    code::BAD_REQUEST,
                    format!("The multipart body is malformed: {e}."),
                )
            })?;
            for part in parts {
                if part.filename.is_none() {
                    add_text_param(
                        &mut params,
                        schema,
                        &part.name,
                        &String::from_utf8_lossy(&part.data),
                    );
                } else if part.name == field {
                    files.push(part);
                }
            }
            issues = file_issues(param, field, many, accept, &files);
        }
    }
    for (param, header) in op.headers {
        if let Some(v) = req.header(header) {
            add_text_param(&mut params, schema, param, v);
        }
    }
    Ok((params, files, issues))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Value;
    use svc_core::catalog::operations;
    use svc_core::issue::IssueCode;

    #[test]
    fn bodies_must_be_json_objects() {
        assert!(json_body(b"  ").unwrap().is_empty());
        assert_eq!(json_body(b"[1]").unwrap_err().code, code::INVALID);
        assert_eq!(json_body(b"{").unwrap_err().code, code::BAD_REQUEST);
    }

    fn params_of(id: &str, query: &[(&str, &str)], body: &[u8]) -> Record {
        let op = operations().iter().find(|op| op.id == id).unwrap();
        let req = Request {
            method: op.method.as_str().into(),
            path: String::new(),
            query: String::new(),
            http10: false,
            headers: Vec::new(),
            body: body.to_vec(),
        };
        let query: Vec<(String, String)> = query
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        read_params(&req, op, &query).unwrap().0
    }

    #[test]
    fn a_json_body_keeps_each_number_as_its_text() {
        let body = br#"{"n":9007199254740993,"f":1.5,"e":1e300,"z":-0.0,"i":-2,
            "s":"a\"b\u00e9","o":{"x":[1,null,true,0.1]},"big":18446744073709551616,"n":3,"far":1e400}"#;
        assert_eq!(
            Value::Obj(params_of("createPackage", &[("salesorder_id", "5.")], body)).to_string(),
            r#"{"n":3,"f":1.5,"e":1e300,"z":-0.0,"i":-2,"s":"a\"bé","o":{"x":[1,null,true,0.1]},"big":18446744073709551616,"far":1e400,"salesorder_id":"5."}"#
        );
    }

    /// Number params read from the query take the number their text spells, in JSON's spelling of
    /// that text (`60.` is 60); integers take integer text only, as the client's proxy reads them.
    #[test]
    fn query_text_is_typed_by_the_one_rule_of_the_core() {
        let p = params_of(
            "listVendorCredits",
            &[
                ("total_start", "60."),
                ("total_end", "6e1"),
                ("total_less_than", "-007.50"),
                ("page", "2."),
                ("per_page", "2"),
            ],
            b"",
        );
        assert_eq!(
            Value::Obj(p).to_string(),
            r#"{"total_start":60,"total_end":6e1,"total_less_than":-7.50,"page":"2.","per_page":2}"#
        );
    }

    #[test]
    fn file_checks() {
        let file = |name: &str| Part {
            name: "image".into(),
            filename: Some(name.into()),
            content_type: None,
            data: vec![],
        };
        let accept = &["png", "gif"];
        assert_eq!(
            file_issues("image", "image", false, accept, &[])[0].code(),
            IssueCode::Required
        );
        assert!(file_issues("image", "image", false, accept, &[file("a.PNG")]).is_empty());
        let two = file_issues(
            "image",
            "image",
            false,
            accept,
            &[file("a.png"), file("b.txt")],
        );
        assert_eq!(
            two.iter().map(|i| i.code()).collect::<Vec<_>>(),
            [IssueCode::TooMany, IssueCode::InvalidFormat]
        );
        let many = file_issues(
            "files",
            "attachment",
            true,
            accept,
            &[file("a.png"), file("b.txt")],
        );
        assert_eq!(many[0].path_string(), "files[1]");
    }
}
