//! The fields of params that their operation does not know, which are sent as they are: a development warning names them (never their values).

use crate::schema::Schema;
use svc_json::Json;

/// The keys of `params` (top level) that `schema` names no field for, in their order; none where the
/// schema names no field at all (a row without params, or whose rules check none).
pub fn unknown_fields(schema: &Schema, params: &Json) -> Vec<String> {
    let Json::Obj(map) = params else {
        return Vec::new();
    };
    if schema.fields.is_empty() {
        return Vec::new();
    }
    map.keys()
        .filter(|k| schema.field(k).is_none())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{find, operations};

    #[test]
    fn a_misspelt_optional_field_is_named_and_known_ones_are_not() {
        let op = find("createTask").unwrap();
        let params = svc_json::parse(r#"{"task_name":"Audit","descripton":"x","rate":1}"#).unwrap();
        let found = unknown_fields(op.params, &params);
        assert!(found.contains(&"descripton".to_string()), "{found:?}");
        assert!(!found.contains(&"task_name".to_string()), "{found:?}");
        assert!(unknown_fields(op.params, &svc_json::parse("null").unwrap()).is_empty());
    }

    #[test]
    fn every_member_a_params_type_declares_is_known() {
        let mut found = Vec::new();
        for op in operations()
            .iter()
            .filter(|op| !op.params.fields.is_empty())
        {
            let mut requests = Vec::new();
            (op.requests)(&mut requests);
            let Some(request) = requests.iter().find(|r| r.name == op.ts.params) else {
                continue;
            };
            let members = request.decl.lines().filter_map(|l| {
                let (name, _) = l.strip_prefix("    ")?.split_once(':')?;
                Some(name.trim_end_matches('?'))
            });
            for name in members.filter(|n| !n.contains(' ') && op.params.field(n).is_none()) {
                found.push(format!("{}: {name}", op.id));
            }
        }
        assert!(
            found.is_empty(),
            "declared but unknown to the rules: {found:?}"
        );
    }
}
