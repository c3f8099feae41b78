//! The documents' operations as rows of the table: their ids (the vendor's, or made from the summary),
//! the rows the hand-written table already has left out, the overrides applied.

use crate::openapi::{Answer, Doc, Place, Raw};
use crate::overrides::Overrides;
use crate::shape::{Field, Node};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Where a successful answer's resource sits, as `svc_core::catalog::Shape` has them.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Key(String),
    KeyArray(String),
    List(String),
    TopLevel,
    Empty,
    Binary,
}

/// One generated row.
pub struct Row {
    pub raw: Raw,
    pub id: String,
    pub params: Vec<Field>,
    pub query: Vec<String>,
    pub headers: Vec<(String, String)>,
    pub shape: Shape,
    pub scope: String,
}

/// The rows of the documents that the hand-written table does not already hold, in document order,
/// and the number of operations the documents hold in all.
pub fn rows(docs: &[Doc], overrides: &Overrides) -> Result<(Vec<Row>, usize), String> {
    let raws: Vec<Raw> = docs.iter().flat_map(Doc::operations).collect();
    let total = raws.len();
    let hand: HashMap<(String, String, String), &str> = svc_core::catalog::ROWS
        .iter()
        .map(|op| {
            (
                (
                    op.family.name().to_string(),
                    op.method.as_str().to_string(),
                    route(op.path),
                ),
                op.id,
            )
        })
        .collect();
    let taken: HashSet<&str> = svc_core::catalog::ROWS.iter().map(|op| op.id).collect();
    let books_ids: HashMap<(String, String), String> = raws
        .iter()
        .filter(|r| r.family == "books")
        .filter_map(|r| {
            let id = match overrides.id(r) {
                Some(id) => id.to_string(),
                None => camel(r.operation_id.as_deref()?),
            };
            Some(((r.method.clone(), route(&r.path)), id))
        })
        .collect();
    let mut named: Vec<(Raw, String)> = Vec::new();
    for raw in raws {
        let key = (raw.family.to_string(), raw.method.clone(), route(&raw.path));
        if hand.contains_key(&key) {
            continue;
        }
        let base = match (&raw.operation_id, overrides.id(&raw)) {
            (_, Some(id)) => id.to_string(),
            (Some(id), None) => camel(id),
            (None, None) => hand
                .get(&("books".to_string(), raw.method.clone(), route(&raw.path)))
                .map(|id| id.to_string())
                .or_else(|| {
                    books_ids
                        .get(&(raw.method.clone(), route(&raw.path)))
                        .cloned()
                })
                .unwrap_or_else(|| {
                    let id = from_summary(&raw.summary, &raw.method, &raw.path);
                    let noun = noun(&raw.file);
                    let lower = id.to_ascii_lowercase();
                    let named = split_words(&noun)
                        .iter()
                        .any(|w| lower.contains(w.as_str()));
                    if named {
                        id
                    } else {
                        with_noun(&id, &noun)
                    }
                }),
        };
        named.push((raw, base));
    }
    disambiguate(&mut named);
    let books_local: HashSet<String> = named
        .iter()
        .filter(|(r, _)| r.family == "books")
        .map(|(_, b)| b.clone())
        .collect();
    let mut rows = Vec::new();
    let mut ids = HashSet::new();
    for (raw, local) in named {
        let mut id = local.clone();
        if (raw.family == "inventory" && books_local.contains(&id)) || taken.contains(id.as_str()) {
            id = format!("{}{}", raw.family, pascal(&id));
        }
        if !ids.insert(id.clone()) || taken.contains(id.as_str()) {
            return Err(format!(
                "{} {} {} ({}): the id {id} is taken twice; name it in the overrides",
                raw.family, raw.method, raw.path, raw.file
            ));
        }
        rows.push(row(raw, id, overrides)?);
    }
    Ok((rows, total))
}

