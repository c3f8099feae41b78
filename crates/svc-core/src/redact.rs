//! A secret put out of text: of bytes a proxy passes on, in every spelling (JSON, percent and form encoding, base64) and across chunk edges, and of messages as they quote it.

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

/// Where `secret` (visible ASCII) stands in `buf` from `from` on, in any spelling: its start and
/// end. The first of a spelling character by character (`spelled`) and its base64 (`base64`).
pub fn find(buf: &[u8], secret: &[u8], from: usize) -> Option<(usize, usize)> {
    let spelled = spelled(buf, secret, from);
    let coded = base64(buf, secret, from);
    match (spelled, coded) {
        (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// `secret` in `buf` from `from` on, each of its characters in any spelling JSON allows (as it
/// is, `\u0053` in either case, or its two-character escape: `\"`, `\\`, `\/`) or percent
/// encoding does (`%53` in either case, `+` for a space as a form writes it). An ASCII character
/// has no surrogate-pair spelling.
fn spelled(buf: &[u8], secret: &[u8], from: usize) -> Option<(usize, usize)> {
    let first = *secret.first()?;
    // The ends reached so far, each a way to spell the secret's characters up to here: a `\` may
    // be the character itself or open an escape of it (`\\` or `\u005C`), so there may be several.
    let (mut at, mut next) = (Vec::new(), Vec::new());
    (from..buf.len()).find_map(|i| {
        if buf[i] != first && !matches!(buf[i], b'\\' | b'%' | b'+') {
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
fn spellings(buf: &[u8], p: usize, c: u8) -> [Option<usize>; 5] {
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
    let percent = match rest {
        [b'%', a, b, ..] => match (hex(*a), hex(*b)) {
            (Some(a), Some(b)) if a << 4 | b == u32::from(c) => Some(p + 3),
            _ => None,
        },
        _ => None,
    };
    let plus = (c == b' ' && rest.first() == Some(&b'+')).then_some(p + 1);
    [literal, short, unicode, percent, plus]
}

/// The base64 alphabets: the standard one and the URL-safe one.
const ALPHABETS: [&[u8; 64]; 2] = [
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
];

/// `secret` in `buf` from `from` on, base64-encoded as part of a longer text (an Authorization
/// header's `Basic`, a JSON field of a whole form encoded): at each of the three offsets a
/// secret can start at in a group of three bytes, the characters that its bytes alone decide.
fn base64(buf: &[u8], secret: &[u8], from: usize) -> Option<(usize, usize)> {
    let rest = buf.get(from..)?;
    let mut best: Option<(usize, usize)> = None;
    for shift in 0..3 {
        for alphabet in ALPHABETS {
            let pattern = encoded(secret, shift, alphabet);
            if pattern.len() < crate::redact::SECRET_MIN {
                continue;
            }
            let found = rest.windows(pattern.len()).position(|w| w == pattern);
            if let Some(at) = found.map(|at| from + at) {
                if best.is_none_or(|(b, _)| at < b) {
                    best = Some((at, at + pattern.len()));
                }
            }
        }
    }
    best
}

/// The base64 characters that only `secret`'s bits decide when it starts `shift` bytes into a
/// group of three.
fn encoded(secret: &[u8], shift: usize, alphabet: &[u8; 64]) -> Vec<u8> {
    let bits = |i: usize| -> u32 {
        let byte = i / 8;
        let b = if byte < shift {
            0
        } else {
            u32::from(secret[byte - shift])
        };
        (b >> (7 - i % 8)) & 1
    };
    let total = (shift + secret.len()) * 8;
    let first = (shift * 8).div_ceil(6);
    let last = total / 6;
    (first..last)
        .map(|c| {
            let v = (0..6).fold(0, |v, k| v << 1 | bits(c * 6 + k));
            alphabet[v as usize]
        })
        .collect()
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

    /// Plain base64 (standard alphabet, padded), written apart from `encoded`.
    fn b64(data: &[u8]) -> String {
        let a = ALPHABETS[0];
        let mut out = String::new();
        for group in data.chunks(3) {
            let n = group
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
            for i in 0..4 {
                if i <= group.len() {
                    out.push(a[(n >> (18 - 6 * i) & 63) as usize] as char);
                } else {
                    out.push('=');
                }
            }
        }
        out
    }

    #[test]
    fn percent_form_and_base64_spellings_are_redacted() {
        let s = "1000.a+b/c=d~Ef";
        let form = "grant_type=refresh_token&refresh_token=1000.a%2Bb%2Fc%3Dd~Ef&x=1";
        assert_eq!(
            text(form, s),
            "grant_type=refresh_token&refresh_token=[redacted]&x=1"
        );
        assert_eq!(text("t=1000.a%2bb%2fc%3dd%7eEf", s), "t=[redacted]");
        assert_eq!(text("t=1000%2Ea+b/c=d~Ef", s), "t=[redacted]");
        assert_eq!(text("a secret spelled", "a secret"), "[redacted] spelled");
        assert_eq!(text("a+secret spelled", "a secret"), "[redacted] spelled");
        for pad in ["", "x", "xy", "xyz"] {
            let coded = b64(format!("{pad}id:{s}&more").as_bytes());
            let out = text(&format!("Basic {coded}"), s);
            assert!(out.contains("[redacted]"), "{pad:?}: {out}");
            let url_safe = coded.replace('+', "-").replace('/', "_");
            assert!(
                text(&url_safe, s).contains("[redacted]"),
                "{pad:?} url-safe"
            );
        }
        let mut m = format!("fetch failed: body {form}");
        literal(&mut m, Some(s));
        assert!(!m.contains("1000.a"), "{m}");
        assert_eq!(
            text("an unrelated text of words", s),
            "an unrelated text of words"
        );
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
