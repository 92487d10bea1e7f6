//! The validated rules of one variant, as the engine reads them. Every rule value the engine uses
//! comes from here (or from a hook); the YAML loader in `rules/` builds this value.

use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardSet};

/// How the ace sits in runs.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum AceRank {
    /// A-2-3 only.
    Low,
    /// Q-K-A only.
    High,
    /// A-2-3 and Q-K-A (and K-A-2 when runs wrap).
    Both,
}

/// What melds are and what unmelded cards cost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct MeldRules {
    /// Smallest and largest set (cards of one rank).
    pub set_min: u8,
    /// Largest set.
    pub set_max: u8,
    /// Shortest run (consecutive cards of one suit).
    pub run_min: u8,
    /// Whether the ace is low (A-2-3), high (Q-K-A) or both in runs.
    pub ace: AceRank,
    /// Runs may go round the corner (K-A-2). Only meaningful with `ace: both`.
    pub wrap: bool,
    /// Deadwood value of each rank, ace first.
    pub values: [u8; 13],
    /// Wild cards, or `None` when no card is wild (and the deck holds no joker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wilds: Option<Wilds>,
}

/// Wild cards: each may stand for any card a meld lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Wilds {
    /// Every wild card: the jokers and every card of the wild ranks.
    pub cards: CardSet,
    /// Natural (not wild) cards every meld holds at least (1 or more). A wild card counts as
    /// wild even where it stands for itself.
    pub min_natural: u8,
    /// Deadwood value of a joker; other wild cards keep their rank's value.
    pub joker: u8,
}

impl MeldRules {
    pub fn value(&self, card: Card) -> u32 {
        if card.is_joker() {
            return self.wilds.map_or(0, |w| u32::from(w.joker));
        }
        u32::from(self.values[card.rank().index()])
    }

    /// The wild cards of the rules, as bits (0 when none is wild).
    pub fn wild_bits(&self) -> u64 {
        self.wilds.map_or(0, |w| w.cards.0)
    }

    pub fn value_of(&self, cards: CardSet) -> u32 {
        cards.iter().map(|c| self.value(c)).sum()
    }

    pub fn standard() -> MeldRules {
        MeldRules {
            set_min: 3,
            set_max: 4,
            run_min: 3,
            ace: AceRank::Low,
            wrap: false,
            values: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10],
            wilds: None,
        }
    }

    /// The largest deadwood any hand of `n` cards can hold (of a deck with `jokers` jokers).
    pub fn max_deadwood(&self, n: usize, jokers: u8) -> u32 {
        // Each value with its number of cards, highest first.
        let mut values = [(0u32, 0usize); 14];
        for (slot, &v) in values.iter_mut().zip(&self.values) {
            *slot = (u32::from(v), 4);
        }
        values[13] = (self.value(Card::JOKERS[0]), usize::from(jokers));
        values.sort_unstable_by_key(|&(value, _)| std::cmp::Reverse(value));
        let mut left = n;
        let mut most = 0;
        for (value, count) in values {
            let take = count.min(left);
            most += value * take as u32;
            left -= take;
        }
        most
    }

    /// Whether a hand of `n` cards (of a deck with `jokers` jokers) can hold `deadwood`:
    /// `deadwood <= max_deadwood(n, jokers)`, without the sort when the four cards of the most
    /// valued rank settle it (every deal checks its knock limit so).
    pub fn may_hold_deadwood(&self, n: usize, jokers: u8, deadwood: u32) -> bool {
        let top = self.values.iter().copied().max().map_or(0, u32::from);
        deadwood <= top * n.min(4) as u32 || deadwood <= self.max_deadwood(n, jokers)
    }
}

/// When the player whose draw left the stock at its reserve discards without going out.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum StockEnd {
    /// The hand is dead: no score.
    DeadHand,
    /// The opponent may take that discard only to go out; otherwise the hand is dead.
    LastDiscardToGoOut,
    /// The discard pile but its top card is shuffled into a new stock; play goes on.
    Reshuffle,
}

/// Who deals the next hand after a hand that was not dead.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum NextDealer {
    Loser,
    Winner,
    /// The other player of the hand.
    Alternate,
    /// The next seat round the table.
    NextInTurn,
}

/// What a knock that leaves the defender exactly the knocker's deadwood is.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Tie {
    /// The defender undercuts: they score the undercut bonus.
    Undercut,
    /// The knocker wins the hand, scoring the difference: 0.
    Knocker,
    /// A wash: nobody scores.
    Wash,
}

/// Who deals after a wash (a hand nobody scored, with no winner).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum AfterWash {
    /// The same dealer deals again, as after a dead hand.
    SameDealer,
    /// The next seat round the table deals.
    NextInTurn,
}

/// Points that end a match: a number, or `"single_hand"` for a match of one hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Points(u32),
    SingleHand,
}

