//! Guesses of the cards a seat cannot see: the opponent's hand (the cards they took from the
//! pile, the rest drawn from the unseen cards and improved by the draws they have had, as
//! `strong` guesses it) and the stock's order (the other unseen cards, shuffled). Drawn from the
//! seat's view alone, so the same view always gets the same guesses.

use crate::cards::Card;
use crate::engine::SeatView;
use crate::ruleset::Ruleset;

use super::super::seen::{Seen, splitmix};
use super::super::strong::{Odds, guesses};
use super::rollout::World;

/// `n` guesses, or `None` when the unseen cards cannot fill the opponent's hand and the stock.
pub fn guess(rules: &Ruleset, view: &SeatView, seen: &Seen, n: usize) -> Option<Vec<World>> {
    let odds = Odds::new(&rules.melds, seen, view.knock_limit);
    let mut roll = seen.fingerprint(view);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        roll = splitmix(roll);
        let hands = guesses(rules, &odds, seen, roll);
        if hands.is_empty() {
            return None;
        }
        for theirs in hands.into_iter().take(n - out.len()) {
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
