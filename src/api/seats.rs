//! Seat keys: one key per seat of a game, derived from the secret, the game id and the seat
//! (nothing stored), and who an answer is for.
//!
//! A key is `base64url(format byte 1, key-id byte of the secret, 32-byte HKDF output)`.

use std::sync::Arc;

use actix_web::HttpRequest;
use actix_web::http::header;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Serialize;
use utoipa::ToSchema;

use crate::engine::GameId;
use crate::seat::Seat;

use super::ApiError;
use super::secrets::{SecretAge, Secrets};

const KEY_FORMAT: u8 = 1;
const KEY_LEN: usize = 2 + 32;

/// Whose answer a request gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Every seat's (no seat keys: a trusted backend).
    Everyone,
    /// One seat's: its view alone, its legal actions, the events as it may see them.
    Seat(Seat),
    /// No seat's: the public events and the scores, no hand (the creator of a seat-key game).
    Nobody,
}

impl Audience {
    /// The seat whose eyes events are seen with (`None`: a spectator's).
    pub fn seat(self) -> Option<Seat> {
        match self {
            Audience::Seat(s) => Some(s),
            _ => None,
        }
    }

    /// Whether this answer may show what `seat` may see.
    pub fn shows(self, seat: Seat) -> bool {
        match self {
            Audience::Everyone => true,
            Audience::Seat(s) => s == seat,
            Audience::Nobody => false,
        }
    }
}

/// The key of one seat, as the deal's answer hands it out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(example = json!({"seat": 0, "key": "AeV0n5mQ0mXo0S7d8l6S3b9kPz1yF2wHc4tJ8uRrN5aDqE3iTg"}))]
pub struct SeatKey {
    /// The seat the key opens.
    #[schema(value_type = u8)]
    pub seat: Seat,
    /// Send as `Authorization: Bearer <key>` to act for and see this seat.
    pub key: String,
}

/// Issues and checks seat keys.
pub struct SeatKeys {
    secrets: Arc<Secrets>,
}

impl SeatKeys {
    pub fn new(secrets: Arc<Secrets>) -> SeatKeys {
        SeatKeys { secrets }
    }

    /// The key of `seat` in game `id`, made with the newest secret.
    pub fn key(&self, id: GameId, seat: Seat) -> String {
        let secret = self.secrets.newest();
        let mut bytes = Vec::with_capacity(KEY_LEN);
        bytes.push(KEY_FORMAT);
        bytes.push(secret.key_id());
        bytes.extend_from_slice(&secret.seat_key(id.as_bytes(), seat.number()));
        URL_SAFE_NO_PAD.encode(bytes)
    }

    /// One key per seat of `seats`.
    pub fn issue(&self, id: GameId, seats: &[Seat]) -> Vec<SeatKey> {
        seats
            .iter()
            .map(|&seat| SeatKey {
                seat,
                key: self.key(id, seat),
            })
            .collect()
    }

    /// The seat `key` opens in game `id` (of `seats` seats), made with any of the secrets, and
    /// which secret made it.
    fn seat_of(&self, key: &str, id: GameId, seats: usize) -> Option<(Seat, SecretAge)> {
        let bytes = URL_SAFE_NO_PAD.decode(key.trim()).ok()?;
        if bytes.len() != KEY_LEN || bytes[0] != KEY_FORMAT {
            return None;
        }
        let tag = &bytes[2..];
        self.secrets.by_key_id(bytes[1]).find_map(|secret| {
            Seat::all(seats)
                .find(|&seat| same(&secret.seat_key(id.as_bytes(), seat.number()), tag))
                .map(|seat| (seat, self.secrets.age_of(secret)))
        })
    }

    /// Checks that `key` opens `seat` of game `id`, and says which secret made it: else `403
    /// forbidden-seat`.
    pub fn check(
        &self,
        key: &str,
        id: GameId,
        seat: Seat,
        seats: usize,
    ) -> Result<SecretAge, ApiError> {
        match self.seat_of(key, id, seats) {
            Some((s, age)) if s == seat => Ok(age),
            Some((s, _)) => Err(ApiError::ForbiddenSeat(format!(
                "this key is seat {s}'s: it does not open seat {seat}"
            ))),
            None => Err(ApiError::ForbiddenSeat(
                "this key does not open this game (a key of another game, or made with a \
                 secret this server no longer holds)"
                    .into(),
            )),
        }
    }
}

/// Compares in time that does not depend on where the bytes differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The key of an `Authorization: Bearer <key>` header: `401 missing-seat-key` when there is none.
pub fn bearer(req: &HttpRequest) -> Result<&str, ApiError> {
    let Some(value) = req.headers().get(header::AUTHORIZATION) else {
        return Err(ApiError::MissingSeatKey(
            "this server binds play to seats: send the seat's key as Authorization: Bearer <key>"
                .into(),
        ));
    };
    let text = value.to_str().unwrap_or("");
    match text.split_once(' ') {
        Some((scheme, key)) if scheme.eq_ignore_ascii_case("bearer") && !key.trim().is_empty() => {
            Ok(key.trim())
        }
        _ => Err(ApiError::MissingSeatKey(
            "the Authorization header is not a seat key: send Authorization: Bearer <key>".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(secrets: &str) -> SeatKeys {
        SeatKeys::new(Arc::new(Secrets::parse(secrets.as_bytes()).unwrap()))
    }

    const S0: Seat = Seat::new(0);
    const S1: Seat = Seat::new(1);
    const A: &str = "secret A, more than thirty-two bytes long";
    const B: &str = "secret B, more than thirty-two bytes long";

    #[test]
    fn a_key_opens_its_seat_of_its_game_only() {
        let k = keys(A);
        let (g1, g2) = (GameId([1; 16]), GameId([2; 16]));
        let issued = k.issue(g1, &[S0, S1]);
        assert_eq!(issued.len(), 2);
        assert!(k.check(&issued[0].key, g1, S0, 2).is_ok());
        assert!(k.check(&issued[1].key, g1, S1, 2).is_ok());
        let e = k.check(&issued[1].key, g1, S0, 2).unwrap_err();
        assert_eq!(e.code(), "forbidden-seat");
        assert!(e.to_string().contains("seat 1's"), "{e}");
        assert!(k.check(&issued[0].key, g2, S0, 2).is_err());
        assert!(k.check("", g1, S0, 2).is_err());
        assert!(k.check("!!", g1, S0, 2).is_err());
        assert!(keys(B).check(&issued[0].key, g1, S0, 2).is_err());
    }

    #[test]
    fn a_rotation_accepts_old_keys_and_issues_new_ones() {
        let old = keys(A);
        let rotated = keys(&format!("{B}\n{A}"));
        let g = GameId([7; 16]);
        let from_old = old.key(g, S1);
        assert_eq!(rotated.check(&from_old, g, S1, 2), Ok(SecretAge::Older));
        let from_new = rotated.key(g, S1);
        assert_eq!(rotated.check(&from_new, g, S1, 2), Ok(SecretAge::Newest));
        assert_ne!(from_new, from_old);
        assert!(keys(B).check(&from_new, g, S1, 2).is_ok());
        assert!(keys(B).check(&from_old, g, S1, 2).is_err());
    }
}
