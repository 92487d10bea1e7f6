//! The contexts as a script sees them: one type per context registered with the sandbox, whose
//! fields are read-only properties (`ctx.hand_number`, or `ctx["hand_number"]`). A context holds
//! the engine's own values and turns a field into a Rhai value only when the script reads it, so a
//! hook pays for what it reads; what only the ruleset decides is built once per ruleset
//! ([`DealConstants`]). The games and results inside a context are objects of the same kind.
//!
//! `record_result`'s context also has a method, `ctx.open_games(side, new)`, and every script may
//! call `entries(games, side, points)`: what a script that scores several games at once would
//! otherwise walk arrays for in script, at a cost per statement.

use std::sync::{Arc, LazyLock};

use rhai::{Array, Dynamic, Engine, EvalAltResult, INT, ImmutableString, Map, Position};

use crate::cards::{Card, Rank};
use crate::engine::hooks::{
    GameScore, HandOutcome, HandScore, MatchLayout, ScoreEntry, ScorePart, SeatHand, TableResult,
    TableSeating,
};
use crate::ruleset::{NextDealer, Ruleset, Target};
use crate::seat::{BySeat, Seat, TableNo};

/// Each property of an object, with how it is read.
pub(crate) type Fields<T> = &'static [(&'static str, fn(&T) -> Dynamic)];

/// A context (or a part of one) that a script reads through properties.
pub(crate) trait Object: Clone + Send + Sync + 'static {
    /// What `type_of` says of it.
    const NAME: &'static str;
    /// Each property, with how it is read.
    const FIELDS: Fields<Self>;

    /// Every property as a plain map (nested objects as maps too): what an observer of the
    /// contexts ([`observe_contexts`](super::observe_contexts)) and `print` see.
    fn to_map(&self) -> Map {
        Self::FIELDS
            .iter()
            .map(|(name, read)| ((*name).into(), plain(read(self))))
            .collect()
    }
}

/// `v` with every object in it (at any depth) turned into its map.
fn plain(v: Dynamic) -> Dynamic {
    if v.is::<Game>() {
        return v
            .try_cast::<Game>()
            .map_or(Dynamic::UNIT, |g| g.to_map().into());
    }
    if v.is::<ResultOf>() {
        return v
            .try_cast::<ResultOf>()
            .map_or(Dynamic::UNIT, |r| r.to_map().into());
    }
    if v.is_array() {
        return match v.try_cast::<Array>() {
            Some(a) => Dynamic::from_array(a.into_iter().map(plain).collect()),
            None => Dynamic::UNIT,
        };
    }
    v
}

/// Registers `T` with `engine`: its name, a getter per property, `ctx["name"]` for every
/// property (the only way to read `default`, a reserved word), and `to_string`/`to_debug`.
fn register<T: Object>(engine: &mut Engine) {
    engine.register_type_with_name::<T>(T::NAME);
    for &(name, read) in T::FIELDS {
        engine.register_get(name, move |o: &mut T| read(o));
    }
    engine.register_indexer_get(
        |o: &mut T, name: ImmutableString| -> Result<Dynamic, Box<EvalAltResult>> {
            match T::FIELDS.iter().find(|(n, _)| *n == name.as_str()) {
                Some((_, read)) => Ok(read(o)),
                None => Err(EvalAltResult::ErrorIndexingType(
                    format!("{NO_FIELD}{name}{OF}{}", T::NAME),
                    Position::NONE,
                )
                .into()),
            }
        },
    );
    engine.register_fn("to_string", |o: &mut T| {
        Dynamic::from_map(o.to_map()).to_string()
    });
    engine.register_fn("to_debug", |o: &mut T| {
        Dynamic::from_map(o.to_map()).to_string()
    });
}

/// What starts the error of `obj["name"]` for a name `obj` does not have. (Rhai tries the indexer
/// for `obj.name` too when no getter is registered, and then reports the missing getter, placed at
/// the name, rather than this.)
const NO_FIELD: &str = "no field: ";

/// What separates the field from the object's type in that error.
const OF: &str = " of ";

