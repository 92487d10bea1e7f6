//! Scoring a hand, recording a deal into the match, the end of the match and the next dealer.

use std::sync::Arc;

use super::hooks::{DealerInfo, HookError, Hooks, RecordInfo, TableResult, check_entries};
use crate::melds::{Arrangement, LayOff, meld_lists};
use crate::role::Role;
use crate::ruleset::{Ruleset, Target};
use crate::seat::{BySeat, Seat, Side, TableNo};

use super::error::{Overflow, StepError, add_i64, mul_i64};
use super::event::Event;
use super::game_score::{GameScore, ScoreEntry};
use super::identity::GameRef;
use super::layout::TableSeating;
use super::outcome::Outcome;
use super::state::{GameBonus, HandResult, Knock, MatchRecord, Phase, State, Table};

/// Scores a hand that went out. `knocker` is the knocker's role at the table.
#[allow(clippy::too_many_arguments)]
pub(crate) fn hand_result(
    rules: &Ruleset,
    game: GameRef,
    table: &Table,
    table_no: TableNo,
    knocker: Role,
    knock: &Knock,
    defender: &Arrangement,
    laid_off: Vec<LayOff>,
) -> Result<HandResult, Overflow> {
    let seats = rules.seats;
    let (k_seat, d_seat) = (table.seats[knocker], table.seats[knocker.other()]);
    let (kd, dd) = (knock.deadwood, defender.deadwood);
    let (outcome, winner, base) = match knock.outcome {
        Outcome::Gin => (
            Outcome::Gin,
            k_seat,
            u64::from(dd) + u64::from(rules.gin_bonus),
        ),
        Outcome::BigGin => (
            Outcome::BigGin,
            k_seat,
            u64::from(dd) + u64::from(rules.big_gin_bonus.unwrap_or(rules.gin_bonus)),
        ),
        _ if dd < kd || (dd == kd && rules.tie_is_undercut) => (
            Outcome::Undercut,
            d_seat,
            u64::from(kd - dd) + u64::from(rules.undercut_bonus),
        ),
        _ => (Outcome::Knock, k_seat, u64::from(dd - kd)),
    };
    // A hand's points enter the match as a u32 (`ScoreEntry::points`).
    let scored = base
        .checked_mul(u64::from(table.multiplier))
        .and_then(|p| u32::try_from(p).ok())
        .ok_or(Overflow("the hand's score"))?;
    let mut points = BySeat::filled(seats, 0);
    points[winner] = i64::from(scored);
    let mut deadwood = BySeat::filled(seats, 0);
    deadwood[k_seat] = kd;
    deadwood[d_seat] = dd;
    let mut shown = BySeat::filled(seats, Vec::new());
    shown[k_seat] = meld_lists(&rules.melds, &knock.melds);
    shown[d_seat] = meld_lists(&rules.melds, &defender.melds);
    Ok(HandResult {
        game,
        table: table_no,
        outcome,
        winner: Some(winner),
        points,
        deadwood,
        melds: shown,
        laid_off,
        multiplier: table.multiplier,
    })
}

/// A dead hand: nobody scores.
pub(crate) fn dead_result(rules: &Ruleset, game: GameRef, table_no: TableNo) -> HandResult {
    let seats = rules.seats;
    HandResult {
        game,
        table: table_no,
        outcome: Outcome::Dead,
        winner: None,
        points: BySeat::filled(seats, 0),
        deadwood: BySeat::filled(seats, 0),
        melds: BySeat::filled(seats, Vec::new()),
        laid_off: Vec::new(),
        multiplier: 1,
    }
}

/// The results of the tables that are over, as hooks see them.
pub(crate) fn table_results(tables: &[Table]) -> Vec<TableResult> {
    tables
        .iter()
        .filter_map(|t| match &t.phase {
            Phase::Over { result } => Some(table_result(t, result)),
            _ => None,
        })
        .collect()
}

