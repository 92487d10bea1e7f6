//! The match's log: what its first deal was dealt from and every action accepted since. A plain
//! state is checked by dealing and playing its log again, which must give the state exactly.

use std::fmt;
use std::str::FromStr;

use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, SchemaType, Type};

use crate::cards::Card;
use crate::seat::Seat;

use super::action::{Action, ActionKind, LayOffCard, Source};

/// What a match was dealt from, and every action accepted since, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Log {
    /// Who dealt the first hand.
    #[schema(value_type = u8)]
    pub dealer: Seat,
    /// The decks of the first deal, one per table, top card first, when they were given (else
    /// the seed shuffled them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<Vec<String>>)]
    pub decks: Vec<Vec<Card>>,
    /// Every action accepted so far: the seat, then what it did.
    #[serde(serialize_with = "write_actions", deserialize_with = "read_actions")]
    #[schema(schema_with = actions_schema)]
    pub actions: Vec<Action>,
}

/// Whether a game keeps its log. A plain state needs it (it is checked by playing the log again);
/// a simulation that never sends its states out does not, and saves a write a step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Logging {
    /// Every accepted action is logged, as [`Game::deal`](super::Game::deal) does.
    #[default]
    Kept,
    /// No log, as in a sealed state: the game's states are not plain states that
    /// [`Game::from_state`](super::Game::from_state) accepts.
    Off,
}

/// Writes an action as a log entry: `0 take`, `1 pass`, `0 stock`, `1 pile`, `0 discard 7H`,
/// `1 knock 2D` (`1 knock 2D 5S,6S,7S 9H,9D,9C` when the player named the melds), `1 gin 2D`,
/// `1 gin` (gin without a discard), `0 lay_off 8S>0 9C` (`>0`: onto the knocker's meld 0),
/// `1 next_hand`.
impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_entry(self, f)
    }
}

/// The one writer of log entries, for [`Display`](fmt::Display) and the log's JSON alike: only
/// whole strings and characters, no formatting of arguments.
fn write_entry(action: &Action, out: &mut impl fmt::Write) -> fmt::Result {
    fn melds(out: &mut impl fmt::Write, melds: &Option<Vec<Vec<Card>>>) -> fmt::Result {
        for meld in melds.iter().flatten() {
            out.write_char(' ')?;
            for (i, c) in meld.iter().enumerate() {
                if i > 0 {
                    out.write_char(',')?;
                }
                out.write_str(c.text())?;
            }
        }
        Ok(())
    }
    write_number(out, action.seat.index())?;
    out.write_char(' ')?;
    match &action.kind {
        ActionKind::TakeUpcard => out.write_str("take"),
        ActionKind::Pass => out.write_str("pass"),
        ActionKind::Draw {
            from: Source::Stock,
        } => out.write_str("stock"),
        ActionKind::Draw {
            from: Source::Discard,
        } => out.write_str("pile"),
        ActionKind::Discard { card } => {
            out.write_str("discard ")?;
            out.write_str(card.text())
        }
        ActionKind::Knock { discard, melds: m } => {
            out.write_str("knock ")?;
            out.write_str(discard.text())?;
            melds(out, m)
        }
        ActionKind::Gin { discard, melds: m } => {
            out.write_str("gin")?;
            if let Some(d) = discard {
                out.write_char(' ')?;
                out.write_str(d.text())?;
            }
            melds(out, m)
        }
        ActionKind::LayOff { cards } => {
            out.write_str("lay_off")?;
            for c in cards {
                out.write_char(' ')?;
                out.write_str(c.card.text())?;
                if let Some(onto) = c.onto {
                    out.write_char('>')?;
                    write_number(out, onto)?;
                }
            }
            Ok(())
        }
        ActionKind::NextHand => out.write_str("next_hand"),
    }
}

/// Writes `n` in decimal digits.
fn write_number(out: &mut impl fmt::Write, n: usize) -> fmt::Result {
    if n >= 10 {
        write_number(out, n / 10)?;
    }
    out.write_char(char::from(b'0' + (n % 10) as u8))
}

/// A string that is not a log entry.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a log entry (a seat, then take, pass, stock, pile, next_hand, discard and a \
     card, knock or gin and the discard, then any melds, or lay_off and the cards, as in \
     \"0 discard 7H\")"
)]
pub struct ParseEntryError(String);

impl FromStr for Action {
    type Err = ParseEntryError;

