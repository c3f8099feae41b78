//! Wire types of every resource, one file per family; request and response shapes where they differ.

pub mod billing;
pub mod books;
pub mod common;
pub mod crm;
pub mod inventory;
pub mod invoice;
#[cfg(test)]
pub(crate) mod tests;

/// A wire type that the TypeScript declarations name: a request's params, or a row's result.
pub trait Named {
    /// Its name in the declarations.
    const NAME: &'static str;
    /// Whether a result is an array of `NAME`.
    const MANY: bool = false;
    /// Decodes a vendor's example resource as this type and writes it again; `None` for a result
    /// that carries no resource.
    #[cfg(test)]
    const DECODE: Option<Decode> = None;
}

/// Decodes a vendor's example resource into a model type and encodes it again (`Named::DECODE`).
#[cfg(test)]
pub type Decode = fn(&serde_json::Value) -> Result<serde_json::Value, String>;

/// The `Decode` of `T`: serde's derived decoding and encoding of it.
#[cfg(test)]
pub fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(
    v: &serde_json::Value,
) -> Result<serde_json::Value, String> {
    let typed: T = serde_json::from_value(v.clone()).map_err(|e| e.to_string())?;
    serde_json::to_value(&typed).map_err(|e| e.to_string())
}

impl<T: Named> Named for Vec<T> {
    const NAME: &'static str = T::NAME;
    const MANY: bool = true;
    #[cfg(test)]
    const DECODE: Option<Decode> = T::DECODE;
}