impl Target {
    /// The most points a match may be played to.
    pub const MAX_POINTS: u32 = 100_000;
}

impl Serialize for Target {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Target::Points(p) => s.serialize_u32(*p),
            Target::SingleHand => s.serialize_str("single_hand"),
        }
    }
}

impl<'de> Deserialize<'de> for Target {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Target, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Points(#[serde(deserialize_with = "crate::whole_number::u32")] u32),
            Word(String),
        }
        match Raw::deserialize(d)? {
            Raw::Points(p) => Ok(Target::Points(p)),
            Raw::Word(w) if w == "single_hand" => Ok(Target::SingleHand),
            Raw::Word(w) => Err(serde::de::Error::custom(format!(
                "target {w:?} is neither a number of points nor \"single_hand\""
            ))),
        }
    }
}

impl schemars::JsonSchema for Target {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Target".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Points that win the match, or \"single_hand\" for one hand only.",
            "oneOf": [
                {"type": "integer", "minimum": 1, "maximum": Target::MAX_POINTS},
                {"const": "single_hand"}
            ]
        })
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Points(p) => write!(f, "{p} points"),
            Target::SingleHand => f.write_str("one hand"),
        }
    }
}

/// The match around the hands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct MatchRules {
    /// The targets a game may be played to.
    pub targets: Vec<Target>,
    /// The target when a deal names none.
    pub default_target: Target,
    /// Classic bonuses, awarded when a game ends (0 = none).
    pub game_bonus: u32,
    /// Classic box bonus: points for every hand won in a game (0 = none).
    pub box_bonus: u32,
    /// The winner's whole total is multiplied by this when the loser scored nothing (1 = none).
    pub shutout_multiplier: u32,
}

/// The turns a hand lasts at most unless a ruleset says otherwise: about three times the turns
/// a hand with a dead-hand stock can take, so a real hand never reaches it.
pub const DEFAULT_TURN_LIMIT: u32 = 200;

/// Every rule of one variant. Built by the loader, read by the engine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Ruleset {
    /// The ruleset's id.
    pub id: String,
    /// Its name for people.
    pub name: String,
    /// One sentence on what sets it apart.
    pub summary: String,
    /// Players at the table(s): 2, 3 or 4.
    pub seats: u8,
    /// Players dealt in at one table when no `seating` hook says otherwise: 2, 3 or 4.
    pub table_players: u8,
    /// Cards dealt to each player at a table of two.
    pub hand_size: u8,
    /// Cards dealt to each player at a table of three.
    pub hand_size_three: u8,
    /// Cards dealt to each player at a table of four.
    pub hand_size_four: u8,
    /// Jokers in the deck besides the 52 cards (0 to 2).
    #[serde(default)]
    pub jokers: u8,
    /// What melds are and what unmelded cards cost.
    pub melds: MeldRules,
    /// The first-turn upcard offer (non-dealer, then dealer).
    pub upcard_offer: bool,
    /// The knock limit, or `None` when knocking is not allowed (a hook may change it per hand).
    pub knock_limit: Option<u8>,
    /// Points for gin on top of the opponent's deadwood.
    pub gin_bonus: u32,
    /// `None`: going out with all eleven cards is not a separate outcome.
    pub big_gin_bonus: Option<u32>,
    /// Points for an undercut on top of the deadwood difference.
    pub undercut_bonus: u32,
    /// What an equal deadwood after a knock is.
    pub tie: Tie,
    /// The defender may lay off after a knock.
    pub lay_offs: bool,
    /// The defender may lay off after gin too.
    pub lay_off_after_gin: bool,
    /// The card taken from the discard pile may be discarded in the same turn.
    pub discard_taken_card: bool,
    /// Stock cards that are never drawn.
    pub stock_reserve: u8,
    /// What happens when the stock is down to its reserve.
    pub stock_end: StockEnd,
    /// Most turns (draws) a hand lasts: a discard without going out on this turn ends the hand
    /// dead, so that every hand ends, whatever the stock rule and however the players play.
    pub turn_limit: u32,
    /// Who deals the next hand.
    pub next_dealer: NextDealer,
    /// Who deals after a wash.
    pub after_wash: AfterWash,
    /// Targets and match bonuses.
    #[serde(rename = "match")]
    pub match_rules: MatchRules,
}

impl Ruleset {
    /// Cards dealt to each player at a table of `players`.
    pub fn hand_size_at(&self, players: usize) -> u8 {
        match players {
            0..=2 => self.hand_size,
            3 => self.hand_size_three,
            _ => self.hand_size_four,
        }
    }

