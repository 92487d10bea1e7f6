//! The whole-number fields of a ruleset, each declared once: its key, its range, what it means
//! and how the rules table says a value of it. The JSON Schema (`rulesets/schema.json`) takes its
//! range and description from here, the loader its check and message, and the rules table
//! (`describe.rs`) its wording.

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
    /// How the rules table says a value: the first case whose value matches (`None` matches
    /// any) gives the text, where `{n}` is the value, `{count}` the value in words ("two") and
    /// `{Count}` the same capitalised. An empty text: the value goes unsaid.
    pub says: &'static [(Option<i64>, &'static str)],
}

const fn field(
    key: &'static str,
    min: i64,
    max: i64,
    about: &'static str,
    says: &'static [(Option<i64>, &'static str)],
) -> IntField {
    IntField {
        key,
        min,
        max: Some(max),
        about: Some(about),
        says,
    }
}

/// A bonus in points.
const BONUS_MAX: i64 = 10_000;

pub const SEATS: IntField = field(
    "seats",
    2,
    4,
    "Players: {range}.",
    &[(None, "{Count} players")],
);
/// Each rank's value, under `deck.values.<rank>`.
pub const CARD_VALUE: IntField = IntField {
    key: "deck.values",
    min: 0,
    max: Some(100),
    about: None,
    says: &[],
};
pub const SET_MIN: IntField = field(
    "melds.set_min",
    3,
    4,
    "Fewest cards of one rank in a set ({range}).",
    &[(None, "Sets of {n} cards of a rank")],
);
pub const SET_MAX: IntField = field(
    "melds.set_max",
    3,
    4,
    "Most cards of one rank in a set (at most {max}).",
    &[],
);
pub const RUN_MIN: IntField = field(
    "melds.run_min",
    3,
    13,
    "Fewest consecutive cards of one suit in a run ({range}).",
    &[(None, "runs of {n} or more cards of a suit")],
);
pub const JOKERS: IntField = field(
    "deck.jokers",
    0,
    2,
    "Jokers in the deck besides the 52 cards ({range}); each is written `JK`.",
    &[
        (Some(0), ""),
        (Some(1), "one joker"),
        (None, "{count} jokers"),
    ],
);
pub const MIN_NATURAL: IntField = field(
    "melds.min_natural",
    1,
    4,
    "Natural (not wild) cards every meld holds at least ({range}); a wild card is wild even where it stands for itself.",
    &[(None, "every meld holds at least {n} natural cards")],
);
pub const HAND_SIZE: IntField = field(
    "deal.hand_size",
    3,
    20,
    "Cards dealt to each player at a table of two.",
    &[(None, "{count} cards each")],
);
pub const HAND_SIZE_THREE: IntField = field(
    "deal.hand_size_three",
    3,
    15,
    "Cards dealt to each player at a table of three.",
    &[(None, "{count} cards each at a table of three")],
);
pub const HAND_SIZE_FOUR: IntField = field(
    "deal.hand_size_four",
    3,
    11,
    "Cards dealt to each player at a table of four.",
    &[(None, "{count} cards each at a table of four")],
);
pub const TABLE_PLAYERS: IntField = field(
    "deal.players",
    2,
    4,
    "Players dealt in at one table: {range}. With fewer than `seats`, the dealer deals to the next seats and sits out.",
    &[(None, "{Count} players at the table")],
);
pub const KNOCK_LIMIT: IntField = IntField {
    key: "knocking.knock_limit",
    min: 0,
    max: None,
    about: Some(
        "Most deadwood a knocker may keep (a `knock_limit` hook may set it per hand instead).",
    ),
    says: &[
        (Some(0), "Only with no deadwood at all, which is gin."),
        (None, "Allowed once your deadwood is {n} or less."),
    ],
};
pub const GIN_BONUS: IntField = field(
    "scoring.gin_bonus",
    0,
    BONUS_MAX,
    "Added to the defender's deadwood for gin.",
    &[(None, "Gin scores the opponent's deadwood plus {n}")],
);
pub const BIG_GIN_BONUS: IntField = field(
    "scoring.big_gin_bonus",
    0,
    BONUS_MAX,
    "Added to the defender's deadwood for big gin.",
    &[(None, "plus {n}")],
);
pub const UNDERCUT_BONUS: IntField = field(
    "scoring.undercut_bonus",
    0,
    BONUS_MAX,
    "Added to the difference for an undercut.",
    &[(None, "they score the difference plus {n}")],
);
pub const RESERVE: IntField = field(
    "stock.reserve",
    0,
    20,
    "Stock cards that are never drawn.",
    &[
        (Some(0), "every card of the stock may be drawn."),
        (Some(1), "the last card of the stock is never drawn."),
        (None, "the last {count} cards of the stock are never drawn."),
    ],
);
pub const TURN_LIMIT: IntField = field(
    "turns.limit",
    10,
    1_000,
    "Most turns (draws) a hand lasts, {range}: a discard without going out on the last one ends the hand dead, with no score.",
    &[(
        None,
        "a hand still going after {n} turns (draws) is dead: the discard of the last one, without going out, ends it with no score",
    )],
);
pub const GAME_BONUS: IntField = field(
    "match.game_bonus",
    0,
    BONUS_MAX,
    "Given to the winner of a game (classic bonuses; 0 = none).",
    &[(Some(0), ""), (None, "{n} to the winner of a game")],
);
pub const BOX_BONUS: IntField = field(
    "match.box_bonus",
    0,
    BONUS_MAX,
    "Given to each player for every hand won in a game (0 = none).",
    &[(Some(0), ""), (None, "{n} a box for every hand won")],
);
pub const SHUTOUT_MULTIPLIER: IntField = field(
    "match.shutout_multiplier",
    1,
    10,
    "Multiplies the winner's whole total when the loser scored nothing (1 = none).",
    &[
        (Some(1), ""),
        (
            None,
            "the winner's total times {n} when the loser scored nothing",
        ),
    ],
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
            Some(max) => span_words(self.min, max),
        }
    }

    /// How the rules table says the value `n`.
    pub fn say(&self, n: impl Into<i64>) -> String {
        let n = n.into();
        let count = count_words(n);
        let mut chars = count.chars();
        let capitalised: String = chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default();
        self.case(Some(n))
            .replace("{n}", &n.to_string())
            .replace("{count}", &count)
            .replace("{Count}", &capitalised)
    }

    /// How the rules table says "any value from `lo` to `hi`" ("Sets of 3 or 4 cards of a
    /// rank"); a single value as [`IntField::say`] says it.
    pub fn say_span(&self, lo: i64, hi: i64) -> String {
        if lo == hi {
            return self.say(lo);
        }
        self.case(None).replace("{n}", &span_words(lo, hi))
    }

    fn case(&self, n: Option<i64>) -> &'static str {
        self.says
            .iter()
            .find(|(value, _)| value.is_none() || *value == n)
            .map_or("", |(_, text)| text)
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

