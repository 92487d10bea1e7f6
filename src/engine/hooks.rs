//! The points where a variant's script may decide a rule. The engine calls them through this trait
//! and checks what they return; `rules::script` implements it with Rhai, [`NoHooks`] with the data
//! alone.
//!
//! Every method has a default that reproduces what the plain ruleset data says, so a ruleset
//! without hooks plays exactly by its data. The contexts are plain, read-only Rust values: a hook
//! can only return a decision, never change the state. A hook that fails returns [`HookError`]
//! naming the hook; the engine then refuses the action and leaves the state as it was
//! (`script-error` in the API).
//!
//! Each method says when the engine calls it. What each hook point reads and decides, and what the
//! engine checks of the decision ([`check_seating`], [`check_entries`], [`MatchLayout::check`]), is
//! declared once, in `rules::script::contexts`, and published from there as `docs/hooks.md`.

use serde::{Deserialize, Serialize};

pub use super::game_score::{GameScore, ScoreEntry};
pub use super::hand_score::{HandScore, MAX_HAND_BOXES, MAX_HAND_POINTS, ScorePart};
pub use super::layout::{MAX_GAMES, MatchLayout, TableSeating};
pub use super::outcome::Outcome as HandOutcome;
use crate::cards::Card;
use crate::melds::LayOff;
use crate::role::ByRole;
use crate::ruleset::{AfterWash, NextDealer, Target};
use crate::seat::{BySeat, Seat, TableNo};

/// What a hook may read when a hand is dealt.
#[derive(Clone, Debug)]
pub struct DealInfo<'a> {
    /// The first upcard of the hand.
    pub upcard: Card,
    pub dealer: Seat,
    /// 0 for the first hand of the match.
    pub hand_number: u32,
    /// Match totals per seat before this hand.
    pub totals: &'a BySeat<i64>,
    /// The ruleset's own knock limit (`None`: no knocking).
    pub knock_limit: Option<u8>,
}

/// A hook that failed, ran over its limits or returned something the engine refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("hook {hook} failed: {message}")]
pub struct HookError {
    pub hook: String,
    pub message: String,
}

/// A variant's hooks. Every method has the default that the plain ruleset data gives.
pub trait Hooks: Send + Sync {
    /// The knock limit for this hand (`None`: only gin goes out). Called once per table at the
    /// deal, after the upcard is turned. Default: the ruleset's own limit.
    fn knock_limit(&self, deal: &DealInfo) -> Result<Option<u8>, HookError> {
        Ok(deal.knock_limit)
    }

    /// Every score of this hand is multiplied by this (at least 1), bonuses included. Called once
    /// per table at the deal, with the same [`DealInfo`] as `knock_limit`. Default: 1.
    fn score_multiplier(&self, _deal: &DealInfo) -> Result<u32, HookError> {
        Ok(1)
    }

    /// Who scores together and how many games (columns) are scored at once. Called once when a
    /// match is created; the layout is fixed for the match. Default: one side per seat, one game.
    fn match_layout(&self, info: &LayoutInfo) -> Result<MatchLayout, HookError> {
        Ok(MatchLayout::individual(info.seats))
    }

    /// The tables of a deal and who plays at each; a seat at no table sits the deal out. Called
    /// before each deal (the first included) with the dealer of that deal. The engine deals one
    /// deck per table, in order. Default: [`default_seating`].
    fn seating(&self, info: &SeatingInfo) -> Result<Vec<TableSeating>, HookError> {
        Ok(default_seating(info.seats, info.players, info.dealer))
    }

    /// How a hand is scored: who wins, the named parts of the score, its multiplier and the
    /// boxes it counts. Called once per table when its hand ends (after lay-offs), dead hands
    /// included. Default: `info.default`, what the plain data gives.
    fn score_hand(&self, info: &HandInfo) -> Result<HandScore, HookError> {
        Ok(info.default.clone())
    }

