//! API families, their roots and where each sends the organization; regions and base URLs.

use crate::error::Error;

/// One of the five API families of the service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    Books,
    Inventory,
    Invoice,
    Billing,
    Crm,
}

/// Where a family carries the organization id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrgPlacement {
    Query(&'static str),
    Header(&'static str),
    None,
}

impl Family {
    pub const ALL: [Family; 5] = [
        Family::Books,
        Family::Inventory,
        Family::Invoice,
        Family::Billing,
        Family::Crm,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Family::Books => "books",
            Family::Inventory => "inventory",
            Family::Invoice => "invoice",
            Family::Billing => "billing",
            Family::Crm => "crm",
        }
    }

    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Root path below the API domain; `crm_version` fills `/crm/{version}`.
    pub fn root(self, crm_version: &str) -> String {
        match self {
            Family::Books => "/books/v3".into(),
            Family::Inventory => "/inventory/v1".into(),
            Family::Invoice => "/invoice/v3".into(),
            Family::Billing => "/billing/v1".into(),
            Family::Crm => format!("/crm/{crm_version}"),
        }
    }

    pub fn org_placement(self) -> OrgPlacement {
        match self {
            Family::Books | Family::Inventory => OrgPlacement::Query("organization_id"),
            Family::Invoice => OrgPlacement::Header("X-com-svc-invoice-organizationid"),
            Family::Billing => OrgPlacement::Header("X-com-svc-subscriptions-organizationid"),
            Family::Crm => OrgPlacement::None,
        }
    }
}

/// The eight regional data centers and their API domains.
pub const REGIONS: [(&str, &str); 8] = [
    ("us", "https://www.svcapis.com"),
    ("eu", "https://www.svcapis.eu"),
    ("in", "https://www.svcapis.in"),
    ("au", "https://www.svcapis.com.au"),
    ("jp", "https://www.svcapis.jp"),
    ("ca", "https://www.svcapis.ca"),
    ("cn", "https://www.svcapis.com.cn"),
    ("sa", "https://www.svcapis.sa"),
];

/// The accounts server of each region (the keys of [`REGIONS`], in their order), where the OAuth
/// grant is asked: Canada's is on its own domain, not the API's.
pub const ACCOUNTS_SERVERS: [(&str, &str); REGIONS.len()] = [
    ("us", "https://accounts.svc.com"),
    ("eu", "https://accounts.svc.eu"),
    ("in", "https://accounts.svc.in"),
    ("au", "https://accounts.svc.com.au"),
    ("jp", "https://accounts.svc.jp"),
    ("ca", "https://accounts.svccloud.ca"),
    ("cn", "https://accounts.svc.com.cn"),
    ("sa", "https://accounts.svc.sa"),
];

/// The accounts server of `region`, or `None` for a name not in [`REGIONS`].
pub fn accounts_server(region: &str) -> Option<&'static str> {
    ACCOUNTS_SERVERS
        .iter()
        .find(|(r, _)| *r == region)
        .map(|(_, url)| *url)
}

/// The names of the families, in the order of [`Family::ALL`].
const FAMILY_NAMES: [&str; Family::ALL.len()] = {
    let mut names = [""; Family::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Family::ALL[i].name();
        i += 1;
    }
    names
};

/// The names of the regions: the keys of [`REGIONS`].
const REGION_NAMES: [&str; REGIONS.len()] = {
    let mut names = [""; REGIONS.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = REGIONS[i].0;
        i += 1;
    }
    names
};

/// The TypeScript type `Family`, written from [`Family::ALL`] and [`Family::name`].
pub const FAMILY_TS: &str = ts_string_union!(
    "One of the API families of the service.",
    "Family",
    FAMILY_NAMES
);

/// The TypeScript type `Region`, written from the keys of [`REGIONS`].
pub const REGION_TS: &str = ts_string_union!(
    "One of the regional data centers (the keys of `regions`).",
    "Region",
    REGION_NAMES
);

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const FAMILY_SECTION: &str = FAMILY_TS;

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const REGION_SECTION: &str = REGION_TS;

/// The TypeScript declaration of a string union, `export type Name = "a" | "b";` with its doc
/// comment, written at compile time from the Rust array that owns the members (wasm-bindgen puts
/// it in the package's .d.ts as a typescript_custom_section), so that the two cannot differ.
macro_rules! ts_string_union {
    ($doc:expr, $name:expr, $members:expr) => {{
        const LEN: usize = $crate::family::ts_union_len($doc, $name, &$members);
        const BYTES: [u8; LEN] = $crate::family::ts_union($doc, $name, &$members);
        match ::core::str::from_utf8(&BYTES) {
            Ok(text) => text,
            Err(_) => panic!("a TypeScript union is UTF-8"),
        }
    }};
}
pub(crate) use ts_string_union;

