//! Sealed states: a game state as an opaque token that clients can neither read nor alter.
//!
//! A token is `base64url(format byte 2, key-id byte, 24-byte random nonce, XChaCha20-Poly1305
//! ciphertext of the state's JSON)`, without padding. The key is derived from a secret with HKDF
//! (see [`secrets`](super::secrets)); the key id names which secret, so a server holding several
//! (a rotation) opens a token with the right one at once. The format byte lets a later version
//! change all this and still tell old tokens apart.

use std::fmt;
use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chacha20poly1305::aead::{Aead, Generate, Payload};
use chacha20poly1305::{KeyInit, XChaCha20Poly1305, XNonce};

use crate::engine::State;

use super::secrets::{SecretAge, SecretError, Secrets};

pub use super::secrets::MIN_SECRET_LEN;

const TOKEN_FORMAT: u8 = 2;
const HEADER_LEN: usize = 2;
const NONCE_LEN: usize = 24;
const TAG_LEN: usize = 16;
/// Binds every token to its purpose (the header bytes follow it in the associated data).
const AAD_PREFIX: &[u8] = b"gin-rules sealed state";

/// Why a token does not open (every case is `tampered-state` to the client).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    #[error("the state token is not base64url text")]
    NotBase64,
    #[error("the state token is too short to be a sealed state")]
    TooShort,
    #[error("the state token was sealed by an older version of gin-rules; deal a new game")]
    OldFormat,
    #[error("the state token has an unknown format")]
    UnknownFormat,
    #[error(
        "the state token does not open with this server's secrets (altered, cut, sealed by \
         another server, or with a secret that has been retired)"
    )]
    DoesNotOpen,
}

/// A state that could not be sealed (a fault of the server, never of the request).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the state could not be sealed: {0}")]
pub struct SealError(String);

/// Seals states with the newest secret and opens them with any.
#[derive(Clone)]
pub struct Sealer {
    secrets: Arc<Secrets>,
    /// One cipher per secret, in the same order.
    ciphers: Vec<XChaCha20Poly1305>,
}

impl fmt::Debug for Sealer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sealer({} secrets)", self.ciphers.len())
    }
}

impl Sealer {
    /// A sealer for one secret (at least [`MIN_SECRET_LEN`] bytes; surrounding whitespace, such
    /// as a file's final newline, is not part of it; several lines are several secrets).
    pub fn new(secret: &[u8]) -> Result<Sealer, SecretError> {
        Ok(Sealer::from_secrets(Arc::new(Secrets::parse(secret)?)))
    }

    pub fn from_secrets(secrets: Arc<Secrets>) -> Sealer {
        let ciphers = secrets
            .all()
            .iter()
            .map(|s| XChaCha20Poly1305::new(s.seal_key().into()))
            .collect();
        Sealer { secrets, ciphers }
    }

    /// The secrets this sealer uses.
    pub fn secrets(&self) -> &Arc<Secrets> {
        &self.secrets
    }

    /// Seals `state` under a fresh random nonce.
    pub fn seal(&self, state: &State) -> Result<String, SealError> {
        let plain = serde_json::to_vec(state).map_err(|e| SealError(e.to_string()))?;
        self.seal_bytes(&plain)
    }

    fn seal_bytes(&self, plain: &[u8]) -> Result<String, SealError> {
        let header = [TOKEN_FORMAT, self.secrets.newest().key_id()];
        let aad = aad(&header);
        let nonce = XNonce::generate();
        let sealed = self.ciphers[0]
            .encrypt(
                &nonce,
                Payload {
                    msg: plain,
                    aad: &aad,
                },
            )
            .map_err(|_| SealError(format!("{} bytes do not encrypt", plain.len())))?;
        let mut token = Vec::with_capacity(HEADER_LEN + NONCE_LEN + sealed.len());
        token.extend_from_slice(&header);
        token.extend_from_slice(&nonce);
        token.extend_from_slice(&sealed);
        Ok(URL_SAFE_NO_PAD.encode(token))
    }

    /// Opens a token into the state's JSON bytes.
    pub fn open_bytes(&self, token: &str) -> Result<Vec<u8>, OpenError> {
        self.open(token).map(|(bytes, _)| bytes)
    }

