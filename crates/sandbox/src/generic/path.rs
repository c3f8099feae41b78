//! Where a row's records sit: the collections and items its path names, learnt from the whole table.

use crate::resource::NAMED;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;
use svc_core::catalog::{Method, Operation, Shape};

/// What the table says about collections, by shape (`/a/{}/b`: every parameter written `{}`).
struct Index {
    /// The parameter naming an item of a collection: rows that end at the item first.
    ids: HashMap<String, &'static str>,
    /// Collections that are listed or have items read or deleted.
    collections: HashSet<String>,
}

fn param_of(seg: &str) -> Option<&str> {
    seg.strip_prefix('{')?.strip_suffix('}')
}

/// The path with every parameter written `{}`.
pub fn shape_of(path: &str) -> String {
    path.split('/')
        .map(|s| if param_of(s).is_some() { "{}" } else { s })
        .collect::<Vec<_>>()
        .join("/")
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| build(svc_core::catalog::operations()))
}

fn build(ops: svc_core::catalog::Table) -> Index {
    let mut ids = HashMap::new();
    let mut collections = HashSet::new();
    for ending in [true, false] {
        for op in ops.iter().filter(|op| op.routed) {
            let segs: Vec<&'static str> = op.path.split('/').collect();
            for (i, seg) in segs.iter().enumerate().skip(2) {
                let Some(param) = param_of(seg) else { continue };
                let after_name = param_of(segs[i - 1]).is_none() || i == 2;
                if !after_name || (ending && i + 1 != segs.len()) {
                    continue;
                }
                ids.entry(shape_of(&segs[..i].join("/"))).or_insert(param);
            }
        }
    }
    for op in ops {
        let shape = shape_of(op.path);
        if op.method == Method::Get && matches!(op.response, Shape::List(_)) {
            collections.insert(shape.clone());
        }
        if matches!(op.method, Method::Get | Method::Delete) {
            if let Some((coll, last)) = shape.rsplit_once('/') {
                if last == "{}" && !coll.ends_with("{}") && !coll.is_empty() {
                    collections.insert(coll.to_string());
                }
            }
        }
    }
    Index { ids, collections }
}

/// Whether an answer holds one resource (or a one-element array of it).
pub fn one(shape: Shape) -> bool {
    matches!(
        shape,
        Shape::Key(_) | Shape::KeyArray(_) | Shape::KeyOrOneElementArray(_) | Shape::TopLevel
    )
}

/// A collection: the table its records are kept in (the path of the collection, each parameter
/// named after the id field of its level), their id field, and the field naming their parent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coll {
    pub table: String,
    pub id: String,
    pub parent: Option<String>,
    shape: String,
}

/// An item the path names: its collection and the path parameter holding its id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub coll: Coll,
    pub param: &'static str,
    /// Whether the path names the item's parent too (a `/a/b/{b_id}` path of `/a/{a_id}/b` does not).
    pub scoped: bool,
}

/// What a path names: its items, outermost first; the collection it stops at, if it stops at one;
/// and the segments past both (an action such as `status/sent`), if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Target {
    pub items: Vec<Item>,
    pub coll: Option<Coll>,
    pub tail: Vec<&'static str>,
}

/// `comments` gives `comment`, `addresses` `address`, `categories` `category`.
pub fn singular(word: &str) -> String {
    if let Some(stem) = word.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for ending in ["sses", "xes", "ches", "shes"] {
        if word.ends_with(ending) {
            return word[..word.len() - 2].to_string();
        }
    }
    match word.strip_suffix('s') {
        Some(stem) if !stem.ends_with('s') && !stem.is_empty() => stem.to_string(),
        _ => word.to_string(),
    }
}

/// The id field of a collection: the parameter the table names its items with, else the
/// singular of the answer's key or of the collection's last name, with `_id`.
fn id_of(shape: &str, op: &Operation, last: &str) -> String {
    if let Some(param) = index().ids.get(shape) {
        return param.to_string();
    }
    let key = match op.response {
        Shape::Key(keys) | Shape::KeyArray(keys) => keys.first().copied(),
        Shape::KeyOrOneElementArray(key) | Shape::List(key) => Some(key),
        _ => None,
    };
    match key.filter(|k| shape_of(op.path) == shape && !k.is_empty()) {
        Some(key) => format!("{}_id", singular(key)),
        None => format!("{}_id", singular(last)),
    }
}

struct Walk<'o> {
    op: &'o Operation,
    /// A row the table does not have: each name after an item is a collection, as are the
    /// names at the root together.
    loose: bool,
    target: Target,
    /// The shape and the table of the last item (empty at the root).
    shape: String,
    table: String,
}