/// The names `type_of` gives the objects.
const NAMES: [&str; 8] = [
    DealContext::NAME,
    LayoutContext::NAME,
    SeatingContext::NAME,
    HandContext::NAME,
    RecordContext::NAME,
    DealerContext::NAME,
    Game::NAME,
    ResultOf::NAME,
];

/// The field a failed read named, when the script read a field that a context (or a map or object
/// in it) does not have, and the type of the object read when it was one of ours.
pub(super) fn missing_field(e: &EvalAltResult) -> Option<(&str, Option<&'static str>)> {
    let ours = |of: &str| NAMES.iter().copied().find(|t| *t == of);
    match e {
        EvalAltResult::ErrorPropertyNotFound(name, _) => Some((name, None)),
        EvalAltResult::ErrorIndexingType(text, _) => {
            let (name, of) = text.strip_prefix(NO_FIELD)?.split_once(OF)?;
            Some((name, ours(of)))
        }
        EvalAltResult::ErrorDotExpr(text, _) => {
            let (name, rest) = text.strip_prefix("Unknown property '")?.split_once('\'')?;
            let of = rest
                .strip_prefix(" - a getter is not registered for type '")?
                .strip_suffix('\'')?;
            Some((name, Some(ours(of)?)))
        }
        _ => None,
    }
}

/// The properties of the object type named `name` (as `type_of` says it).
pub(super) fn fields_of(name: &str) -> Option<Vec<&'static str>> {
    fn names<T: Object>() -> Vec<&'static str> {
        T::FIELDS.iter().map(|(n, _)| *n).collect()
    }
    Some(match name {
        DealContext::NAME => names::<DealContext>(),
        LayoutContext::NAME => names::<LayoutContext>(),
        SeatingContext::NAME => names::<SeatingContext>(),
        HandContext::NAME => names::<HandContext>(),
        RecordContext::NAME => names::<RecordContext>(),
        DealerContext::NAME => names::<DealerContext>(),
        Game::NAME => names::<Game>(),
        ResultOf::NAME => names::<ResultOf>(),
        _ => return None,
    })
}

/// Registers every context type, `ctx.open_games(side, new)` and `entries(games, side, points)`.
pub(super) fn register_all(engine: &mut Engine) {
    register::<DealContext>(engine);
    register::<LayoutContext>(engine);
    register::<SeatingContext>(engine);
    register::<HandContext>(engine);
    register::<RecordContext>(engine);
    register::<DealerContext>(engine);
    register::<Game>(engine);
    register::<ResultOf>(engine);
    engine.register_fn("open_games", RecordContext::open_games);
    engine.register_fn("entries", entries);
}

fn int(v: impl Into<i64>) -> Dynamic {
    Dynamic::from_int(v.into())
}

/// A shared string: a clone is a reference count, not a copy.
fn shared(s: &ImmutableString) -> Dynamic {
    Dynamic::from(s.clone())
}

fn seats(seats: &[Seat]) -> Dynamic {
    Dynamic::from_array(seats.iter().map(|&s| int(s)).collect())
}

fn sides(sides: &[Vec<Seat>]) -> Dynamic {
    Dynamic::from_array(sides.iter().map(|s| seats(s)).collect())
}

fn target(t: Target) -> Dynamic {
    match t {
        Target::Points(p) => int(p),
        Target::SingleHand => shared(&WORDS.single_hand),
    }
}

/// The words contexts hold, made once.
struct Words {
    single_hand: ImmutableString,
    outcomes: [ImmutableString; 6],
    rules: [ImmutableString; 4],
    /// `upcard`, `upcard_rank`, `upcard_suit` of every card (index: [`Card::bit`]).
    cards: Vec<[ImmutableString; 3]>,
}

static WORDS: LazyLock<Words> = LazyLock::new(|| {
    use crate::engine::hooks::HandOutcome as O;
    Words {
        single_hand: "single_hand".into(),
        outcomes: [O::Gin, O::BigGin, O::Knock, O::Undercut, O::Wash, O::Dead]
            .map(|o| o.as_str().into()),
        rules: [
            NextDealer::Loser,
            NextDealer::Winner,
            NextDealer::Alternate,
            NextDealer::NextInTurn,
        ]
        .map(|r| rule_name(r).into()),
        cards: (0..64)
            .map(|bit| match Card::from_bit(bit) {
                // A joker has no rank and no suit: its rank reads "JK", its suit "".
                Some(card) if card.is_joker() => ["JK".into(), "JK".into(), "".into()],
                Some(card) => [
                    card.to_string().into(),
                    card.rank().char().to_string().into(),
                    card.suit().char().to_string().into(),
                ],
                None => Default::default(),
            })
            .collect(),
    }
});

