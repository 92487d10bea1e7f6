//! What the context of each hook point holds and what its decision must be, declared once:
//! `docs/hooks.md` is written from it, `gin-rules check` reads its field names, and a test holds it
//! against the contexts [`ScriptHooks`](super::ScriptHooks) really builds in real deals of every
//! built-in ruleset (same keys, same types), so the declaration cannot drift from the builder.

use rhai::{Dynamic, Map};

use super::point::HookPoint;

/// The type of a context value, as a script sees it.
#[derive(Clone, Copy, Debug)]
pub enum Ty {
    Int,
    Str,
    Bool,
    /// An integer, or `()` for none.
    IntOrUnit,
    /// A number of points, or the string `"single_hand"`.
    Target,
    /// An array of integers.
    Ints,
    /// An array of cards (strings such as `"TD"`).
    Cards,
    /// An array of melds, each an array of cards.
    Melds,
    /// A map from each rank (`"A"` ... `"K"`) to an integer.
    RankValues,
    /// An array of arrays of seats.
    Sides,
    /// A map with these fields.
    Map(&'static [Field]),
    /// An array of maps with these fields.
    Maps(&'static [Field]),
    /// An array of read-only objects with these properties (an observer sees each as a map).
    Objects(&'static [Field]),
}

/// One field of a context (or of a map inside it).
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub name: &'static str,
    pub ty: Ty,
    pub doc: &'static str,
}

/// A hook point's context and decision.
#[derive(Clone, Copy, Debug)]
pub struct HookContext {
    pub point: HookPoint,
    /// When the engine calls it.
    pub called: &'static str,
    /// The fields of the context, `default` aside.
    pub fields: &'static [Field],
    /// `default`: what the plain data decides, in the shape of the decision.
    pub default: Field,
    /// What the hook returns.
    pub returns: &'static str,
    /// What the engine checks before it uses the decision.
    pub checks: &'static str,
}

const fn f(name: &'static str, ty: Ty, doc: &'static str) -> Field {
    Field { name, ty, doc }
}

const HAND_NUMBER: Field = f(
    "hand_number",
    Ty::Int,
    "the deal of the match, counted from 0: 0 for the first hand, 1 for the second, ...",
);
const SEATS: Field = f("seats", Ty::Int, "the number of seats of the game");
const TARGET: Field = f(
    "target",
    Ty::Target,
    "the match target: a number of points, or `\"single_hand\"`",
);
const SIDES: Field = f(
    "sides",
    Ty::Sides,
    "the sides of the match (`match_layout`'s decision): the seats of each, e.g. `[[0, 2], [1, 3]]`",
);

const DEAL: &[Field] = &[
    f(
        "upcard",
        Ty::Str,
        "the first upcard of the hand at this table, e.g. `\"TD\"` (`\"JK\"` for a joker)",
    ),
    f(
        "upcard_rank",
        Ty::Str,
        "its rank: one of `A 2 3 4 5 6 7 8 9 T J Q K`, or `JK` for a joker",
    ),
    f(
        "upcard_suit",
        Ty::Str,
        "its suit: one of `C D H S`, or `\"\"` for a joker",
    ),
    f(
        "upcard_value",
        Ty::Int,
        "its value under the ruleset's card values",
    ),
    f(
        "values",
        Ty::RankValues,
        "the value of every rank under the ruleset, e.g. `values.K` is 10",
    ),
    f("dealer", Ty::Int, "the seat that deals this table"),
    HAND_NUMBER,
    f(
        "totals",
        Ty::Ints,
        "each seat's match total before this hand (index: seat)",
    ),
    SEATS,
    f(
        "hand_size",
        Ty::Int,
        "the cards dealt to each player at a table of `deal.players`",
    ),
];

const LAYOUT: &[Field] = &[
    f("sides", Ty::Sides, "the seats of each side"),
    f("games", Ty::Int, "the games (score columns) played at once"),
];

const TABLE: &[Field] = &[
    f("dealer", Ty::Int, "the seat that deals this table"),
    f(
        "players",
        Ty::Ints,
        "2 to 4 seats in turn order: `players[0]` is offered the upcard first, the last plays the dealer's role",
    ),
];

const GAME: &[Field] = &[
    f(
        "points",
        Ty::Ints,
        "points toward the target per side (bonuses not included)",
    ),
    f("hands_won", Ty::Ints, "hands won in this game per side"),
    f(
        "boxes",
        Ty::Ints,
        "boxes in this game per side (what the classic box bonus counts)",
    ),
    f(
        "closed",
        Ty::Bool,
        "a side has reached the target in this game: it takes no more points",
    ),
];

const RESULT: &[Field] = &[
    f("table", Ty::Int, "the table, from 0"),
    f("dealer", Ty::Int, "the seat that dealt it"),
    f(
        "players",
        Ty::Ints,
        "the table's seats in turn order, the dealer's role last",
    ),
    f("outcome", Ty::Str, OUTCOMES),
    f(
        "winner",
        Ty::IntOrUnit,
        "the seat that scored; `()` for a wash or a dead hand",
    ),
    f(
        "loser",
        Ty::IntOrUnit,
        "the seat the winner scored against; `()` for a wash or a dead hand. At a table of three or four each opponent of the knocker has a result of its own",
    ),
    f(
        "side",
        Ty::IntOrUnit,
        "the winner's side (index into `sides`); `()` for a wash or a dead hand",
    ),
    f(
        "points",
        Ty::Int,
        "the points the winner scored, multiplier included; 0 for a wash or a dead hand",
    ),
    f("multiplier", Ty::Int, "the hand's score multiplier"),
    f(
        "parts",
        Ty::Maps(PART),
        "the named parts of `points` (`score_hand`'s), the points a multiplier added as a part of its own: they sum to `points`",
    ),
    f(
        "boxes",
        Ty::Int,
        "the boxes the winner counts (1 for a hand won unless `score_hand` says otherwise)",
    ),
];

const OUTCOMES: &str =
    "`\"gin\"`, `\"big_gin\"`, `\"knock\"`, `\"undercut\"`, `\"wash\"` or `\"dead\"`";

const PART: &[Field] = &[
    f(
        "name",
        Ty::Str,
        "what the points are for: `\"base\"`, `\"gin bonus\"`, `\"knock bonus\"`, ...",
    ),
    f("points", Ty::Int, "its points"),
];

const LAID_OFF: &[Field] = &[
    f("card", Ty::Str, "the card laid off"),
    f(
        "onto",
        Ty::Int,
        "the knocker's meld it went onto (index into the knocker's `melds`)",
    ),
];

const HAND: &[Field] = &[
    f("seat", Ty::Int, "the seat"),
    f(
        "playing",
        Ty::Bool,
        "the seat played at this table (a seat sitting out has empty lists and 0s)",
    ),
    f(
        "melds",
        Ty::Melds,
        "the melds it showed, each an array of cards (the knocker's before lay-offs; for a dead hand, its best arrangement)",
    ),
    f(
        "deadwood_cards",
        Ty::Cards,
        "its cards in no meld, after lay-offs",
    ),
    f("deadwood_before", Ty::Int, "its deadwood before laying off"),
    f("deadwood", Ty::Int, "its deadwood after laying off"),
    f(
        "laid_off",
        Ty::Maps(LAID_OFF),
        "the cards it laid off, each with the knocker's meld it went onto",
    ),
];

const SCORE: &[Field] = &[
    f(
        "winner",
        Ty::IntOrUnit,
        "the seat that scores; `()` when nobody does (a wash, a dead hand)",
    ),
    f(
        "parts",
        Ty::Maps(PART),
        "the named parts of the score before the multiplier, e.g. `[#{name: \"base\", points: 6}]`",
    ),
    f(
        "multiplier",
        Ty::Int,
        "what the parts' sum is multiplied by (the hand's multiplier)",
    ),
    f(
        "boxes",
        Ty::Int,
        "the boxes the winner counts: 1 for a hand won, 0 when nobody scores",
    ),
    f("wash", Ty::Bool, "nobody scores"),
];

const ENTRY: &[Field] = &[
    f("game", Ty::Int, "the game (index into `games`)"),
    f("side", Ty::Int, "the side (index into `sides`)"),
    f("points", Ty::Int, "the points the side gets in that game"),
    f(
        "boxes",
        Ty::Int,
        "the boxes the side counts in that game (may be left out: 1 when `points` is above 0)",
    ),
];

/// Every hook point's context, in the order of [`HookPoint::ALL`].
pub const CONTEXTS: [HookContext; HookPoint::COUNT] = [
    HookContext {
        point: HookPoint::KnockLimit,
        called: "once per table at each deal, after the upcard is turned",
        fields: DEAL,
        default: f(
            "default",
            Ty::IntOrUnit,
            "the ruleset's own knock limit; `()` when it allows no knocking",
        ),
        returns: "the knock limit of this hand: an integer, or `()` for only gin",
        checks: "an integer from 0 to the largest deadwood a hand can hold (or `()`)",
    },
    HookContext {
        point: HookPoint::ScoreMultiplier,
        called: "once per table at each deal, with the same context as `knock_limit`",
        fields: DEAL,
        default: f("default", Ty::Int, "1"),
        returns: "the multiplier of every score of this hand, bonuses included",
        checks: "an integer from 1 to 1000",
    },
    HookContext {
        point: HookPoint::MatchLayout,
        called: "once, when the match is created; the layout holds for the whole match",
        fields: &[SEATS, TARGET],
        default: f(
            "default",
            Ty::Map(LAYOUT),
            "one side per seat (`[[0], [1], ...]`) and one game",
        ),
        returns: "`#{sides: [[0, 2], [1, 3]], games: 3}`; a key left out keeps the default's, and `()` keeps the default",
        checks: "`games` from 1 to 8; every seat on exactly one side; no other key",
    },
    HookContext {
        point: HookPoint::Seating,
        called: "before each deal, the first included",
        fields: &[
            SEATS,
            f(
                "dealer",
                Ty::Int,
                "the dealer of this deal (for a team deal: the dealing team's first seat)",
            ),
            HAND_NUMBER,
            SIDES,
            f("games", Ty::Int, "the games (score columns) of the match"),
        ],
        default: f(
            "default",
            Ty::Maps(TABLE),
            "one table of `deal.players`: when every seat plays, in turn order from the dealer's left with the dealer last; with more seats, the dealer deals to the next seats and sits out",
        ),
        returns: "the tables of the deal: an array of `#{dealer, players}`, each table 2 to 4 players in turn order (the first offered the upcard first, the last in the dealer's role); a seat at no table sits the deal out",
        checks: "1 to seats / 2 tables (at least one); seats that exist; 2 to 4 different players per table; no seat at two tables",
    },
    HookContext {
        point: HookPoint::ScoreHand,
        called: "once per table when its hand ends (after lay-offs), a dead hand included",
        fields: &[
            f(
                "hand_number",
                Ty::Int,
                "the deal being played, counted from 0",
            ),
            f("table", Ty::Int, "the table, from 0"),
            f("dealer", Ty::Int, "the seat that dealt it"),
            f(
                "players",
                Ty::Ints,
                "the table's seats in turn order, the dealer's role last",
            ),
            SEATS,
            f(
                "outcome",
                Ty::Str,
                "how the hand ended under the plain data: `\"gin\"`, `\"big_gin\"`, `\"knock\"`, `\"undercut\"`, `\"wash\"` or `\"dead\"`",
            ),
            f(
                "knocker",
                Ty::IntOrUnit,
                "the seat that knocked or went gin; `()` for a dead hand",
            ),
            f(
                "opponent",
                Ty::IntOrUnit,
                "the knocker's opponent this score is for (at a table of three or four the hook is called once per opponent, in turn order from the knocker's left); `()` for a dead hand",
            ),
            f(
                "knock_limit",
                Ty::IntOrUnit,
                "the knock limit in force this hand; `()` when only gin goes out",
            ),
            f("upcard", Ty::Str, "the first upcard of the hand"),
            f("stock", Ty::Int, "the cards left in the stock"),
            f(
                "turns",
                Ty::Int,
                "the draws at this table this hand (the upcard taken counts as one)",
            ),
            f("multiplier", Ty::Int, "the hand's score multiplier"),
            f(
                "hands",
                Ty::Maps(HAND),
                "each seat's hand (index: seat): `ctx.hands[ctx.knocker].deadwood`",
            ),
            f(
                "totals",
                Ty::Ints,
                "each seat's match total before this hand (index: seat)",
            ),
            SIDES,
            f(
                "games",
                Ty::Objects(GAME),
                "the match before this hand, one object per game",
            ),
        ],
        default: f(
            "default",
            Ty::Map(SCORE),
            "the plain data's score: `base` (the deadwood difference, or the opponent's deadwood for gin) and the gin, big gin or undercut bonus as parts",
        ),
        returns: "`()` for the default, or a map of the keys to change: `#{parts: ctx[\"default\"].parts + [[\"knock bonus\", 10]]}`, `#{wash: true}`, `#{winner: 1, boxes: 2}`; a part is `[name, points]` or `#{name, points}`, and the points a multiplier above 1 adds are shown as a part of their own",
        checks: "keys `winner`, `parts`, `multiplier`, `boxes`, `wash` only; the winner the knocker or `opponent` (for a dead hand, a player of the table); each part's points from -1000000 to 1000000 and its name 1 to 60 characters; the total (parts times multiplier) from 0 to 1000000; the multiplier from 1 to 1000; boxes from 0 to 100; a wash scores nothing; a dead hand stays dead",
    },
    HookContext {
        point: HookPoint::RecordResult,
        called: "once every table of the deal is over, dead tables included",
        fields: &[
            f(
                "hand_number",
                Ty::Int,
                "the deal just played, counted from 0",
            ),
            TARGET,
            SIDES,
            f(
                "games",
                Ty::Objects(GAME),
                "the match before this deal, one object per game",
            ),
            f(
                "results",
                Ty::Objects(RESULT),
                "one object per table of the deal",
            ),
        ],
        default: f(
            "default",
            Ty::Maps(ENTRY),
            "each table's winner's side gets that table's points in the first open game",
        ),
        returns: "the entries to add: an array of `#{game, side, points, boxes}` (`boxes` may be left out); the engine adds them, counts a hand won for each entry above 0 and the entry's boxes, closes the games a side has won and ends the match when every game is closed",
        checks: "each `game` exists and is open, each `side` exists, `points` from 0 to 1000000, `boxes` from 0 to 100",
    },
    HookContext {
        point: HookPoint::NextDealer,
        called: "after `record_result`, when the match goes on",
        fields: &[
            SEATS,
            f(
                "dealer",
                Ty::Int,
                "the dealer of the deal just played: the seat `seating` was called with (with two tables, not always table 0's dealer)",
            ),
            HAND_NUMBER,
            f(
                "rule",
                Ty::Str,
                "the ruleset's dealer rule: `\"loser\"`, `\"winner\"`, `\"alternate\"` or `\"next_in_turn\"`",
            ),
            SIDES,
            f(
                "results",
                Ty::Objects(RESULT),
                "one object per table of the deal just played (as in `record_result`)",
            ),
        ],
        default: f(
            "default",
            Ty::Int,
            "the same dealer when every table was dead; else the ruleset's rule: `next_in_turn` gives the seat after `dealer`, and `loser`, `winner` and `alternate` apply to the first table that was not dead",
        ),
        returns: "the seat that deals next; the `seating` hook then places the players",
        checks: "a seat of the game",
    },
];

/// The declaration of `point`'s context.
pub fn context_of(point: HookPoint) -> &'static HookContext {
    &CONTEXTS[point.index()]
}

impl HookContext {
    /// The names a script may read from the context, `default` included.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.fields
            .iter()
            .map(|f| f.name)
            .chain(std::iter::once("default"))
    }

