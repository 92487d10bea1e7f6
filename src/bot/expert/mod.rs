//! `expert`: `strong`, with its knocks checked by playing the hand out. Whenever it may knock, it
//! guesses the opponent's hand (improved by the draws they have had) and the stock's order many
//! times over from what its seat has seen, and plays each guess to the end of the hand for each
//! choice worth weighing (`strong`'s, the knock that leaves the least deadwood, the discards that
//! leave the least), both players then drawing, discarding and going out the plain way; it plays
//! the choice that scores most on average. Two players a table without jokers or wild cards only:
//! elsewhere it plays as `strong`.

mod rollout;
mod worlds;

use std::cmp::Reverse;

use crate::cards::{Card, CardSet};
use crate::engine::{Action, ActionKind, SeatView};
use crate::melds;
use crate::ruleset::Ruleset;

use super::Decision;
use super::seen::{Options, Seen};
use super::strong;
use rollout::{Play, World};

/// Guesses of the unseen cards each choice is played out on.
const WORLDS: usize = 48;
/// Ordinary discards weighed besides `strong`'s choice and the best knock.
const OTHER_DISCARDS: usize = 2;

pub fn decide(rules: &Ruleset, view: &SeatView, first: &Action) -> Decision {
    // Guesses and playouts know two players and a deck without jokers or wild cards.
    if view.players.len() != 1 || rules.jokers > 0 || rules.melds.wilds.is_some() {
        return strong::decide(rules, view, first);
    }
    let seen = Seen::of(view);
    let base = strong::decide_defending(rules, view, first, worlds::defend(rules, view, &seen));
    match view.phase {
        "discard" => discard(rules, view, &base).unwrap_or(base),
        _ => base,
    }
}

/// One choice and its mean points over the worlds.
struct Weighed<'a> {
    action: &'a Action,
    points: f64,
}

/// After drawing, when a knock is legal: `strong`'s choice, the knock that leaves the least
/// deadwood and the discards that do, each played out.
fn discard(rules: &Ruleset, view: &SeatView, base: &Decision) -> Option<Decision> {
    if matches!(base.action.kind, ActionKind::Gin { .. }) {
        return Some(base.clone());
    }
    let options = Options::of(view);
    let seen = Seen::of(view);
    let analysis = melds::analyze_discards(&rules.melds, seen.hand);
    let after = |c: Card| {
        analysis
            .after_discard
            .iter()
            .find(|&&(d, _)| d == c)
            .map_or(u32::MAX, |&(_, dw)| dw)
    };
    let rank = |&(_, c): &(&Action, Card)| (after(c), Reverse(rules.melds.value(c)));
    let mut candidates: Vec<&Action> = Vec::new();
    let mut add = |a: &Action| {
        if let Some(found) = view.legal_actions.iter().find(|l| *l == a)
            && !candidates.contains(&found)
        {
            candidates.push(found);
        }
    };
    add(&base.action);
    let knock = options.knocks().min_by_key(rank);
    let Some((k, _)) = knock else {
        return Some(base.clone());
    };
    add(k);
    let mut discards: Vec<(&Action, Card)> = options.discards().collect();
    discards.sort_by_key(rank);
    for (a, _) in discards.iter().take(OTHER_DISCARDS) {
        add(a);
    }
    if candidates.len() < 2 {
        return Some(base.clone());
    }
    let worlds = worlds::guess(rules, view, &seen, WORLDS)?;
    // Playing on is played out knocking as soon as the limit allows, and again knocking at half
    // of it: the better of the two is what playing on is worth.
    let half = view.knock_limit.map(|l| l / 2);
    let modes: &[Option<u8>] = if std::env::var_os("EXPERT_NOHALF").is_some() { &[view.knock_limit][..] } else { &[view.knock_limit, half][..] };
    let weighed: Vec<Weighed> = candidates
        .iter()
        .map(|&action| {
            let points = modes
                .iter()
                .map(|&mine| {
                    let play = Play {
                        rules,
                        knock_limit: view.knock_limit,
                        mine,
                    };
                    let total: i64 = worlds
                        .iter()
                        .map(|w| i64::from(play_out(&play, w, seen.hand, action)))
                        .sum();
                    total as f64 / worlds.len() as f64
                })
                .take(if matches!(action.kind, ActionKind::Discard { .. }) { modes.len() } else { 1 })
                .fold(f64::NEG_INFINITY, f64::max);
            Weighed { action, points }
        })
        .collect();
    // The first (strong's choice) wins ties.
    let best = weighed.iter().fold(None::<&Weighed>, |b, w| match b {
        Some(b) if b.points >= w.points => Some(b),
        _ => Some(w),
    })?;
    if *best.action == base.action {
        return Some(base.clone());
    }
    let runner_up = weighed
        .iter()
        .filter(|w| w.action != best.action)
        .map(|w| w.points)
        .fold(f64::NEG_INFINITY, f64::max);
    let why = match &best.action.kind {
        ActionKind::Knock { discard, .. } => format!(
            "Knocked with {} deadwood, discarding {discard}: played out over {} guesses of the cards I cannot see, knocking now scores {:+.1} a hand against {runner_up:+.1} for playing on.",
            after(*discard),
            worlds.len(),
            best.points
        ),
        ActionKind::Discard { card } => format!(
            "Discarded {card}: played out over {} guesses of the cards I cannot see, it scores {:+.1} a hand, the best of my choices (next {runner_up:+.1}).",
            worlds.len(),
            best.points
        ),
        _ => return Some(base.clone()),
    };
    Some(Decision {
        action: best.action.clone(),
        why,
    })
}

/// The seat's points in world `w` after `action` from the eleven cards `hand`.
fn play_out(play: &Play, w: &World, hand: CardSet, action: &Action) -> i32 {
    match &action.kind {
        ActionKind::Knock { discard, .. } => play.score(hand.without(*discard), false, w.theirs),
        ActionKind::Discard { card } => play.finish(World {
            mine: hand.without(*card),
            top: Some(*card),
            ..w.clone()
        }),
        _ => 0,
    }
}