pub(super) fn rule_name(r: NextDealer) -> &'static str {
    match r {
        NextDealer::Loser => "loser",
        NextDealer::Winner => "winner",
        NextDealer::Alternate => "alternate",
        NextDealer::NextInTurn => "next_in_turn",
    }
}

fn outcome_word(o: crate::engine::hooks::HandOutcome) -> Dynamic {
    use crate::engine::hooks::HandOutcome as O;
    let i = match o {
        O::Gin => 0,
        O::BigGin => 1,
        O::Knock => 2,
        O::Undercut => 3,
        O::Wash => 4,
        O::Dead => 5,
    };
    shared(&WORDS.outcomes[i])
}

fn rule_word(r: NextDealer) -> Dynamic {
    let i = match r {
        NextDealer::Loser => 0,
        NextDealer::Winner => 1,
        NextDealer::Alternate => 2,
        NextDealer::NextInTurn => 3,
    };
    shared(&WORDS.rules[i])
}

fn card_word(card: Card, which: usize) -> Dynamic {
    match WORDS.cards.get(card.bit() as usize) {
        Some(words) => shared(&words[which]),
        None => Dynamic::UNIT,
    }
}

/// What every deal context of a ruleset shares: `values`, `seats`, `hand_size`, and the largest
/// knock limit a hook may return.
pub(super) struct DealConstants {
    values: Map,
    seats: u8,
    hand_size: u8,
    pub max_knock_limit: i64,
}

impl DealConstants {
    pub fn of(rules: &Ruleset) -> DealConstants {
        DealConstants {
            values: Rank::ALL
                .into_iter()
                .map(|r| {
                    (
                        r.char().to_string().into(),
                        int(rules.melds.values[r.index()]),
                    )
                })
                .collect(),
            seats: rules.seats,
            hand_size: rules.hand_size_at(usize::from(rules.table_players)),
            max_knock_limit: i64::from(
                rules
                    .melds
                    .max_deadwood(
                        usize::from(rules.hand_size_at(usize::from(rules.table_players))),
                        rules.jokers,
                    )
                    .min(255),
            ),
        }
    }
}

/// The context of `knock_limit` and `score_multiplier`.
#[derive(Clone)]
pub(super) struct DealContext {
    pub constants: Arc<DealConstants>,
    pub upcard: Card,
    pub upcard_value: u32,
    pub dealer: Seat,
    pub hand_number: u32,
    pub totals: BySeat<i64>,
    pub default: Dynamic,
}

impl Object for DealContext {
    const NAME: &'static str = "DealContext";
    const FIELDS: Fields<Self> = &[
        ("upcard", |c| card_word(c.upcard, 0)),
        ("upcard_rank", |c| card_word(c.upcard, 1)),
        ("upcard_suit", |c| card_word(c.upcard, 2)),
        ("upcard_value", |c| int(c.upcard_value)),
        ("values", |c| Dynamic::from_map(c.constants.values.clone())),
        ("dealer", |c| int(c.dealer)),
        ("hand_number", |c| int(c.hand_number)),
        ("totals", |c| {
            Dynamic::from_array(c.totals.iter().map(|&t| int(t)).collect())
        }),
        ("seats", |c| int(c.constants.seats)),
        ("hand_size", |c| int(c.constants.hand_size)),
        ("default", |c| c.default.clone()),
    ];
}

/// The context of `match_layout`.
#[derive(Clone)]
pub(super) struct LayoutContext {
    pub seats: u8,
    pub target: Target,
    pub default: MatchLayout,
}

impl Object for LayoutContext {
    const NAME: &'static str = "LayoutContext";
    const FIELDS: Fields<Self> = &[
        ("seats", |c| int(c.seats)),
        ("target", |c| target(c.target)),
        ("default", |c| {
            let mut m = Map::new();
            m.insert("sides".into(), sides(&c.default.sides));
            m.insert("games".into(), int(c.default.games));
            m.into()
        }),
    ];
}

