//! Guesses of the cards a seat cannot see: the opponent's hand (the cards they took from the
//! pile, the rest drawn from the unseen cards and improved by the draws they have had, as
//! `strong` guesses it) and the stock's order (the other unseen cards, shuffled). Drawn from the
//! seat's view alone, so the same view always gets the same guesses.
//!
//! An opponent who has discarded since the deal did not go out, so a guess that could have is
//! unlikely: such guesses are drawn again (most players knock as soon as they may; one who plays
//! on for gin is then thought weaker than it is).

use crate::cards::Card;
use crate::engine::SeatView;
use crate::melds;
use crate::ruleset::Ruleset;

use super::super::seen::{Seen, splitmix};
use super::super::strong::{Odds, guesses};

/// The share of a kept hand's value given to its deadwood now: it grows with the draws the
/// opponent has had, as their chance of going out before this seat draws again does.
pub fn defend(rules: &Ruleset, view: &SeatView, seen: &Seen) -> f64 {
    let weight: f64 = std::env::var("EXPERT_DEFEND").ok().and_then(|v| v.parse().ok()).unwrap_or(1.0);
    let full: f64 = std::env::var("EXPERT_FULL").ok().and_then(|v| v.parse().ok()).unwrap_or(10.0);
    if view.knock_limit.is_none() {
        return 0.0;
    }
    let draws = seen.first_stock(rules).saturating_sub(seen.stock) / seen.players.max(1);
    weight * (draws as f64 / full).min(1.0)
}
use super::rollout::World;

/// Rounds of `strong`'s guesses drawn at most for one set of worlds: guesses that could have
/// gone out are dropped, and when too few are left the rest are kept as drawn.
const MOST_ROUNDS: usize = 8;

/// `n` guesses, or `None` when the unseen cards cannot fill the opponent's hand and the stock.
pub fn guess(rules: &Ruleset, view: &SeatView, seen: &Seen, n: usize) -> Option<Vec<World>> {
    let odds = Odds::new(&rules.melds, seen, view.knock_limit);
    let mut roll = seen.fingerprint(view);
    let could_not_go_out = could_not_go_out(rules, view, seen);
    let mut out = Vec::with_capacity(n);
    let mut rounds = 0;
    while out.len() < n {
        roll = splitmix(roll);
        rounds += 1;
        let hands = guesses(rules, &odds, seen, roll);
        if hands.is_empty() {
            return None;
        }
        let strict = rounds <= MOST_ROUNDS;
        for theirs in hands
            .into_iter()
            .filter(|&h| !strict || could_not_go_out(h))
        {
            if out.len() == n {
                break;
            }
            let mut stock: Vec<Card> = seen.unseen.minus(theirs).iter().collect();
            if stock.len() < seen.stock {
                return None;
            }
            // A fresh shuffle of the stock for each guess (Fisher-Yates).
            for i in (1..stock.len()).rev() {
                roll = splitmix(roll);
                stock.swap(i, (roll % (i as u64 + 1)) as usize);
            }
            stock.truncate(seen.stock);
            out.push(World {
                mine: seen.hand,
                theirs,
                stock,
                top: seen.top,
            });
        }
    }
    Some(out)
}

/// Whether a guess of the opponent's hand is one they could have held without going out: once
/// they have discarded since the deal, a hand within the knock limit (or gin) is not.
fn could_not_go_out<'a>(
    rules: &'a Ruleset,
    view: &SeatView,
    seen: &Seen,
) -> impl Fn(crate::cards::CardSet) -> bool + 'a {
    // Cards drawn from the stock since the deal: two or more and the opponent has had a turn.
    let drawn = seen.first_stock(rules).saturating_sub(seen.stock);
    let limit = if drawn >= 2 {
        Some(view.knock_limit.map_or(0, u32::from))
    } else {
        None
    };
    let limit = if std::env::var_os("EXPERT_OFF").is_some() { None } else { limit };
    move |hand| limit.is_none_or(|l| melds::least_deadwood(&rules.melds, hand) > l)
}
