//! The whole-number fields of a ruleset, each declared once: its key, its range and what it
//! means. The JSON Schema (`rulesets/schema.json`) takes its range and description from here, and
//! the loader its check and message.

use schemars::Schema;
use serde_json::{Map, Value};

/// A whole-number field of a ruleset file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntField {
    /// Its dotted YAML path (`melds.set_min`); for the card values, the section's.
    pub key: &'static str,
    pub min: i64,
    /// `None`: no upper bound of its own (a later check bounds it).
    pub max: Option<i64>,
    /// The schema description; `{range}` is replaced by the range in words, `{max}` by the
    /// maximum. `None`: no description.
    pub about: Option<&'static str>,
}

const fn field(key: &'static str, min: i64, max: i64, about: &'static str) -> IntField {
    IntField {
        key,
        min,
        max: Some(max),
        about: Some(about),
    }
}

/// A bonus in points.
const BONUS_MAX: i64 = 10_000;

pub const SEATS: IntField = field("seats", 2, 4, "Players: {range}.");
/// Each rank's value, under `deck.values.<rank>`.
pub const CARD_VALUE: IntField = IntField {
    key: "deck.values",
    min: 0,
    max: Some(100),
    about: None,
};
pub const SET_MIN: IntField = field(
    "melds.set_min",
    3,
    4,
    "Fewest cards of one rank in a set ({range}).",
);
pub const SET_MAX: IntField = field(
    "melds.set_max",
    3,
    4,
    "Most cards of one rank in a set (at most {max}).",
);
pub const RUN_MIN: IntField = field(
    "melds.run_min",
    3,
    13,
    "Fewest consecutive cards of one suit in a run ({range}).",
);
pub const HAND_SIZE: IntField = field("deal.hand_size", 3, 20, "Cards dealt to each player.");
pub const KNOCK_LIMIT: IntField = IntField {
    key: "knocking.knock_limit",
    min: 0,
    max: None,
    about: Some(
        "Most deadwood a knocker may keep (a `knock_limit` hook may set it per hand instead).",
    ),
};
pub const GIN_BONUS: IntField = field(
    "scoring.gin_bonus",
    0,
    BONUS_MAX,
    "Added to the defender's deadwood for gin.",
);
pub const BIG_GIN_BONUS: IntField = field(
    "scoring.big_gin_bonus",
    0,
    BONUS_MAX,
    "Added to the defender's deadwood for big gin.",
);
pub const UNDERCUT_BONUS: IntField = field(
    "scoring.undercut_bonus",
    0,
    BONUS_MAX,
    "Added to the difference for an undercut.",
);
pub const RESERVE: IntField = field("stock.reserve", 0, 20, "Stock cards that are never drawn.");
pub const GAME_BONUS: IntField = field(
    "match.game_bonus",
    0,
    BONUS_MAX,
    "Given to the winner of a game (classic bonuses; 0 = none).",
);
pub const BOX_BONUS: IntField = field(
    "match.box_bonus",
    0,
    BONUS_MAX,
    "Given to each player for every hand won in a game (0 = none).",
);
pub const SHUTOUT_MULTIPLIER: IntField = field(
    "match.shutout_multiplier",
    1,
    10,
    "Multiplies the winner's whole total when the loser scored nothing (1 = none).",
);

impl IntField {
    /// The value when it is in range, else the loader's message (naming `path`, the field's key
    /// or, for a card value, its own).
    pub fn check(&self, path: &str, value: i64) -> Result<i64, String> {
        if value >= self.min && self.max.is_none_or(|max| value <= max) {
            return Ok(value);
        }
        let range = match self.max {
            Some(max) => format!("{} to {max}", self.min),
            None => format!("{} or more", self.min),
        };
        Err(format!("`{path}` must be {range}, not {value}"))
    }

    /// The range in words: "3 or 4", "2, 3 or 4", "3 to 13", "0 or more".
    fn range_words(&self) -> String {
        match self.max {
            None => format!("{} or more", self.min),
            Some(max) if max - self.min <= 2 => {
                let all: Vec<String> = (self.min..=max).map(|n| n.to_string()).collect();
                match all.split_last() {
                    Some((last, [])) => last.clone(),
                    Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                    None => String::new(),
                }
            }
            Some(max) => format!("{} to {max}", self.min),
        }
    }

    /// What the schema of the field gets (`#[schemars(transform = FIELD.schema())]`): its
    /// description first, its range last.
    pub fn schema(self) -> impl FnMut(&mut Schema) {
        move |schema: &mut Schema| {
            let Some(object) = schema.as_object_mut() else {
                return;
            };
            let mut out = Map::new();
            if let Some(about) = self.about {
                let max = self.max.map(|m| m.to_string()).unwrap_or_default();
                let text = about
                    .replace("{range}", &self.range_words())
                    .replace("{max}", &max);
                out.insert("description".into(), Value::from(text));
            }
            out.extend(std::mem::take(object));
            if let Some(max) = self.max {
                out.insert("maximum".into(), Value::from(max));
            }
            out.insert("minimum".into(), Value::from(self.min));
            *object = out;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_as_words() {
        assert_eq!(SEATS.range_words(), "2, 3 or 4");
        assert_eq!(SET_MIN.range_words(), "3 or 4");
        assert_eq!(RUN_MIN.range_words(), "3 to 13");
        assert_eq!(KNOCK_LIMIT.range_words(), "0 or more");
    }

    #[test]
    fn a_value_out_of_range_is_refused_with_its_range() {
        assert_eq!(SET_MIN.check("melds.set_min", 4), Ok(4));
        assert_eq!(
            SET_MIN.check("melds.set_min", 5),
            Err("`melds.set_min` must be 3 to 4, not 5".into())
        );
        assert_eq!(
            KNOCK_LIMIT.check("knocking.knock_limit", -1),
            Err("`knocking.knock_limit` must be 0 or more, not -1".into())
        );
        assert_eq!(
            KNOCK_LIMIT.check("knocking.knock_limit", 5_000_000),
            Ok(5_000_000)
        );
    }
}
