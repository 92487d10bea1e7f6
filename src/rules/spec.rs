//! The YAML form of a ruleset: `*Spec` types read with serde-saphyr (`deny_unknown_fields`, so a
//! misspelt key is an error) and described with schemars (`rulesets/schema.json`).
//!
//! Every rule field is optional: a ruleset starts from the defaults (standard gin rummy, as
//! `docs/rules.md` describes it), then applies what it `extends`, then its own fields; an option applies its fields
//! over that. Numbers are read as plain integers and range-checked by the loader, so an error can
//! name the field and its allowed range.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};

use crate::ruleset::{AceRank, AfterWash, NextDealer, StockEnd, Target, Tie};

use super::fields;

/// A value and where it was written: line and column (1-based) and, once merged, the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc<T> {
    pub value: T,
    pub line: u32,
    pub column: u32,
    pub file: Option<Arc<str>>,
}

impl<T> Loc<T> {
    pub fn new(value: T) -> Loc<T> {
        Loc {
            value,
            line: 0,
            column: 0,
            file: None,
        }
    }

    /// The same value, attributed to `file` unless it already has one.
    pub(crate) fn in_file(mut self, file: &Arc<str>) -> Loc<T> {
        if self.file.is_none() {
            self.file = Some(file.clone());
        }
        self
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Loc<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Loc<T>, D::Error> {
        let s = serde_saphyr::Spanned::<T>::deserialize(d)?;
        Ok(Loc {
            value: s.value,
            line: u32::try_from(s.referenced.line()).unwrap_or(0),
            column: u32::try_from(s.referenced.column()).unwrap_or(0),
            file: None,
        })
    }
}

impl<T: JsonSchema> JsonSchema for Loc<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

/// A target as written: a number of points or `single_hand`. Read loosely so the loader can say
/// what is wrong with a bad one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetSpec {
    Points(i64),
    Word(String),
}

impl TargetSpec {
    pub fn to_target(&self) -> Result<Target, String> {
        match self {
            TargetSpec::Points(p) => match u32::try_from(*p) {
                Ok(n) if (1..=Target::MAX_POINTS).contains(&n) => Ok(Target::Points(n)),
                _ => Err(format!(
                    "{p} is not a target: use 1 to {} points",
                    Target::MAX_POINTS
                )),
            },
            TargetSpec::Word(w) if w == "single_hand" => Ok(Target::SingleHand),
            TargetSpec::Word(w) => Err(format!(
                "{:?} is not a target: write a number of points or `single_hand`",
                super::echo::shown(w)
            )),
        }
    }
}

