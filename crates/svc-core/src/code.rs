//! The service's documented application codes (an answer envelope's `code`), named once for the sandbox, the SDK and the package's `ErrorCode`.

use crate::declare;
use svc_json::write::{self, Members};

/// Each code as a constant, and `ALL`: its name, value and what the service's documents say of it.
macro_rules! codes {
    ($(#[doc = $doc:literal] $name:ident = $value:literal,)*) => {
        $(#[doc = $doc] pub const $name: i64 = $value;)*

        /// Every documented error code: its name, value and meaning.
        pub const ALL: &[(&str, i64, &str)] = &[$((stringify!($name), $value, $doc.trim_ascii())),*];
    };
}

codes! {
    /// An internal error of the service.
    INTERNAL = 1000,
    /// The addressed record does not exist (an invoice, a project, a recurring invoice...).
    NOT_FOUND = 1002,
    /// A recurring invoice was submitted without a name.
    RECURRING_INVOICE_NAME_MISSING = 4031,
    /// A project amount is negative.
    NEGATIVE_AMOUNT = 20004,
    /// A project that has recorded expenses cannot be deleted.
    PROJECT_HAS_EXPENSES = 20077,
}

/// The codes as a JSON object from name to value: the package's `ErrorCode`.
pub fn to_json() -> String {
    let mut out = String::new();
    let mut m = Members::new(&mut out);
    for (name, value, _) in ALL {
        write::integer(m.key(name), *value);
    }
    m.end();
    out
}

/// The TypeScript of `ErrorCode`: the constant (each code a literal, with its meaning) and the union of its values.
pub fn declarations() -> String {
    let mut out = String::new();
    declare::doc(
        &mut out,
        "",
        "The service's documented application codes, as an api error's `code` carries them:\n`if (e.kind === \"api\" && e.code === ErrorCode.NOT_FOUND)`. The service may send others.",
    );
    out.push_str("export declare const ErrorCode: {\n");
    for (name, value, doc) in ALL {
        declare::doc(&mut out, "  ", doc);
        out.push_str(&format!("  readonly {name}: {value};\n"));
    }
    out.push_str("};\n");
    declare::doc(&mut out, "", "A documented application code.");
    out.push_str("export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_codes_are_named_once() {
        assert_eq!(NOT_FOUND, 1002);
        assert_eq!(
            to_json(),
            r#"{"INTERNAL":1000,"NOT_FOUND":1002,"RECURRING_INVOICE_NAME_MISSING":4031,"NEGATIVE_AMOUNT":20004,"PROJECT_HAS_EXPENSES":20077}"#
        );
        let ts = declarations();
        assert!(ts.contains("  /** The addressed record does not exist (an invoice, a project, a recurring invoice...). */\n  readonly NOT_FOUND: 1002;\n"), "{ts}");
        assert!(
            ts.contains("export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];"),
            "{ts}"
        );
    }
}
