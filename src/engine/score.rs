//! Scoring a hand, recording a deal into the match, the end of the match and the next dealer.

use std::sync::Arc;

use crate::hooks::{
    DealerInfo, GameScore, HookError, Hooks, RecordInfo, TableResult, TableSeating, check_entries,
};
use crate::melds::{Arrangement, LayOff};
use crate::ruleset::{Ruleset, Seat, Target};

use super::event::Event;
use super::identity::GameRef;
use super::state::{GameBonus, HandResult, Knock, MatchRecord, Outcome, Phase, State, Table};
use super::step::show;

/// Scores a hand that went out. `knocker` is the knocker's role at the table.
#[allow(clippy::too_many_arguments)]
pub(crate) fn hand_result(
    rules: &Ruleset,
    game: GameRef,
    table: &Table,
    table_index: u8,
    knocker: usize,
    knock: &Knock,
    defender: &Arrangement,
    laid_off: Vec<LayOff>,
) -> HandResult {
    let seats = usize::from(rules.seats);
    let (k_seat, d_seat) = (table.seats[knocker], table.seats[1 - knocker]);
    let (kd, dd) = (knock.deadwood, defender.deadwood);
    let (outcome, winner, base) = match knock.outcome {
        Outcome::Gin => (Outcome::Gin, k_seat, dd + rules.gin_bonus),
        Outcome::BigGin => (
            Outcome::BigGin,
            k_seat,
            dd + rules.big_gin_bonus.unwrap_or(rules.gin_bonus),
        ),
        _ if dd < kd || (dd == kd && rules.tie_is_undercut) => {
            (Outcome::Undercut, d_seat, kd - dd + rules.undercut_bonus)
        }
        _ => (Outcome::Knock, k_seat, dd - kd),
    };
    let mut points = vec![0i64; seats];
    points[usize::from(winner)] = i64::from(base) * i64::from(table.multiplier);
    let mut deadwood = vec![0u32; seats];
    deadwood[usize::from(k_seat)] = kd;
    deadwood[usize::from(d_seat)] = dd;
    let mut shown = vec![Vec::new(); seats];
    shown[usize::from(k_seat)] = show(rules, &knock.melds);
    shown[usize::from(d_seat)] = show(rules, &defender.melds);
    HandResult {
        game,
        table: table_index,
        outcome,
        winner: Some(winner),
        points,
        deadwood,
        melds: shown,
        laid_off,
        multiplier: table.multiplier,
    }
}

/// A dead hand: nobody scores.
pub(crate) fn dead_result(rules: &Ruleset, game: GameRef, table_index: u8) -> HandResult {
    let seats = usize::from(rules.seats);
    HandResult {
        game,
        table: table_index,
        outcome: Outcome::Dead,
        winner: None,
        points: vec![0; seats],
        deadwood: vec![0; seats],
        melds: vec![Vec::new(); seats],
        laid_off: Vec::new(),
        multiplier: 1,
    }
}

fn finished(state: &State) -> Vec<TableResult> {
    state
        .tables
        .iter()
        .filter_map(|t| match &t.phase {
            Phase::Over { result } => Some(TableResult {
                table: result.table,
                seating: TableSeating {
                    dealer: t.dealer,
                    players: t.seats,
                },
                outcome: result.outcome,
                winner: result.winner,
                points: result
                    .winner
                    .and_then(|w| result.points.get(usize::from(w)))
                    .map_or(0, |&p| u32::try_from(p).unwrap_or(u32::MAX)),
                multiplier: result.multiplier,
            }),
            _ => None,
        })
        .collect()
}

fn hook_refused(hook: &str, message: String) -> HookError {
    HookError {
        hook: hook.into(),
        message,
    }
}