    /// How a deal's results enter the match: the points each side gets in which game. Called once
    /// every table of the deal is over, dead tables included. The engine adds each entry's points
    /// to `games[game].points[side]` and counts a hand won for that side in that game when the
    /// points are above 0; then it closes every open game in which a side has reached the target
    /// and leads alone (see `docs/rules.md`), awards the classic bonuses of the ruleset for each
    /// game it closes, and ends the match when every game is closed (a one-hand match: after its
    /// first deal). Default: [`default_entries`] (each winner's side, first open game).
    fn record_result(&self, info: &RecordInfo) -> Result<Vec<ScoreEntry>, HookError> {
        Ok(default_entries(info))
    }

    /// Who deals the next deal; the `seating` hook then places the players. Called after
    /// `record_result` when the match goes on. Default: [`default_next_dealer`].
    fn next_dealer(&self, info: &DealerInfo) -> Result<Seat, HookError> {
        Ok(default_next_dealer(info))
    }
}

/// The result of the hand at one table, as hooks see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableResult {
    pub table: TableNo,
    pub seating: TableSeating,
    pub outcome: HandOutcome,
    /// Who scored; `None` for a dead hand.
    pub winner: Option<Seat>,
    /// The seat the winner scored against (at a table of three or four, each opponent of the
    /// knocker has a result of its own); `None` when nobody scored.
    pub loser: Option<Seat>,
    /// Points the winner scored, multiplier included (0 for a dead hand).
    pub points: u32,
    pub multiplier: u32,
    /// The named parts of the points.
    pub parts: Vec<ScorePart>,
    /// The boxes the winner counts.
    pub boxes: u32,
}

/// One seat's hand at the end of a hand, as the `score_hand` hook sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatHand {
    pub seat: Seat,
    /// The seat played this hand (a seat sitting out has nothing else).
    pub playing: bool,
    /// The melds it showed (for a dead hand: its best arrangement).
    pub melds: Vec<Vec<Card>>,
    /// Its cards in no meld, after lay-offs.
    pub deadwood_cards: Vec<Card>,
    /// Its deadwood before laying off.
    pub deadwood_before: u32,
    /// Its deadwood after laying off.
    pub deadwood: u32,
    /// The cards it laid off, and onto which of the knocker's melds.
    pub laid_off: Vec<LayOff>,
}

impl SeatHand {
    /// A seat that did not play at the table.
    pub fn sitting_out(seat: Seat) -> SeatHand {
        SeatHand {
            seat,
            playing: false,
            melds: Vec::new(),
            deadwood_cards: Vec::new(),
            deadwood_before: 0,
            deadwood: 0,
            laid_off: Vec::new(),
        }
    }
}

/// Each seat's hand at the end of a hand (index: seat), worked out only when a hook reads them, so
/// that scoring with no hook pays nothing for them.
#[derive(Clone, Copy)]
pub struct SeatHands<'a>(&'a dyn Fn() -> Vec<SeatHand>);

impl<'a> SeatHands<'a> {
    pub fn new(hands: &'a dyn Fn() -> Vec<SeatHand>) -> SeatHands<'a> {
        SeatHands(hands)
    }

    pub fn get(&self) -> Vec<SeatHand> {
        (self.0)()
    }
}

impl std::fmt::Debug for SeatHands<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.get()).finish()
    }
}

/// What the `score_hand` hook reads when the hand at one table ends.
#[derive(Clone, Debug)]
pub struct HandInfo<'a> {
    pub hand_number: u32,
    pub table: TableNo,
    pub seating: TableSeating,
    /// How the hand ended, under the plain data.
    pub outcome: HandOutcome,
    /// The seat that knocked or went gin; `None` for a dead hand.
    pub knocker: Option<Seat>,
    /// The knocker's opponent this score is for: at a table of three or four the hook is called
    /// once per opponent, in turn order from the knocker's left; `None` for a dead hand.
    pub opponent: Option<Seat>,
    pub knock_limit: Option<u8>,
    pub upcard: Card,
    /// Cards left in the stock.
    pub stock: u32,
    /// Draws at this table this hand.
    pub turns: u32,
    /// One entry per seat of the game (index: seat), worked out when read.
    pub hands: SeatHands<'a>,
    /// The match before this hand.
    pub layout: &'a MatchLayout,
    pub games: &'a [GameScore],
    /// What the plain data decides.
    pub default: HandScore,
}

