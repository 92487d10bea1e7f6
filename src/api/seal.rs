//! Sealed states: a game state as an opaque token that clients can neither read nor alter.
//!
//! A token is `base64url(version byte, 24-byte random nonce, XChaCha20-Poly1305 ciphertext of the
//! state's JSON)`, without padding. The key is the SHA-256 of the server's secret, so every server
//! given the same secret opens every token.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chacha20poly1305::aead::{Aead, Generate, Payload};
use chacha20poly1305::{KeyInit, XChaCha20Poly1305, XNonce};
use sha2::{Digest, Sha256};

use crate::engine::State;

/// The fewest bytes a secret may have.
pub const MIN_SECRET_LEN: usize = 32;

const TOKEN_VERSION: u8 = 1;
const NONCE_LEN: usize = 24;
const TAG_LEN: usize = 16;
/// Binds every token to its purpose and format.
const AAD: &[u8] = b"gin-rules sealed state v1";

/// A secret that is too short to seal with.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the secret has {0} bytes; at least {MIN_SECRET_LEN} are needed")]
pub struct ShortSecret(pub usize);

/// Why a token does not open (every case is `tampered-state` to the client).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    #[error("the state token is not base64url text")]
    NotBase64,
    #[error("the state token is too short to be a sealed state")]
    TooShort,
    #[error("the state token has an unknown format")]
    UnknownFormat,
    #[error(
        "the state token does not open with this server's secret (altered, cut, or sealed by another server)"
    )]
    DoesNotOpen,
}

/// Seals and opens states with one secret.
#[derive(Clone)]
pub struct Sealer {
    cipher: XChaCha20Poly1305,
}

impl fmt::Debug for Sealer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sealer(..)")
    }
}

impl Sealer {
    /// A sealer for `secret` (at least [`MIN_SECRET_LEN`] bytes; surrounding whitespace, such as
    /// a file's final newline, is not part of it).
    pub fn new(secret: &[u8]) -> Result<Sealer, ShortSecret> {
        let secret = secret.trim_ascii();
        if secret.len() < MIN_SECRET_LEN {
            return Err(ShortSecret(secret.len()));
        }
        let key = Sha256::digest(secret);
        let cipher = XChaCha20Poly1305::new_from_slice(&key).map_err(|_| ShortSecret(key.len()))?;
        Ok(Sealer { cipher })
    }

    /// Seals `state` under a fresh random nonce.
    pub fn seal(&self, state: &State) -> String {
        let plain = serde_json::to_vec(state).unwrap_or_default();
        self.seal_bytes(&plain)
    }

    fn seal_bytes(&self, plain: &[u8]) -> String {
        let nonce = XNonce::generate();
        let sealed = self
            .cipher
            .encrypt(
                &nonce,
                Payload {
                    msg: plain,
                    aad: AAD,
                },
            )
            .unwrap_or_default();
        let mut token = Vec::with_capacity(1 + NONCE_LEN + sealed.len());
        token.push(TOKEN_VERSION);
        token.extend_from_slice(&nonce);
        token.extend_from_slice(&sealed);
        URL_SAFE_NO_PAD.encode(token)
    }

    /// Opens a token into the state's JSON bytes.
    pub fn open_bytes(&self, token: &str) -> Result<Vec<u8>, OpenError> {
        let bytes = URL_SAFE_NO_PAD
            .decode(token.trim())
            .map_err(|_| OpenError::NotBase64)?;
        if bytes.len() < 1 + NONCE_LEN + TAG_LEN {
            return Err(OpenError::TooShort);
        }
        let (version, rest) = bytes.split_at(1);
        if version != [TOKEN_VERSION] {
            return Err(OpenError::UnknownFormat);
        }
        let (nonce, sealed) = rest.split_at(NONCE_LEN);
        let nonce = XNonce::try_from(nonce).map_err(|_| OpenError::TooShort)?;
        self.cipher
            .decrypt(
                &nonce,
                Payload {
                    msg: sealed,
                    aad: AAD,
                },
            )
            .map_err(|_| OpenError::DoesNotOpen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sealer(fill: u8) -> Sealer {
        Sealer::new(&[fill; 40]).unwrap()
    }

    #[test]
    fn round_trips_with_fresh_nonces() {
        let s = sealer(b'a');
        let a = s.seal_bytes(b"{\"x\":1}");
        let b = s.seal_bytes(b"{\"x\":1}");
        assert_ne!(a, b);
        assert_eq!(s.open_bytes(&a).unwrap(), b"{\"x\":1}");
        assert_eq!(s.open_bytes(&b).unwrap(), b"{\"x\":1}");
    }

    #[test]
    fn refuses_what_it_did_not_seal() {
        let s = sealer(b'a');
        let token = s.seal_bytes(b"hello");
        assert_eq!(sealer(b'b').open_bytes(&token), Err(OpenError::DoesNotOpen));
        assert_eq!(s.open_bytes(&token[..20]), Err(OpenError::TooShort));
        assert_eq!(s.open_bytes("not base64!"), Err(OpenError::NotBase64));
        let mut raw = URL_SAFE_NO_PAD.decode(&token).unwrap();
        for i in 0..raw.len() {
            raw[i] ^= 1;
            let flipped = URL_SAFE_NO_PAD.encode(&raw);
            assert!(
                s.open_bytes(&flipped).is_err(),
                "bit flip at byte {i} opened"
            );
            raw[i] ^= 1;
        }
    }

    #[test]
    fn short_secrets_are_refused() {
        assert_eq!(Sealer::new(b"short").unwrap_err(), ShortSecret(5));
        assert!(Sealer::new(&[b'x'; 32]).is_ok());
    }
}