    /// The names a script may read from the context and from the maps and objects inside it.
    pub fn names_within(&self) -> Vec<&'static str> {
        fn add(out: &mut Vec<&'static str>, fields: &[Field]) {
            for f in fields {
                if !out.contains(&f.name) {
                    out.push(f.name);
                }
                if let Ty::Map(inner) | Ty::Maps(inner) | Ty::Objects(inner) = f.ty {
                    add(out, inner);
                }
            }
        }
        let mut out = Vec::new();
        add(&mut out, self.fields);
        add(&mut out, std::slice::from_ref(&self.default));
        out
    }

    /// Checks a context the engine built against this declaration: the same keys, each of its
    /// declared type. The first difference, with its path.
    pub fn check(&self, ctx: &Map) -> Result<(), String> {
        let all: Vec<Field> = self
            .fields
            .iter()
            .copied()
            .chain(std::iter::once(self.default))
            .collect();
        check_map(self.point.name(), &all, ctx)
    }
}

fn check_map(path: &str, fields: &[Field], m: &Map) -> Result<(), String> {
    for k in m.keys() {
        if !fields.iter().any(|f| f.name == k.as_str()) {
            return Err(format!("{path}.{k} is built but not declared"));
        }
    }
    for f in fields {
        let here = format!("{path}.{}", f.name);
        let v = m
            .get(f.name)
            .ok_or_else(|| format!("{here} is declared but not built"))?;
        check_value(&here, f.ty, v)?;
    }
    Ok(())
}

