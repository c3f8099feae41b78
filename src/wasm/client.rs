//! The JS `Client`.

macro_rules! operation_methods {
    ($($id:ident)*) => {};
}
pub(crate) use operation_methods;