    fn from_str(s: &str) -> Result<Action, ParseEntryError> {
        let err = || ParseEntryError(s.chars().take(60).collect());
        let mut words = s.split(' ');
        let seat: Seat = words
            .next()
            .filter(|w| w.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|w| w.parse().ok())
            .ok_or_else(err)?;
        let verb = words.next().ok_or_else(err)?;
        let card = |w: &str| -> Result<Card, ParseEntryError> {
            if w.trim() != w || w.is_empty() {
                return Err(err());
            }
            w.parse().map_err(|_| err())
        };
        // Most entries are a verb and at most one word: read without collecting the words.
        if let "take" | "pass" | "stock" | "pile" | "next_hand" | "discard" = verb {
            let word = words.next();
            if words.next().is_some() {
                return Err(err());
            }
            let kind = match (verb, word) {
                ("take", None) => ActionKind::TakeUpcard,
                ("pass", None) => ActionKind::Pass,
                ("stock", None) => ActionKind::Draw {
                    from: Source::Stock,
                },
                ("pile", None) => ActionKind::Draw {
                    from: Source::Discard,
                },
                ("next_hand", None) => ActionKind::NextHand,
                ("discard", Some(c)) => ActionKind::Discard { card: card(c)? },
                _ => return Err(err()),
            };
            return Ok(Action::new(seat, kind));
        }
        let rest: Vec<&str> = words.collect();
        let melds = |ws: &[&str]| -> Result<Option<Vec<Vec<Card>>>, ParseEntryError> {
            if ws.is_empty() {
                return Ok(None);
            }
            ws.iter()
                .map(|w| w.split(',').map(card).collect())
                .collect::<Result<_, _>>()
                .map(Some)
        };
        let kind = match (verb, rest.as_slice()) {
            ("knock", [d, m @ ..]) => ActionKind::Knock {
                discard: card(d)?,
                melds: melds(m)?,
            },
            // A meld has a comma between its cards; a discard is one card.
            ("gin", [d, m @ ..]) if !d.contains(',') => ActionKind::Gin {
                discard: Some(card(d)?),
                melds: melds(m)?,
            },
            ("gin", m) => ActionKind::Gin {
                discard: None,
                melds: melds(m)?,
            },
            ("lay_off", cards) => ActionKind::LayOff {
                cards: cards
                    .iter()
                    .map(|w| match w.split_once('>') {
                        Some((c, onto)) if onto.bytes().all(|b| b.is_ascii_digit()) => {
                            Ok(LayOffCard {
                                card: card(c)?,
                                onto: Some(onto.parse().map_err(|_| err())?),
                            })
                        }
                        Some(_) => Err(err()),
                        None => Ok(LayOffCard {
                            card: card(w)?,
                            onto: None,
                        }),
                    })
                    .collect::<Result<_, _>>()?,
            },
            _ => return Err(err()),
        };
        Ok(Action::new(seat, kind))
    }
}

fn write_actions<S: Serializer>(actions: &[Action], s: S) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(actions.len()))?;
    // One buffer for every entry.
    let mut entry = String::with_capacity(32);
    for action in actions {
        entry.clear();
        write_entry(action, &mut entry).map_err(serde::ser::Error::custom)?;
        seq.serialize_element(&entry)?;
    }
    seq.end()
}

fn read_actions<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Action>, D::Error> {
    struct Entry(Action);
    impl<'de> Deserialize<'de> for Entry {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Entry, D::Error> {
            super::parse_str(d).map(Entry)
        }
    }
    Ok(Vec::<Entry>::deserialize(d)?
        .into_iter()
        .map(|e| e.0)
        .collect())
}

fn actions_schema() -> impl Into<RefOr<Schema>> {
    const CARD: &str = "(?:[2-9TtJjQqKkAa]|10)[CDHScdhs]";
    let meld = format!("{CARD}(?:,{CARD})+");
    let entry = ObjectBuilder::new()
        .schema_type(SchemaType::Type(Type::String))
        .description(Some(
            "One accepted action: the seat, then `take`, `pass`, `stock`, `pile`, `next_hand`, \
             `discard` and the card, `knock` and the discard, `gin` and any discard, each \
             followed by the melds the player named (cards joined by commas), or `lay_off` and \
             the cards (`8S>0`: onto the knocker's meld 0).",
        ))
        .pattern(Some(format!(
            "^[0-9]+ (?:take|pass|stock|pile|next_hand|discard {CARD}|knock {CARD}(?: {meld})*|\
             gin(?: {CARD})?(?: {meld})*|lay_off(?: {CARD}(?:>[0-9]+)?)*)$"
        )))
        .examples(["0 discard 7H"]);
    ArrayBuilder::new().items(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_back_as_written() {
        for text in [
            "0 take",
            "1 pass",
            "0 stock",
            "1 pile",
            "3 next_hand",
            "0 discard 7H",
            "1 knock KC",
            "1 knock KC 5S,6S,7S 9H,9D,9C",
            "1 gin 2D",
            "1 gin 2D AS,2S,3S",
            "1 gin",
            "1 gin AS,2S,3S 4D,4C,4H",
            "0 lay_off",
            "0 lay_off 8S>0 9C",
        ] {
            let action: Action = text.parse().unwrap();
            assert_eq!(action.to_string(), text);
        }
        for bad in [
            "",
            "0",
            "x take",
            "-1 take",
            "0 take 7H",
            "0 draw",
            "0 discard",
            "0 discard 1H",
            "0  discard 7H",
            "0 discard 7H ",
            "0 knock",
            "0 pass 7H",
            "0 stock ",
            "0 discard 7H 8H",
            "0 next_hand 1",
            "0 lay_off 8S>x",
            "0 lay_off 8S>",
            "256 take",
        ] {
            assert!(bad.parse::<Action>().is_err(), "{bad}");
        }
    }
}
