//! The match around the tables: its layout, scores, closed games, bonuses, winners and the count
//! of moves, as the deals played so far make them.

use crate::game_types::Outcome;
use crate::hooks::{Hooks, LayoutInfo};
use crate::ruleset::{Ruleset, Seat, Target};

use super::super::score::{self, checked_totals, classic_bonuses, final_totals, leader};
use super::super::state::{MatchRecord, Phase, State};
use super::{drawn_from_stock, stock_at_deal};

/// What later checks index by: the layout the ruleset gives, one entry per game and side, the
/// target, winners and bonuses within the match.
pub(super) fn check_shape(rules: &Ruleset, hooks: &dyn Hooks, state: &State, p: &mut Vec<String>) {
    let target = state.target;
    let m = &rules.match_rules;
    if target == Target::Points(0) || !(m.targets.contains(&target) || m.default_target == target) {
        p.push(format!("this game is not played to {target}"));
    }
    if target == Target::SingleHand && state.deal_number > 0 {
        p.push(format!("a one-hand game has no deal {}", state.deal_number));
    }
    let record = &state.record;
    match hooks.match_layout(&LayoutInfo {
        seats: rules.seats,
        target,
    }) {
        Ok(layout) if layout == record.layout => {}
        Ok(_) => p.push(format!(
            "the sides or games of the match are not the ones this game plays: {}",
            sides_words(&record.layout.sides)
        )),
        Err(e) => p.push(format!("the match layout cannot be checked: {e}")),
    }
    if let Err(e) = record.layout.check(rules.seats) {
        p.push(format!("the match layout is wrong: {e}"));
        return;
    }
    if usize::from(record.layout.games) != record.games.len() {
        p.push(format!(
            "the match scores {} games, its layout {}",
            record.games.len(),
            record.layout.games
        ));
    }
    let sides = record.layout.sides.len();
    if record
        .games
        .iter()
        .any(|g| g.points.len() != sides || g.hands_won.len() != sides)
    {
        p.push(format!(
            "the scores do not list the {sides} sides of the match"
        ));
    }
    for b in &record.bonuses {
        if usize::from(b.game) >= record.games.len()
            || usize::from(b.winner) >= sides
            || [&b.game_bonus, &b.boxes, &b.totals]
                .iter()
                .any(|v| v.len() != sides)
        {
            p.push(format!(
                "a game bonus (game {}, winner side {}) does not fit the match",
                b.game, b.winner
            ));
        }
    }
    if let Some(w) = &state.winners
        && w.iter().any(|&s| s >= rules.seats)
    {
        p.push("a winner is not a seat of this game".into());
    }
}

fn sides_words(sides: &[Vec<Seat>]) -> String {
    let v: Vec<String> = sides.iter().map(|s| format!("{s:?}")).collect();
    v.join(" against ")
}

/// Scores as the deals so far make them: nothing before the first deal is scored, the first
/// deal exactly as its results score, later ones within what hands can score; games closed
/// exactly when won, their bonuses as the ruleset awards them, and winners once all are closed.
pub(super) fn check_scores(rules: &Ruleset, hooks: &dyn Hooks, state: &State, p: &mut Vec<String>) {
    let record = &state.record;
    let between = state.is_between_hands();
    let scored_deals = u64::from(state.deal_number) + u64::from(between);
    if state.winners.is_some() && !between {
        p.push("the match is said to be over while a hand is being played".into());
    }
    if scored_deals == 0 {
        if *record.as_ref() != MatchRecord::new(record.layout.clone()) {
            p.push("nothing is scored before the first hand is over".into());
        }
        return;
    }
    if state.deal_number == 0 {
        replay_first_deal(rules, hooks, state, p);
        return;
    }
    let tables = u64::from(rules.seats / 2).max(1);
    for (g, game) in record.games.iter().enumerate() {
        for (side, (&points, &won)) in game.points.iter().zip(&game.hands_won).enumerate() {
            // Every hand won scores at least a point and at most what an entry holds (a u32),
            // and a side scores only by winning.
            let most = i128::from(won) * i128::from(u32::MAX);
            if points < i64::from(won) || i128::from(points) > most {
                p.push(format!(
                    "game {g}: side {side} has {points} points from {won} hands won"
                ));
            }
            if u64::from(won) > scored_deals * tables {
                p.push(format!(
                    "game {g}: side {side} won {won} hands in {scored_deals} deals"
                ));
            }
        }
    }
    if let Err(e) = checked_totals(record) {
        p.push(e.to_string());
        return;
    }
    check_closed(rules, state, p);
}

