//! The rule engine: checks raw JSON params against rules kept as data, every issue in one pass.

pub use crate::format;

pub mod billing;
pub mod books;
pub mod crm;
pub mod inventory;
pub mod invoice;
pub mod path;
pub mod unknown;

use crate::issue::{Issue, PathSeg, Problem};
use crate::json::{self, Json, Num, Obj};
use serde_json::Value;

pub use crate::schema::{opt, req, Check, Field, IntText, Kind, Rule, Schema};

impl Check {
    fn run(self, schema: &Schema, map: &Obj, ctx: &mut Ctx) {
        match self {
            Check::LooseInteger { field, text } => loose_integer(map, field, text, ctx),
            Check::NotEmpty(field) => not_empty(map, field, ctx),
            Check::NotAllowedWhen {
                field,
                when,
                equals,
                applies_to,
            } => {
                if map.get(when).and_then(Json::as_str) == Some(equals) && given(map, field) {
                    let why = format!("applies only to {applies_to}, not to {equals}");
                    not_allowed(field, &why, ctx);
                }
            }
            Check::NotAllowedUnless {
                field,
                when,
                equals,
            } => {
                let listed = |t: &str| {
                    let set = schema.field(when).and_then(Field::value_set);
                    set.is_none_or(|set| set.contains(&t))
                };
                let applies = match map.get(when).and_then(Json::as_str).map(str::trim) {
                    Some(t) if t == equals => false,
                    Some(t) => t.is_empty() || listed(t),
                    None => true,
                };
                if applies && given(map, field) {
                    not_allowed(field, &format!("applies only when {when} is {equals}"), ctx);
                }
            }
            Check::MaxFieldsNested { field, max } => crm::max_fields_nested(map, field, max, ctx),
            Check::EventsNameModuleAndOperation => crm::events_name_module_and_operation(map, ctx),
            Check::ExpiryWithinAWeek => crm::expiry_within_a_week(map, ctx),
            Check::GroupMembers => crm::group_members(map, ctx),
        }
    }
}

fn loose_integer(map: &Obj, field: &'static str, text: IntText, ctx: &mut Ctx) {
    let ok = match map.get(field) {
        None | Some(Json::Null) => true,
        Some(n @ Json::Num(_)) => n.as_num().is_some_and(Num::is_integer),
        Some(Json::Str(s)) => text.allows(s),
        Some(Json::Obj(m)) => m.contains_key(UNREPRESENTABLE),
        Some(_) => false,
    };
    if let (false, Some(v)) = (ok, map.get(field)) {
        ctx.push_at(
            field,
            format!("{field} must be {}, got {}", text.describe(), type_name(v)),
            Problem::InvalidType {
                expected: "integer".into(),
            },
        );
    }
}

fn not_empty(map: &Obj, field: &'static str, ctx: &mut Ctx) {
    if matches!(map.get(field), Some(Json::Arr(items)) if items.is_empty()) {
        ctx.push_at(
            field,
            format!("{field} needs at least one member"),
            Problem::Required {},
        );
    }
}

/// Whether a field carries a value: present, not null, not a blank string.
fn given(map: &Obj, name: &str) -> bool {
    match map.get(name) {
        None | Some(Json::Null) => false,
        Some(Json::Str(s)) => !s.trim().is_empty(),
        Some(_) => true,
    }
}

fn not_allowed(field: &'static str, why: &str, ctx: &mut Ctx) {
    ctx.push_at(field, format!("{field} {why}"), Problem::NotAllowed {});
}

/// Collects issues while the engine walks the params.
#[derive(Default)]
pub struct Ctx {
    path: Vec<PathSeg>,
    pub issues: Vec<Issue>,
    /// Now, in milliseconds since the Unix epoch (rules such as "at most one week ahead").
    pub now_ms: i64,
    pub source: Source,
}

/// Where params were written: as JSON text, whose integers are exact at any size, or as JS values,
/// whose numbers beyond 2^53 may have lost digits before the SDK saw them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Source {
    #[default]
    Json,
    Js,
}

impl Ctx {
    pub fn at(now_ms: i64) -> Ctx {
        Ctx {
            now_ms,
            ..Ctx::default()
        }
    }

