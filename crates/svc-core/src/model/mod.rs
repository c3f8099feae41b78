//! Wire types of every resource, one file per family; request and response shapes where they differ.

pub mod billing;
pub mod books;
pub mod common;
pub mod crm;
pub mod inventory;
pub mod invoice;
#[cfg(test)]
pub(crate) mod results;

/// A wire type that the TypeScript declarations name: a request's params, or a row's result.
pub trait Named {
    /// Its name in the declarations.
    const NAME: &'static str;
    /// Whether a result is an array of `NAME`.
    const MANY: bool = false;
    /// Decodes a vendor's example resource as this type and writes it again; `None` for a result
    /// that carries no resource.
    #[cfg(test)]
    const DECODE: Option<results::Decode> = None;
}

impl<T: Named> Named for Vec<T> {
    const NAME: &'static str = T::NAME;
    const MANY: bool = true;
    #[cfg(test)]
    const DECODE: Option<results::Decode> = T::DECODE;
}
