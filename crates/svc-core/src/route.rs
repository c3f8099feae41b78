//! Routing built from the catalog: family root plus path template, one route per operation;
//! params of a call read back from query and header text, typed as its rules expect.

use crate::catalog::Operation;
use crate::request::percent_decode;
use crate::validate::{Kind, Schema};
use std::collections::HashSet;
use svc_json::{Json, Obj};

#[derive(Debug, PartialEq, Eq, Hash)]
enum Seg {
    Lit(String),
    Param(String),
}

struct Route {
    op: &'static Operation,
    segs: Vec<Seg>,
}

#[derive(Debug)]
pub enum Found {
    Op(&'static Operation, Vec<(String, String)>),
    /// The path exists, not with that method: the methods it takes.
    MethodNotAllowed(Vec<&'static str>),
    NotFound,
}

pub struct Router {
    routes: Vec<Route>,
}

/// The full path template of an operation; the CRM version is a parameter (`/crm/{version}`).
pub fn template(op: &Operation) -> String {
    format!("{}{}", op.family.root("{version}"), op.path)
}

fn segments(template: &str) -> Vec<Seg> {
    template
        .split('/')
        .skip(1)
        .map(
            |s| match s.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                Some(name) => Seg::Param(name.into()),
                None => Seg::Lit(s.into()),
            },
        )
        .collect()
}

impl Router {
    /// Routes for the operations; an error names a route declared twice.
    pub fn new(ops: impl IntoIterator<Item = &'static Operation>) -> Result<Router, String> {
        let mut seen = HashSet::new();
        let mut routes = Vec::new();
        for op in ops.into_iter().filter(|op| op.routed) {
            let segs = segments(&template(op));
            let shape: Vec<Option<String>> = segs
                .iter()
                .map(|s| match s {
                    Seg::Lit(l) => Some(l.clone()),
                    Seg::Param(_) => None,
                })
                .collect();
            if !seen.insert((op.method, shape)) {
                return Err(format!(
                    "{} {} is routed twice",
                    op.method.as_str(),
                    template(op)
                ));
            }
            routes.push(Route { op, segs });
        }
        Ok(Router { routes })
    }

    pub fn len(&self) -> usize {
        self.routes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.routes.is_empty()
    }

    /// The operation for a method and a raw (percent-encoded) path, with its decoded path values.
    pub fn find(&self, method: &str, raw_path: &str) -> Found {
        let trimmed = match raw_path.strip_suffix('/') {
            Some(p) if !p.is_empty() => p,
            _ => raw_path,
        };
        let Some(raw) = trimmed.strip_prefix('/') else {
            return Found::NotFound;
        };
        let Some(parts) = raw
            .split('/')
            .map(|s| percent_decode(s, false))
            .collect::<Option<Vec<String>>>()
        else {
            return Found::NotFound;
        };
        let mut best: Option<(Vec<bool>, &Route)> = None;
        let mut methods = Vec::new();
        for route in &self.routes {
            if route.segs.len() != parts.len() {
                continue;
            }
            let fits = route.segs.iter().zip(&parts).all(|(seg, part)| match seg {
                Seg::Lit(l) => l == part,
                Seg::Param(_) => !part.is_empty(),
            });
            if !fits {
                continue;
            }
            if !route.op.method.as_str().eq_ignore_ascii_case(method) {
                crate::sorted::insert(&mut methods, route.op.method.as_str());
                continue;
            }
            let literal: Vec<bool> = route
                .segs
                .iter()
                .map(|s| matches!(s, Seg::Lit(_)))
                .collect();
            if best.as_ref().is_none_or(|(b, _)| literal > *b) {
                best = Some((literal, route));
            }
        }
        match best {
            Some((_, route)) => {
                let values = route
                    .segs
                    .iter()
                    .zip(parts)
                    .filter_map(|(seg, part)| match seg {
                        Seg::Param(name) => Some((name.clone(), part)),
                        Seg::Lit(_) => None,
                    })
                    .collect();
                Found::Op(route.op, values)
            }
            None if methods.is_empty() => Found::NotFound,
            None => Found::MethodNotAllowed(methods),
        }
    }
    /// Like `find`, for a path that may sit below a prefix (a proxy mounted at `/api`): the
    /// operation found at the shortest prefix wins.
    pub fn find_below_prefix(&self, method: &str, raw_path: &str) -> Found {
        let mut fallback = Found::NotFound;
        let mut start = 0;
        loop {
            match self.find(method, &raw_path[start..]) {
                Found::Op(op, values) => return Found::Op(op, values),
                Found::MethodNotAllowed(m) if matches!(fallback, Found::NotFound) => {
                    fallback = Found::MethodNotAllowed(m)
                }
                _ => {}
            }
            let after = raw_path[start..].chars().next().map_or(0, char::len_utf8);
            match raw_path[start + after..].find('/') {
                Some(i) => start += after + i,
                None => return fallback,
            }
        }
    }
}

/// A query, header or multipart text as the JSON type the rules expect (`page=2` is the number 2),
/// a number in JSON's spelling of its text (`5.` is `5`, the same number once JavaScript reads it);
/// text that does not parse stays a string for the rules to report.
pub fn coerce(kind: Option<Kind>, text: &str) -> Json<'static> {
    let t = text.trim();
    let integer = |n: i64| {
        let mut out = String::new();
        svc_json::write::integer(&mut out, n);
        Json::Num(out.into())
    };
    let parsed =
        match kind {
            Some(Kind::Int) => t.parse::<i64>().ok().map(integer),
            Some(Kind::Num) => t.parse::<i64>().ok().map(integer).or_else(|| {
                crate::decimal::json_spelling(t).map(|spelled| Json::Num(spelled.into()))
            }),
            Some(Kind::Bool) | Some(Kind::BoolLike) => match t {
                "true" => Some(Json::Bool(true)),
                "false" => Some(Json::Bool(false)),
                _ => None,
            },
            _ => None,
        };
    parsed.unwrap_or_else(|| Json::Str(text.to_string().into()))
}