    pub fn push(&mut self, message: impl Into<String>, problem: Problem) {
        self.issues
            .push(Issue::new(self.path.clone(), message, problem));
    }

    /// Records an issue at a child of the current path.
    pub fn push_at(&mut self, key: &str, message: impl Into<String>, problem: Problem) {
        self.path.push(PathSeg::Key(key.to_string().into()));
        self.push(message, problem);
        self.path.pop();
    }

    pub fn enter<R>(&mut self, seg: PathSeg, f: impl FnOnce(&mut Ctx) -> R) -> R {
        self.path.push(seg);
        let r = f(self);
        self.path.pop();
        r
    }
}

/// Marker that the JS side puts where a value cannot be JSON (a function, NaN, Infinity, a symbol).
pub const UNREPRESENTABLE: &str = "$svc_unrepresentable";

fn unrepresentable<'v>(v: &'v Json) -> Option<&'v str> {
    match v {
        Json::Obj(m) if m.len() == 1 => m
            .get(UNREPRESENTABLE)
            .and_then(Json::as_str)
            .map(crate::unwritable::words),
        _ => None,
    }
}

/// What the engine needs of an operation: the rules of its params, and the issues of params that
/// cannot travel where the operation sends them (the request side knows where each param goes).
pub trait Rules {
    fn schema(&self) -> &'static Schema;
    fn wire_issues(&self, params: &Obj) -> Vec<Issue>;
}

/// Checks params against the operation's rules: every issue, in one pass.
pub fn validate(op: &impl Rules, params: &Value) -> Vec<Issue> {
    validate_at(op, params, crate::clock::now_ms())
}

/// `validate` with an explicit "now" (milliseconds since the Unix epoch).
pub fn validate_at(op: &impl Rules, params: &Value, now_ms: i64) -> Vec<Issue> {
    validate_from(op, params, now_ms, Source::Json)
}

/// `validate_at` for params written in `source`.
pub fn validate_from(op: &impl Rules, params: &Value, now_ms: i64, source: Source) -> Vec<Issue> {
    check(op, &json::of_value(params), now_ms, source)
}

/// Checks params read from JSON text (`json::parse`) written in `source`: every issue, in one pass.
pub fn check(op: &impl Rules, params: &Json, now_ms: i64, source: Source) -> Vec<Issue> {
    let mut ctx = Ctx {
        source,
        ..Ctx::at(now_ms)
    };
    if let Some(what) = unrepresentable(params) {
        ctx.push(
            format!("params must be an object, got {what}"),
            Problem::InvalidType {
                expected: "object".into(),
            },
        );
        return ctx.issues;
    }
    match params {
        Json::Null => check_object(op.schema(), &Obj::default(), &mut ctx),
        Json::Obj(map) => {
            check_object(op.schema(), map, &mut ctx);
            for wire in op.wire_issues(map) {
                if !ctx
                    .issues
                    .iter()
                    .any(|i| wire.path.starts_with(&i.path[..1.min(i.path.len())]))
                {
                    ctx.issues.push(wire);
                }
            }
        }
        other => ctx.push(
            format!("params must be an object, got {}", type_name(other)),
            Problem::InvalidType {
                expected: "object".into(),
            },
        ),
    }
    ctx.issues
}

/// The schema of an operation's params.
pub fn rules_for(op: &impl Rules) -> &'static Schema {
    op.schema()
}

pub fn check_object(schema: &Schema, map: &Obj, ctx: &mut Ctx) {
    // Each member is matched to its field once, the search starting after the last match (params
    // usually come in the table's order); issues still come field by field, then unknown keys.
    let fields = schema.fields;
    let mut values: Vec<Option<&Json>> = vec![None; fields.len()];
    let mut unknown = false;
    let mut next = 0;
    for (key, v) in map.iter() {
        let found = (next..fields.len())
            .chain(0..next)
            .find(|&i| fields[i].name == key);
        match found {
            Some(i) => {
                values[i] = Some(v);
                next = i + 1;
            }
            None => unknown = true,
        }
    }
    for (field, value) in fields.iter().zip(values) {
        match value {
            None | Some(Json::Null) if field.required => ctx.push_at(
                field.name,
                format!("{} is required", field.name),
                Problem::Required {},
            ),
            None | Some(Json::Null) => {}
            Some(v) => ctx.enter(PathSeg::Key(field.name.into()), |ctx| {
                check_value(field, v, ctx)
            }),
        }
    }
    if unknown {
        for (key, v) in map.iter() {
            if schema.field(key).is_none() {
                ctx.enter(PathSeg::Key(key.to_string().into()), |ctx| {
                    sweep_unrepresentable(v, ctx)
                });
            }
        }
    }
    for check in schema.checks {
        check.run(schema, map, ctx);
    }
}

