//! The TypeScript that follows from the table's rows, for the package's declarations: `OperationId`,
//! each operation's params and arguments (`operations`), the `Client`'s namespace of each family and
//! its method of each row (`client`: path params first, then params, then the call's options), and
//! the interface of each family's namespace (`families`). scripts/declarations.mjs puts each where
//! its marker is in the partial `scripts/declarations/partials/index.d.ts`.

use svc_core::catalog::{local_name, operations, BodyKind, Operation, Shape};
use svc_core::examples;

/// `a_b_c` as `aBC`.
fn camel(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match chars.peek() {
            Some(&n) if c == '_' && n.is_ascii_lowercase() => {
                out.push(n.to_ascii_uppercase());
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// `books` as `Books`.
fn pascal(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// Whether a row's params must be given: a required field, or an upload's files.
fn params_required(op: &Operation) -> bool {
    op.params.fields.iter().any(|f| f.required) || matches!(op.body, BodyKind::Multipart { .. })
}

/// An operation's arguments before its call options: each path param (an id as a string or a
/// BigInt), then params (optional unless required).
fn args(op: &Operation) -> Vec<String> {
    let mut out: Vec<String> = op
        .path_params()
        .map(|p| {
            let ty = if p.ends_with("_id") {
                "IdInput"
            } else {
                "string"
            };
            format!("{}: {ty}", camel(p))
        })
        .collect();
    let optional = if params_required(op) { "" } else { "?" };
    out.push(format!("params{optional}: {}", op.params_ts()));
    out
}

/// A row's method, named `name`; in `family`'s namespace, its example calls it there.
fn method(op: &Operation, name: &str, family: Option<&str>) -> String {
    let result = op.result_ts();
    let promise = if matches!(op.response, Shape::List(_)) {
        format!("PagePromise<{result}>")
    } else {
        format!("APIPromise<{result}>")
    };
    let summary = examples::summary(op);
    let summary = if summary.is_empty() {
        String::new()
    } else {
        let sentence = summary.strip_suffix('.').unwrap_or(&summary);
        format!("{sentence}.\n   *\n   * ")
    };
    let call = examples::call_line(op);
    let call = match family {
        Some(f) => call.replacen(
            &format!("client.{}(", op.id),
            &format!("client.{f}.{name}("),
            1,
        ),
        None => call,
    };
    let example = if call.is_empty() {
        String::new()
    } else {
        format!("\n   *\n   * @example {call}")
    };
    let mut params = args(op);
    params.push("options?: CallOptions".into());
    format!(
        "  /**\n   * {summary}`{} {}` ({}; scope `{}`){example}\n   */\n  {name}({}): {promise};",
        op.method.as_str(),
        op.path,
        op.family.name(),
        op.scope,
        params.join(", ")
    )
}

/// The families in the table's order.
fn families() -> Vec<&'static str> {
    let mut out: Vec<&str> = Vec::new();
    for op in operations() {
        if !out.contains(&op.family.name()) {
            out.push(op.family.name());
        }
    }
    out
}

/// A line per row, `  id: <line>;`.
fn rows(line: impl Fn(&Operation) -> String) -> String {
    let lines: Vec<String> = operations()
        .iter()
        .map(|op| format!("  {}: {};", op.id, line(op)))
        .collect();
    lines.join("\n")
}

/// `OperationId`, `OperationParams` and `OperationArgs`.
pub fn operation_types() -> String {
    let ids: Vec<String> = operations()
        .iter()
        .map(|op| format!("\"{}\"", op.id))
        .collect();
    format!(
        "export type OperationId = {};\n\n/** The params type of each operation. */\nexport interface OperationParams {{\n{}\n}}\n\n/** The arguments of each operation after its id, as `prepare` takes them: its path params, then its params. */\nexport interface OperationArgs {{\n{}\n}}",
        ids.join(" | "),
        rows(|op| op.params_ts()),
        rows(|op| format!("[{}]", args(op).join(", ")))
    )
}

/// The `Client`'s members of the rows: a namespace per family, then a method per row.
pub fn client_members() -> String {
    let mut lines: Vec<String> = families()
        .iter()
        .map(|f| {
            let first = operations().iter().find(|op| op.family.name() == *f);
            let local = first.map(local_name).unwrap_or_default();
            format!(
                "  /** The {f} family's operations: `client.{f}.{local}(...)`. */\n  readonly {f}: {}Operations;",
                pascal(f)
            )
        })
        .collect();
    lines.extend(operations().iter().map(|op| method(op, op.id, None)));
    lines.join("\n")
}

/// The interface of each family's namespace, its rows under their names there.
pub fn family_interfaces() -> String {
    let parts: Vec<String> = families()
        .iter()
        .map(|f| {
            let methods: Vec<String> = operations()
                .iter()
                .filter(|op| op.family.name() == *f)
                .map(|op| method(op, &local_name(op), Some(f)))
                .collect();
            format!(
                "/** The {f} family's operations, under their names there (`client.{f}`). */\nexport interface {}Operations {{\n{}\n}}",
                pascal(f),
                methods.join("\n")
            )
        })
        .collect();
    parts.join("\n\n")
}