/// "3", "3 or 4", "2, 3 or 4", "3 to 13".
fn span_words(lo: i64, hi: i64) -> String {
    if hi - lo > 2 {
        return format!("{lo} to {hi}");
    }
    let all: Vec<String> = (lo..=hi).map(|n| n.to_string()).collect();
    match all.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// A small count in words ("two"), as the rules are written; digits from 11 on.
pub fn count_words(n: i64) -> String {
    const WORDS: [&str; 11] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    usize::try_from(n)
        .ok()
        .and_then(|i| WORDS.get(i))
        .map_or_else(|| n.to_string(), |w| (*w).to_string())
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

    #[test]
    fn a_value_is_said_by_its_first_matching_case() {
        assert_eq!(SEATS.say(3), "Three players");
        assert_eq!(HAND_SIZE.say(11), "11 cards each");
        assert_eq!(
            KNOCK_LIMIT.say(0),
            "Only with no deadwood at all, which is gin."
        );
        assert_eq!(
            KNOCK_LIMIT.say(10),
            "Allowed once your deadwood is 10 or less."
        );
        assert_eq!(RESERVE.say(0), "every card of the stock may be drawn.");
        assert_eq!(RESERVE.say(1), "the last card of the stock is never drawn.");
        assert_eq!(
            RESERVE.say(2),
            "the last two cards of the stock are never drawn."
        );
        assert_eq!(GAME_BONUS.say(0), "");
        assert_eq!(SHUTOUT_MULTIPLIER.say(1), "");
        assert_eq!(
            SHUTOUT_MULTIPLIER.say(2),
            "the winner's total times 2 when the loser scored nothing"
        );
        assert_eq!(SET_MIN.say_span(3, 4), "Sets of 3 or 4 cards of a rank");
        assert_eq!(SET_MIN.say_span(3, 3), "Sets of 3 cards of a rank");
        assert_eq!(CARD_VALUE.say(5), "");
    }
}