/// The issues of values below `v`, found at `path`, that JSON cannot hold (NaN, a function...).
pub fn unrepresentable_issues(v: &Json, path: &str) -> Vec<Issue> {
    let mut ctx = Ctx::default();
    ctx.enter(PathSeg::Key(path.to_string().into()), |ctx| {
        sweep_unrepresentable(v, ctx)
    });
    ctx.issues
}

/// Reports unrepresentable values anywhere below a value that no rule describes.
fn sweep_unrepresentable(v: &Json, ctx: &mut Ctx) {
    if let Some(what) = unrepresentable(v) {
        ctx.push(
            format!("{what} cannot be sent as JSON"),
            Problem::InvalidType {
                expected: "a JSON value".into(),
            },
        );
        return;
    }
    match v {
        Json::Arr(items) => {
            for (i, item) in items.iter().enumerate() {
                ctx.enter(PathSeg::Index(i), |ctx| sweep_unrepresentable(item, ctx));
            }
        }
        Json::Obj(m) => {
            for (k, item) in m.iter() {
                ctx.enter(PathSeg::Key(k.to_string().into()), |ctx| {
                    sweep_unrepresentable(item, ctx)
                });
            }
        }
        _ => {}
    }
}

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
        message: format!(
            "{} is not an accepted file type; accepted: {}",
            crate::echo::quoted(name),
            accept.join(", ")
        ),
        problem: Problem::InvalidFormat {
            format: "file type".into(),
            allowed: Some(accept),
        },
    })
}

pub fn type_name(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "boolean",
        Json::Num(_) => "number",
        Json::Str(_) => "string",
        Json::Arr(_) => "array",
        Json::Obj(m) if m.contains_key(UNREPRESENTABLE) => "a value that is not JSON",
        Json::Obj(_) => "object",
    }
}

fn expected_name(kind: &Kind) -> &'static str {
    match kind {
        Kind::Str => "string",
        Kind::Num => "number",
        Kind::Int => "integer",
        Kind::Bool | Kind::BoolLike => "boolean",
        Kind::Id => "id (string or integer)",
        Kind::StrOrNum => "string or number",
        Kind::Obj(_) => "object",
        Kind::Arr(_) => "array",
        Kind::Any => "any",
    }
}

fn is_blank(v: &Json) -> bool {
    matches!(v, Json::Str(s) if s.trim().is_empty())
}

/// Checks one present value against its field: type first, then the rules.
pub fn check_value(field: &Field, v: &Json, ctx: &mut Ctx) {
    if let Some(what) = unrepresentable(v) {
        ctx.push(
            format!(
                "{} must be {}, got {what}",
                field_label(field),
                expected_name(&field.kind)
            ),
            Problem::InvalidType {
                expected: expected_name(&field.kind).into(),
            },
        );
        return;
    }
    if field.required && is_blank(v) {
        ctx.push(
            format!("{} is required", field_label(field)),
            Problem::Required {},
        );
        return;
    }
    let type_ok = match (&field.kind, v) {
        (Kind::Any, _) => {
            sweep_unrepresentable(v, ctx);
            true
        }
        (Kind::Str, Json::Str(_)) => true,
        (Kind::Num, Json::Num(_)) => true,
        (Kind::Int | Kind::Id, Json::Num(_)) => v.as_num().is_some_and(Num::is_integer),
        (Kind::Bool | Kind::BoolLike, Json::Bool(_)) => true,
        (Kind::BoolLike, Json::Str(s)) => s == "true" || s == "false",
        (Kind::Id, Json::Str(s)) => !s.is_empty(),
        (Kind::StrOrNum, Json::Str(_) | Json::Num(_)) => true,
        (Kind::Obj(schema), Json::Obj(m)) => {
            check_object(schema, m, ctx);
            true
        }
        (Kind::Arr(item), Json::Arr(items)) => {
            for (i, member) in items.iter().enumerate() {
                ctx.enter(PathSeg::Index(i), |ctx| match member {
                    Json::Null => ctx.push(
                        format!("members of {} may not be null", field_label(field)),
                        Problem::InvalidType {
                            expected: expected_name(&item.kind).into(),
                        },
                    ),
                    m => check_value(item, m, ctx),
                });
            }
            true
        }
        _ => false,
    };
    if !type_ok {
        let expected = expected_name(&field.kind);
        ctx.push(
            format!(
                "{} must be {expected}, got {}",
                field_label(field),
                type_name(v)
            ),
            Problem::InvalidType {
                expected: expected.into(),
            },
        );
        return;
    }
    if let (Kind::Id | Kind::Int, Some(n), Source::Js) = (&field.kind, v.as_num(), ctx.source) {
        if crate::exact::from_double(v) && !is_exact_in_js(n) {
            push_inexact(field, n, ctx);
            return;
        }
    }
    for rule in field.rules {
        apply_rule(field, rule, v, ctx);
    }
}