/// What the `match_layout` hook reads when a match starts.
#[derive(Clone, Debug)]
pub struct LayoutInfo {
    pub seats: u8,
    pub target: Target,
}

/// What the `seating` hook reads before each deal.
#[derive(Clone, Debug)]
pub struct SeatingInfo<'a> {
    pub seats: u8,
    /// Players at one table by the ruleset (`table.players`), 2 to 4.
    pub players: u8,
    /// The dealer of this deal (for a team deal: the dealing team's first seat).
    pub dealer: Seat,
    /// 0 for the first deal of the match.
    pub hand_number: u32,
    pub layout: &'a MatchLayout,
}

/// What the `record_result` hook reads once every table of a deal is over.
#[derive(Clone, Debug)]
pub struct RecordInfo<'a> {
    /// The deal just played, 0 for the first.
    pub hand_number: u32,
    pub target: Target,
    pub layout: &'a MatchLayout,
    /// The match before this deal: one entry per game of the layout.
    pub games: &'a [GameScore],
    /// One result per table of the deal.
    pub results: &'a [TableResult],
}

/// What the `next_dealer` hook reads once every table of a deal is over.
#[derive(Clone, Debug)]
pub struct DealerInfo<'a> {
    pub seats: u8,
    /// The dealer of the deal just played.
    pub dealer: Seat,
    pub hand_number: u32,
    /// The ruleset's dealer rule.
    pub rule: NextDealer,
    /// The ruleset's rule after a wash.
    pub after_wash: AfterWash,
    pub layout: &'a MatchLayout,
    /// One result per table of the deal just played.
    pub results: &'a [TableResult],
}

/// Checks a seating for `seats` players: 1 to `seats / 2` tables (at least one), each seat at
/// one table at most, 2 to 4 different players per table (a table's size is checked when the
/// type is built), the dealer at the table or sitting out.
pub fn check_seating(tables: &[TableSeating], seats: u8) -> Result<(), String> {
    let max_tables = usize::from(seats / 2).max(1);
    if tables.is_empty() || tables.len() > max_tables {
        return Err(format!(
            "{} tables for {seats} seats (1 to {max_tables} allowed)",
            tables.len()
        ));
    }
    let mut seated = [false; 256];
    let seated = &mut seated[..usize::from(seats)];
    for t in tables {
        if !t.dealer.is_in(seats) {
            return Err(format!(
                "dealer seat {} does not exist ({seats} seats)",
                t.dealer
            ));
        }
        for &s in &t.players {
            match seated.get_mut(s.index()) {
                None => return Err(format!("seat {s} does not exist ({seats} seats)")),
                Some(true) if t.players.iter().filter(|&&p| p == s).count() > 1 => {
                    return Err(format!("seat {s} plays against itself"));
                }
                Some(true) => return Err(format!("seat {s} plays at two tables")),
                Some(x) => *x = true,
            }
        }
    }
    Ok(())
}

/// Checks a hand's score that a hook decided: the winner a player of the table, each part and
/// the total (multiplier included) within [`MAX_HAND_POINTS`], a multiplier from 1 to 1000,
/// boxes within [`MAX_HAND_BOXES`], and nothing scored when nobody wins.
pub fn check_hand_score(score: &HandScore, players: &[Seat]) -> Result<(), String> {
    if let Some(w) = score.winner
        && !players.contains(&w)
    {
        let list: Vec<String> = players.iter().map(ToString::to_string).collect();
        return Err(format!(
            "the winner, seat {w}, is not one of the seats this score is between ({})",
            list.join(", ")
        ));
    }
    if !(1..=1000).contains(&score.multiplier) {
        return Err(format!(
            "the multiplier {} is out of range (1 to 1000)",
            score.multiplier
        ));
    }
    let mut base: i64 = 0;
    for p in &score.parts {
        if p.points.abs() > MAX_HAND_POINTS {
            return Err(format!(
                "the part {:?} has {} points (at most {MAX_HAND_POINTS} either way)",
                p.name, p.points
            ));
        }
        if p.name.trim().is_empty() || p.name.len() > 60 {
            return Err(format!(
                "a part's name must be 1 to 60 characters, not {:?}",
                p.name
            ));
        }
        base += p.points;
    }
    let total = base * i64::from(score.multiplier);
    if score.winner.is_none() {
        if total != 0 || score.boxes > 0 {
            return Err(format!(
                "nobody wins the hand (a wash), but it scores {total} points and {} boxes",
                score.boxes
            ));
        }
        return Ok(());
    }
    if !(0..=MAX_HAND_POINTS).contains(&total) {
        let with = if score.multiplier > 1 {
            format!(" times the multiplier {}", score.multiplier)
        } else {
            String::new()
        };
        return Err(format!(
            "the parts sum to {base} points{with}: {total}; a hand scores 0 to {MAX_HAND_POINTS}"
        ));
    }
    if score.boxes > MAX_HAND_BOXES {
        return Err(format!(
            "{} boxes for one hand (at most {MAX_HAND_BOXES})",
            score.boxes
        ));
    }
    Ok(())
}