/// The length of the declaration [`ts_string_union!`] writes.
pub(crate) const fn ts_union_len(doc: &str, name: &str, members: &[&str]) -> usize {
    write_union(doc, name, members, &mut [])
}

/// The bytes of the declaration [`ts_string_union!`] writes; `N` is [`ts_union_len`].
pub(crate) const fn ts_union<const N: usize>(doc: &str, name: &str, members: &[&str]) -> [u8; N] {
    let mut out = [0; N];
    write_union(doc, name, members, &mut out);
    out
}

/// Writes the declaration into `out` as far as it reaches, and returns its whole length.
const fn write_union(doc: &str, name: &str, members: &[&str], out: &mut [u8]) -> usize {
    let mut at = put(out, 0, b"/**\n * ");
    at = put(out, at, doc.as_bytes());
    at = put(out, at, b"\n */\nexport type ");
    at = put(out, at, name.as_bytes());
    at = put(out, at, b" = ");
    let mut i = 0;
    while i < members.len() {
        let member = members[i].as_bytes();
        let mut j = 0;
        while j < member.len() {
            assert!(
                member[j] != b'"' && member[j] != b'\\' && member[j] >= b' ',
                "a member of a TypeScript union needs no escaping"
            );
            j += 1;
        }
        if i > 0 {
            at = put(out, at, b" | ");
        }
        at = put(out, at, b"\"");
        at = put(out, at, member);
        at = put(out, at, b"\"");
        i += 1;
    }
    put(out, at, b";")
}

const fn put(out: &mut [u8], at: usize, text: &[u8]) -> usize {
    let mut i = 0;
    while i < text.len() {
        if at + i < out.len() {
            out[at + i] = text[i];
        }
        i += 1;
    }
    at + text.len()
}

pub fn region_domain(region: &str) -> Result<&'static str, Error> {
    REGIONS
        .iter()
        .find(|(r, _)| *r == region)
        .map(|(_, d)| *d)
        .ok_or_else(|| {
            let names: Vec<&str> = REGIONS.iter().map(|(r, _)| *r).collect();
            Error::config(format!(
                "region must be one of {}, got {}",
                names.join(", "),
                crate::echo::quoted(region)
            ))
        })
}

/// Checks an `apiDomain` and returns it without a trailing slash.
///
/// `https://` for any host; `http://` only for loopback hosts. A path prefix is
/// allowed (a proxy mounted below a path); user info, query and fragment are not.
pub fn normalize_api_domain(domain: &str) -> Result<String, Error> {
    resolve_api_domain(domain, None, false)
}

/// An `apiDomain` as a client reads it: a path (`"/api"`) resolves against the page's origin
/// (`page`), and a client without a token (pointed at a proxy) may use `http://` to any host.
pub fn resolve_api_domain(
    domain: &str,
    page: Option<&str>,
    tokenless: bool,
) -> Result<String, Error> {
    if domain.starts_with('/') && !domain.starts_with("//") {
        let Some(origin) = page else {
            return Err(Error::config(format!(
                "apiDomain {} is a path, which resolves against a web page's origin, and there is no page here: give a full URL such as https://proxy.example.com{domain}",
                crate::echo::quoted(domain)
            )));
        };
        let full = format!("{}{domain}", origin.trim_end_matches('/'));
        return resolve_api_domain(&full, None, tokenless);
    }
    let bad = |why: &str| {
        Error::config(format!(
            "apiDomain {} is not usable: {why}",
            crate::echo::quoted(domain)
        ))
    };
    let (scheme, rest) = domain
        .split_once("://")
        .ok_or_else(|| bad("it must start with https://"))?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "https" && scheme != "http" {
        return Err(bad(
            "only https:// (or http:// for loopback hosts) is allowed",
        ));
    }
    if rest.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(bad("it contains white space or control characters"));
    }
    if rest.contains(['?', '#', '@', '\\']) {
        return Err(bad("it may not carry user info, a query or a fragment"));
    }
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    let host = host_of(authority).ok_or_else(|| bad("the host is missing or malformed"))?;
    if scheme == "http" && !is_loopback(host) && !tokenless {
        return Err(bad(
            "http:// is only allowed for loopback hosts (localhost, 127.0.0.0/8, [::1]), or for a client without a token (pointed at a proxy)",
        ));
    }
    if path.split('/').any(|seg| seg == "." || seg == "..") {
        return Err(bad("the path may not contain . or .. segments"));
    }
    Ok(format!(
        "{scheme}://{authority}{}",
        path.trim_end_matches('/')
    ))
}