/// The largest integer a JS number (and many JSON readers) holds exactly: 2^53 - 1.
pub const MAX_EXACT_INT: u64 = (1 << 53) - 1;

fn is_exact_in_js(n: Num) -> bool {
    match (n.as_u64(), n.as_i64()) {
        (Some(u), _) => u <= MAX_EXACT_INT,
        (_, Some(i)) => i.unsigned_abs() <= MAX_EXACT_INT,
        _ => true,
    }
}

fn push_inexact(field: &Field, n: Num, ctx: &mut Ctx) {
    let label = field_label(field);
    let n = match n {
        Num::U(u) => u.to_string(),
        Num::I(i) => i.to_string(),
        Num::F(_) => String::new(),
    };
    let give = if matches!(field.kind, Kind::Id) {
        "give the id as a string or a BigInt"
    } else {
        "give it as a BigInt or an ExactNumber"
    };
    let message = format!(
        "{label} is a JS number beyond 2^53 - 1, which JS holds as {n}: the digits written may have been lost before the SDK saw them; {give}"
    );
    let bound = MAX_EXACT_INT as i64;
    ctx.push(
        message,
        Problem::OutOfRange {
            minimum: (-bound).into(),
            maximum: bound.into(),
        },
    );
}

fn field_label(field: &Field) -> &'static str {
    if field.name.is_empty() {
        "each member"
    } else {
        field.name
    }
}

fn apply_rule(field: &Field, rule: &Rule, v: &Json, ctx: &mut Ctx) {
    let label = field_label(field);
    match (rule, v) {
        (Rule::MaxLen(max), Json::Str(s)) => {
            let n = s.chars().count();
            if n > *max {
                ctx.push(
                    format!("{label} may have at most {max} characters, it has {n}"),
                    Problem::TooLong { maximum: *max },
                );
            }
        }
        (Rule::LenBetween(min, max), Json::Str(s)) => {
            let n = s.chars().count();
            if n < *min {
                ctx.push(
                    format!("{label} needs at least {min} characters, it has {n}"),
                    Problem::TooShort { minimum: *min },
                );
            } else if n > *max {
                ctx.push(
                    format!("{label} may have at most {max} characters, it has {n}"),
                    Problem::TooLong { maximum: *max },
                );
            }
        }
        (Rule::Range(min, max), _) => {
            let n = match v {
                Json::Num(_) => v.as_f64(),
                Json::Str(s) => crate::decimal::parse(s.trim()),
                _ => None,
            };
            match n {
                Some(n) if n >= *min && n <= *max => {}
                Some(_) => {
                    let (min, max) = (*min as i64, *max as i64);
                    ctx.push(
                        format!("{label} must be between {min} and {max}"),
                        Problem::OutOfRange {
                            minimum: min.into(),
                            maximum: max.into(),
                        },
                    )
                }
                None => ctx.push(
                    format!("{label} must be a number"),
                    Problem::InvalidType {
                        expected: "number".into(),
                    },
                ),
            }
        }
        (Rule::OneOf(allowed), Json::Str(s)) if !allowed.contains(&s.as_ref()) => {
            not_one_of(label, allowed, s, ctx)
        }
        (Rule::OneOfUnlessBlank(allowed), Json::Str(s))
            if !s.trim().is_empty() && !allowed.contains(&s.as_ref()) =>
        {
            not_one_of(label, allowed, s, ctx)
        }
        (Rule::Format(f), Json::Str(s)) if !f.matches(s) => ctx.push(
            format!(
                "{label} must be {}, got {}",
                f.describe(),
                crate::echo::quoted(s)
            ),
            Problem::InvalidFormat {
                format: f.name().into(),
                allowed: None,
            },
        ),
        (Rule::MaxItems(max), Json::Arr(items)) if items.len() > *max => ctx.push(
            format!(
                "{label} may have at most {max} members, it has {}",
                items.len()
            ),
            Problem::TooMany { maximum: *max },
        ),
        _ => {}
    }
}

