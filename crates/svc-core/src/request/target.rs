//! Where calls go (API domain, organization, CRM version), and the host of a URL for messages.

use crate::error::Error;
use crate::family::{normalize_api_domain, region_domain};

/// Where calls go: the API domain, the organization and the CRM version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub api_domain: String,
    pub organization_id: Option<String>,
    pub crm_version: String,
    /// Calls go to a proxy that adds the token and the organization (a browser client).
    pub via_proxy: bool,
}

impl Target {
    /// From the client options: `apiDomain` wins over `region` (default "us").
    pub fn new(
        region: Option<&str>,
        api_domain: Option<&str>,
        organization_id: Option<&str>,
        crm_version: Option<&str>,
    ) -> Result<Target, Error> {
        let api_domain = match api_domain {
            Some(d) => normalize_api_domain(d)?,
            None => region_domain(region.unwrap_or("us"))?.to_string(),
        };
        if let Some(org) = organization_id {
            if org.is_empty() || org.chars().any(char::is_control) {
                return Err(Error::config(
                    "organizationId must be a non-empty string without control characters",
                ));
            }
        }
        let crm_version = crm_version.unwrap_or("v8");
        if crm_version.is_empty() || !crm_version.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(Error::config(format!(
                "crmVersion must be letters and digits such as \"v8\", got {}",
                crate::echo::quoted(crm_version)
            )));
        }
        Ok(Target {
            api_domain,
            organization_id: organization_id.map(str::to_string),
            crm_version: crm_version.to_string(),
            via_proxy: false,
        })
    }
}

/// The host (and port) of a URL the core built (`https://host/...`), for messages.
pub fn host_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest.split(['/', '?', '#']).next().unwrap_or(rest)
}
