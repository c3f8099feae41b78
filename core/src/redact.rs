//! The access token put out of text: of bytes a proxy passes on, in every JSON spelling and across chunk edges, and of messages as they quote it.

const MARK: &[u8] = b"[redacted]";

fn hex(b: u8) -> Option<u32> {
    (b as char).to_digit(16)
}

/// Where `secret` (visible ASCII) stands in `buf` from `from` on, each of its characters as it is
/// or JSON-escaped (`\u0053` in either case, `\/`): its start and end.
pub fn find(buf: &[u8], secret: &[u8], from: usize) -> Option<(usize, usize)> {
    let first = *secret.first()?;
    (from..buf.len()).find_map(|i| {
        if buf[i] != first && buf[i] != b'\\' {
            return None;
        }
        let mut p = i;
        for &c in secret {
            match buf.get(p..) {
                Some([b, ..]) if *b == c => p += 1,
                Some([b'\\', b'u', a, b, c2, d, ..]) => {
                    let v = [a, b, c2, d]
                        .iter()
                        .try_fold(0, |v, &&h| Some(v << 4 | hex(h)?));
                    if v != Some(u32::from(c)) {
                        return None;
                    }
                    p += 6;
                }
                Some([b'\\', b'/', ..]) if c == b'/' => p += 2,
                _ => return None,
            }
        }
        Some((i, p))
    })
}

/// A body's redaction as it streams: each chunk gives out what can no longer be part of a match.
pub struct Redactor {
    secret: Vec<u8>,
    carry: Vec<u8>,
}

impl Redactor {
    pub fn new(secret: &str) -> Redactor {
        Redactor {
            secret: secret.as_bytes().to_vec(),
            carry: Vec::new(),
        }
    }

    /// The bytes of `chunk` (after those held back) that are sure, with the secret redacted.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<u8> {
        self.carry.extend_from_slice(chunk);
        // The longest spelling of the secret, less one byte, may still go on in the next chunk.
        let keep = (self.secret.len() * 6).saturating_sub(1);
        self.take(keep)
    }

    /// What is left at the end of the body.
    pub fn finish(&mut self) -> Vec<u8> {
        self.take(0)
    }

    fn take(&mut self, keep: usize) -> Vec<u8> {
        let buf = std::mem::take(&mut self.carry);
        let mut out = Vec::with_capacity(buf.len());
        let mut start = 0;
        while let Some((at, end)) = find(&buf, &self.secret, start) {
            out.extend_from_slice(&buf[start..at]);
            out.extend_from_slice(MARK);
            start = end;
        }
        let held = start.max(buf.len().saturating_sub(keep));
        out.extend_from_slice(&buf[start..held]);
        self.carry = buf[held..].to_vec();
        out
    }
}

/// A text (a header's value) with every spelling of `secret` redacted.
pub fn text(value: &str, secret: &str) -> String {
    if secret.is_empty() {
        return value.to_string();
    }
    let mut r = Redactor::new(secret);
    let mut out = r.push(value.as_bytes());
    out.extend(r.finish());
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Puts `[redacted]` wherever `text` quotes `secret` as it is; an empty or absent secret changes nothing.
pub fn literal(text: &mut String, secret: Option<&str>) {
    if let Some(secret) = secret.filter(|s| !s.is_empty()) {
        if text.contains(secret) {
            *text = text.replace(secret, "[redacted]");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn streamed(chunks: &[&str], secret: &str) -> String {
        let mut r = Redactor::new(secret);
        let mut out = Vec::new();
        for c in chunks {
            out.extend(r.push(c.as_bytes()));
        }
        out.extend(r.finish());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_json_spelling_is_redacted() {
        let s = "a/Tok";
        for body in [
            r#"{"t":"a/Tok"}"#,
            r#"{"t":"a\/Tok"}"#,
            r#"{"t":"\u0061\u002FTok"}"#,
            r#"{"t":"\u0061\u002fT\u006Fk"}"#,
        ] {
            assert_eq!(text(body, s), r#"{"t":"[redacted]"}"#, "{body}");
        }
        assert_eq!(text("a/To", s), "a/To");
        assert_eq!(text(r"\u00zz/Tok", s), r"\u00zz/Tok");
    }

    #[test]
    fn a_secret_split_across_chunks_is_redacted() {
        let body = r#"{"echo":"x-Secret-1","again":"x-\u0053ecret-1"}"#;
        let want = r#"{"echo":"[redacted]","again":"[redacted]"}"#;
        for cut in 0..body.len() {
            let (a, b) = body.split_at(cut);
            assert_eq!(streamed(&[a, b], "x-Secret-1"), want, "cut at {cut}");
        }
        let bytes: Vec<String> = body.chars().map(String::from).collect();
        let refs: Vec<&str> = bytes.iter().map(String::as_str).collect();
        assert_eq!(streamed(&refs, "x-Secret-1"), want);
    }

    #[test]
    fn bytes_that_are_sure_go_out_at_once() {
        let mut r = Redactor::new("tok");
        assert_eq!(r.push(&[b'a'; 100]).len(), 100 - (3 * 6 - 1));
        assert_eq!(r.finish().len(), 3 * 6 - 1);
    }
}