    /// Opens a token into the state's JSON bytes, saying which secret opened it.
    pub fn open(&self, token: &str) -> Result<(Vec<u8>, SecretAge), OpenError> {
        let bytes = URL_SAFE_NO_PAD
            .decode(token.trim())
            .map_err(|_| OpenError::NotBase64)?;
        match bytes.first() {
            Some(&TOKEN_FORMAT) => {}
            Some(1) => return Err(OpenError::OldFormat),
            Some(_) => return Err(OpenError::UnknownFormat),
            None => return Err(OpenError::TooShort),
        }
        if bytes.len() < HEADER_LEN + NONCE_LEN + TAG_LEN {
            return Err(OpenError::TooShort);
        }
        let (header, rest) = bytes.split_at(HEADER_LEN);
        let (nonce, sealed) = rest.split_at(NONCE_LEN);
        let nonce = XNonce::try_from(nonce).map_err(|_| OpenError::TooShort)?;
        let aad = aad(header);
        self.secrets
            .all()
            .iter()
            .zip(&self.ciphers)
            .filter(|(s, _)| s.key_id() == header[1])
            .find_map(|(secret, cipher)| {
                let payload = Payload {
                    msg: sealed,
                    aad: &aad,
                };
                let bytes = cipher.decrypt(&nonce, payload).ok()?;
                Some((bytes, self.secrets.age_of(secret)))
            })
            .ok_or(OpenError::DoesNotOpen)
    }
}

fn aad(header: &[u8]) -> Vec<u8> {
    let mut aad = Vec::with_capacity(AAD_PREFIX.len() + header.len());
    aad.extend_from_slice(AAD_PREFIX);
    aad.extend_from_slice(header);
    aad
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
        let a = s.seal_bytes(b"{\"x\":1}").unwrap();
        let b = s.seal_bytes(b"{\"x\":1}").unwrap();
        assert_ne!(a, b);
        assert_eq!(s.open_bytes(&a).unwrap(), b"{\"x\":1}");
        assert_eq!(s.open_bytes(&b).unwrap(), b"{\"x\":1}");
    }

    #[test]
    fn refuses_what_it_did_not_seal() {
        let s = sealer(b'a');
        let token = s.seal_bytes(b"hello").unwrap();
        assert_eq!(sealer(b'b').open_bytes(&token), Err(OpenError::DoesNotOpen));
        assert_eq!(s.open_bytes(&token[..20]), Err(OpenError::TooShort));
        assert_eq!(s.open_bytes("not base64!"), Err(OpenError::NotBase64));
        assert_eq!(s.open_bytes(""), Err(OpenError::TooShort));
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
        raw[0] = 1;
        assert_eq!(
            s.open_bytes(&URL_SAFE_NO_PAD.encode(&raw)),
            Err(OpenError::OldFormat)
        );
    }

    #[test]
    fn a_rotation_opens_old_tokens_and_seals_with_the_newest() {
        let old = sealer(b'a');
        let new = sealer(b'b');
        let mut both = vec![b'b'; 40];
        both.push(b'\n');
        both.extend_from_slice(&[b'a'; 40]);
        let rotated = Sealer::new(&both).unwrap();
        let from_old = old.seal_bytes(b"old").unwrap();
        assert_eq!(
            rotated.open(&from_old).unwrap(),
            (b"old".to_vec(), SecretAge::Older)
        );
        let from_rotated = rotated.seal_bytes(b"new").unwrap();
        assert_eq!(rotated.open(&from_rotated).unwrap().1, SecretAge::Newest);
        assert_eq!(new.open_bytes(&from_rotated).unwrap(), b"new");
        assert_eq!(old.open_bytes(&from_rotated), Err(OpenError::DoesNotOpen));
    }

    #[test]
    fn short_secrets_are_refused() {
        assert_eq!(
            Sealer::new(b"short").unwrap_err(),
            SecretError::Short { line: 1, len: 5 }
        );
        assert!(Sealer::new(&[b'x'; 32]).is_ok());
    }
}
