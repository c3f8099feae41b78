//! The Authorization header: its scheme, and the access tokens it can carry.

use crate::error::Error;

/// The Authorization header value for a token; refuses tokens that a header cannot carry as they are.
pub fn authorization(token: &str) -> Result<String, Error> {
    let refuse = |why: &str| Err(Error::config(format!("the access token {why}")));
    if token.is_empty() {
        return refuse("is empty");
    }
    if token.chars().any(|c| c.is_control()) {
        return refuse("contains control characters (such as a line break) and cannot be sent");
    }
    if !token.bytes().all(|b| b.is_ascii_graphic()) {
        return refuse(
            "may hold only visible ASCII characters (no spaces, no accents or other Unicode): \
             an HTTP header cannot carry it as it is",
        );
    }
    let n = token.len();
    let length = match n {
        1 => "1 character long".to_string(),
        n => format!("{n} characters long"),
    };
    if n < TOKEN_MIN {
        return refuse(&format!(
            "is {length}, too short to be a token the service issued (one has at least {TOKEN_MIN}): \
             is it a placeholder?"
        ));
    }
    if n > TOKEN_MAX {
        return refuse(&format!(
            "is {length}, more than the {TOKEN_MAX} a request header can carry to the service"
        ));
    }
    Ok(format!("{AUTHORIZATION_SCHEME} {token}"))
}

/// The fewest characters of an access token: a shorter one is no token the service issued, and
/// its redaction would cut its letters out of every message.
pub const TOKEN_MIN: usize = 8;
/// The most characters of an access token: a longer one is more than a service reads in a header.
pub const TOKEN_MAX: usize = 16_384;

/// What precedes the token in the Authorization header.
pub const AUTHORIZATION_SCHEME: &str = "Svc-oauthtoken";