/// Checks score entries against the match: an open game, an existing side.
pub fn check_entries(
    entries: &[ScoreEntry],
    layout: &MatchLayout,
    games: &[GameScore],
) -> Result<(), String> {
    for e in entries {
        match games.get(usize::from(e.game)) {
            None => {
                return Err(format!(
                    "game {} does not exist ({} games)",
                    e.game,
                    games.len()
                ));
            }
            Some(g) if g.closed => return Err(format!("game {} is closed", e.game)),
            Some(_) => {}
        }
        if e.side.index() >= layout.sides.len() {
            return Err(format!(
                "side {} does not exist ({} sides)",
                e.side,
                layout.sides.len()
            ));
        }
    }
    Ok(())
}

/// The seating the plain data gives: one table of `players`. When every seat plays, they sit in
/// turn order from the dealer's left, the dealer last; with more seats than that the dealer deals
/// to the next `players` seats and sits out.
pub fn default_seating(seats: u8, players: u8, dealer: Seat) -> Vec<TableSeating> {
    let n = seats.max(2);
    // The seat `n` after the dealer is the dealer: a full table ends with them.
    let order: Vec<Seat> = (1..=players.clamp(2, n))
        .map(|k| dealer.after(k, n))
        .collect();
    let players =
        ByRole::from_slice(&order).unwrap_or_else(|| ByRole::new(dealer.after(1, n), dealer));
    vec![TableSeating { dealer, players }]
}

/// The entries the plain data gives: each table's winner's side gets that table's points in the
/// first open game.
pub fn default_entries(info: &RecordInfo) -> Vec<ScoreEntry> {
    let Some(game) = info.games.iter().position(|g| !g.closed) else {
        return Vec::new();
    };
    info.results
        .iter()
        .filter_map(|r| {
            let side = info.layout.side_of(r.winner?)?;
            Some(ScoreEntry {
                game: game as u8,
                side,
                points: r.points,
                boxes: r.boxes,
            })
        })
        .collect()
}

/// The next dealer the plain data gives: when no table had a winner, the rule after a wash if a
/// table was a wash, else the same dealer; else the seat after the deal's dealer
/// (`next_in_turn`), or the ruleset's rule applied to the first table that had a winner.
pub fn default_next_dealer(info: &DealerInfo) -> Seat {
    let Some(result) = info.results.iter().find(|r| r.winner.is_some()) else {
        let washed = info.results.iter().any(|r| r.outcome == HandOutcome::Wash);
        return match info.after_wash {
            AfterWash::NextInTurn if washed => info.dealer.after(1, info.seats),
            _ => info.dealer,
        };
    };
    let Some(winner) = result.winner else {
        return info.dealer;
    };
    let players = result.seating.players;
    let other = |s: Seat| players.iter().copied().find(|&p| p != s).unwrap_or(s);
    match info.rule {
        NextDealer::Loser => result.loser.unwrap_or_else(|| other(winner)),
        NextDealer::Winner => winner,
        NextDealer::Alternate => other(result.seating.dealer),
        NextDealer::NextInTurn => info.dealer.after(1, info.seats),
    }
}

/// A ruleset with no hooks.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHooks;

impl Hooks for NoHooks {}