fn not_one_of(label: &str, allowed: &'static [&'static str], s: &str, ctx: &mut Ctx) {
    ctx.push(
        format!(
            "{label} must be one of {}, got {}",
            allowed.join(", "),
            crate::echo::quoted(s)
        ),
        Problem::InvalidValue { allowed },
    )
}

/// Helpers shared by the rule tests of every family.
#[cfg(test)]
pub(crate) mod testing {
    use crate::issue::IssueCode;
    use crate::validate::{check_object, Ctx, Issue, Schema};
    use serde_json::{json, Value};

    /// The issues of `params` against `schema`, checked at time 0.
    pub fn issues(schema: &Schema, params: &Value) -> Vec<Issue> {
        issues_at(schema, params, 0)
    }

    /// The issues of `params` against `schema`, checked at `now_ms`.
    pub fn issues_at(schema: &Schema, params: &Value, now_ms: i64) -> Vec<Issue> {
        let mut ctx = Ctx::at(now_ms);
        let params = crate::json::of_value(params);
        check_object(
            schema,
            params.as_object().expect("params are an object"),
            &mut ctx,
        );
        ctx.issues
    }

    /// `base` with the value at `path` (keys and indices) replaced; `null` removes it.
    pub fn with(base: &Value, path: &Value, v: Value) -> Value {
        let mut out = base.clone();
        let segs = path.as_array().expect("a path is an array");
        let (last, parents) = segs.split_last().expect("a path is not empty");
        let mut at = &mut out;
        for seg in parents {
            at = match seg {
                Value::String(k) => &mut at[k.as_str()],
                n => &mut at[n.as_u64().unwrap() as usize],
            };
        }
        match (last, v) {
            (Value::String(k), Value::Null) => {
                at.as_object_mut().unwrap().remove(k);
            }
            (Value::String(k), v) => at[k.as_str()] = v,
            (n, v) => at[n.as_u64().unwrap() as usize] = v,
        }
        out
    }

    /// Asserts no issue.
    pub fn expect_none(issues: &[Issue]) {
        assert!(issues.is_empty(), "{issues:#?}");
    }

    /// Asserts exactly one issue, with this path, code and details, and a message.
    pub fn expect_one(issues: &[Issue], path: Value, code: IssueCode, details: Value) {
        assert_eq!(issues.len(), 1, "{issues:#?}");
        let issue = &issues[0];
        assert_eq!(json!(issue.path), path, "{issue:#?}");
        assert_eq!(issue.code(), code, "{issue:#?}");
        assert_eq!(
            Value::Object(issue.problem.details()),
            details,
            "{issue:#?}"
        );
        assert!(!issue.message.is_empty(), "{issue:#?}");
    }

    /// Asserts the issues, in order, by path string and code.
    pub fn expect_all(issues: &[Issue], want: &[(&str, IssueCode)]) {
        let got: Vec<(String, IssueCode)> =
            issues.iter().map(|i| (i.path_string(), i.code())).collect();
        let want: Vec<(String, IssueCode)> =
            want.iter().map(|(p, c)| (p.to_string(), *c)).collect();
        assert_eq!(got, want);
    }