/// Adds a param read from text; repeated names and array fields collect into an array.
pub fn add_text_param(params: &mut Obj<'_>, schema: &Schema, name: &str, text: &str) {
    let (kind, array) = match schema.field(name).map(|f| f.kind) {
        Some(Kind::Arr(item)) => (Some(item.kind), true),
        other => (other, false),
    };
    let v = coerce(kind, text);
    match params.get_mut(name) {
        Some(Json::Arr(items)) if array || items.len() > 1 => items.push(v),
        Some(first) => *first = Json::Arr(vec![std::mem::replace(first, Json::Null), v]),
        None if array => params.insert(name.to_string().into(), Json::Arr(vec![v])),
        None => params.insert(name.to_string().into(), v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_param_is_the_json_its_kind_expects() {
        use svc_json::ToJson;
        let int = Some(Kind::Int);
        let num = Some(Kind::Num);
        let cases = [
            (int, "5.", r#""5.""#),
            (int, "1e3", r#""1e3""#),
            (int, "9223372036854775808", r#""9223372036854775808""#),
            (num, "5.", "5"),
            (num, "-007.50", "-7.50"),
            (num, ".5", "0.5"),
            (num, "-.5e-3", "-0.5e-3"),
            (num, "1e3", "1e3"),
            (num, "1E+2", "1e+2"),
            (num, "12.5", "12.5"),
            (num, "9223372036854775808", "9223372036854775808"),
            (num, "-9223372036854775809", "-9223372036854775809"),
            (num, "1e400", r#""1e400""#),
            (num, ".", r#"".""#),
            (num, "1e", r#""1e""#),
            (num, "--1", r#""--1""#),
            (num, "0x10", r#""0x10""#),
            (num, "nan", r#""nan""#),
            (num, "inf", r#""inf""#),
            (num, " x ", r#"" x ""#),
            (num, "", r#""""#),
            (Some(Kind::Bool), "true", "true"),
            (Some(Kind::Bool), "false", "false"),
            (Some(Kind::BoolLike), " true ", "true"),
            (Some(Kind::Bool), "True", r#""True""#),
            (Some(Kind::Bool), "1", r#""1""#),
            (Some(Kind::Str), "2", r#""2""#),
            (None, "2", r#""2""#),
            (None, "true", r#""true""#),
        ];
        let integers = [
            ("2", "2"),
            (" 7 ", "7"),
            ("+5", "5"),
            ("-0", "0"),
            ("007", "7"),
        ];
        let integers = [int, num]
            .into_iter()
            .flat_map(|kind| integers.map(|(text, json)| (kind, text, json)));
        for (kind, text, json) in integers.chain(cases) {
            assert_eq!(coerce(kind, text).to_json_text(), json, "{kind:?} {text:?}");
        }
    }

    #[test]
    fn paths_that_are_empty_or_not_rooted_find_nothing_without_panicking() {
        let router = Router::new(crate::catalog::operations().iter()).unwrap();
        for path in ["", "é", "éa/b", "a", "ü/books/v3/journals"] {
            let _ = router.find_below_prefix("GET", path);
        }
        assert!(matches!(
            router.find_below_prefix("GET", "/api/billing/v1/plans"),
            Found::Op(op, _) if op.id == "listPlans"
        ));
    }
    use crate::catalog::operations;
    use crate::validate::Kind;

    /// A concrete path for an operation: each parameter filled with `v<i>`.
    fn sample(op: &Operation) -> String {
        let mut i = 0;
        template(op)
            .split('/')
            .map(|s| {
                if s.starts_with('{') {
                    i += 1;
                    format!("v{i}")
                } else {
                    s.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    #[test]
    fn every_catalog_row_routes_to_its_operation() {
        let router = Router::new(operations().iter()).unwrap();
        let routed = operations().iter().filter(|op| op.routed).count();
        assert_eq!(router.len(), routed);
        for op in operations().iter().filter(|op| op.routed) {
            match router.find(op.method.as_str(), &sample(op)) {
                Found::Op(found, values) => {
                    assert_eq!(found.id, op.id);
                    let names: Vec<&str> = values
                        .iter()
                        .map(|(k, _)| k.as_str())
                        .filter(|k| *k != "version")
                        .collect();
                    assert_eq!(names, op.path_params().collect::<Vec<_>>(), "{}", op.id);
                }
                other => panic!("{}: {other:?}", op.id),
            }
        }
    }

    #[test]
    fn a_prefix_before_the_family_root_is_skipped() {
        let router = Router::new(operations().iter()).unwrap();
        match router.find_below_prefix("GET", "/api/svc/billing/v1/projects/p1/tasks/t%2F1") {
            Found::Op(op, values) => {
                assert_eq!(op.id, "getTask");
                assert_eq!(values[1], ("task_id".to_string(), "t/1".to_string()));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            router.find_below_prefix("GET", "/api/nothing"),
            Found::NotFound
        ));
        assert!(matches!(
            router.find_below_prefix("PATCH", "/api/books/v3/fixedassets"),
            Found::MethodNotAllowed(_)
        ));
    }

    static ITEM: crate::validate::Field = crate::validate::opt("", Kind::Int);
    static SCHEMA: Schema = Schema {
        fields: &[
            crate::validate::opt("page", Kind::Int),
            crate::validate::opt("rate", Kind::Num),
            crate::validate::opt("x_upsert", Kind::Bool),
            crate::validate::opt("ids", Kind::Arr(&ITEM)),
        ],
        checks: &[],
    };

    #[test]
    fn query_text_takes_the_type_the_rules_expect() {
        use svc_json::ToJson;
        let mut p = Obj::default();
        for (k, v) in [
            ("page", "2"),
            ("rate", "2.5"),
            ("x_upsert", "true"),
            ("ids", "7"),
            ("name", "5"),
            ("tag", "a"),
            ("tag", "b"),
            ("tag", "c"),
        ] {
            add_text_param(&mut p, &SCHEMA, k, v);
        }
        assert_eq!(
            p.to_json_text(),
            r#"{"page":2,"rate":2.5,"x_upsert":true,"ids":[7],"name":"5","tag":["a","b","c"]}"#
        );
        let mut p = Obj::default();
        add_text_param(&mut p, &SCHEMA, "page", "two");
        assert_eq!(
            p["page"],
            Json::Str("two".into()),
            "text that does not parse is left for the rules to report"
        );
    }

    #[test]
    fn a_route_declared_twice_is_refused() {
        let op = operations().get(0).unwrap();
        let err = Router::new([op, op]).err().unwrap();
        assert!(err.contains("routed twice"), "{err}");
    }

    #[test]
    fn unknown_paths_and_wrong_methods() {
        let router = Router::new(operations().iter()).unwrap();
        assert!(matches!(
            router.find("GET", "/inventory/v1/nothing"),
            Found::NotFound
        ));
        assert!(matches!(
            router.find("GET", "/books/v3/fixedassettypes//x"),
            Found::NotFound
        ));
        assert!(matches!(
            router.find("GET", "/books/v3/%zz"),
            Found::NotFound
        ));
        match router.find("PATCH", "/books/v3/fixedassettypes/1") {
            Found::MethodNotAllowed(m) => {
                assert!(m.contains(&"DELETE") && m.contains(&"PUT") && !m.contains(&"PATCH"))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn literals_beat_parameters() {
        let router = Router::new(operations().iter()).unwrap();
        let Found::Op(op, _) = router.find("GET", "/books/v3/vendorcredits/refunds") else {
            panic!()
        };
        assert_eq!(op.id, "listAllVendorCreditRefunds");
        assert!(matches!(
            router.find("GET", "/crm/v2/actions/watch/"),
            Found::MethodNotAllowed(m) if m == ["PATCH"]
        ));
    }

    #[test]
    fn path_values_are_percent_decoded_and_stay_one_segment() {
        let router = Router::new(operations().iter()).unwrap();
        let Found::Op(op, values) = router.find("GET", "/invoice/v3/settings/currencies/a%2Fb%20c")
        else {
            panic!()
        };
        assert_eq!(op.id, "getCurrency");
        assert_eq!(
            values,
            vec![("currency_id".to_string(), "a/b c".to_string())]
        );
        let Found::Op(op, values) = router.find("PATCH", "/crm/v8/actions/watch") else {
            panic!()
        };
        assert_eq!(op.id, "updateNotificationChannels");
        assert_eq!(values, vec![("version".to_string(), "v8".to_string())]);
    }
}