impl Walk<'_> {
    fn coll(&self, shape: String, table: String, last: &str) -> Coll {
        let parent = self.target.items.last().map(|i| i.coll.id.clone());
        let named = NAMED
            .iter()
            .find(|r| r.table == table)
            .map(|r| r.id.to_string());
        Coll {
            id: named.unwrap_or_else(|| id_of(&shape, self.op, last)),
            table,
            parent,
            shape,
        }
    }

    /// The longest run of `names` (from the first) that makes a collection here, with how many
    /// names it took.
    fn collection(&self, names: &[&str]) -> Option<(Coll, usize)> {
        if self.loose {
            let took = if self.table.is_empty() {
                names.len()
            } else {
                1
            };
            if took != names.len() {
                return None;
            }
            let joined = names.join("/");
            let shape = format!("{}/{joined}", self.shape);
            let table = format!("{}/{joined}", self.table);
            return Some((self.coll(shape, table, names[took - 1]), took));
        }
        let idx = index();
        for n in (1..=names.len()).rev() {
            let joined = names[..n].join("/");
            let shape = format!("{}/{joined}", self.shape);
            if self.table.is_empty() && n == 2 {
                let nested = format!("/{}/{{}}/{}", names[0], names[1]);
                if idx.collections.contains(&nested) {
                    let id = idx.ids.get(&format!("/{}", names[0]))?;
                    let table = format!("/{}/{{{id}}}/{}", names[0], names[1]);
                    let mut coll = self.coll(nested, table, names[1]);
                    coll.parent = Some(id.to_string());
                    return Some((coll, n));
                }
            }
            if idx.collections.contains(&shape) {
                return Some((
                    self.coll(shape, format!("{}/{joined}", self.table), names[n - 1]),
                    n,
                ));
            }
        }
        None
    }

    /// At the root, a name no row lists: the collection of its plural (`/bill` of `/bills`,
    /// `/recurring_bills` of `/recurringbills`), else a collection of its own.
    fn root(&self, name: &str) -> Coll {
        let idx = index();
        let plain = name.replace('_', "");
        for alias in [
            format!("/{name}s"),
            format!("/{plain}"),
            format!("/{plain}s"),
        ] {
            if idx.collections.contains(&alias) {
                return self.coll(alias.clone(), alias, name);
            }
        }
        let own = format!("/{name}");
        self.coll(own.clone(), own, name)
    }
}

/// Splits a path into runs of names, each followed by the parameter after it, if any.
fn groups(path: &'static str) -> Vec<(Vec<&'static str>, Option<&'static str>)> {
    let mut out: Vec<(Vec<&'static str>, Option<&'static str>)> = vec![(Vec::new(), None)];
    for seg in path.split('/').skip(1) {
        match param_of(seg) {
            Some(p) => {
                if let Some(last) = out.last_mut() {
                    last.1 = Some(p);
                }
                out.push((Vec::new(), None));
            }
            None => {
                if let Some(last) = out.last_mut() {
                    last.0.push(seg);
                }
            }
        }
    }
    out.retain(|(names, param)| !names.is_empty() || param.is_some());
    out
}

/// What a row's path names. `value` gives a path parameter's value: a path that starts with a
/// parameter (`/{module_name}`) names a collection by its value.
pub fn target(op: &Operation, value: &dyn Fn(&str) -> String) -> Target {
    let known = svc_core::catalog::find(op.id).is_some_and(|row| std::ptr::eq(row, op));
    let mut w = Walk {
        op,
        loose: !known,
        target: Target::default(),
        shape: String::new(),
        table: String::new(),
    };
    let mut pending: Option<Coll> = None;
    for (names, param) in groups(op.path) {
        if !w.target.tail.is_empty() || (pending.is_some() && !names.is_empty()) {
            w.target.coll = w.target.coll.take().or(pending.take());
            w.target.tail.extend(names.iter().copied().chain(param));
            continue;
        }
        if names.is_empty() {
            match (pending.take(), param) {
                (Some(coll), Some(p)) => w.item(coll, p),
                (None, Some(p)) if w.table.is_empty() => {
                    let name = value(p);
                    pending = Some(w.coll("/{}".into(), format!("/{name}"), &name));
                }
                _ => w.target.tail.extend(param),
            }
            continue;
        }
        w.step(&names, param);
    }
    if let Some(coll) = pending {
        w.target.coll = Some(coll);
    }
    w.target
}

impl Walk<'_> {
    fn item(&mut self, coll: Coll, param: &'static str) {
        let scoped = coll.parent.is_some() && !self.table.is_empty();
        self.shape = format!("{}/{{}}", coll.shape);
        self.table = format!("{}/{{{}}}", coll.table, coll.id);
        self.target.items.push(Item {
            coll,
            param,
            scoped,
        });
    }

    /// One run of names and the parameter after it.
    fn step(&mut self, names: &[&'static str], param: Option<&'static str>) {
        let (coll, took) = match self.collection(names) {
            Some(found) => found,
            None if self.table.is_empty() => (self.root(names[0]), 1),
            None => {
                self.target.tail.extend(names.iter().copied().chain(param));
                return;
            }
        };
        let rest = &names[took..];
        let view = !rest.is_empty()
            && self.table.is_empty()
            && !self.loose
            && index().collections.contains(&coll.shape);
        match param {
            Some(p) if rest.is_empty() || view => self.item(coll, p),
            _ => {
                self.target.coll = Some(coll);
                self.target.tail.extend(rest.iter().copied().chain(param));
            }
        }
    }
}