fn check_value(path: &str, ty: Ty, v: &Dynamic) -> Result<(), String> {
    let ints = |v: &Dynamic| {
        v.clone()
            .try_cast::<rhai::Array>()
            .is_some_and(|a| a.iter().all(Dynamic::is_int))
    };
    let strings = |v: &Dynamic| {
        v.clone()
            .try_cast::<rhai::Array>()
            .is_some_and(|a| a.iter().all(Dynamic::is_string))
    };
    let ok = match ty {
        Ty::Int => v.is_int(),
        Ty::Str => v.is_string(),
        Ty::Bool => v.is_bool(),
        Ty::IntOrUnit => v.is_int() || v.is_unit(),
        Ty::Target => v.is_int() || v.clone().into_string().is_ok_and(|s| s == "single_hand"),
        Ty::Ints => ints(v),
        Ty::Cards => strings(v),
        Ty::Melds => v
            .clone()
            .try_cast::<rhai::Array>()
            .is_some_and(|a| a.iter().all(strings)),
        Ty::RankValues => v.clone().try_cast::<Map>().is_some_and(|m| {
            m.len() == 13
                && "A23456789TJQK"
                    .chars()
                    .all(|r| m.get(r.to_string().as_str()).is_some_and(Dynamic::is_int))
        }),
        Ty::Sides => v
            .clone()
            .try_cast::<rhai::Array>()
            .is_some_and(|a| a.iter().all(ints)),
        Ty::Map(fields) => {
            let Some(m) = v.clone().try_cast::<Map>() else {
                return Err(format!("{path} is a {}, not a map", v.type_name()));
            };
            return check_map(path, fields, &m);
        }
        Ty::Maps(fields) | Ty::Objects(fields) => {
            let Some(a) = v.clone().try_cast::<rhai::Array>() else {
                return Err(format!("{path} is a {}, not an array", v.type_name()));
            };
            for (i, item) in a.iter().enumerate() {
                check_value(&format!("{path}[{i}]"), Ty::Map(fields), item)?;
            }
            return Ok(());
        }
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{path} is {v:?}, not {}", ty.name()))
    }
}

