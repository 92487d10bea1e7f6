//! The server's secrets, newest first, and every key derived from them with HKDF-SHA256: the
//! sealing key, seat keys and the seed mix. A secret is never used raw.
//!
//! Several secrets rotate one: what the server makes (sealed states, seat keys, mixed seeds) comes
//! from the first; what it is sent is accepted under any of them.

use std::fmt;

use hkdf::Hkdf;
use sha2::Sha256;

/// The fewest bytes a secret may have.
pub const MIN_SECRET_LEN: usize = 32;

/// The salt of every derivation: binds the keys to this product.
const SALT: &[u8] = b"gin-rules";
const SEAL_INFO: &[u8] = b"gin-rules seal-key v2";
const KEY_ID_INFO: &[u8] = b"gin-rules key-id v2";
const SEAT_INFO: &[u8] = b"gin-rules seat-key v1";
const SEED_INFO: &[u8] = b"gin-rules seed v1";

/// Why secrets cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SecretError {
    #[error("there is no secret in it")]
    None,
    #[error("the secret on line {line} has {len} bytes; at least {MIN_SECRET_LEN} are needed")]
    Short { line: usize, len: usize },
    #[error("the secrets on lines {first} and {second} are the same")]
    Repeated { first: usize, second: usize },
}

/// One secret's derived keys.
pub struct Secret {
    /// Names the secret inside tokens and keys (derived from it, so stable across rotations).
    key_id: u8,
    seal_key: [u8; 32],
    prk: Hkdf<Sha256>,
}

impl Secret {
    fn new(secret: &[u8]) -> Secret {
        let prk = Hkdf::<Sha256>::new(Some(SALT), secret);
        let mut seal_key = [0u8; 32];
        let mut key_id = [0u8; 1];
        // 32 and 1 bytes are far below HKDF-SHA256's limit of 8160: these cannot fail.
        let _ = prk.expand(SEAL_INFO, &mut seal_key);
        let _ = prk.expand(KEY_ID_INFO, &mut key_id);
        Secret {
            key_id: key_id[0],
            seal_key,
            prk,
        }
    }

    pub fn key_id(&self) -> u8 {
        self.key_id
    }

    /// The key that seals states.
    pub fn seal_key(&self) -> &[u8; 32] {
        &self.seal_key
    }

    /// The key of `seat` in game `game_id` (32 bytes).
    pub fn seat_key(&self, game_id: &[u8; 16], seat: u8) -> [u8; 32] {
        let mut out = [0u8; 32];
        let _ = self
            .prk
            .expand_multi_info(&[SEAT_INFO, game_id, &[seat]], &mut out);
        out
    }

    /// A client's seed mixed with the secret and a server-side nonce: what the deck is shuffled
    /// from.
    pub fn mix_seed(&self, seed: u64, nonce: &[u8; 16]) -> u64 {
        let mut out = [0u8; 8];
        let _ = self
            .prk
            .expand_multi_info(&[SEED_INFO, &seed.to_le_bytes(), nonce], &mut out);
        u64::from_le_bytes(out)
    }
}

/// Which of the server's secrets opened a token or key: the newest, or one kept for a rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecretAge {
    Newest,
    Older,
}

/// The server's secrets, newest first (never empty).
pub struct Secrets {
    list: Vec<Secret>,
}

impl fmt::Debug for Secrets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Secrets({} secrets)", self.list.len())
    }
}

impl Secrets {
    /// Secrets from the text of a secret file (or the environment variable): one a line, newest
    /// first; surrounding whitespace and empty lines are not part of any.
    pub fn parse(text: &[u8]) -> Result<Secrets, SecretError> {
        let lines: Vec<(usize, &[u8])> = text
            .split(|&b| b == b'\n')
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_ascii()))
            .filter(|(_, l)| !l.is_empty())
            .collect();
        if lines.is_empty() {
            return Err(SecretError::None);
        }
        for (i, &(line, secret)) in lines.iter().enumerate() {
            if secret.len() < MIN_SECRET_LEN {
                return Err(SecretError::Short {
                    line,
                    len: secret.len(),
                });
            }
            if let Some(&(first, _)) = lines[..i].iter().find(|(_, s)| *s == secret) {
                return Err(SecretError::Repeated {
                    first,
                    second: line,
                });
            }
        }
        Ok(Secrets {
            list: lines.into_iter().map(|(_, s)| Secret::new(s)).collect(),
        })
    }

    /// The secret everything new is made with.
    pub fn newest(&self) -> &Secret {
        &self.list[0]
    }

    /// Every secret, newest first.
    pub fn all(&self) -> &[Secret] {
        &self.list
    }

    /// Whether `secret` (one of these) is the newest.
    pub fn age_of(&self, secret: &Secret) -> SecretAge {
        if std::ptr::eq(secret, self.newest()) {
            SecretAge::Newest
        } else {
            SecretAge::Older
        }
    }

    /// The secrets a token or key naming `key_id` may have been made with.
    pub fn by_key_id(&self, key_id: u8) -> impl Iterator<Item = &Secret> {
        self.list.iter().filter(move |s| s.key_id == key_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "secret A, more than thirty-two bytes long";
    const B: &str = "secret B, more than thirty-two bytes long";

    #[test]
    fn lines_are_secrets_newest_first() {
        let s = Secrets::parse(format!("\n{B}\r\n  {A}  \n\n").as_bytes()).unwrap();
        assert_eq!(s.all().len(), 2);
        let a = Secrets::parse(A.as_bytes()).unwrap();
        let b = Secrets::parse(B.as_bytes()).unwrap();
        assert_eq!(s.newest().seal_key(), b.newest().seal_key());
        assert_eq!(s.all()[1].seal_key(), a.newest().seal_key());
        assert_ne!(a.newest().seal_key(), b.newest().seal_key());
    }

    #[test]
    fn bad_secret_files_are_explained() {
        assert_eq!(Secrets::parse(b" \n\n").unwrap_err(), SecretError::None);
        let e = Secrets::parse(format!("{A}\nshort\n").as_bytes()).unwrap_err();
        assert_eq!(e, SecretError::Short { line: 2, len: 5 });
        let e = Secrets::parse(format!("{A}\n{B}\n{A}").as_bytes()).unwrap_err();
        assert_eq!(
            e,
            SecretError::Repeated {
                first: 1,
                second: 3
            }
        );
    }

    #[test]
    fn derived_keys_differ_by_purpose_game_seat_and_secret() {
        let a = Secrets::parse(A.as_bytes()).unwrap();
        let b = Secrets::parse(B.as_bytes()).unwrap();
        let (a, b) = (a.newest(), b.newest());
        let g1 = [1u8; 16];
        let g2 = [2u8; 16];
        assert_eq!(a.seat_key(&g1, 0), a.seat_key(&g1, 0));
        assert_ne!(a.seat_key(&g1, 0), a.seat_key(&g1, 1));
        assert_ne!(a.seat_key(&g1, 0), a.seat_key(&g2, 0));
        assert_ne!(a.seat_key(&g1, 0), b.seat_key(&g1, 0));
        assert_ne!(&a.seat_key(&g1, 0), a.seal_key());
        let (n, m) = ([1; 16], [2; 16]);
        assert_eq!(a.mix_seed(42, &n), a.mix_seed(42, &n));
        assert_ne!(a.mix_seed(42, &n), a.mix_seed(43, &n));
        assert_ne!(a.mix_seed(42, &n), a.mix_seed(42, &m));
        assert_ne!(a.mix_seed(42, &n), b.mix_seed(42, &n));
    }
}