fn row(mut raw: Raw, id: String, overrides: &Overrides) -> Result<Row, String> {
    let mut params: Vec<Field> = Vec::new();
    let mut query = Vec::new();
    let mut headers = Vec::new();
    let body_method = matches!(raw.method.as_str(), "POST" | "PUT" | "PATCH");
    if let Some(Field {
        node: Node::Obj(fields),
        ..
    }) = &raw.body
    {
        params.extend(fields.iter().cloned());
    }
    for p in &raw.params {
        if params.iter().any(|f| f.name == p.field.name) {
            continue;
        }
        params.push(p.field.clone());
        match p.place {
            Place::Header => headers.push((p.field.name.clone(), p.wire.clone())),
            Place::Query if body_method => query.push(p.field.name.clone()),
            Place::Query => {}
        }
    }
    overrides.fields(&id, &mut params)?;
    raw.org = overrides.organization(&id, raw.org);
    if let (Some(key), Answer::Json { keys, .. }) = (overrides.answer_key(&id), &mut raw.answer) {
        for k in keys.iter_mut().filter(|k| k.0 != "page_context") {
            k.0 = key.to_string();
        }
    }
    let shape = match &raw.answer {
        Answer::File(_) => Shape::Binary,
        Answer::Nothing => Shape::Empty,
        Answer::Json { keys, page } => shape(
            keys,
            *page || (raw.method == "GET" && id.starts_with("list")),
        ),
    };
    let scope = raw
        .scope
        .clone()
        .or_else(|| overrides.scope(&id).map(str::to_string))
        .ok_or_else(|| format!("{id}: the document states no scope; give one in the overrides"))?;
    Ok(Row {
        raw,
        id,
        params,
        query,
        headers,
        shape,
        scope,
    })
}

fn shape(keys: &[(String, Node)], page: bool) -> Shape {
    match keys {
        [] => Shape::Empty,
        [(k, Node::Arr(_))] if page => Shape::List(k.clone()),
        [(k, Node::Any)] if page => Shape::List(k.clone()),
        [(k, Node::Obj(_))] => Shape::Key(k.clone()),
        [(k, Node::Arr(_))] => Shape::KeyArray(k.clone()),
        _ => Shape::TopLevel,
    }
}

/// A path with its parameters' names left out, so that two spellings of one route compare equal.
pub fn route(path: &str) -> String {
    path.split('/')
        .map(|s| if s.starts_with('{') { "{}" } else { s })
        .collect::<Vec<_>>()
        .join("/")
}

/// `create_contact` → `createContact`.
pub fn camel(s: &str) -> String {
    let mut out = String::new();
    for (i, w) in s
        .split(['_', '-', ' '])
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        if i == 0 {
            out.push_str(&w.to_ascii_lowercase());
        } else {
            out.push_str(&pascal(&w.to_ascii_lowercase()));
        }
    }
    out
}

pub fn pascal(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

const SMALL: [&str; 6] = ["a", "an", "the", "all", "of", "details"];

/// An id made from a summary ("Retrieve a transfer order" → `getTransferOrder`); from the method
/// and the path when the summary gives no words.
pub fn from_summary(summary: &str, method: &str, path: &str) -> String {
    let mut text = String::new();
    let mut depth = 0;
    for c in summary.chars() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            '&' => break,
            _ if depth == 0 => text.push(if c.is_ascii_alphanumeric() { c } else { ' ' }),
            _ => {}
        }
    }
    let mut words: Vec<String> = text
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .filter(|w| !SMALL.contains(&w.as_str()))
        .collect();
    if let Some(verb) = words.first_mut() {
        let plain = match verb.as_str() {
            "retrieve" | "retrieving" => "get",
            "creating" => "create",
            "updating" => "update",
            "deleting" => "delete",
            "listing" => "list",
            other => other,
        };
        *verb = plain.to_string();
    }
    if words.is_empty() {
        return camel(&format!(
            "{} {}",
            method.to_ascii_lowercase(),
            route(path).replace(['/', '{', '}'], " ")
        ));
    }
    camel(&words.join(" "))
}