/// `result` of the hand at `table`, as hooks see it.
fn table_result(table: &Table, result: &HandResult) -> TableResult {
    TableResult {
        table: result.table,
        seating: TableSeating {
            dealer: table.dealer,
            players: table.seats.into_array(),
        },
        outcome: result.outcome,
        winner: result.winner,
        points: result
            .winner
            .and_then(|w| result.points.get(w))
            .map_or(0, |&p| u32::try_from(p).unwrap_or(u32::MAX)),
        multiplier: result.multiplier,
    }
}

fn hook_refused(hook: &str, message: String) -> HookError {
    HookError {
        hook: hook.into(),
        message,
    }
}

/// When the hand at table `t` ends with `result` and every other table is over: enters the
/// deal into the match (through the `record_result` hook), before the table changes.
pub(crate) fn enter_last_result(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &State,
    t: TableNo,
    result: &HandResult,
) -> Result<Entered, StepError> {
    let results: Vec<TableResult> = TableNo::all(state.tables.len())
        .zip(&state.tables)
        .filter_map(|(n, table)| match &table.phase {
            _ if n == t => Some(table_result(table, result)),
            Phase::Over { result } => Some(table_result(table, result)),
            _ => None,
        })
        .collect();
    enter_deal(
        rules,
        hooks,
        &state.record,
        state.target,
        state.deal_number,
        &results,
    )
}

/// Records an entered deal: the match's new record, the games that closed, and the end of the
/// match when all are closed.
pub(crate) fn record_deal(state: &mut State, done: Entered, events: &mut Vec<Event>) {
    state.record = Arc::new(done.record);
    events.push(Event::Scored {
        entries: done.entries,
    });
    if let Some((winners, totals)) = done.over {
        events.push(Event::MatchOver {
            game: state.game,
            winners: winners.clone(),
            totals,
        });
        state.winners = Some(winners);
    }
}

/// A deal entered into the match.
pub(crate) struct Entered {
    pub record: MatchRecord,
    pub entries: Vec<ScoreEntry>,
    /// When the match ends with this deal: its winners and final totals per side.
    pub over: Option<(Vec<Seat>, Vec<i64>)>,
}

/// What entering a deal with `results` does to `record` (the match before the deal), as a pure
/// function: [`enter_last_result`] plays it, validation replays it.
pub(crate) fn enter_deal(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    record: &MatchRecord,
    target: Target,
    deal_number: u32,
    results: &[TableResult],
) -> Result<Entered, StepError> {
    let info = RecordInfo {
        hand_number: deal_number,
        target,
        layout: &record.layout,
        games: &record.games,
        results,
    };
    let entries = hooks.record_result(&info)?;
    check_entries(&entries, &record.layout, &record.games)
        .map_err(|m| hook_refused("record_result", m))?;
    let mut record = record.clone();
    for e in &entries {
        let game = &mut record.games[usize::from(e.game)];
        let side = e.side.index();
        game.points[side] = add_i64(game.points[side], i64::from(e.points), "a score")?;
        if e.points > 0 {
            game.hands_won[side] = game.hands_won[side]
                .checked_add(1)
                .ok_or(Overflow("a count of hands won"))?;
        }
    }
    checked_totals(&record)?;
    let one_hand = target == Target::SingleHand;
    for g in 0..record.games.len() {
        if record.games[g].closed {
            continue;
        }
        let leader = leader(&record.games[g].points);
        let won = match target {
            Target::SingleHand => true,
            Target::Points(t) => leader.is_some_and(|(_, best)| best >= i64::from(t)),
        };
        if !won {
            continue;
        }
        record.games[g].closed = true;
        if let Some((side, _)) = leader
            && let Some(b) = classic_bonuses(rules, &record.games[g], g, side)?
        {
            record.bonuses.push(b);
        }
    }
    let mut over = None;
    if record.games.iter().all(|g| g.closed) {
        let finals = final_totals(&record)?;
        let all_dead = results.iter().all(|r| r.winner.is_none());
        let winners: Vec<Seat> = match leader(&finals) {
            Some((side, _)) if !(one_hand && all_dead) => {
                let mut seats = record.layout.sides[side.index()].clone();
                seats.sort_unstable();
                seats
            }
            _ => Vec::new(),
        };
        over = Some((winners, finals));
    }
    Ok(Entered {
        record,
        entries,
        over,
    })
}

