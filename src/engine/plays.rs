//! The plays of a table's hand so far, as the state records them: what lets a plain state be
//! checked by playing the hand again from its deal.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, SchemaType, Type};

use crate::cards::Card;

/// One action played at a table, with the card it moved. Written `"take"`, `"pass"`,
/// `"stock 7H"` (the card drawn), `"pile 7H"`, `"discard 7H"`, `"knock 7H"`, `"gin 7H"`,
/// `"big_gin"` or `"lay_off"`: the melds shown and the cards laid off are in the phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Play {
    /// The upcard taken at the offer.
    Take,
    /// The upcard (or the last discard) declined.
    Pass,
    /// A card drawn from the stock.
    Stock(Card),
    /// A card taken from the discard pile.
    Pile(Card),
    Discard(Card),
    Knock(Card),
    Gin(Card),
    BigGin,
    LayOff,
}

impl Play {
    /// The card the play put on the discard pile.
    pub fn discarded(self) -> Option<Card> {
        match self {
            Play::Discard(c) | Play::Knock(c) | Play::Gin(c) => Some(c),
            _ => None,
        }
    }

    /// The card the play took into the player's hand (`upcard` for taking the upcard).
    pub fn drawn(self, upcard: Card) -> Option<Card> {
        match self {
            Play::Take => Some(upcard),
            Play::Stock(c) | Play::Pile(c) => Some(c),
            _ => None,
        }
    }

    /// The turn passes to the other player after this play (after a knock, to lay off).
    pub fn hands_over(self) -> bool {
        matches!(
            self,
            Play::Pass | Play::Discard(_) | Play::Knock(_) | Play::Gin(_) | Play::BigGin
        )
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Play::Take => f.write_str("take"),
            Play::Pass => f.write_str("pass"),
            Play::Stock(c) => write!(f, "stock {c}"),
            Play::Pile(c) => write!(f, "pile {c}"),
            Play::Discard(c) => write!(f, "discard {c}"),
            Play::Knock(c) => write!(f, "knock {c}"),
            Play::Gin(c) => write!(f, "gin {c}"),
            Play::BigGin => f.write_str("big_gin"),
            Play::LayOff => f.write_str("lay_off"),
        }
    }
}

/// A string that is not a play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a play (take, pass, big_gin, lay_off, or stock, pile, discard, knock or gin \
     and a card, like \"stock 7H\")"
)]
pub struct ParsePlayError(String);

impl FromStr for Play {
    type Err = ParsePlayError;

    fn from_str(s: &str) -> Result<Play, ParsePlayError> {
        let err = || ParsePlayError(s.chars().take(40).collect());
        let (word, card) = match s.split_once(' ') {
            Some((w, c)) if c.trim() == c => (w, Some(c.parse::<Card>().map_err(|_| err())?)),
            Some(_) => return Err(err()),
            None => (s, None),
        };
        Ok(match (word, card) {
            ("take", None) => Play::Take,
            ("pass", None) => Play::Pass,
            ("big_gin", None) => Play::BigGin,
            ("lay_off", None) => Play::LayOff,
            ("stock", Some(c)) => Play::Stock(c),
            ("pile", Some(c)) => Play::Pile(c),
            ("discard", Some(c)) => Play::Discard(c),
            ("knock", Some(c)) => Play::Knock(c),
            ("gin", Some(c)) => Play::Gin(c),
            _ => return Err(err()),
        })
    }
}

impl Serialize for Play {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Play {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Play, D::Error> {
        struct PlayVisitor;
        impl serde::de::Visitor<'_> for PlayVisitor {
            type Value = Play;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a play such as \"stock 7H\"")
            }

            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Play, E> {
                s.parse().map_err(E::custom)
            }
        }
        d.deserialize_str(PlayVisitor)
    }
}

impl utoipa::PartialSchema for Play {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::String))
            .description(Some(
                "One action played at a table this hand: `take`, `pass`, `big_gin`, `lay_off`, \
                 or `stock`, `pile`, `discard`, `knock` or `gin` then the card (`stock 7H`: 7H \
                 drawn from the stock).",
            ))
            .pattern(Some(
                "^(?:take|pass|big_gin|lay_off|(?:stock|pile|discard|knock|gin) \
                 (?:[2-9TtJjQqKkAa]|10)[CDHScdhs])$",
            ))
            .examples(["stock 7H"])
            .into()
    }
}

impl utoipa::ToSchema for Play {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Play")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_read_back_as_written() {
        for text in [
            "take",
            "pass",
            "big_gin",
            "lay_off",
            "stock 7H",
            "pile TD",
            "discard AS",
            "knock KC",
            "gin 2D",
        ] {
            let play: Play = text.parse().unwrap();
            assert_eq!(play.to_string(), text);
        }
        for bad in ["", "take 7H", "stock", "stock 1H", "draw 7H", "gin  7H"] {
            assert!(bad.parse::<Play>().is_err(), "{bad}");
        }
    }
}
