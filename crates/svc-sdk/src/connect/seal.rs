//! Refresh tokens sealed at rest: AES-256-GCM, a fresh nonce per seal, the connection id bound in as associated data.

use super::base64;
use crate::secret::Secret;
use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Key, Nonce};
use svc_core::error::Error;

/// The version a sealed text starts with.
const PREFIX: &str = "v1.";
pub const NONCE_BYTES: usize = 12;

/// An `encryptionKey`: 32 bytes. Never printed.
#[derive(Clone)]
pub struct Sealer(Aes256Gcm);

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sealer(<redacted>)")
    }
}

fn associated(connection_id: &str) -> Vec<u8> {
    format!("svc-sdk connection {connection_id}").into_bytes()
}

impl Sealer {
    /// The key as the option gives it: 32 bytes in base64 (standard or URL-safe).
    pub fn from_base64(key: &str) -> Result<Sealer, Error> {
        let bytes = base64::decode(key.trim()).ok_or_else(|| {
            Error::config("encryptionKey must be 32 bytes in base64 (openssl rand -base64 32)")
        })?;
        Sealer::from_bytes(&bytes)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Sealer, Error> {
        if bytes.len() != 32 {
            return Err(Error::config(format!(
                "encryptionKey must be 32 bytes in base64 (openssl rand -base64 32), not {}",
                bytes.len()
            )));
        }
        Ok(Sealer(Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(bytes))))
    }

    /// `secret` sealed for `connection_id` with `nonce` (fresh random bytes for every seal).
    pub fn seal(&self, connection_id: &str, secret: &Secret, nonce: [u8; NONCE_BYTES]) -> String {
        let payload = Payload {
            msg: secret.expose().as_bytes(),
            aad: &associated(connection_id),
        };
        let mut out = nonce.to_vec();
        // Encryption into memory fails only past the cipher's length limit (64 GiB), far above a token's.
        out.extend(
            self.0
                .encrypt(Nonce::from_slice(&nonce), payload)
                .unwrap_or_default(),
        );
        format!("{PREFIX}{}", base64::encode(&out))
    }

    /// The secret `sealed` holds, if it was sealed with this key for `connection_id`.
    pub fn open(&self, connection_id: &str, sealed: &str) -> Result<Secret, Error> {
        let refused = || {
            Error::config(format!(
                "the stored refresh token of connection {} cannot be opened: it was sealed with another encryptionKey or for another connection, or the store changed it",
                svc_core::echo::quoted(connection_id)
            ))
        };
        let bytes = sealed
            .strip_prefix(PREFIX)
            .and_then(base64::decode)
            .filter(|b| b.len() > NONCE_BYTES)
            .ok_or_else(refused)?;
        let (nonce, cipher) = bytes.split_at(NONCE_BYTES);
        let payload = Payload {
            msg: cipher,
            aad: &associated(connection_id),
        };
        let plain = self
            .0
            .decrypt(Nonce::from_slice(nonce), payload)
            .map_err(|_| refused())?;
        String::from_utf8(plain)
            .map(Secret::from)
            .map_err(|_| refused())
    }
}
