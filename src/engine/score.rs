//! Scoring a hand, recording a deal into the match, the end of the match and the next dealer.

use crate::melds::{Arrangement, LayOff};
use crate::ruleset::{NextDealer, Ruleset, Seat, Target};

use super::event::Event;
use super::state::{Bonuses, HandResult, Knock, Outcome, Phase, State, Table};
use super::step::show;

/// Scores a hand that went out. `knocker` is the knocker's role at the table.
pub(crate) fn hand_result(
    rules: &Ruleset,
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
pub(crate) fn dead_result(rules: &Ruleset, table_index: u8) -> HandResult {
    let seats = usize::from(rules.seats);
    HandResult {
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

fn results(state: &State) -> impl Iterator<Item = &HandResult> {
    state.tables.iter().filter_map(|t| match &t.phase {
        Phase::Over { result } => Some(result.as_ref()),
        _ => None,
    })
}

/// Once every table of the deal is over: adds the hands to the match and ends it if it is won.
pub(crate) fn record_deal(rules: &Ruleset, state: &mut State, events: &mut Vec<Event>) {
    let mut all_dead = true;
    let finished: Vec<HandResult> = results(state).cloned().collect();
    for result in &finished {
        for (total, p) in state.scores.totals.iter_mut().zip(&result.points) {
            *total += p;
        }
        if let Some(w) = result.winner {
            all_dead = false;
            if let Some(won) = state.scores.hands_won.get_mut(usize::from(w)) {
                *won += 1;
            }
        }
    }
    let winners = match state.target {
        Target::SingleHand => Some(match finished.iter().find_map(|r| r.winner) {
            Some(w) if !all_dead => vec![w],
            _ => Vec::new(),
        }),
        Target::Points(target) => {
            let best = state.scores.totals.iter().copied().max().unwrap_or(0);
            let leaders: Vec<Seat> = (0..state.scores.totals.len() as Seat)
                .filter(|&s| state.scores.totals[usize::from(s)] == best)
                .collect();
            (best >= i64::from(target) && leaders.len() == 1).then_some(leaders)
        }
    };
    if let Some(winners) = winners {
        if let [w] = winners[..] {
            state.scores.bonuses = classic_bonuses(rules, state, w);
        }
        events.push(Event::MatchOver {
            winners: winners.clone(),
            totals: state.scores.totals.clone(),
        });
        state.winners = Some(winners);
    }
}

/// Game, box and shutout bonuses at the end of a game, when the ruleset awards any.
fn classic_bonuses(rules: &Ruleset, state: &State, winner: Seat) -> Option<Bonuses> {
    let m = &rules.match_rules;
    if m.game_bonus == 0 && m.box_bonus == 0 && m.shutout_multiplier <= 1 {
        return None;
    }
    let n = state.scores.totals.len();
    let w = usize::from(winner);
    let mut game = vec![0i64; n];
    game[w] = i64::from(m.game_bonus);
    let boxes: Vec<i64> = state
        .scores
        .hands_won
        .iter()
        .map(|&h| i64::from(h) * i64::from(m.box_bonus))
        .collect();
    let shut_out = state
        .scores
        .totals
        .iter()
        .enumerate()
        .all(|(s, &t)| s == w || t == 0);
    let shutout = if shut_out {
        m.shutout_multiplier.max(1)
    } else {
        1
    };
    let final_totals = (0..n)
        .map(|s| {
            let total = state.scores.totals[s] + game[s] + boxes.get(s).copied().unwrap_or(0);
            if s == w {
                total * i64::from(shutout)
            } else {
                total
            }
        })
        .collect();
    Some(Bonuses {
        game,
        boxes,
        shutout,
        final_totals,
    })
}

/// Who deals the next hand: the same dealer after a dead hand, else as the ruleset says.
pub(crate) fn next_dealer(rules: &Ruleset, state: &State) -> Seat {
    let Some(table) = state.tables.first() else {
        return 0;
    };
    let dealer = table.dealer;
    let winner = results(state).next().and_then(|r| r.winner);
    let Some(winner) = winner else {
        return dealer;
    };
    let seats = rules.seats.max(1);
    let loser = table
        .seats
        .iter()
        .copied()
        .find(|&s| s != winner)
        .unwrap_or(dealer);
    match rules.next_dealer {
        NextDealer::Loser => loser,
        NextDealer::Winner => winner,
        NextDealer::Alternate => table
            .seats
            .iter()
            .copied()
            .find(|&s| s != dealer)
            .unwrap_or(dealer),
        NextDealer::NextInTurn => (dealer + 1) % seats,
    }
}