    /// The JSONPath form of an issue's path as the vendor files write it: `$.line_items[].name`.
    pub fn json_path(issue: &Issue) -> String {
        let mut s = String::from("$");
        for seg in &issue.path {
            match seg {
                crate::issue::PathSeg::Key(k) => {
                    s.push('.');
                    s.push_str(k);
                }
                crate::issue::PathSeg::Index(_) => s.push_str("[]"),
            }
        }
        s
    }

    pub fn vendor(name: &str) -> Value {
        let path =
            concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/vendor/").to_string() + name;
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        serde_json::from_str(&text).unwrap()
    }

    /// The params a vendor file sends: the body of a body method, else the query.
    pub fn vendor_params(name: &str) -> Value {
        let file = vendor(name);
        match file["method"].as_str() {
            Some("POST" | "PUT" | "PATCH") => file["request_body"].clone(),
            _ => file["query_params_example"].clone(),
        }
    }

    /// Checks that a vendor request passes, except on the fields its placeholders stand in for.
    pub fn vendor_request_passes(name: &str, schema: &Schema) {
        let params = vendor_params(name);
        let placeholders: Vec<String> = vendor(name)["type_placeholders_used"]["request"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p.as_str().map(String::from))
            .collect();
        for issue in issues(schema, &params) {
            assert!(
                placeholders.contains(&json_path(&issue)),
                "{name}: {issue:#?}"
            );
        }
    }

    /// Two tests per rule: the value at the edge passes, the one just past it fails with one issue (at
    /// `$path`, or at the path after `at`). Values are JSON tokens (`null` removes the field); wrap a
    /// Rust expression in parentheses.
    macro_rules! edge {
        ($($pass:ident / $fail:ident: $schema:expr, $base:expr, $path:tt, $ok:tt => $bad:tt,
            $code:ident $details:tt $(at $at:tt)?;)*) => {$(
            #[test]
            fn $pass() {
                let p = $crate::validate::testing::with(&$base, &serde_json::json!($path), serde_json::json!($ok));
                let found = $crate::validate::testing::issues(&$schema, &p);
                assert!(found.is_empty(), "{found:#?}");
            }

            #[test]
            fn $fail() {
                let p = $crate::validate::testing::with(&$base, &serde_json::json!($path), serde_json::json!($bad));
                $crate::validate::testing::expect_one(
                    &$crate::validate::testing::issues(&$schema, &p),
                    [$(serde_json::json!($at),)? serde_json::json!($path)][0].clone(),
                    $crate::issue::IssueCode::$code,
                    serde_json::json!($details),
                );
            }
        )*};
    }
    pub(crate) use edge;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::issue::IssueCode;
    use serde_json::json;

    static LINE: Schema = Schema {
        fields: &[
            req("name", Kind::Str).with(&[Rule::MaxLen(3)]),
            opt("amount", Kind::Num),
        ],
        checks: &[],
    };
    static LINE_FIELD: Field = opt("", Kind::Obj(&LINE));
    static TOP: Schema = Schema {
        fields: &[
            req("title", Kind::Str),
            opt("kind", Kind::Str).with(&[Rule::OneOf(&["a", "b"])]),
            opt("lines", Kind::Arr(&LINE_FIELD)).with(&[Rule::MaxItems(2)]),
            opt("pct", Kind::Num).with(&[Rule::Range(0.0, 100.0)]),
            opt("id", Kind::Id),
        ],
        checks: &[],
    };

    fn run(v: Value) -> Vec<Issue> {
        let mut ctx = Ctx::default();
        check_object(&TOP, json::of_value(&v).as_object().unwrap(), &mut ctx);
        ctx.issues
    }

    #[test]
    fn every_issue_in_one_pass_with_paths() {
        let issues = run(json!({
            "kind": "c",
            "lines": [{"name": "ok"}, {"name": 5, "amount": "x"}, {"name": "long"}],
            "pct": 100.5,
            "id": true
        }));
        let got: Vec<(String, IssueCode)> =
            issues.iter().map(|i| (i.path_string(), i.code())).collect();
        assert_eq!(
            got,
            vec![
                ("title".into(), IssueCode::Required),
                ("kind".into(), IssueCode::InvalidValue),
                ("lines[1].name".into(), IssueCode::InvalidType),
                ("lines[1].amount".into(), IssueCode::InvalidType),
                ("lines[2].name".into(), IssueCode::TooLong),
                ("lines".into(), IssueCode::TooMany),
                ("pct".into(), IssueCode::OutOfRange),
                ("id".into(), IssueCode::InvalidType),
            ]
        );
        let path = serde_json::to_value(&issues[4].path).unwrap();
        assert_eq!(path, json!(["lines", 2, "name"]));
        assert_eq!(issues[4].problem, Problem::TooLong { maximum: 3 });
    }