/// The context of `seating`.
#[derive(Clone)]
pub(super) struct SeatingContext {
    pub seats: u8,
    pub dealer: Seat,
    pub hand_number: u32,
    pub sides: Vec<Vec<Seat>>,
    pub games: u8,
    pub default: Vec<TableSeating>,
}

impl Object for SeatingContext {
    const NAME: &'static str = "SeatingContext";
    const FIELDS: Fields<Self> = &[
        ("seats", |c| int(c.seats)),
        ("dealer", |c| int(c.dealer)),
        ("hand_number", |c| int(c.hand_number)),
        ("sides", |c| sides(&c.sides)),
        ("games", |c| int(c.games)),
        ("default", |c| {
            Dynamic::from_array(c.default.iter().map(seating_map).collect())
        }),
    ];
}

fn seating_map(t: &TableSeating) -> Dynamic {
    let mut m = Map::new();
    m.insert("dealer".into(), int(t.dealer));
    m.insert("players".into(), seats(t.players.as_slice()));
    m.into()
}

/// The context of `record_result`.
#[derive(Clone)]
pub(super) struct RecordContext {
    pub hand_number: u32,
    pub target: Target,
    pub sides: Arc<[Vec<Seat>]>,
    pub games: Arc<[GameScore]>,
    pub results: Arc<[TableResult]>,
    pub default: Vec<ScoreEntry>,
}

impl Object for RecordContext {
    const NAME: &'static str = "RecordContext";
    const FIELDS: Fields<Self> = &[
        ("hand_number", |c| int(c.hand_number)),
        ("target", |c| target(c.target)),
        ("sides", |c| sides(&c.sides)),
        ("games", |c| games(&c.games)),
        ("results", |c| results(&c.results, &c.sides)),
        ("default", |c| {
            Dynamic::from_array(c.default.iter().map(entry_map).collect())
        }),
    ];
}

impl RecordContext {
    /// `ctx.open_games(side, new)`: the open games where `side` has points, and the first `new`
    /// open games where it has none yet, in order.
    fn open_games(&mut self, side: INT, new: INT) -> Result<Array, Box<EvalAltResult>> {
        let sides = self.sides.len();
        let Some(side) = usize::try_from(side).ok().filter(|&s| s < sides) else {
            return Err(format!("open_games: side {side} does not exist ({sides} sides)").into());
        };
        let mut new = new.max(0);
        let mut games = Array::new();
        for (i, g) in self.games.iter().enumerate() {
            if g.closed {
                continue;
            }
            if g.points.get(side).is_some_and(|&p| p > 0) {
                games.push(int(i as i64));
            } else if new > 0 {
                new -= 1;
                games.push(int(i as i64));
            }
        }
        Ok(games)
    }
}

/// `entries(games, side, points)`: an entry `#{game, side, points}` for each game of `games`.
fn entries(games: Array, side: INT, points: INT) -> Array {
    games
        .into_iter()
        .map(|game| entry(game, int(side), int(points)))
        .collect()
}

/// An entry as a map: a copy of one built once (cheaper than three insertions), its values set.
fn entry(game: Dynamic, side: Dynamic, points: Dynamic) -> Dynamic {
    static EMPTY: LazyLock<Map> = LazyLock::new(|| {
        ["game", "side", "points"]
            .into_iter()
            .map(|k| (k.into(), Dynamic::UNIT))
            .collect()
    });
    let mut m = EMPTY.clone();
    for (k, v) in m.iter_mut() {
        *v = match k.as_str() {
            "game" => game.clone(),
            "side" => side.clone(),
            _ => points.clone(),
        };
    }
    Dynamic::from_map(m)
}

fn games(games: &Arc<[GameScore]>) -> Dynamic {
    Dynamic::from_array(
        (0..games.len())
            .map(|i| {
                Dynamic::from(Game {
                    games: games.clone(),
                    i,
                })
            })
            .collect(),
    )
}

