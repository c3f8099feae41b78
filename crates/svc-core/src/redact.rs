//! The access token put out of text: of bytes a proxy passes on, in every JSON spelling and across chunk edges, and of messages as they quote it.

const MARK: &[u8] = b"[redacted]";

fn hex(b: u8) -> Option<u32> {
    (b as char).to_digit(16)
}

/// The character a JSON two-character escape (`\` and `e`) stands for.
fn short_escape(e: u8) -> Option<u8> {
    Some(match e {
        b'"' | b'\\' | b'/' => e,
        b'b' => 0x08,
        b'f' => 0x0c,
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        _ => return None,
    })
}

/// Where `secret` (visible ASCII) stands in `buf` from `from` on, each of its characters in any
/// spelling JSON allows: as it is, `\u0053` in either case, or its two-character escape (`\"`,
/// `\\`, `\/`): its start and end. An ASCII character has no surrogate-pair spelling.
pub fn find(buf: &[u8], secret: &[u8], from: usize) -> Option<(usize, usize)> {
    let first = *secret.first()?;
    // The ends reached so far, each a way to spell the secret's characters up to here: a `\` may
    // be the character itself or open an escape of it (`\\` or `\u005C`), so there may be several.
    let (mut at, mut next) = (Vec::new(), Vec::new());
    (from..buf.len()).find_map(|i| {
        if buf[i] != first && buf[i] != b'\\' {
            return None;
        }
        at.clear();
        at.push(i);
        for &c in secret {
            next.clear();
            next.extend(at.iter().flat_map(|&p| spellings(buf, p, c)).flatten());
            next.sort_unstable();
            next.dedup();
            std::mem::swap(&mut at, &mut next);
            if at.is_empty() {
                return None;
            }
        }
        // The longest: an escape left half-redacted would change what follows it.
        Some((i, *at.last()?))
    })
}

