//! A row of the table and its parts: the method, where params travel, where the answer's resource
//! sits, where the row is documented; `op` and the builders the rows are written with.

use crate::family::Family;
use crate::model::Named;
use crate::schema::{Params, Schema};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Method {
    Get,
    Post,
    Put,
    Patch,
    Delete,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }

    pub fn parse(s: &str) -> Option<Method> {
        Some(match s.to_ascii_uppercase().as_str() {
            "GET" => Method::Get,
            "POST" => Method::Post,
            "PUT" => Method::Put,
            "PATCH" => Method::Patch,
            "DELETE" => Method::Delete,
            _ => return None,
        })
    }

    /// Whether `params` of this method are a JSON body (else they are the query).
    pub fn has_body(self) -> bool {
        matches!(self, Method::Post | Method::Put | Method::Patch)
    }

    /// Whether a request may be sent again after the server may have acted on it.
    pub fn is_idempotent(self) -> bool {
        !matches!(self, Method::Post)
    }
}

/// How the request carries its `params`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// GET and DELETE: params go to the query.
    Query,
    /// A JSON object body.
    Json,
    /// multipart/form-data: the files of param `param`, sent under form field `field`.
    Multipart {
        param: &'static str,
        field: &'static str,
        many: bool,
        accept: &'static [&'static str],
    },
}

/// Where the resource sits in a successful response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// An object under the first of these keys that is present.
    Key(&'static [&'static str]),
    /// An array under the first of these keys that is present (a result type ending in `[]`).
    KeyArray(&'static [&'static str]),
    /// Under a key, either as an object or as a one-element array.
    KeyOrOneElementArray(&'static str),
    /// Resource fields next to `code` and `message`.
    TopLevel,
    /// A page: items under this key, plus `page_context`.
    List(&'static str),
    /// No resource: the envelope itself (`code`, `message`, anything else kept).
    Empty,
    /// Raw bytes with their content type.
    Binary,
}

/// Where a row is documented: the spec, or only the vendor's published examples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Spec,
    Vendor,
    /// Generated from the vendor's OpenAPI documents (`crate::published`).
    Published,
}

/// The TypeScript names of a row's params and result (a list's item type), and whether the result is
/// an array of it.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Types {
    pub params: &'static str,
    pub result: &'static str,
    pub many: bool,
}

#[cfg(not(target_arch = "wasm32"))]
impl Operation {
    /// The TypeScript type of its params: an upload's are its files.
    pub fn params_ts(&self) -> String {
        match self.body {
            BodyKind::Multipart { param, many, .. } => {
                format!("{{ {param}: FileInput{} }}", if many { "[]" } else { "" })
            }
            _ => self.ts.params.into(),
        }
    }
    /// The TypeScript type of its result (a list's item type).
    pub fn result_ts(&self) -> String {
        match self.response {
            Shape::Binary => "Blob".into(),
            _ if self.ts.many => format!("{}[]", self.ts.result),
            _ => self.ts.result.into(),
        }
    }
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct Operation {
    pub id: &'static str,
    pub family: Family,
    pub method: Method,
    pub path: &'static str,
    pub scope: &'static str,
    pub body: BodyKind,
    /// Params of a body method that travel in the query instead.
    pub query: &'static [&'static str],
    /// Params that travel as headers: (param name, header name).
    pub headers: &'static [(&'static str, &'static str)],
    /// Whether the family's organization id is sent.
    pub org: bool,
    pub response: Shape,
    /// Whether the proxy and the sandbox route its method and path to it: not for a generated row
    /// whose route an earlier row holds (the documents give debit notes the invoices' routes).
    pub routed: bool,
    /// The rules its params must pass.
    pub params: &'static Schema,
    /// The TypeScript types of its params and of its result: read natively by the declarations
    /// build (`cargo run -p xtask -- declarations`), so kept out of the
    /// wasm.
    #[cfg(not(target_arch = "wasm32"))]
    pub ts: Types,
    /// Adds the request types its params are and hold (`Shape::requests`), for the declarations build.
    #[cfg(not(target_arch = "wasm32"))]
    pub requests: fn(&mut Vec<crate::schema::Request>),
    /// How the vendor's example answer decodes into its result type (`Named::DECODE`).
    #[cfg(test)]
    pub decode: Option<crate::model::Decode>,
    pub source: Source,
}