fn entry_map(e: &ScoreEntry) -> Dynamic {
    let mut m = entry(int(e.game), int(e.side), int(e.points));
    if let Some(mut map) = m.write_lock::<Map>() {
        map.insert("boxes".into(), int(e.boxes));
    }
    m
}

fn results(all: &Arc<[TableResult]>, sides: &Arc<[Vec<Seat>]>) -> Dynamic {
    Dynamic::from_array(
        (0..all.len())
            .map(|i| {
                Dynamic::from(ResultOf {
                    results: all.clone(),
                    sides: sides.clone(),
                    i,
                })
            })
            .collect(),
    )
}

/// The context of `next_dealer`.
#[derive(Clone)]
pub(super) struct DealerContext {
    pub seats: u8,
    pub dealer: Seat,
    pub hand_number: u32,
    pub rule: NextDealer,
    pub sides: Arc<[Vec<Seat>]>,
    pub results: Arc<[TableResult]>,
    pub default: Seat,
}

impl Object for DealerContext {
    const NAME: &'static str = "DealerContext";
    const FIELDS: Fields<Self> = &[
        ("seats", |c| int(c.seats)),
        ("dealer", |c| int(c.dealer)),
        ("hand_number", |c| int(c.hand_number)),
        ("rule", |c| rule_word(c.rule)),
        ("sides", |c| sides(&c.sides)),
        ("results", |c| results(&c.results, &c.sides)),
        ("default", |c| int(c.default)),
    ];
}

/// One game of `record_result`'s `games`.
#[derive(Clone)]
pub(super) struct Game {
    games: Arc<[GameScore]>,
    i: usize,
}

impl Game {
    fn get(&self) -> Option<&GameScore> {
        self.games.get(self.i)
    }
}

impl Object for Game {
    const NAME: &'static str = "Game";
    const FIELDS: Fields<Self> = &[
        ("points", |g| {
            g.get().map_or(Dynamic::UNIT, |g| {
                Dynamic::from_array(g.points.iter().map(|&p| int(p)).collect())
            })
        }),
        ("hands_won", |g| {
            g.get().map_or(Dynamic::UNIT, |g| {
                Dynamic::from_array(g.hands_won.iter().map(|&h| int(h)).collect())
            })
        }),
        ("boxes", |g| {
            g.get().map_or(Dynamic::UNIT, |g| {
                Dynamic::from_array(
                    (0..g.points.len())
                        .map(|s| int(g.boxes.get(s).copied().unwrap_or(0)))
                        .collect(),
                )
            })
        }),
        ("closed", |g| {
            g.get()
                .map_or(Dynamic::UNIT, |g| Dynamic::from_bool(g.closed))
        }),
    ];
}

/// One table's result in `results`.
#[derive(Clone)]
pub(super) struct ResultOf {
    results: Arc<[TableResult]>,
    /// The sides of the match, for the winner's.
    sides: Arc<[Vec<Seat>]>,
    i: usize,
}

impl ResultOf {
    fn read(&self, f: impl FnOnce(&TableResult) -> Dynamic) -> Dynamic {
        self.results.get(self.i).map_or(Dynamic::UNIT, f)
    }
}

impl Object for ResultOf {
    const NAME: &'static str = "TableResult";
    const FIELDS: Fields<Self> = &[
        ("table", |r| r.read(|r| int(r.table))),
        ("dealer", |r| r.read(|r| int(r.seating.dealer))),
        ("players", |r| {
            r.read(|r| seats(r.seating.players.as_slice()))
        }),
        ("outcome", |r| r.read(|r| outcome_word(r.outcome))),
        ("winner", |r| {
            r.read(|r| r.winner.map_or(Dynamic::UNIT, int))
        }),
        ("loser", |r| r.read(|r| r.loser.map_or(Dynamic::UNIT, int))),
        ("side", |o| {
            o.read(|r| {
                r.winner
                    .and_then(|w| o.sides.iter().position(|side| side.contains(&w)))
                    .map_or(Dynamic::UNIT, |s| int(s as i64))
            })
        }),
        ("points", |r| r.read(|r| int(r.points))),
        ("multiplier", |r| r.read(|r| int(r.multiplier))),
        ("parts", |r| r.read(|r| parts(&r.parts))),
        ("boxes", |r| r.read(|r| int(r.boxes))),
    ];
}

