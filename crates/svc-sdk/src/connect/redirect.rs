//! The redirect back from consent read and checked: its state, its code or its error, and the data center the code must be exchanged at.

use super::servers::Servers;
use crate::secret::Secret;
use svc_core::error::{Error, ErrorKind};
use svc_core::request::percent_decode;

/// What the accounts server's redirect carries.
#[derive(Clone, Debug, PartialEq)]
pub struct Redirect {
    pub state: String,
    pub code: Option<Secret>,
    /// `error` (the user declined: `access_denied`).
    pub error: Option<String>,
    pub location: Option<String>,
    pub accounts_server: Option<String>,
}

fn verification(message: &str) -> Error {
    Error::new(ErrorKind::Verification, message)
}

impl Redirect {
    /// The redirect's query (of a URL, or a query alone); no state is `verification`.
    pub fn parse(url: &str) -> Result<Redirect, Error> {
        let query = url.split_once('?').map_or(url, |(_, q)| q);
        let query = query.split_once('#').map_or(query, |(q, _)| q);
        let mut r = Redirect {
            state: String::new(),
            code: None,
            error: None,
            location: None,
            accounts_server: None,
        };
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = percent_decode(value, true)
                .ok_or_else(|| verification("the redirect's query is not percent-encoded text"))?;
            match name {
                "state" => r.state = value,
                "code" => r.code = Some(value.into()),
                "error" => r.error = Some(value),
                "location" => r.location = Some(value),
                "accounts-server" => r.accounts_server = Some(value),
                _ => {}
            }
        }
        if r.state.is_empty() || r.state.len() > 200 {
            return Err(verification(
                "the redirect carries no state of an authorization this app started (connections.authorizeUrl)",
            ));
        }
        Ok(r)
    }

    /// The region and accounts server the code is exchanged at: the redirect's `accounts-server`
    /// when it is one of `servers`, else (none given) `started`, where authorization started. Any
    /// other host is `verification`: it is sent nothing.
    pub fn accounts<'s>(
        &self,
        servers: &'s Servers,
        started: &'s str,
    ) -> Result<(&'s str, &'s str), Error> {
        let region = match &self.accounts_server {
            None => started,
            Some(url) => servers.region_of(url).ok_or_else(|| {
                verification("the redirect names an accounts server that is not a data center's (accountsServers): nothing was sent to it")
            })?,
        };
        let url = servers
            .of_region(region)
            .ok_or_else(|| verification("the authorization's region has no accounts server"))?;
        Ok((region, url))
    }
}