/// A row with the defaults of its method: params in the query for GET and DELETE, else a JSON body;
/// the organization sent; a top-level answer, or none for DELETE; no params (`NoParams`) and no
/// result beyond the answer's code and message (`Message`). The methods below change one part.
pub const fn op(
    family: Family,
    method: Method,
    path: &'static str,
    scope: &'static str,
) -> Operation {
    let body = match method {
        Method::Get | Method::Delete => BodyKind::Query,
        _ => BodyKind::Json,
    };
    let response = match method {
        Method::Delete => Shape::Empty,
        _ => Shape::TopLevel,
    };
    Operation {
        id: "",
        family,
        method,
        path,
        scope,
        body,
        query: &[],
        headers: &[],
        org: true,
        response,
        routed: true,
        params: &Schema::EMPTY,
        #[cfg(not(target_arch = "wasm32"))]
        ts: Types {
            params: "NoParams",
            result: "Message",
            many: false,
        },
        #[cfg(not(target_arch = "wasm32"))]
        requests: |_| {},
        #[cfg(test)]
        decode: None,
        source: Source::Spec,
    }
}

impl Operation {
    pub const fn named(self, id: &'static str) -> Self {
        Operation { id, ..self }
    }
    pub const fn key(self, key: &'static [&'static str]) -> Self {
        Operation {
            response: Shape::Key(key),
            ..self
        }
    }
    pub const fn key_array(self, key: &'static [&'static str]) -> Self {
        Operation {
            response: Shape::KeyArray(key),
            ..self
        }
    }
    pub const fn one_or_array(self, key: &'static str) -> Self {
        Operation {
            response: Shape::KeyOrOneElementArray(key),
            ..self
        }
    }
    pub const fn list(self, key: &'static str) -> Self {
        Operation {
            response: Shape::List(key),
            ..self
        }
    }
    pub const fn top_level(self) -> Self {
        Operation {
            response: Shape::TopLevel,
            ..self
        }
    }
    pub const fn empty(self) -> Self {
        Operation {
            response: Shape::Empty,
            ..self
        }
    }
    pub const fn binary(self) -> Self {
        Operation {
            response: Shape::Binary,
            ..self
        }
    }
    /// The params are a request type: its declared schema, and its name in the declarations.
    pub const fn params<T: Params + Named>(self) -> Self {
        #[cfg(not(target_arch = "wasm32"))]
        let ts = Types {
            params: T::NAME,
            ..self.ts
        };
        Operation {
            params: T::SCHEMA,
            #[cfg(not(target_arch = "wasm32"))]
            ts,
            #[cfg(not(target_arch = "wasm32"))]
            requests: <T as crate::schema::Shape>::requests,
            ..self
        }
    }
    /// The result is `R` (a list's item type; `Vec<R>` for an array).
    pub const fn returns<R: Named>(self) -> Self {
        #[cfg(not(target_arch = "wasm32"))]
        let ts = Types {
            result: R::NAME,
            many: R::MANY,
            ..self.ts
        };
        Operation {
            #[cfg(not(target_arch = "wasm32"))]
            ts,
            #[cfg(test)]
            decode: R::DECODE,
            ..self
        }
    }
    /// A row that only the vendor's examples document.
    pub const fn vendor(self) -> Self {
        Operation {
            source: Source::Vendor,
            ..self
        }
    }
    pub const fn no_org(self) -> Self {
        Operation { org: false, ..self }
    }
    pub const fn query(self, query: &'static [&'static str]) -> Self {
        Operation { query, ..self }
    }
    pub const fn headers(self, headers: &'static [(&'static str, &'static str)]) -> Self {
        Operation { headers, ..self }
    }
    /// A multipart upload: its params are its files (`upload!("param")`, checked by the transport:
    /// count and type), sent under form field `field`.
    pub const fn files(
        self,
        params: &'static Schema,
        field: &'static str,
        many: bool,
        accept: &'static [&'static str],
    ) -> Self {
        Operation {
            body: BodyKind::Multipart {
                param: params.fields[0].name,
                field,
                many,
                accept,
            },
            params,
            ..self
        }
    }

    /// The names of the path parameters, in path order.
    pub fn path_params(&self) -> impl Iterator<Item = &'static str> {
        self.path
            .split('/')
            .filter_map(|seg| seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
    }

    pub fn path_param_count(&self) -> usize {
        self.path_params().count()
    }
}