/// Parts as maps `#{name, points}` (a multiplier part as the points it added).
fn parts(parts: &[ScorePart]) -> Dynamic {
    Dynamic::from_array(
        parts
            .iter()
            .map(|p| {
                let mut m = Map::new();
                m.insert("name".into(), Dynamic::from(p.name.clone()));
                m.insert("points".into(), int(p.points));
                m.into()
            })
            .collect(),
    )
}

fn cards(cards: &[Card]) -> Dynamic {
    Dynamic::from_array(cards.iter().map(|&c| card_word(c, 0)).collect())
}

/// The context of `score_hand`: the facts of the hand that just ended at one table.
#[derive(Clone)]
pub(super) struct HandContext {
    pub hand_number: u32,
    pub table: TableNo,
    pub seating: TableSeating,
    pub seats: u8,
    pub outcome: HandOutcome,
    pub knocker: Option<Seat>,
    pub opponent: Option<Seat>,
    pub knock_limit: Option<u8>,
    pub upcard: Card,
    pub stock: u32,
    pub turns: u32,
    pub multiplier: u32,
    pub hands: Arc<[SeatHand]>,
    pub totals: Vec<i64>,
    pub sides: Arc<[Vec<Seat>]>,
    pub games: Arc<[GameScore]>,
    pub default: HandScore,
}

impl Object for HandContext {
    const NAME: &'static str = "HandContext";
    const FIELDS: Fields<Self> = &[
        ("hand_number", |c| int(c.hand_number)),
        ("table", |c| int(c.table)),
        ("dealer", |c| int(c.seating.dealer)),
        ("players", |c| seats(c.seating.players.as_slice())),
        ("seats", |c| int(c.seats)),
        ("outcome", |c| outcome_word(c.outcome)),
        ("knocker", |c| c.knocker.map_or(Dynamic::UNIT, int)),
        ("opponent", |c| c.opponent.map_or(Dynamic::UNIT, int)),
        ("knock_limit", |c| c.knock_limit.map_or(Dynamic::UNIT, int)),
        ("upcard", |c| card_word(c.upcard, 0)),
        ("stock", |c| int(c.stock)),
        ("turns", |c| int(c.turns)),
        ("multiplier", |c| int(c.multiplier)),
        ("hands", |c| {
            Dynamic::from_array(c.hands.iter().map(seat_hand).collect())
        }),
        ("totals", |c| {
            Dynamic::from_array(c.totals.iter().map(|&t| int(t)).collect())
        }),
        ("sides", |c| sides(&c.sides)),
        ("games", |c| games(&c.games)),
        ("default", |c| score_map(&c.default)),
    ];
}

fn seat_hand(h: &SeatHand) -> Dynamic {
    let mut m = Map::new();
    m.insert("seat".into(), int(h.seat));
    m.insert("playing".into(), Dynamic::from_bool(h.playing));
    m.insert(
        "melds".into(),
        Dynamic::from_array(h.melds.iter().map(|m| cards(m)).collect()),
    );
    m.insert("deadwood_cards".into(), cards(&h.deadwood_cards));
    m.insert("deadwood_before".into(), int(h.deadwood_before));
    m.insert("deadwood".into(), int(h.deadwood));
    m.insert(
        "laid_off".into(),
        Dynamic::from_array(
            h.laid_off
                .iter()
                .map(|l| {
                    let mut m = Map::new();
                    m.insert("card".into(), card_word(l.card, 0));
                    m.insert("onto".into(), int(l.onto as i64));
                    m.into()
                })
                .collect(),
        ),
    );
    m.into()
}

/// A hand's score in the shape of `score_hand`'s decision.
pub(super) fn score_map(s: &HandScore) -> Dynamic {
    let mut m = Map::new();
    m.insert("winner".into(), s.winner.map_or(Dynamic::UNIT, int));
    m.insert("parts".into(), parts(&s.parts));
    m.insert("multiplier".into(), int(s.multiplier));
    m.insert("boxes".into(), int(s.boxes));
    m.insert("wash".into(), Dynamic::from_bool(s.winner.is_none()));
    m.into()
}