/// The first deal, once over, is scored from nothing: the record and the winners must be what
/// entering its results gives.
fn replay_first_deal(rules: &Ruleset, hooks: &dyn Hooks, state: &State, p: &mut Vec<String>) {
    let results = score::table_results(&state.tables);
    let fresh = MatchRecord::new(state.record.layout.clone());
    match score::enter_deal(rules, hooks, &fresh, state.target, 0, &results) {
        Ok(done) => {
            if done.record.games != state.record.games {
                p.push("the scores are not what the first hand's results score".into());
            }
            if done.record.bonuses != state.record.bonuses {
                p.push("the game bonuses are not what the first hand's results award".into());
            }
            if done.over.map(|(w, _)| w) != state.winners {
                p.push("the winners are not who the first hand's results make them".into());
            }
        }
        Err(e) => p.push(format!("the first hand's results cannot be scored: {e}")),
    }
}

/// A game is closed exactly when a side leads it alone at the target; each closed game has the
/// bonuses the ruleset awards; the match is over exactly when every game is closed.
fn check_closed(rules: &Ruleset, state: &State, p: &mut Vec<String>) {
    let record = &state.record;
    let mut bonuses = Vec::new();
    for (g, game) in record.games.iter().enumerate() {
        let won = match (state.target, leader(&game.points)) {
            (Target::SingleHand, _) => true,
            (Target::Points(t), Some((_, best))) => best >= i64::from(t),
            (Target::Points(_), None) => false,
        };
        if won != game.closed {
            p.push(if game.closed {
                format!("game {g} is closed, but no side has won it")
            } else {
                format!("game {g} is won, but not closed")
            });
            continue;
        }
        if let (true, Some((side, _))) = (game.closed, leader(&game.points)) {
            match classic_bonuses(rules, game, g, side) {
                Ok(Some(b)) => bonuses.push(b),
                Ok(None) => {}
                Err(e) => p.push(e.to_string()),
            }
        }
    }
    let mut listed = record.bonuses.clone();
    listed.sort_by_key(|b| b.game);
    if listed != bonuses {
        p.push("the game bonuses are not the ones the closed games award".into());
        return;
    }
    let all_closed = record.games.iter().all(|g| g.closed);
    match (&state.winners, all_closed) {
        (None, false) => {}
        (None, true) => p.push("every game is closed, but the match is not over".into()),
        (Some(_), false) => p.push("the match is said to be over, but a game is open".into()),
        (Some(w), true) => match final_totals(record) {
            Ok(finals) => {
                let all_dead = state.tables.iter().all(|t| {
                    matches!(&t.phase, Phase::Over { result } if result.outcome == Outcome::Dead)
                });
                let want: Vec<Seat> = match leader(&finals) {
                    Some((side, _)) if !(state.target == Target::SingleHand && all_dead) => {
                        let mut seats = record.layout.sides[side].clone();
                        seats.sort_unstable();
                        seats
                    }
                    _ => Vec::new(),
                };
                if *w != want {
                    p.push(format!(
                        "the winners are {want:?} by the final totals, not {w:?}"
                    ));
                }
            }
            Err(e) => p.push(e.to_string()),
        },
    }
}

/// Moves count every action accepted: each deal before this one took at least three (two at a
/// table to go out, one to deal the next), and this one at least one per card drawn from the
/// stock. A hand that is over ended at a move of this game, the last of them at this move.
pub(super) fn check_moves(rules: &Ruleset, state: &State, p: &mut Vec<String>) {
    let mut least = 3 * u64::from(state.deal_number);
    let mut last_end = None;
    for t in &state.tables {
        // Each reshuffle comes after the stock was drawn down to its reserve.
        let per_stock =
            (stock_at_deal(rules) as u64).saturating_sub(u64::from(rules.stock_reserve));
        let drawn = drawn_from_stock(rules, t).unwrap_or(0) as u64
            + u64::from(t.reshuffles).saturating_mul(per_stock);
        let over = match &t.phase {
            Phase::Over { result } => {
                last_end = last_end.max(Some(result.game.moves));
                2
            }
            _ => 0,
        };
        least += drawn.max(over);
    }
    let moves = state.game.moves;
    if u64::from(moves) < least.min(u64::from(u32::MAX)) {
        p.push(format!(
            "move {moves} is too early for deal {} as it stands (at least {least} moves)",
            state.deal_number
        ));
    }
    if state.is_between_hands() && last_end != Some(moves) {
        p.push(format!(
            "the last hand ended at move {}, but this state is at move {moves}",
            last_end.map_or("none".into(), |m| m.to_string())
        ));
    }
}