/// Points per side summed over the games, or what overflows.
pub(crate) fn checked_totals(record: &MatchRecord) -> Result<Vec<i64>, Overflow> {
    let mut totals = vec![0i64; record.layout.sides.len()];
    for g in &record.games {
        for (t, &p) in totals.iter_mut().zip(&g.points) {
            *t = add_i64(*t, p, "a match total")?;
        }
    }
    Ok(totals)
}

/// The side with the most points, if it leads alone.
pub(crate) fn leader(points: &[i64]) -> Option<(Side, i64)> {
    let best = points.iter().copied().max()?;
    let mut at_best = Side::all(points.len())
        .zip(points)
        .filter(|&(_, &p)| p == best);
    let (side, _) = at_best.next()?;
    at_best.next().is_none().then_some((side, best))
}

/// Each side's final total: every game's points, with that game's bonuses where awarded.
pub(crate) fn final_totals(record: &MatchRecord) -> Result<Vec<i64>, Overflow> {
    let mut totals = vec![0; record.layout.sides.len()];
    for (g, game) in record.games.iter().enumerate() {
        let with_bonus = record.bonuses.iter().find(|b| usize::from(b.game) == g);
        let points = with_bonus.map_or(&game.points, |b| &b.totals);
        for (t, &p) in totals.iter_mut().zip(points) {
            *t = add_i64(*t, p, "a final total")?;
        }
    }
    Ok(totals)
}

/// Game, box and shutout bonuses for a game that just closed, when the ruleset awards any.
pub(crate) fn classic_bonuses(
    rules: &Ruleset,
    game: &GameScore,
    index: usize,
    winner: Side,
) -> Result<Option<GameBonus>, Overflow> {
    let m = &rules.match_rules;
    if m.game_bonus == 0 && m.box_bonus == 0 && m.shutout_multiplier <= 1 {
        return Ok(None);
    }
    let n = game.points.len();
    let mut game_bonus = vec![0i64; n];
    game_bonus[winner.index()] = i64::from(m.game_bonus);
    let boxes = game
        .hands_won
        .iter()
        .map(|&h| mul_i64(i64::from(h), i64::from(m.box_bonus), "a box bonus"))
        .collect::<Result<Vec<i64>, Overflow>>()?;
    let shut_out = game
        .points
        .iter()
        .enumerate()
        .all(|(s, &t)| s == winner.index() || t == 0);
    let shutout = if shut_out {
        m.shutout_multiplier.max(1)
    } else {
        1
    };
    let what = "a game's total with its bonuses";
    let mut totals = Vec::with_capacity(n);
    for s in 0..n {
        let total = add_i64(
            add_i64(game.points[s], game_bonus[s], what)?,
            boxes[s],
            what,
        )?;
        totals.push(if s == winner.index() {
            mul_i64(total, i64::from(shutout), what)?
        } else {
            total
        });
    }
    Ok(Some(GameBonus {
        game: index as u8,
        winner,
        game_bonus,
        boxes,
        shutout,
        totals,
    }))
}

/// Who deals the next deal (through the `next_dealer` hook).
pub(crate) fn next_dealer(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &State,
) -> Result<Seat, HookError> {
    let dealer = state.dealer;
    let results = table_results(&state.tables);
    let info = DealerInfo {
        seats: rules.seats,
        dealer,
        hand_number: state.deal_number,
        rule: rules.next_dealer,
        layout: &state.record.layout,
        results: &results,
    };
    let next = hooks.next_dealer(&info)?;
    if !next.is_in(rules.seats) {
        return Err(hook_refused(
            "next_dealer",
            format!(
                "returned seat {next}, but the game has seats 0 to {}",
                rules.seats - 1
            ),
        ));
    }
    Ok(next)
}
