//! multipart/form-data: the boundary of a content type and the parts of a body.

#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub name: String,
    pub filename: Option<String>,
    pub content_type: Option<String>,
    pub data: Vec<u8>,
}

/// The parameters of a header value such as `form-data; name="a"; filename="b.pdf"`.
fn params(value: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = match value.find(';') {
        Some(i) => &value[i + 1..],
        None => return out,
    };
    loop {
        rest = rest.trim_start_matches([' ', '\t', ';']);
        let Some(eq) = rest.find('=') else { break };
        let key = rest[..eq].trim().to_ascii_lowercase();
        rest = &rest[eq + 1..];
        let val = if let Some(quoted) = rest.strip_prefix('"') {
            let mut val = String::new();
            let mut chars = quoted.char_indices();
            let mut end = quoted.len();
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, n)) = chars.next() {
                            val.push(n);
                        }
                    }
                    '"' => {
                        end = i + 1;
                        break;
                    }
                    c => val.push(c),
                }
            }
            rest = &quoted[end..];
            val
        } else {
            let end = rest.find(';').unwrap_or(rest.len());
            let val = rest[..end].trim().to_string();
            rest = &rest[end..];
            val
        };
        out.push((key, val));
    }
    out
}

/// The boundary of a `multipart/form-data` content type.
pub fn boundary(content_type: &str) -> Option<String> {
    let essence = content_type.split(';').next()?.trim();
    if !essence.eq_ignore_ascii_case("multipart/form-data") {
        return None;
    }
    params(content_type)
        .into_iter()
        .find(|(k, _)| k == "boundary")
        .map(|(_, v)| v)
        .filter(|b| !b.is_empty() && b.len() <= 200)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A file name from `filename*=UTF-8''…` or `filename="…"`.
fn file_name(disposition: &[(String, String)]) -> Option<String> {
    let get = |k: &str| {
        disposition
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    if let Some(ext) = get("filename*") {
        let encoded = ext.split_once("''").map_or(ext.as_str(), |(_, v)| v);
        if let Some(name) = crate::http::percent_decode(encoded, false) {
            return Some(name);
        }
    }
    get("filename")
}

/// The parts of a body; an error says what is malformed.
pub fn parse(body: &[u8], boundary: &str) -> Result<Vec<Part>, String> {
    let delimiter = format!("--{boundary}");
    let start = find(body, delimiter.as_bytes()).ok_or("the body holds no multipart boundary")?;
    let mut rest = &body[start + delimiter.len()..];
    let next_delimiter = format!("\r\n--{boundary}");
    let mut parts = Vec::new();
    loop {
        if rest.starts_with(b"--") {
            return Ok(parts);
        }
        let line_end = find(rest, b"\r\n").ok_or("a boundary line does not end")?;
        if rest[..line_end].iter().any(|b| !matches!(b, b' ' | b'\t')) {
            return Err("a boundary is followed by other text".into());
        }
        rest = &rest[line_end + 2..];
        let head_end = if rest.starts_with(b"\r\n") {
            0
        } else {
            find(rest, b"\r\n\r\n").ok_or("a part has no end of headers")? + 2
        };
        let head = String::from_utf8_lossy(&rest[..head_end]).into_owned();
        rest = &rest[head_end + 2..];
        let end =
            find(rest, next_delimiter.as_bytes()).ok_or("a part is not closed by a boundary")?;
        let data = rest[..end].to_vec();
        rest = &rest[end + next_delimiter.len()..];

        let mut disposition = None;
        let mut content_type = None;
        for line in head.split("\r\n").filter(|l| !l.is_empty()) {
            let (k, v) = line.split_once(':').ok_or("a part header has no colon")?;
            match k.trim().to_ascii_lowercase().as_str() {
                "content-disposition" => disposition = Some(v.trim().to_string()),
                "content-type" => content_type = Some(v.trim().to_string()),
                _ => {}
            }
        }
        let disposition = disposition.ok_or("a part has no Content-Disposition")?;
        if !disposition.to_ascii_lowercase().starts_with("form-data") {
            return Err("a part is not form-data".into());
        }
        let ps = params(&disposition);
        let name = ps
            .iter()
            .find(|(k, _)| k == "name")
            .map(|(_, v)| v.clone())
            .ok_or("a part has no name")?;
        parts.push(Part {
            name,
            filename: file_name(&ps),
            content_type,
            data,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries() {
        assert_eq!(
            boundary("multipart/form-data; boundary=abc").as_deref(),
            Some("abc")
        );
        assert_eq!(
            boundary("Multipart/Form-Data;charset=utf-8; boundary=\"a b\"").as_deref(),
            Some("a b")
        );
        assert_eq!(boundary("application/json"), None);
        assert_eq!(boundary("multipart/form-data"), None);
    }

    #[test]
    fn parts_with_files_and_fields() {
        let body = concat!(
            "preamble\r\n--XyZ\r\n",
            "Content-Disposition: form-data; name=\"attachment\"; filename=\"a \\\"q\\\".pdf\"\r\n",
            "Content-Type: application/pdf\r\n\r\n",
            "%PDF\r\n--X not yet\r\n",
            "--XyZ\r\n",
            "content-disposition: form-data; name=attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.txt\r\n\r\n",
            "\r\n",
            "--XyZ\r\n",
            "Content-Disposition: form-data; name=\"note\"\r\n\r\n",
            "hello\r\n",
            "--XyZ--\r\nepilogue"
        );
        let parts = parse(body.as_bytes(), "XyZ").unwrap();
        assert_eq!(parts.len(), 3);
        assert_eq!(parts[0].name, "attachment");
        assert_eq!(parts[0].filename.as_deref(), Some("a \"q\".pdf"));
        assert_eq!(parts[0].content_type.as_deref(), Some("application/pdf"));
        assert_eq!(parts[0].data, b"%PDF\r\n--X not yet");
        assert_eq!(parts[1].filename.as_deref(), Some("résumé.txt"));
        assert_eq!(parts[1].data, b"");
        assert_eq!(
            (parts[2].name.as_str(), parts[2].filename.as_deref()),
            ("note", None)
        );
        assert_eq!(parts[2].data, b"hello");
    }

    #[test]
    fn malformed_bodies_are_errors() {
        for body in [
            "no boundary at all",
            "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunterminated",
            "--B\r\nContent-Type: text/plain\r\n\r\nx\r\n--B--",
            "--B\r\nContent-Disposition: form-data\r\n\r\nx\r\n--B--",
            "--Bjunk\r\n",
        ] {
            assert!(parse(body.as_bytes(), "B").is_err(), "{body:?}");
        }
        assert_eq!(parse(b"--B--", "B").unwrap(), vec![]);
    }
}