impl Ty {
    /// The type in a hook author's words.
    pub fn name(self) -> &'static str {
        match self {
            Ty::Int => "integer",
            Ty::Str => "string",
            Ty::Bool => "bool",
            Ty::IntOrUnit => "integer or `()`",
            Ty::Target => "integer or `\"single_hand\"`",
            Ty::Ints => "array of integers",
            Ty::Cards => "array of strings",
            Ty::Melds => "array of arrays of strings",
            Ty::RankValues => "map rank → integer",
            Ty::Sides => "array of arrays of integers",
            Ty::Map(_) => "map",
            Ty::Maps(_) => "array of maps",
            Ty::Objects(_) => "array of objects",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_declaration_per_point_in_order() {
        for (i, p) in HookPoint::ALL.into_iter().enumerate() {
            assert_eq!(CONTEXTS[i].point, p);
            assert!(context_of(p).names().any(|n| n == "default"));
        }
    }

    #[test]
    fn a_context_that_differs_is_named() {
        let c = context_of(HookPoint::NextDealer);
        let mut m = Map::new();
        m.insert("seats".into(), Dynamic::from(2_i64));
        let e = c.check(&m).unwrap_err();
        assert_eq!(e, "next_dealer.dealer is declared but not built");
        m.insert("colour".into(), Dynamic::from(2_i64));
        assert_eq!(
            c.check(&m).unwrap_err(),
            "next_dealer.colour is built but not declared"
        );
    }
}