/// The host of `authority` (`host[:port]`, no user info) when it is a plain name, an IPv4 or a bracketed IPv6 address
/// and any port is digits.
pub fn host_of(authority: &str) -> Option<&str> {
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let end = rest.find(']')?;
        let host = &authority[..end + 2];
        (host, rest[end + 1..].strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    if let Some(p) = port {
        if p.is_empty() || p.len() > 5 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
    }
    let plain = host.starts_with('[')
        || host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
    (!host.is_empty() && plain).then_some(host)
}

/// An API domain a grant names (its `api_domain`, or one a fleet store kept beside its token),
/// normalized: one of the data centers' ([`REGIONS`]) or a loopback origin (the sandbox), with no
/// path; `None` for any other, where no token is ever sent.
pub fn granted_api_domain(domain: &str) -> Option<String> {
    let d = normalize_api_domain(domain).ok()?;
    let authority = d.split_once("://")?.1;
    if REGIONS.iter().any(|(_, known)| *known == d) {
        return Some(d);
    }
    (!authority.contains('/') && host_of(authority).is_some_and(is_loopback)).then_some(d)
}

pub fn is_loopback(host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") || host == "[::1]" {
        return true;
    }
    let octets: Vec<&str> = host.split('.').collect();
    octets.len() == 4
        && octets[0] == "127"
        && octets
            .iter()
            .all(|o| !o.is_empty() && o.len() <= 3 && o.parse::<u8>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_region_has_its_accounts_server() {
        for ((region, _), (accounts, url)) in REGIONS.iter().zip(ACCOUNTS_SERVERS) {
            assert_eq!(*region, accounts);
            assert_eq!(accounts_server(region), Some(url));
        }
        assert_eq!(accounts_server("ca"), Some("https://accounts.svccloud.ca"));
        assert_eq!(accounts_server("mars"), None);
    }

    #[test]
    fn regions_map_to_their_domains() {
        assert_eq!(region_domain("us").unwrap(), "https://www.svcapis.com");
        assert_eq!(region_domain("au").unwrap(), "https://www.svcapis.com.au");
        assert_eq!(region_domain("cn").unwrap(), "https://www.svcapis.com.cn");
        assert!(region_domain("mars").is_err());
    }

    #[test]
    fn the_typescript_unions_name_every_member() {
        let union = |names: Vec<&str>| {
            names
                .iter()
                .map(|n| format!("\"{n}\""))
                .collect::<Vec<_>>()
                .join(" | ")
        };
        let regions = union(REGIONS.iter().map(|(r, _)| *r).collect());
        assert_eq!(
            REGION_TS,
            format!("/**\n * One of the regional data centers (the keys of `regions`).\n */\nexport type Region = {regions};")
        );
        assert!(REGION_TS.ends_with(
            r#"export type Region = "us" | "eu" | "in" | "au" | "jp" | "ca" | "cn" | "sa";"#
        ));
        let families = union(Family::ALL.iter().map(|f| f.name()).collect());
        assert!(FAMILY_TS.ends_with(&format!("\nexport type Family = {families};")));
        assert!(FAMILY_TS.ends_with(
            r#"export type Family = "books" | "inventory" | "invoice" | "billing" | "crm";"#
        ));
    }

    #[test]
    fn api_domain_rules() {
        assert_eq!(
            normalize_api_domain("https://www.svcapis.eu/").unwrap(),
            "https://www.svcapis.eu"
        );
        assert_eq!(
            normalize_api_domain("http://127.0.0.1:8787").unwrap(),
            "http://127.0.0.1:8787"
        );
        assert_eq!(
            normalize_api_domain("http://localhost:3000/api/").unwrap(),
            "http://localhost:3000/api"
        );
        let page = Some("http://shop.example:8080");
        assert_eq!(
            resolve_api_domain("/api/", page, true).unwrap(),
            "http://shop.example:8080/api"
        );
        assert_eq!(
            resolve_api_domain("/api", Some("https://shop.example/"), false).unwrap(),
            "https://shop.example/api"
        );
        assert!(resolve_api_domain("/api", page, false)
            .unwrap_err()
            .message
            .contains("or for a client without a token"));
        assert!(resolve_api_domain("/api", None, true)
            .unwrap_err()
            .message
            .contains("there is no page here"));
        assert!(resolve_api_domain("//evil.example/api", page, true).is_err());
        assert_eq!(
            resolve_api_domain("http://intranet.example/api", None, true).unwrap(),
            "http://intranet.example/api"
        );
        assert!(normalize_api_domain("http://[::1]:80").is_ok());
        for bad in [
            "http://example.com",
            "http://127.0.0.1.evil.com",
            "http://10.0.0.1",
            "ftp://x.com",
            "www.svcapis.com",
            "https://user@host.com",
            "https://host.com?x=1",
            "https://host.com/a/../b",
            "https://ho st.com",
            "https://host.com\r\nX: y",
            "https://:80",
            "https://host.com:abc",
        ] {
            assert!(
                normalize_api_domain(bad).is_err(),
                "{bad} should be refused"
            );
        }
    }
}