    #[test]
    fn file_types_by_extension() {
        let accept = crate::catalog::IMAGE_TYPES;
        assert!(file_type_issue("image", None, "logo.PNG", accept).is_none());
        let issue = file_type_issue("files", Some(1), "notes.txt", accept).unwrap();
        assert_eq!(issue.code(), IssueCode::InvalidFormat);
        assert_eq!(issue.path_string(), "files[1]");
        assert!(file_type_issue("image", None, "png", accept).is_some());
    }

    #[test]
    fn blank_required_strings_are_missing() {
        let issues = run(json!({"title": "  "}));
        assert_eq!(issues[0].code(), IssueCode::Required);
    }

    #[test]
    fn unrepresentable_values_below_a_field_of_any_kind_are_reported() {
        static ANY: Schema = Schema {
            fields: &[opt("extra", Kind::Any)],
            checks: &[],
        };
        let bad = json!({ UNREPRESENTABLE: "NaN" });
        let mut ctx = Ctx::default();
        check_object(
            &ANY,
            json::of_value(&json!({"extra": {"deep": [1, bad]}}))
                .as_object()
                .unwrap(),
            &mut ctx,
        );
        let got: Vec<String> = ctx.issues.iter().map(|i| i.path_string()).collect();
        assert_eq!(got, vec!["extra.deep[1]"]);
    }

    #[test]
    fn unrepresentable_values_are_type_issues_wherever_they_are() {
        let bad = json!({ UNREPRESENTABLE: "Infinity" });
        let issues = run(json!({"title": "t", "pct": bad.clone(), "extra": {"deep": [bad]}}));
        let got: Vec<String> = issues.iter().map(|i| i.path_string()).collect();
        assert_eq!(got, vec!["pct", "extra.deep[0]"]);
        assert!(issues.iter().all(|i| i.code() == IssueCode::InvalidType));
        assert!(
            issues[0].message.contains("Infinity"),
            "{}",
            issues[0].message
        );
    }

    static MODES: Schema = Schema {
        fields: &[
            opt("mode", Kind::Str).with(&[Rule::OneOf(&["a", "b"])]),
            opt("extra", Kind::Any),
            opt("other", Kind::Any),
        ],
        checks: &[
            Check::NotAllowedUnless {
                field: "extra",
                when: "mode",
                equals: "a",
            },
            Check::NotAllowedWhen {
                field: "other",
                when: "mode",
                equals: "b",
                applies_to: "a",
            },
        ],
    };

    fn modes(v: Value) -> Vec<String> {
        let mut ctx = Ctx::default();
        check_object(&MODES, json::of_value(&v).as_object().unwrap(), &mut ctx);
        ctx.issues.iter().map(|i| i.path_string()).collect()
    }

    #[test]
    fn not_allowed_unless_trims_its_condition_and_defers_to_its_value_set() {
        assert!(modes(json!({"mode": "a", "extra": 1})).is_empty());
        assert_eq!(modes(json!({"mode": " a ", "extra": 1})), ["mode"]);
        assert_eq!(modes(json!({"mode": "c", "extra": 1})), ["mode"]);
        for mode in [json!("b"), json!(" "), json!(null), json!(2)] {
            let got = modes(json!({"mode": mode.clone(), "extra": 1}));
            assert_eq!(got.last().map(String::as_str), Some("extra"), "{mode}");
        }
        assert!(modes(json!({"mode": "b", "extra": " "})).is_empty());
    }

    #[test]
    fn not_allowed_when_compares_its_condition_as_sent() {
        assert_eq!(modes(json!({"mode": "b", "other": 1})), ["other"]);
        assert_eq!(modes(json!({"mode": " b", "other": 1})), ["mode"]);
        assert!(modes(json!({"other": 1, "extra": null})).is_empty());
    }
}