/// The ends of each spelling of character `c` that starts at `p` in `buf`.
fn spellings(buf: &[u8], p: usize, c: u8) -> [Option<usize>; 3] {
    let rest = buf.get(p..).unwrap_or_default();
    let literal = (rest.first() == Some(&c)).then_some(p + 1);
    let short = match rest {
        [b'\\', e, ..] if short_escape(*e) == Some(c) => Some(p + 2),
        _ => None,
    };
    let unicode = match rest {
        [b'\\', b'u', a, b, c2, d, ..] => [a, b, c2, d]
            .iter()
            .try_fold(0, |v, &&h| Some(v << 4 | hex(h)?))
            .filter(|&v| v == u32::from(c))
            .map(|_| p + 6),
        _ => None,
    };
    [literal, short, unicode]
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
        // A match that starts within the last `keep` bytes may go on, longer, in the next chunk.
        let sure = buf.len().saturating_sub(keep);
        while let Some((at, end)) = find(&buf, &self.secret, start).filter(|&(at, _)| at < sure) {
            out.extend_from_slice(&buf[start..at]);
            out.extend_from_slice(MARK);
            start = end;
        }
        let held = start.max(sure);
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

/// Puts `[redacted]` wherever `message` quotes `secret`, as it is or in a JSON spelling (a message
/// may quote an answer's raw text). A secret shorter than a token can be (`SECRET_MIN`) was never
/// sent, and its letters are not cut out of the words: it changes nothing, as an absent one.
pub fn literal(message: &mut String, secret: Option<&str>) {
    if let Some(secret) = secret.filter(|s| s.len() >= SECRET_MIN) {
        if find(message.as_bytes(), secret.as_bytes(), 0).is_some() {
            *message = text(message, secret);
        }
    }
}

/// The shortest secret that is redacted: the shortest token the service issues (`request::TOKEN_MIN`).
pub const SECRET_MIN: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shortest_secret_redacted_is_the_shortest_token_taken() {
        assert_eq!(SECRET_MIN, crate::request::TOKEN_MIN);
    }

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
    fn quotes_and_backslashes_escaped_are_redacted() {
        let s = r#"tok"en\secret-123"#;
        for body in [
            r#"{"t":"tok\"en\\secret-123"}"#,
            r#"{"t":"tok\u0022en\u005Csecret-123"}"#,
            r#"{"t":"tok\u0022en\u005csecret\u002d123"}"#,
            r#"{"t":"\u0074ok\"en\\secret-123"}"#,
            r#"{"t":"tok"en\secret-123"}"#,
        ] {
            assert_eq!(text(body, s), r#"{"t":"[redacted]"}"#, "{body}");
        }
        assert_eq!(text(r#""a\\""#, r"a\"), r#""[redacted]""#);
        assert_eq!(text(r#"a\""#, r#"a""#), "[redacted]");
        let mut m = String::from(r#"the service said "tok\"en\\secret-123""#);
        literal(&mut m, Some(s));
        assert_eq!(m, r#"the service said "[redacted]""#);
        let mut words = String::from("1000 calls already wait in the limiter's queue");
        literal(&mut words, Some("t"));
        assert_eq!(words, "1000 calls already wait in the limiter's queue");
    }

    /// A small deterministic generator for the property test.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
        fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
            from[self.below(from.len())]
        }
    }

    /// One JSON spelling of `c`, picked at random among those JSON allows.
    fn spelled(rng: &mut Rng, c: u8) -> String {
        let mut ways = vec![format!("\\u{:04x}", c), format!("\\u{:04X}", c)];
        match c {
            b'"' | b'\\' => ways.push(format!("\\{}", c as char)),
            b'/' => ways.extend(["/".to_string(), "\\/".to_string()]),
            _ => ways.push((c as char).to_string()),
        }
        ways.swap_remove(rng.below(ways.len()))
    }

    #[test]
    fn every_spelling_is_redacted_wherever_the_chunks_are_cut() {
        // The secret's characters and the filler's share nothing, so the filler never spells a
        // part of the secret and the redacted body stays JSON.
        const SECRET: &[u8] = br#"ghijk"\/-"#;
        let filler = [
            "x",
            "y",
            "z",
            "0",
            "9",
            " ",
            r"\n",
            r"\t",
            r"\u00e9",
            r"\ud83d\ude00",
            "é",
            "中",
        ];
        let mut rng = Rng(0x5eed_1234_abcd_9876);
        for _ in 0..3000 {
            // A letter first (a `"` first would match the string's opening quote as it is, a lone
            // `\` any escape's backslash: redacted more than the secret, but no longer JSON).
            let len = 1 + rng.below(12);
            let secret: Vec<u8> = std::iter::once(SECRET[rng.below(5)])
                .chain((0..len).map(|_| SECRET[rng.below(SECRET.len())]))
                .collect();
            let secret = String::from_utf8(secret).unwrap();
            let around: Vec<String> = (0..2)
                .map(|_| (0..rng.below(4)).map(|_| rng.pick(&filler)).collect())
                .collect();
            let echoes = 1 + rng.below(3);
            let mut body = format!("{{\"x\":\"{}", around[0]);
            for _ in 0..echoes {
                body.extend(secret.bytes().map(|c| spelled(&mut rng, c)));
                body.push_str(&around[1]);
            }
            body.push_str("\"}");
            let whole = text(&body, &secret);
            let parsed: serde_json::Value = serde_json::from_str(&whole)
                .unwrap_or_else(|e| panic!("{e}: {secret:?} in {body} gave {whole}"));
            let decode = |t: &str| -> String { serde_json::from_str(&format!("\"{t}\"")).unwrap() };
            let want = format!(
                "{}{}",
                decode(&around[0]),
                format!("[redacted]{}", decode(&around[1])).repeat(echoes)
            );
            assert_eq!(parsed["x"], want.as_str(), "{secret:?} in {body}");
            // Cut anywhere, in pieces of any size: the same bytes come out.
            let bytes = body.as_bytes();
            let mut r = Redactor::new(&secret);
            let (mut out, mut at) = (Vec::new(), 0);
            while at < bytes.len() {
                let end = (at + 1 + rng.below(8)).min(bytes.len());
                out.extend(r.push(&bytes[at..end]));
                at = end;
            }
            out.extend(r.finish());
            assert_eq!(
                String::from_utf8(out).unwrap(),
                whole,
                "{secret:?} in {body}"
            );
        }
    }

    #[test]
    fn bytes_that_are_sure_go_out_at_once() {
        let mut r = Redactor::new("tok");
        assert_eq!(r.push(&[b'a'; 100]).len(), 100 - (3 * 6 - 1));
        assert_eq!(r.finish().len(), 3 * 6 - 1);
    }
}
