//! A game's identity: an id drawn at the deal and the number of actions accepted since.

use std::fmt;
use std::str::FromStr;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The stream of the seeded generator that draws an engine-made id (apart from every shuffle's).
const ID_STREAM: u64 = u64::MAX - 1;

/// 128 bits that name one game, written as 32 lower-case hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub [u8; 16]);

impl GameId {
    /// An id drawn from `seed`: the same seed names the same game (simulations, the CLI). A
    /// server draws a random id instead, so that two games dealt from one seed stay apart.
    pub fn from_seed(seed: u64) -> GameId {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        rng.set_stream(ID_STREAM);
        GameId(rng.random())
    }

    pub fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }

    /// The 32 lower-case hex digits.
    fn hex(&self) -> [u8; 32] {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut hex = [0; 32];
        for (pair, b) in hex.chunks_exact_mut(2).zip(self.0) {
            pair[0] = DIGITS[usize::from(b >> 4)];
            pair[1] = DIGITS[usize::from(b & 15)];
        }
        hex
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.hex()).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameId({self})")
    }
}

/// A string that is not 32 hex digits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a game id is 32 hex digits, not {0:?}")]
pub struct BadGameId(pub String);

impl FromStr for GameId {
    type Err = BadGameId;

    fn from_str(s: &str) -> Result<GameId, BadGameId> {
        let bad = || BadGameId(s.chars().take(40).collect());
        if s.len() != 32 || !s.is_ascii() {
            return Err(bad());
        }
        let mut id = [0u8; 16];
        for (i, b) in id.iter_mut().enumerate() {
            *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
        }
        Ok(GameId(id))
    }
}

impl Serialize for GameId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let hex = self.hex();
        s.serialize_str(std::str::from_utf8(&hex).map_err(serde::ser::Error::custom)?)
    }
}

impl<'de> Deserialize<'de> for GameId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GameId, D::Error> {
        super::parse_str(d)
    }
}

/// Which game a state, a snapshot or an event belongs to, and how far it has gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(example = json!({"id": "5f0c6a8e9b1d4e2fa3c47d21e0b9f8a6", "move": 17}))]
pub struct GameRef {
    /// Drawn at the deal; the same for every state of the game.
    #[schema(value_type = String, pattern = "^[0-9a-f]{32}$")]
    pub id: GameId,
    /// Actions accepted so far (0 right after the deal).
    #[serde(rename = "move")]
    pub moves: u32,
}

impl GameRef {
    pub fn new(id: GameId) -> GameRef {
        GameRef { id, moves: 0 }
    }

    /// The same game one accepted action later.
    pub fn next(self) -> GameRef {
        GameRef {
            id: self.id,
            moves: self.moves.saturating_add(1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_read_back_and_refuse_what_is_not_hex() {
        let id = GameId::from_seed(7);
        assert_eq!(id, GameId::from_seed(7));
        assert_ne!(id, GameId::from_seed(8));
        let text = id.to_string();
        assert_eq!(text.len(), 32);
        assert_eq!(text.parse::<GameId>(), Ok(id));
        assert_eq!(text.to_uppercase().parse::<GameId>(), Ok(id));
        for bad in ["", "abc", &"g".repeat(32), &"é".repeat(16), &"0".repeat(33)] {
            assert!(bad.parse::<GameId>().is_err(), "{bad}");
        }
        let json = serde_json::to_string(&GameRef::new(id).next()).unwrap();
        assert_eq!(json, format!("{{\"id\":\"{text}\",\"move\":1}}"));
        assert!(serde_json::from_str::<GameRef>("{\"id\":\"x\",\"move\":1}").is_err());
    }
}