/// Ids that two rows of one family share are told apart by the resource of each row's document
/// (`markAsActive` → `markCompositeItemAsActive`), then by its path.
fn disambiguate(named: &mut [(Raw, String)]) {
    let shared = |named: &[(Raw, String)]| {
        let mut count: BTreeMap<(String, String), usize> = BTreeMap::new();
        for (raw, base) in named {
            *count
                .entry((raw.family.to_string(), base.clone()))
                .or_default() += 1;
        }
        move |raw: &Raw, base: &String| count[&(raw.family.to_string(), base.clone())] > 1
    };
    let twice = shared(named);
    for (raw, base) in named.iter_mut() {
        if twice(raw, base) {
            *base = with_noun(base, &noun(&raw.file));
        }
    }
    let twice = shared(named);
    for (raw, base) in named.iter_mut() {
        if twice(raw, base) {
            let tail: String = route(&raw.path)
                .split('/')
                .filter(|s| !s.is_empty() && *s != "{}")
                .skip(1)
                .map(|s| pascal(&camel(s)))
                .collect();
            base.push_str(&tail);
        }
    }
}

/// The resource a document is about, from its file's name (`compositeitems.yml` → `CompositeItem`).
fn noun(file: &str) -> String {
    let stem = file.trim_end_matches(".yml").trim_end_matches(".yaml");
    let words: Vec<&str> = match stem {
        "compositeitems" => vec!["composite", "item"],
        "itemgroups" => vec!["item", "group"],
        "itemadjustments" => vec!["item", "adjustment"],
        "purchaseorders" | "purchase-order" => vec!["purchase", "order"],
        "purchasereceives" => vec!["purchase", "receive"],
        "salesorders" | "sales-order" => vec!["sales", "order"],
        "salesreturns" => vec!["sales", "return"],
        "shipmentorders" => vec!["shipment", "order"],
        "transferorders" => vec!["transfer", "order"],
        "pricelists" => vec!["price", "list"],
        "taxes" => vec!["tax"],
        "currency" => vec!["currency"],
        other => other.trim_end_matches('s').split('-').collect(),
    };
    words.iter().map(|w| pascal(w)).collect()
}

/// `CompositeItem` → `["composite", "item"]`.
fn split_words(pascal: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for c in pascal.chars() {
        if c.is_ascii_uppercase() || words.is_empty() {
            words.push(String::new());
        }
        if let Some(w) = words.last_mut() {
            w.push(c.to_ascii_lowercase());
        }
    }
    words
}

fn with_noun(base: &str, noun: &str) -> String {
    let split = base
        .find(|c: char| c.is_ascii_uppercase())
        .unwrap_or(base.len());
    let (verb, rest) = base.split_at(split);
    if rest.starts_with(noun) {
        return base.to_string();
    }
    format!("{verb}{noun}{rest}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_made_from_summaries() {
        assert_eq!(
            from_summary("Retrieve a transfer order", "GET", "/x"),
            "getTransferOrder"
        );
        assert_eq!(
            from_summary("List taxes [US Edition only]", "GET", "/x"),
            "listTaxes"
        );
        assert_eq!(
            from_summary("List invoice comments & history", "GET", "/x"),
            "listInvoiceComments"
        );
        assert_eq!(
            with_noun("markAsActive", "CompositeItem"),
            "markCompositeItemAsActive"
        );
        assert_eq!(
            with_noun("deleteComment", "Invoice"),
            "deleteInvoiceComment"
        );
        assert_eq!(noun("compositeitems.yml"), "CompositeItem");
        assert_eq!(noun("contact-persons.yml"), "ContactPerson");
        assert_eq!(route("/a/{a_id}/b"), "/a/{}/b");
    }
}
