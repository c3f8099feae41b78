//! The request types' TypeScript declarations with their rules as JSDoc lines, worded by `rules_doc` (as docs/VALIDATION.md words them).

use crate::catalog::operations;
use crate::rules_doc::{check_words, kind_words, rule_words};
use crate::schema::{Field, Kind, Request, Rule};

/// Every request type the table's rows take or hold, each once, in the rows' order.
pub fn requests() -> Vec<Request> {
    let mut out = Vec::new();
    for op in operations() {
        (op.requests)(&mut out);
    }
    out
}

/// The request's declaration as tsify writes it, each member's doc comment followed by its field's
/// rules, and the type's by its checks across fields.
pub fn declaration(request: &Request) -> String {
    let checks: Vec<String> = request
        .schema
        .checks
        .iter()
        .map(|c| sentence(&check_words(c)))
        .collect();
    let mut out: Vec<String> = Vec::new();
    for line in request.decl.lines() {
        if line.starts_with("export ") {
            doc(&mut out, "", &checks);
        } else if let Some(name) = member(line) {
            if let Some(field) = request.schema.field(name) {
                doc(&mut out, "    ", &field_lines(field));
            }
            out.push(input_ids(line));
            continue;
        }
        out.push(line.to_string());
    }
    out.join("\n")
}

/// A member line with its ids typed as a call takes them (`IdInput`: a string or a BigInt).
fn input_ids(line: &str) -> String {
    let Some((name, ty)) = line.split_once(':') else {
        return line.to_string();
    };
    let ty: Vec<String> = ty
        .split_inclusive(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map(|part| match part.strip_prefix("Id") {
            Some(rest) if !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') => {
                format!("IdInput{rest}")
            }
            _ => part.to_string(),
        })
        .collect();
    format!("{name}:{}", ty.concat())
}

/// A field's lines: whether it is required, its kind where TypeScript's type does not say it, its rules.
pub fn field_lines(field: &Field) -> Vec<String> {
    let mut lines = Vec::new();
    if field.required {
        lines.push("Required.".to_string());
    }
    if integral(&field.kind) {
        lines.push(format!("Type: {}.", kind_words(&field.kind)));
    }
    rule_lines(&mut lines, "", &field.kind, field.rules);
    lines
}

fn integral(kind: &Kind) -> bool {
    match kind {
        Kind::Int => true,
        Kind::Arr(member) => integral(&member.kind),
        _ => false,
    }
}

fn rule_lines(lines: &mut Vec<String>, prefix: &str, kind: &Kind, rules: &[Rule]) {
    for rule in rules {
        lines.push(sentence(&format!("{prefix}{}", rule_words(rule))));
    }
    if let Kind::Arr(member) = kind {
        rule_lines(
            lines,
            &format!("{prefix}each member: "),
            &member.kind,
            member.rules,
        );
    }
}

