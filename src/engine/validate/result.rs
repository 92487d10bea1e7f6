//! A hand that is over: its result must be the one the cards at the table score.

use crate::cards::{Card, CardSet};
use crate::game_types::Outcome;
use crate::melds::{self, LayOff};
use crate::ruleset::Ruleset;

use super::super::state::{HandResult, Knock, Phase, State, Table};
use super::super::{rule, score};
use super::table::{check_going_out, check_knock_melds};

pub(super) fn check_result(
    rules: &Ruleset,
    state: &State,
    t: &Table,
    index: usize,
    at: &str,
    p: &mut Vec<String>,
) {
    let Phase::Over { result } = &t.phase else {
        return;
    };
    let seats = usize::from(rules.seats);
    if result.points.len() != seats || result.deadwood.len() != seats || result.melds.len() != seats
    {
        p.push(format!(
            "{at}the hand result lists the wrong number of seats"
        ));
        return;
    }
    if usize::from(result.table) != index {
        p.push(format!(
            "{at}the hand result is of table {}, not {index}",
            result.table
        ));
    }
    if result.game.id != state.game.id {
        p.push(format!(
            "{at}the hand result is of game {}, not {}",
            result.game.id, state.game.id
        ));
    }
    if result.game.moves > state.game.moves {
        p.push(format!(
            "{at}the hand ended at move {}, after this state's move {}",
            result.game.moves, state.game.moves
        ));
    }
    let want = match expected(rules, t, result, at, p) {
        Some(want) => want,
        None => return,
    };
    if let Some(field) = first_difference(result, &want) {
        p.push(format!(
            "{at}the hand result does not follow from the cards at the table: wrong {field}"
        ));
    }
}

/// The result the cards at the table give, with the knocker's melds and the lay-offs the
/// result names (`None` when those are not possible; the problem is then listed).
fn expected(
    rules: &Ruleset,
    t: &Table,
    result: &HandResult,
    at: &str,
    p: &mut Vec<String>,
) -> Option<HandResult> {
    let index = result.table;
    if result.outcome == Outcome::Dead {
        return Some(score::dead_result(rules, result.game, index));
    }
    let Some(winner) = result.winner else {
        p.push(format!(
            "{at}a hand with outcome {} has a winner",
            result.outcome.as_str()
        ));
        return None;
    };
    let Some(w) = t.role(winner) else {
        p.push(format!(
            "{at}the winner, seat {winner}, is not a player of this table"
        ));
        return None;
    };
    let k = if result.outcome == Outcome::Undercut {
        w.other()
    } else {
        w
    };
    let d = k.other();
    let knocker = t.seats[k];
    let shown = melds_of(&result.melds[usize::from(knocker)], at, p)?;
    let before = p.len();
    check_knock_melds(rules, &shown, t.hands[k], at, p);
    if p.len() > before {
        return None;
    }
    let melded = shown.iter().fold(CardSet::EMPTY, |a, &m| a.union(m));
    let kd = rules.melds.value_of(t.hands[k].minus(melded));
    let outcome = match result.outcome {
        Outcome::Gin | Outcome::BigGin => result.outcome,
        _ => Outcome::Knock,
    };
    check_going_out(rules, t, result.outcome, kd, at, p);
    if p.len() > before {
        return None;
    }
    let (own, laid_off) = if rule::lays_off(rules, outcome) {
        let pairs: Vec<(Card, Option<usize>)> = result
            .laid_off
            .iter()
            .map(|l| (l.card, Some(l.onto)))
            .collect();
        match melds::apply_lay_offs(&rules.melds, &shown, t.hands[d], &pairs) {
            Ok(plan) => (plan.own, plan.lay_offs),
            Err(e) => {
                p.push(format!("{at}the cards laid off could not be: {e}"));
                return None;
            }
        }
    } else {
        if !result.laid_off.is_empty() {
            p.push(format!(
                "{at}cards are laid off, but not after {} in this game",
                result.outcome.as_str()
            ));
            return None;
        }
        (
            melds::best_arrangement(&rules.melds, t.hands[d]),
            Vec::<LayOff>::new(),
        )
    };
    let knock = Knock {
        knocker,
        melds: shown,
        deadwood: kd,
        outcome,
    };
    match score::hand_result(rules, result.game, t, index, k, &knock, &own, laid_off) {
        Ok(r) => Some(r),
        Err(e) => {
            p.push(format!("{at}{e}"));
            None
        }
    }
}

/// Melds as shown (card lists) to card sets, refusing a card listed twice in one meld.
fn melds_of(shown: &[Vec<Card>], at: &str, p: &mut Vec<String>) -> Option<Vec<CardSet>> {
    let mut out = Vec::with_capacity(shown.len().min(16));
    for m in shown {
        let set: CardSet = m.iter().copied().collect();
        if set.len() as usize != m.len() {
            p.push(format!("{at}a meld of the hand result lists a card twice"));
            return None;
        }
        out.push(set);
    }
    Some(out)
}

/// The first field in which two results differ, in a player's words.
fn first_difference(got: &HandResult, want: &HandResult) -> Option<&'static str> {
    if got.outcome != want.outcome {
        Some("outcome")
    } else if got.winner != want.winner {
        Some("winner")
    } else if got.deadwood != want.deadwood {
        Some("deadwood")
    } else if got.points != want.points {
        Some("points")
    } else if got.multiplier != want.multiplier {
        Some("multiplier")
    } else if got.melds != want.melds {
        Some("melds")
    } else if got.laid_off != want.laid_off {
        Some("cards laid off")
    } else if got != want {
        Some("game and move")
    } else {
        None
    }
}