    /// Standard gin rummy as `docs/rules.md` describes it.
    pub fn standard() -> Ruleset {
        Ruleset {
            id: "standard".into(),
            name: "Standard Gin Rummy".into(),
            summary: "Knock with 10 or less, gin 25, big gin 31, undercut 25, first to 100.".into(),
            seats: 2,
            table_players: 2,
            hand_size: 10,
            hand_size_three: 7,
            hand_size_four: 7,
            jokers: 0,
            melds: MeldRules::standard(),
            upcard_offer: true,
            knock_limit: Some(10),
            gin_bonus: 25,
            big_gin_bonus: Some(31),
            undercut_bonus: 25,
            tie: Tie::Undercut,
            lay_offs: true,
            lay_off_after_gin: false,
            discard_taken_card: false,
            stock_reserve: 2,
            stock_end: StockEnd::DeadHand,
            turn_limit: DEFAULT_TURN_LIMIT,
            next_dealer: NextDealer::Loser,
            after_wash: AfterWash::SameDealer,
            match_rules: MatchRules {
                targets: vec![Target::SingleHand, Target::Points(100), Target::Points(250)],
                default_target: Target::Points(100),
                game_bonus: 0,
                box_bonus: 0,
                shutout_multiplier: 1,
            },
        }
    }
}

/// Which ruleset a game is played under, carried in the game state so any server can resolve it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
pub struct RulesetRef {
    /// A ruleset id, or the id declared by an authored ruleset.
    pub id: String,
    /// Options in force, in the order applied.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// An authored ruleset sent with the request: its YAML and scripts travel with the game
    /// (shared, not copied, by the states and resolved variants that carry it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<AuthoredRuleset>)]
    pub authored: Option<std::sync::Arc<AuthoredRuleset>>,
}

impl RulesetRef {
    /// The ruleset `id` of the catalog (built in, or loaded from a directory), with `options`
    /// applied in order.
    pub fn new<O: Into<String>>(
        id: impl Into<String>,
        options: impl IntoIterator<Item = O>,
    ) -> RulesetRef {
        RulesetRef {
            id: id.into(),
            options: options.into_iter().map(Into::into).collect(),
            authored: None,
        }
    }

    /// The ruleset `id` of the catalog, with no options.
    pub fn named(id: impl Into<String>) -> RulesetRef {
        RulesetRef::new(id, std::iter::empty::<String>())
    }
}

/// A ruleset written by a variant author: one YAML file and the Rhai scripts it names.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
pub struct AuthoredRuleset {
    /// The ruleset file's text.
    pub yaml: String,
    /// The Rhai scripts it names, by file name.
    #[serde(default)]
    #[schema(value_type = crate::ruleset::Scripts)]
    pub scripts: std::collections::BTreeMap<String, String>,
}

/// The schema of an authored ruleset's scripts: file name → Rhai source. A type of its own so
/// that the API document names it (`Scripts`) and generated clients do too.
pub struct Scripts;

impl utoipa::PartialSchema for Scripts {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Object)
            .description(Some(
                "Rhai scripts by file name (such as \"oklahoma.rhai\"), as the YAML names them.",
            ))
            .additional_properties(Some(
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String),
            ))
            .examples([serde_json::json!({})])
            .into()
    }
}

impl utoipa::ToSchema for Scripts {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_deadwood_takes_the_highest_cards_there_are() {
        let mut rules = MeldRules::standard();
        assert_eq!(
            rules.max_deadwood(10, 0),
            100,
            "ten of the sixteen cards worth 10"
        );
        assert_eq!(rules.max_deadwood(20, 0), 16 * 10 + 4 * 9);
        assert_eq!(rules.max_deadwood(52, 0), 4 * (55 + 30));
        assert_eq!(
            rules.max_deadwood(60, 0),
            4 * (55 + 30),
            "no more cards than the deck"
        );
        rules.wilds = Some(Wilds {
            cards: CardSet::JOKERS,
            min_natural: 1,
            joker: 25,
        });
        assert_eq!(rules.max_deadwood(3, 2), 25 + 25 + 10);
        assert_eq!(rules.max_deadwood(7, 0), 70, "no joker in the deck");
    }

    #[test]
    fn a_hand_may_hold_up_to_the_most_deadwood() {
        let mut rules = MeldRules::standard();
        for jokers in [0, 2] {
            for wild in [false, true] {
                rules.wilds = wild.then_some(Wilds {
                    cards: CardSet::JOKERS,
                    min_natural: 1,
                    joker: 25,
                });
                rules.values[0] = if wild { 12 } else { 1 };
                for n in [0, 1, 3, 4, 7, 10, 11, 20, 60] {
                    let most = rules.max_deadwood(n, jokers);
                    for deadwood in [0, 1, most / 2, most.saturating_sub(1), most, most + 1] {
                        assert_eq!(
                            rules.may_hold_deadwood(n, jokers, deadwood),
                            deadwood <= most,
                            "{n} cards, {jokers} jokers, {deadwood}"
                        );
                    }
                }
            }
        }
    }
}
