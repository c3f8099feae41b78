//! The accounts servers a connection may use: the data centers' table with the caller's overrides, and which one a URL is.

use svc_core::error::Error;
use svc_core::family::{normalize_api_domain, ACCOUNTS_SERVERS};

/// Each region's accounts server, normalized (`https://accounts.svc.eu`).
#[derive(Clone, Debug, PartialEq)]
pub struct Servers(Vec<(String, String)>);

impl Servers {
    /// The table with `overrides` (region, URL) in place of its entries; a region not in the table is refused.
    pub fn new(overrides: &[(String, String)]) -> Result<Servers, Error> {
        let mut all: Vec<(String, String)> = ACCOUNTS_SERVERS
            .iter()
            .map(|(r, u)| (r.to_string(), u.to_string()))
            .collect();
        for (region, url) in overrides {
            let Some(entry) = all.iter_mut().find(|(r, _)| r == region) else {
                return Err(Error::config(format!(
                    "accountsServers: {} is not a region ({})",
                    svc_core::echo::quoted(region),
                    ACCOUNTS_SERVERS.map(|(r, _)| r).join(", ")
                )));
            };
            entry.1 = normalize_api_domain(url).map_err(|e| {
                Error::config(e.message.replacen(
                    "apiDomain",
                    &format!("accountsServers.{region}"),
                    1,
                ))
            })?;
        }
        Ok(Servers(all))
    }

    pub fn of_region(&self, region: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(r, _)| r == region)
            .map(|(_, u)| u.as_str())
    }

    /// The region whose accounts server `url` is (compared as origins, a trailing slash aside).
    pub fn region_of(&self, url: &str) -> Option<&str> {
        let url = normalize_api_domain(url).ok()?;
        self.0
            .iter()
            .find(|(_, u)| *u == url)
            .map(|(r, _)| r.as_str())
    }
}
