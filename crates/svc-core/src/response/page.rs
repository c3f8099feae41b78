//! A list's `page_context` and the page its iteration asks for next.

use crate::error::Error;
use svc_json::{Json, Num};

/// What a list's `page_context` tells the pager: the page the answer is (when it says) and whether
/// more follow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageContext {
    pub page: Option<u64>,
    pub has_more_page: bool,
}

/// A JSON number that is a whole number from 1 to 2^53 - 1.
fn positive_integer(v: &Json) -> Option<u64> {
    let n = v.as_f64()?;
    (n >= 1.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_991.0).then_some(n as u64)
}

impl PageContext {
    /// Checks a `page_context`: an object, its `page`, when given, a positive integer, its
    /// `has_more_page`, when given, a boolean. The error says what is wrong, after "the response's".
    #[cfg(any(test, feature = "serde_json"))]
    pub fn read(v: &serde_json::Value) -> Result<PageContext, String> {
        PageContext::read_json(&svc_json::of_value(v))
    }

    /// `read` for a value read from JSON text (`json::parse`).
    pub fn read_json(v: &Json) -> Result<PageContext, String> {
        let fields = v
            .as_object()
            .ok_or_else(|| format!("`page_context` is {}, not an object", value_type(v)))?;
        let page = match fields.get("page") {
            None | Some(Json::Null) => None,
            Some(p) => Some(positive_integer(p).ok_or_else(|| {
                format!(
                    "`page_context.page` is {}, not a positive integer",
                    describe(p)
                )
            })?),
        };
        let has_more_page = match fields.get("has_more_page") {
            None | Some(Json::Null) => false,
            Some(Json::Bool(b)) => *b,
            Some(m) => {
                return Err(format!(
                    "`page_context.has_more_page` is {}, not a boolean",
                    value_type(m)
                ))
            }
        };
        Ok(PageContext {
            page,
            has_more_page,
        })
    }
}

/// A number as it was sent (an integer as serde_json writes it), anything else by its type.
fn describe(v: &Json) -> String {
    match (v, v.as_num()) {
        (_, Some(Num::U(u))) => u.to_string(),
        (_, Some(Num::I(i))) => i.to_string(),
        (Json::Num(text), _) => text.to_string(),
        (other, _) => value_type(other).to_string(),
    }
}

/// The page a list's iteration asks for after page `asked` came with `context` and `items` items:
/// the next one while the service says more follow and this page was not empty. An answer that is
/// not the page asked for, or says more follow without saying which page it is, is a `decode`
/// error: a service that answers the same page again and again would otherwise be asked forever.
pub fn next_page(
    asked: u64,
    context: Option<PageContext>,
    items: usize,
) -> Result<Option<u64>, Error> {
    let Some(context) = context else {
        return Ok(None);
    };
    let more = context.has_more_page && items > 0;
    match context.page {
        Some(page) if page != asked => Err(Error::decode(format!(
            "page {asked} was asked for and the service answered page {page}: the pages do not advance, so the iteration ends here"
        ))),
        None if more => Err(Error::decode(format!(
            "the service says more pages follow page {asked} without saying which page it answered: that the pages advance cannot be told, so the iteration ends here"
        ))),
        _ if more && asked >= u64::from(u32::MAX) => Err(Error::decode(format!(
            "the service says more pages follow page {asked}, the last page a call can ask for (page is at most {}), so the iteration ends here",
            u32::MAX
        ))),
        _ => Ok(more.then_some(asked + 1)),
    }
}

/// The words of a JSON value's type.
fn value_type(v: &Json) -> &'static str {
    match v {
        Json::Obj(_) => "an object",
        Json::Arr(_) => "an array",
        Json::Str(_) => "a string",
        Json::Bool(_) => "a boolean",
        Json::Null => "null",
        Json::Num(_) => "a number",
    }
}