/// Once every table of the deal is over: enters the deal into the match (through the
/// `record_result` hook), closes the games that are won, and ends the match when all are closed.
pub(crate) fn record_deal(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &mut State,
    events: &mut Vec<Event>,
) -> Result<(), HookError> {
    let results = finished(state);
    let info = RecordInfo {
        hand_number: state.deal_number,
        target: state.target,
        layout: &state.record.layout,
        games: &state.record.games,
        results: &results,
    };
    let entries = hooks.record_result(&info)?;
    check_entries(&entries, &state.record.layout, &state.record.games)
        .map_err(|m| hook_refused("record_result", m))?;
    let record = Arc::make_mut(&mut state.record);
    for e in &entries {
        let game = &mut record.games[usize::from(e.game)];
        let side = usize::from(e.side);
        game.points[side] += i64::from(e.points);
        if e.points > 0 {
            game.hands_won[side] += 1;
        }
    }
    events.push(Event::Scored {
        entries: entries.clone(),
    });
    let one_hand = state.target == Target::SingleHand;
    for g in 0..record.games.len() {
        if record.games[g].closed {
            continue;
        }
        let leader = leader(&record.games[g].points);
        let won = match state.target {
            Target::SingleHand => true,
            Target::Points(t) => leader.is_some_and(|(_, best)| best >= i64::from(t)),
        };
        if !won {
            continue;
        }
        record.games[g].closed = true;
        if let Some((side, _)) = leader
            && let Some(b) = classic_bonuses(rules, &record.games[g], g, side)
        {
            record.bonuses.push(b);
        }
    }
    if record.games.iter().all(|g| g.closed) {
        let finals = final_totals(record);
        let all_dead = results.iter().all(|r| r.winner.is_none());
        let winners: Vec<Seat> = match leader(&finals) {
            Some((side, _)) if !(one_hand && all_dead) => {
                let mut seats = record.layout.sides[side].clone();
                seats.sort_unstable();
                seats
            }
            _ => Vec::new(),
        };
        events.push(Event::MatchOver {
            game: state.game,
            winners: winners.clone(),
            totals: finals,
        });
        state.winners = Some(winners);
    }
    Ok(())
}

/// The side with the most points, if it leads alone.
fn leader(points: &[i64]) -> Option<(usize, i64)> {
    let best = points.iter().copied().max()?;
    let mut at_best = points.iter().enumerate().filter(|&(_, &p)| p == best);
    let (side, _) = at_best.next()?;
    at_best.next().is_none().then_some((side, best))
}

/// Each side's final total: every game's points, with that game's bonuses where awarded.
fn final_totals(record: &MatchRecord) -> Vec<i64> {
    let mut totals = vec![0; record.layout.sides.len()];
    for (g, game) in record.games.iter().enumerate() {
        let with_bonus = record.bonuses.iter().find(|b| usize::from(b.game) == g);
        let points = with_bonus.map_or(&game.points, |b| &b.totals);
        for (t, p) in totals.iter_mut().zip(points) {
            *t += p;
        }
    }
    totals
}

/// Game, box and shutout bonuses for a game that just closed, when the ruleset awards any.
fn classic_bonuses(
    rules: &Ruleset,
    game: &GameScore,
    index: usize,
    winner: usize,
) -> Option<GameBonus> {
    let m = &rules.match_rules;
    if m.game_bonus == 0 && m.box_bonus == 0 && m.shutout_multiplier <= 1 {
        return None;
    }
    let n = game.points.len();
    let mut game_bonus = vec![0i64; n];
    game_bonus[winner] = i64::from(m.game_bonus);
    let boxes: Vec<i64> = game
        .hands_won
        .iter()
        .map(|&h| i64::from(h) * i64::from(m.box_bonus))
        .collect();
    let shut_out = game
        .points
        .iter()
        .enumerate()
        .all(|(s, &t)| s == winner || t == 0);
    let shutout = if shut_out {
        m.shutout_multiplier.max(1)
    } else {
        1
    };
    let totals = (0..n)
        .map(|s| {
            let total = game.points[s] + game_bonus[s] + boxes[s];
            if s == winner {
                total * i64::from(shutout)
            } else {
                total
            }
        })
        .collect();
    Some(GameBonus {
        game: index as u8,
        winner: winner as u8,
        game_bonus,
        boxes,
        shutout,
        totals,
    })
}

/// Who deals the next deal (through the `next_dealer` hook).
pub(crate) fn next_dealer(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &State,
) -> Result<Seat, HookError> {
    let dealer = state.tables.first().map_or(0, |t| t.dealer);
    let results = finished(state);
    let info = DealerInfo {
        seats: rules.seats,
        dealer,
        hand_number: state.deal_number,
        rule: rules.next_dealer,
        layout: &state.record.layout,
        results: &results,
    };
    let next = hooks.next_dealer(&info)?;
    if next >= rules.seats {
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