/// `words` with a capital first letter and a full stop.
fn sentence(words: &str) -> String {
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

/// `lines` added to the doc comment that ends `out`, or in a new one.
fn doc(out: &mut Vec<String>, indent: &str, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    let end = format!("{indent} */");
    let text = lines.iter().map(|l| format!("{indent} * {l}"));
    if out.last() == Some(&end) {
        let at = out.len() - 1;
        out.splice(at..at, text);
    } else {
        out.push(format!("{indent}/**"));
        out.extend(text);
        out.push(end);
    }
}

/// The name of the member a line of an interface declares (`    name?: type;`).
fn member(line: &str) -> Option<&str> {
    let (name, _) = line.strip_prefix("    ")?.split_once(':')?;
    let name = name.strip_suffix('?').unwrap_or(name);
    let word = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    word.then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Schema;

    fn declared(name: &str) -> String {
        let all = requests();
        let request = all.iter().find(|r| r.name == name).expect(name);
        declaration(request)
    }

    /// The doc comment right above `field`'s member line in `decl`.
    fn field_doc(decl: &str, field: &str) -> Vec<String> {
        let lines: Vec<&str> = decl.lines().collect();
        let at = lines
            .iter()
            .position(|l| member(l) == Some(field))
            .unwrap_or_else(|| panic!("no member {field} in\n{decl}"));
        assert_eq!(
            lines[at - 1],
            "     */",
            "{field} has no doc comment in\n{decl}"
        );
        let start = lines[..at].iter().rposition(|l| *l == "    /**").unwrap();
        lines[start + 1..at - 1]
            .iter()
            .map(|l| l.strip_prefix("     * ").unwrap_or(l).to_string())
            .collect()
    }

    #[test]
    fn a_request_takes_its_ids_as_strings_or_bigints() {
        assert_eq!(
            input_ids("    account_id?: Id;"),
            "    account_id?: IdInput;"
        );
        assert_eq!(input_ids("    ids: Id[];"), "    ids: IdInput[];");
        assert_eq!(
            input_ids("    id: Id | number;"),
            "    id: IdInput | number;"
        );
        assert_eq!(input_ids("    x: Identity;"), "    x: Identity;");
        let journal = declared("JournalLineItemInput");
        assert!(journal.contains("    account_id?: IdInput;"), "{journal}");
        for request in requests() {
            let decl = declaration(&request);
            assert!(!decl.contains(": Id;") && !decl.contains(": Id["), "{decl}");
        }
    }

    #[test]
    fn a_request_type_reads_its_rules_and_checks() {
        assert_eq!(
            declared("TaskInput"),
            "/**
 * Body of `createTask` and `updateTask`.
 * `rate`, when given, is an integer, or its digits as text (a minus sign allowed).
 * `budget_hours`, when given, is an integer, or its digits as text (a minus sign allowed).
 */
export interface TaskInput {
    /**
     * Required.
     * At most 100 characters.
     */
    task_name: string;
    /**
     * At most 500 characters.
     */
    description?: string;
    /**
     * Hourly rate, an integer.
     */
    rate?: NumberOrText;
    budget_hours?: NumberOrText;
}"
        );
    }

    #[test]
    fn each_kind_of_rule_is_worded_on_its_field() {
        let journal = declared("JournalInput");
        assert_eq!(
            field_doc(&journal, "journal_date"),
            ["Required.", "A date yyyy-mm-dd."]
        );
        assert_eq!(
            field_doc(&journal, "status"),
            ["One of `draft`, `published`."]
        );
        assert_eq!(
            field_doc(&declared("AccountListQuery"), "page"),
            ["Type: integer.", "From 1 to 4294967295."]
        );
        let watch = declared("WatchChannel");
        assert_eq!(
            field_doc(&watch, "token"),
            [
                "Echoed in callbacks for verification.",
                "At most 50 characters."
            ]
        );
        assert_eq!(
            field_doc(&watch, "notification_condition"),
            ["At most 2 members."]
        );
        assert!(watch.starts_with(
            "/**\n * One channel of the `updateNotificationChannels` body.\n * `channel_id`, when given, is an integer, or a string of digits.\n * `events` needs at least one member.\n"
        ));
        let params = declared("WatchParams");
        assert!(params.contains(
            " * `watch` needs at least one member.\n */\nexport interface WatchParams {"
        ));
        assert_eq!(field_doc(&params, "watch"), ["Required."]);
    }

    #[test]
    fn an_array_says_its_members_rules() {
        use crate::schema::{req, Field};
        static CODES: Field = Field {
            name: "",
            kind: Kind::Int,
            required: false,
            rules: &[Rule::Range(1.0, 9.0)],
        };
        let field = req("codes", Kind::Arr(&CODES)).with(&[Rule::MaxItems(3)]);
        assert_eq!(
            field_lines(&field),
            [
                "Required.",
                "Type: array of integer.",
                "At most 3 members.",
                "Each member: from 1 to 9."
            ]
        );
    }

    #[test]
    fn the_words_are_those_of_docs_validation_md() {
        let doc = crate::rules_doc::markdown();
        for line in field_lines(declared_field("TaskInput", "task_name")) {
            let words = line.trim_end_matches('.').to_lowercase();
            assert!(
                words == "required" || doc.contains(&words),
                "{words} is not in docs/VALIDATION.md"
            );
        }
    }

    fn declared_field(request: &str, field: &str) -> &'static Field {
        let all = requests();
        let r = all.iter().find(|r| r.name == request).expect(request);
        r.schema.field(field).expect(field)
    }

    #[test]
    fn every_member_is_a_field_and_every_field_is_a_member_of_its_type_or_of_the_one_it_extends() {
        let all = requests();
        for r in &all {
            assert!(
                r.decl.contains(&format!("export interface {} ", r.name)),
                "{} is not declared as an interface:\n{}",
                r.name,
                r.decl
            );
            let members: Vec<&str> = r.decl.lines().filter_map(member).collect();
            // Its vendor query param is typed, and left unchecked as the golden corpus pins it.
            let unchecked = r.name == "ExpenseReceiptQuery";
            for m in members.iter().filter(|_| !unchecked) {
                assert!(
                    r.schema.field(m).is_some(),
                    "{}.{m} has no rules in its schema",
                    r.name
                );
            }
            let extended = r
                .decl
                .lines()
                .find_map(|l| {
                    l.split_once(" extends ")
                        .map(|(_, rest)| rest.trim_end_matches(" {"))
                })
                .and_then(|base| all.iter().find(|b| b.name == base));
            for f in r.schema.fields {
                let inherited = extended.is_some_and(|b| b.schema.field(f.name).is_some());
                assert!(
                    members.contains(&f.name) || inherited,
                    "{}.{} is declared nowhere",
                    r.name,
                    f.name
                );
            }
        }
    }

    fn has_rules(schema: &Schema) -> bool {
        !schema.checks.is_empty()
            || schema
                .fields
                .iter()
                .any(|f| f.required || !f.rules.is_empty() || integral(&f.kind))
    }

    #[test]
    fn every_object_with_rules_is_a_request_type_that_declares_them() {
        let all = requests();
        let declared: Vec<String> = all.iter().map(|r| format!("{:?}", r.schema)).collect();
        fn objects(kind: &Kind, out: &mut Vec<&'static Schema>) {
            match kind {
                Kind::Obj(schema) => out.push(schema),
                Kind::Arr(member) => objects(&member.kind, out),
                _ => {}
            }
        }
        for r in &all {
            let mut inner = Vec::new();
            for f in r.schema.fields {
                objects(&f.kind, &mut inner);
            }
            for schema in inner {
                assert!(
                    !has_rules(schema) || declared.contains(&format!("{schema:?}")),
                    "a field of {} holds an object with rules that no request type declares",
                    r.name
                );
            }
        }
    }

    #[test]
    fn every_request_declared_in_the_models_is_collected() {
        let names: Vec<&str> = requests().iter().map(|r| r.name).collect();
        let mut dirs = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/model"
        ))];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let text = std::fs::read_to_string(path).unwrap();
                for line in text.lines() {
                    let Some(rest) = line.trim_start().strip_prefix("request ") else {
                        continue;
                    };
                    let name = rest.trim_end_matches(" {");
                    if name.starts_with('$') {
                        continue;
                    }
                    assert!(names.contains(&name), "{name} is not taken by any row");
                }
            }
        }
    }
}