impl<'de> Deserialize<'de> for TargetSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TargetSpec, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = TargetSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number of points or `single_hand`")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<TargetSpec, E> {
                Ok(TargetSpec::Points(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<TargetSpec, E> {
                Ok(TargetSpec::Points(i64::try_from(v).unwrap_or(i64::MAX)))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<TargetSpec, E> {
                Ok(TargetSpec::Word(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for TargetSpec {
    fn schema_name() -> Cow<'static, str> {
        "Target".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        Target::json_schema(generator)
    }
}

/// Declares a section of rule fields: every field `Option<Loc<T>>`, plus `overlay`, which copies
/// the fields another spec sets (attributed to its file) over this one.
macro_rules! section {
    ($(#[$meta:meta])* pub struct $name:ident { $( $(#[$fmeta:meta])* $field:ident : $ty:ty ),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $( $(#[$fmeta])* #[serde(default)] pub $field: Option<Loc<$ty>>, )*
        }

        impl $name {
            pub(crate) fn overlay(&mut self, over: &$name, file: &Arc<str>) {
                $( if let Some(v) = &over.$field {
                    self.$field = Some(v.clone().in_file(file));
                } )*
            }

            /// The fields this spec sets, as `section.field` keys with their places.
            #[allow(dead_code)]
            pub(crate) fn written(&self, section: &str, out: &mut Vec<Written>) {
                $( if let Some(v) = &self.$field {
                    out.push(Written::at(format!("{section}.{}", stringify!($field)), v));
                } )*
            }
        }
    };
}

/// A field or hook point a file sets, with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Written {
    /// `knocking.knock_limit`, `deck.values.A`, or a hook point (`record_result`).
    pub key: String,
    pub place: Loc<()>,
}

impl Written {
    pub(crate) fn at<T>(key: String, loc: &Loc<T>) -> Written {
        Written {
            key,
            place: Loc {
                value: (),
                line: loc.line,
                column: loc.column,
                file: loc.file.clone(),
            },
        }
    }
}

section! {
    /// What each rank counts as deadwood. Ranks not listed keep their value (ace 1, two to ten
    /// their pips, J Q K 10, a joker 25).
    pub struct ValuesSpec {
        #[serde(alias = "JK")] #[schemars(transform = fields::CARD_VALUE.schema())] joker: i64,
        #[serde(rename = "A")] #[schemars(transform = fields::CARD_VALUE.schema())] ace: i64,
        #[serde(rename = "2")] #[schemars(transform = fields::CARD_VALUE.schema())] two: i64,
        #[serde(rename = "3")] #[schemars(transform = fields::CARD_VALUE.schema())] three: i64,
        #[serde(rename = "4")] #[schemars(transform = fields::CARD_VALUE.schema())] four: i64,
        #[serde(rename = "5")] #[schemars(transform = fields::CARD_VALUE.schema())] five: i64,
        #[serde(rename = "6")] #[schemars(transform = fields::CARD_VALUE.schema())] six: i64,
        #[serde(rename = "7")] #[schemars(transform = fields::CARD_VALUE.schema())] seven: i64,
        #[serde(rename = "8")] #[schemars(transform = fields::CARD_VALUE.schema())] eight: i64,
        #[serde(rename = "9")] #[schemars(transform = fields::CARD_VALUE.schema())] nine: i64,
        #[serde(rename = "T", alias = "10")] #[schemars(transform = fields::CARD_VALUE.schema())] ten: i64,
        #[serde(rename = "J")] #[schemars(transform = fields::CARD_VALUE.schema())] jack: i64,
        #[serde(rename = "Q")] #[schemars(transform = fields::CARD_VALUE.schema())] queen: i64,
        #[serde(rename = "K")] #[schemars(transform = fields::CARD_VALUE.schema())] king: i64,
    }
}

impl ValuesSpec {
    /// The thirteen fields, ace first, with their YAML keys.
    pub(crate) fn ranks(&self) -> [(&'static str, &Option<Loc<i64>>); 13] {
        [
            ("A", &self.ace),
            ("2", &self.two),
            ("3", &self.three),
            ("4", &self.four),
            ("5", &self.five),
            ("6", &self.six),
            ("7", &self.seven),
            ("8", &self.eight),
            ("9", &self.nine),
            ("T", &self.ten),
            ("J", &self.jack),
            ("Q", &self.queen),
            ("K", &self.king),
        ]
    }
}

/// The deck: one 52-card deck per table, with up to two jokers, and what each card counts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeckSpec {
    #[serde(default)]
    #[schemars(transform = fields::JOKERS.schema())]
    pub jokers: Option<Loc<i64>>,
    /// What each rank counts as deadwood (`A`, `2`..`9`, `T` or `10`, `J`, `Q`, `K`).
    #[serde(default)]
    pub values: Option<ValuesSpec>,
}

impl DeckSpec {
    pub(crate) fn overlay(&mut self, over: &DeckSpec, file: &Arc<str>) {
        if let Some(v) = &over.jokers {
            self.jokers = Some(v.clone().in_file(file));
        }
        if let Some(v) = &over.values {
            self.values
                .get_or_insert_with(Default::default)
                .overlay(v, file);
        }
    }
}

section! {
    /// What melds are.
    pub struct MeldsSpec {
        #[schemars(transform = fields::SET_MIN.schema())] set_min: i64,
        #[schemars(transform = fields::SET_MAX.schema())] set_max: i64,
        #[schemars(transform = fields::RUN_MIN.schema())] run_min: i64,
        /// The ace in runs: `low` (A-2-3), `high` (Q-K-A) or `both`.
        ace: AceRank,
        /// Runs may go round the corner (K-A-2); needs `ace: both`.
        wrap: bool,
        /// The wild cards: `jokers` (needs `deck.jokers`) and whole ranks (`"2"`: every deuce).
        /// A wild card stands for any card a meld lacks.
        #[schemars(transform = wild_schema)] wild: Vec<String>,
        #[schemars(transform = fields::MIN_NATURAL.schema())] min_natural: i64,
    }
}

/// `melds.wild`: a list of `jokers` and ranks, each once.
fn wild_schema(schema: &mut schemars::Schema) {
    let ranks = [
        "jokers", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "10", "J", "Q", "K",
    ];
    schema.insert("type".into(), "array".into());
    schema.insert("uniqueItems".into(), true.into());
    schema.insert("items".into(), serde_json::json!({"enum": ranks}));
    schema.remove("$ref");
}

section! {
    /// The deal.
    pub struct DealSpec {
        #[schemars(transform = fields::TABLE_PLAYERS.schema())] players: i64,
        #[schemars(transform = fields::HAND_SIZE.schema())] hand_size: i64,
        #[schemars(transform = fields::HAND_SIZE_THREE.schema())] hand_size_three: i64,
        #[schemars(transform = fields::HAND_SIZE_FOUR.schema())] hand_size_four: i64,
    }
}

section! {
    /// The turns.
    pub struct TurnsSpec {
        /// The first-turn upcard offer: the non-dealer, then the dealer, may take the upcard.
        upcard_offer: bool,
        /// The card taken from the discard pile may be discarded in the same turn.
        discard_taken_card: bool,
        #[schemars(transform = fields::TURN_LIMIT.schema())] limit: i64,
    }
}

section! {
    /// Knocking.
    pub struct KnockingSpec {
        /// A player may knock at all (`false`: only gin goes out).
        allowed: bool,
        #[schemars(transform = fields::KNOCK_LIMIT.schema())] knock_limit: i64,
    }
}

section! {
    /// Scoring a hand.
    pub struct ScoringSpec {
        #[schemars(transform = fields::GIN_BONUS.schema())] gin_bonus: i64,
        /// Going out with all eleven cards melded is big gin.
        big_gin: bool,
        #[schemars(transform = fields::BIG_GIN_BONUS.schema())] big_gin_bonus: i64,
        #[schemars(transform = fields::UNDERCUT_BONUS.schema())] undercut_bonus: i64,
        /// An equal deadwood after a knock (after lay-offs): `undercut` (the defender scores the
        /// undercut bonus), `knocker` (the knocker wins, scoring 0) or `wash` (nobody scores).
        tie: Tie,
    }
}

section! {
    /// Laying off.
    pub struct LayOffsSpec {
        /// After a knock the defender lays off onto the knocker's melds.
        allowed: bool,
        /// The defender lays off after gin too.
        after_gin: bool,
    }
}

section! {
    /// The end of the stock.
    pub struct StockSpec {
        #[schemars(transform = fields::RESERVE.schema())] reserve: i64,
        /// What a discard without going out means once the stock is down to its reserve:
        /// `dead_hand`, `last_discard_to_go_out` or `reshuffle`.
        end: StockEnd,
    }
}

section! {
    /// The dealer.
    pub struct DealerSpec {
        /// Who deals after a hand that was not dead: `loser`, `winner`, `alternate` or
        /// `next_in_turn`. After a dead hand the same dealer deals again.
        next: NextDealer,
        /// Who deals after a wash (a hand nobody scored): `same_dealer` (as after a dead hand)
        /// or `next_in_turn`.
        after_wash: AfterWash,
    }
}

section! {
    /// The match.
    pub struct MatchSpec {
        /// The targets a game may be played to: points, or `single_hand`.
        targets: Vec<TargetSpec>,
        /// The target when a game names none; one of `targets`.
        default_target: TargetSpec,
        #[schemars(transform = fields::GAME_BONUS.schema())] game_bonus: i64,
        #[schemars(transform = fields::BOX_BONUS.schema())] box_bonus: i64,
        #[schemars(transform = fields::SHUTOUT_MULTIPLIER.schema())] shutout_multiplier: i64,
    }
}

/// A hook point bound to a function of a Rhai script beside the YAML file.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HookSpec {
    /// The script file, beside the YAML file (`oklahoma.rhai`). It must define a function named
    /// after the hook point, taking one parameter (the context).
    #[schemars(pattern(r"^[^./\\][^/\\]*\.rhai$"))]
    pub script: Loc<String>,
    /// The rule in words, shown in the rules table ("the upcard's value").
    #[serde(default)]
    pub rule: Option<Loc<String>>,
}

fn some_or_null<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<HookSpec>>, D::Error> {
    Option::<HookSpec>::deserialize(d).map(Some)
}

/// Declares the hook points: one optional binding each; `null` removes an inherited binding.
macro_rules! hook_points {
    ($( $(#[$fmeta:meta])* $field:ident ),* $(,)?) => {
        /// Hook points and the scripts that implement them. `null` removes an inherited binding.
        #[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct HooksSpec {
            $( $(#[$fmeta])* #[serde(default, deserialize_with = "some_or_null")]
               pub $field: Option<Option<HookSpec>>, )*
        }

        impl HooksSpec {
            /// Every hook point with its binding, in the order of [`super::script::HookPoint::ALL`].
            pub(crate) fn bindings(&self) -> Vec<(&'static str, &Option<Option<HookSpec>>)> {
                vec![$( (stringify!($field), &self.$field) ),*]
            }
        }
    };
}

hook_points! {
    /// The knock limit of each hand, at the deal (Oklahoma).
    knock_limit,
    /// A multiplier of every score of a hand, at the deal (Oklahoma spades).
    score_multiplier,
    /// Sides (teams) and games (Hollywood columns) of the match, when it starts.
    match_layout,
    /// Tables and who sits out, before each deal.
    seating,
    /// How a hand is scored when it ends: winner, named parts, multiplier, boxes, or a wash.
    score_hand,
    /// How a deal's results enter the match.
    record_result,
    /// The next dealer.
    next_dealer,
}

/// Declares a struct with the rule sections shared by a ruleset and its options.
macro_rules! with_sections {
    ($(#[$meta:meta])* pub struct $name:ident { $( $(#[$fmeta:meta])* $field:ident : $ty:ty ),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
            /// The deck and what each card counts.
            #[serde(default)]
            pub deck: Option<DeckSpec>,
            /// Sets and runs.
            #[serde(default)]
            pub melds: Option<MeldsSpec>,
            /// The deal.
            #[serde(default)]
            pub deal: Option<DealSpec>,
            /// The turns.
            #[serde(default)]
            pub turns: Option<TurnsSpec>,
            /// Knocking.
            #[serde(default)]
            pub knocking: Option<KnockingSpec>,
            /// Gin, big gin and undercut bonuses.
            #[serde(default)]
            pub scoring: Option<ScoringSpec>,
            /// Laying off after a knock (and after gin).
            #[serde(default)]
            pub lay_offs: Option<LayOffsSpec>,
            /// The end of the stock.
            #[serde(default)]
            pub stock: Option<StockSpec>,
            /// Who deals next.
            #[serde(default)]
            pub dealer: Option<DealerSpec>,
            /// Targets and match bonuses.
            #[serde(default, rename = "match")]
            pub match_: Option<MatchSpec>,
            /// Rhai hooks.
            #[serde(default)]
            pub hooks: Option<HooksSpec>,
        }

        impl $name {
            pub(crate) fn sections(&self) -> Sections {
                Sections {
                    deck: self.deck.clone().unwrap_or_default(),
                    melds: self.melds.clone().unwrap_or_default(),
                    deal: self.deal.clone().unwrap_or_default(),
                    turns: self.turns.clone().unwrap_or_default(),
                    knocking: self.knocking.clone().unwrap_or_default(),
                    scoring: self.scoring.clone().unwrap_or_default(),
                    lay_offs: self.lay_offs.clone().unwrap_or_default(),
                    stock: self.stock.clone().unwrap_or_default(),
                    dealer: self.dealer.clone().unwrap_or_default(),
                    match_: self.match_.clone().unwrap_or_default(),
                }
            }
        }
    };
}

with_sections! {
    /// A ruleset file. `id` and `name` are required; every rule is optional and defaults to
    /// standard gin rummy, or to the ruleset named by `extends`.
    pub struct RulesetSpec {
        /// The id games name (`straight-gin`): lower-case letters, digits and dashes.
        #[schemars(pattern(r"^[a-z0-9][a-z0-9-]*$"))]
        id: Loc<String>,
        /// The name players read.
        name: Loc<String>,
        /// One line on what makes this ruleset different.
        #[serde(default)]
        summary: Option<Loc<String>>,
        /// The id of a ruleset whose rules and options this one starts from.
        #[serde(default)]
        extends: Option<Loc<String>>,
        #[serde(default)]
        #[schemars(transform = fields::SEATS.schema())]
        seats: Option<Loc<i64>>,
        /// Options a game may ask for, each a partial ruleset applied over this one. `null`
        /// removes an option inherited through `extends`.
        #[serde(default)]
        options: Option<BTreeMap<String, Option<OptionSpec>>>,
    }
}

with_sections! {
    /// An option: a partial ruleset applied over the ruleset when a game asks for it.
    pub struct OptionSpec {
        /// The name players read.
        #[serde(default)]
        name: Option<Loc<String>>,
        /// What the option changes, in a line.
        #[serde(default)]
        summary: Option<Loc<String>>,
        /// Options this one cannot be combined with, each with the reason a player reads.
        #[serde(default)]
        conflicts_with: Option<BTreeMap<String, Loc<String>>>,
        /// This ruleset refuses the option, for the reason given ("Straight Gin replaces
        /// Oklahoma: both decide when you may knock").
        #[serde(default)]
        incompatible: Option<Loc<String>>,
        /// Targets the option cannot be played to (`single_hand`, or points), each with the
        /// reason a player reads.
        #[serde(default)]
        refuses_targets: Option<BTreeMap<String, Loc<String>>>,
        /// The hook points (`record_result`) and fields (`knocking.knock_limit`) of this file
        /// that the option, defined by a ruleset this one extends, may replace when chosen.
        /// Without it, an option that would replace what this file sets is refused. Written
        /// alone under an inherited option's id, it amends that option and keeps its definition.
        #[serde(default)]
        replaces: Option<Vec<Loc<String>>>,
    }
}

impl OptionSpec {
    /// Only `replaces` is written: an amendment of an inherited option, not a new definition.
    pub(crate) fn only_replaces(&self) -> bool {
        self.replaces.is_some()
            && self.name.is_none()
            && self.summary.is_none()
            && self.conflicts_with.is_none()
            && self.incompatible.is_none()
            && self.refuses_targets.is_none()
            && self.hooks.is_none()
            && self.sections() == Sections::default()
    }
}

/// The rule sections of a ruleset or option, each present (empty when not written). Hooks are
/// resolved separately, against the scripts beside the file that binds them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sections {
    pub deck: DeckSpec,
    pub melds: MeldsSpec,
    pub deal: DealSpec,
    pub turns: TurnsSpec,
    pub knocking: KnockingSpec,
    pub scoring: ScoringSpec,
    pub lay_offs: LayOffsSpec,
    pub stock: StockSpec,
    pub dealer: DealerSpec,
    pub match_: MatchSpec,
}

impl Sections {
    /// Every field these sections set (`deck.values.A`, `knocking.knock_limit`), with its place.
    pub(crate) fn written(&self) -> Vec<Written> {
        let mut out = Vec::new();
        if let Some(v) = &self.deck.jokers {
            out.push(Written::at("deck.jokers".into(), v));
        }
        if let Some(values) = &self.deck.values {
            for (rank, v) in values.ranks() {
                if let Some(v) = v {
                    out.push(Written::at(format!("deck.values.{rank}"), v));
                }
            }
            if let Some(v) = &values.joker {
                out.push(Written::at("deck.values.joker".into(), v));
            }
        }
        self.melds.written("melds", &mut out);
        self.deal.written("deal", &mut out);
        self.turns.written("turns", &mut out);
        self.knocking.written("knocking", &mut out);
        self.scoring.written("scoring", &mut out);
        self.lay_offs.written("lay_offs", &mut out);
        self.stock.written("stock", &mut out);
        self.dealer.written("dealer", &mut out);
        self.match_.written("match", &mut out);
        out
    }

    /// Applies `over` on top of these sections; values it sets are attributed to `file`.
    pub(crate) fn overlay(&mut self, over: &Sections, file: &Arc<str>) {
        self.deck.overlay(&over.deck, file);
        self.melds.overlay(&over.melds, file);
        self.deal.overlay(&over.deal, file);
        self.turns.overlay(&over.turns, file);
        self.knocking.overlay(&over.knocking, file);
        self.scoring.overlay(&over.scoring, file);
        self.lay_offs.overlay(&over.lay_offs, file);
        self.stock.overlay(&over.stock, file);
        self.dealer.overlay(&over.dealer, file);
        self.match_.overlay(&over.match_, file);
    }
}

/// The JSON Schema of a ruleset file, as committed in `rulesets/schema.json`.
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(RulesetSpec);
    let mut s = serde_json::to_string_pretty(&schema).unwrap_or_default();
    s.push('\n');
    s
}
