//! An answer's headers as the platform gave them (names lower-case), read by name and written as a JSON object.

use serde::ser::{Serialize, SerializeMap, Serializer};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Headers(pub Vec<(String, String)>);

impl Headers {
    /// The value of `name` (any case).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Every value that quotes `secret`, in any of its spellings, with `[redacted]` in its place.
    pub fn without_secret(mut self, secret: Option<&str>) -> Headers {
        if let Some(secret) = secret.filter(|s| !s.is_empty()) {
            for (_, v) in &mut self.0 {
                *v = crate::redact::text(v, secret);
            }
        }
        self
    }
}

impl Serialize for Headers {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_read_by_name_in_any_case_and_written_as_an_object() {
        let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
        let h = Headers(vec![
            pair("content-type", "application/json"),
            pair("x-rate-limit-remaining", "7"),
        ]);
        assert_eq!(h.get("content-type"), Some("application/json"));
        assert_eq!(h.get("X-Rate-Limit-Remaining"), Some("7"));
        assert_eq!(h.get("retry-after"), None);
        assert_eq!(
            serde_json::to_string(&h).unwrap(),
            r#"{"content-type":"application/json","x-rate-limit-remaining":"7"}"#
        );
    }

    #[test]
    fn a_quoted_secret_is_redacted_in_every_spelling() {
        let h = Headers(vec![
            ("x-echo".into(), "Svc-oauthtoken s3cr3t".into()),
            ("x-json".into(), r#"{"t":"s\u0033cr\u0033t"}"#.into()),
            ("x-other".into(), "s3cr3".into()),
        ]);
        let h = h.without_secret(Some("s3cr3t"));
        assert_eq!(h.get("x-echo"), Some("Svc-oauthtoken [redacted]"));
        assert_eq!(h.get("x-json"), Some(r#"{"t":"[redacted]"}"#));
        assert_eq!(h.get("x-other"), Some("s3cr3"));
        assert_eq!(h.clone().without_secret(Some("")), h);
        assert_eq!(h.clone().without_secret(None), h);
    }
}
