//! A connection as the store keeps it (its refresh token sealed) and as a caller sees it (without).

use crate::secret::Secret;
use serde::Serialize;
use svc_json::Obj;

/// Whether a connection's grant works, or its user must authorize again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Active,
    Reauthorize,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Reauthorize => "reauthorize",
        }
    }
}

/// One connection.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    pub connection_id: String,
    pub region: String,
    pub accounts_url: String,
    pub api_domain: Option<String>,
    pub scopes: Vec<String>,
    pub status: Status,
    pub connected_at: i64,
    /// The refresh token, sealed (`seal::Sealer`) for this connection.
    #[serde(rename = "refreshToken")]
    pub sealed: Secret,
}

/// The connection as a caller sees it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Public<'a> {
    connection_id: &'a str,
    region: &'a str,
    accounts_url: &'a str,
    api_domain: &'a Option<String>,
    scopes: &'a [String],
    status: Status,
    connected_at: i64,
}

impl Record {
    /// The connection as a caller sees it: everything but the refresh token.
    pub fn public_json(&self) -> String {
        svc_json::to_string(&Public {
            connection_id: &self.connection_id,
            region: &self.region,
            accounts_url: &self.accounts_url,
            api_domain: &self.api_domain,
            scopes: &self.scopes,
            status: self.status,
            connected_at: self.connected_at,
        })
    }

    /// As the store keeps it.
    pub fn to_json(&self) -> String {
        svc_json::to_string(self)
    }

    /// As the store gave it back: `None` for a text that is not a record (a store that lies).
    pub fn from_json(text: &str) -> Option<Record> {
        let v = svc_json::parse(text).ok()?;
        let o: &Obj = v.as_object()?;
        let text = |name: &str| o.field::<&str>(name).ok().map(str::to_string);
        let scopes: &[svc_json::Json] = o.field("scopes").ok()?;
        Some(Record {
            connection_id: text("connectionId")?,
            region: text("region")?,
            accounts_url: text("accountsUrl")?,
            api_domain: o.optional::<&str>("apiDomain").ok()?.map(str::to_string),
            scopes: scopes
                .iter()
                .map(|s| s.as_str().map(str::to_string))
                .collect::<Option<_>>()?,
            status: match o.field::<&str>("status").ok()? {
                "active" => Status::Active,
                "reauthorize" => Status::Reauthorize,
                _ => return None,
            },
            connected_at: o.field("connectedAt").ok()?,
            sealed: text("refreshToken")?.into(),
        })
    }
}
