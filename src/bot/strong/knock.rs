//! What knocking now is worth: the opponent's hand is guessed many times from the cards the seat
//! has not seen (plus those the opponent is known to hold), each guess improved by the draws the
//! opponent has had to keep good cards, then laid off against the knocker's melds.

use crate::cards::{Card, CardSet};
use crate::melds;
use crate::ruleset::Ruleset;

use super::super::seen::{Seen, shuffle_front};
use super::odds::Odds;
use super::settle::{lays_off, settle};

/// Guesses of the opponent's hand per estimate.
const GUESSES: usize = 24;
/// At most this many improving draws per guess.
const MOST_DRAWS: u32 = 4;

/// The knock estimate for one hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnockOdds {
    /// Points the knocker can expect (negative when undercuts dominate).
    pub value: f64,
    /// Chance of being undercut.
    pub undercut: f64,
    /// The opponent's expected deadwood before any lay-off (what gin would score).
    pub opponent_deadwood: f64,
}

/// Guesses of the opponent's hand, each as many cards as they hold.
pub fn guesses(rules: &Ruleset, odds: &Odds, seen: &Seen, seed: u64) -> Vec<CardSet> {
    let hidden = seen.opponent_hidden as usize;
    let pool = &odds.unseen;
    if pool.len() < hidden {
        return Vec::new();
    }
    let first_stock = seen.first_stock(rules);
    let draws = (first_stock.saturating_sub(seen.stock) / seen.players.max(1)) as u32;
    let improve = draws.min(MOST_DRAWS) as usize;
    let mut roll = seed;
    let mut out = Vec::with_capacity(GUESSES);
    let mut order: Vec<Card> = pool.clone();
    for _ in 0..GUESSES {
        // A fresh partial shuffle: the first `hidden + improve` cards are the guess and its draws.
        let take = (hidden + improve).min(order.len());
        shuffle_front(&mut order, take, &mut roll);
        let mut hand: CardSet = seen.opponent_known;
        for &c in &order[..hidden] {
            hand.insert(c);
        }
        for &c in &order[hidden..take] {
            let a = melds::analyze_discards(&rules.melds, hand.with(c));
            let worst = a
                .after_discard
                .iter()
                .filter(|&&(d, _)| !seen.opponent_known.contains(d) || d == c)
                .min_by_key(|&&(d, dw)| (dw, std::cmp::Reverse(rules.melds.value(d))))
                .map_or(c, |&(d, _)| d);
            hand = hand.with(c).without(worst);
        }
        out.push(hand);
    }
    out
}

/// What knocking with the ten cards `kept` is worth against the guessed opponent hands.
pub fn knock_odds(rules: &Ruleset, kept: CardSet, opponents: &[CardSet]) -> KnockOdds {
    let mine = melds::best_arrangement(&rules.melds, kept);
    let k = mine.deadwood;
    if opponents.is_empty() {
        return KnockOdds {
            value: 0.0,
            undercut: 0.5,
            opponent_deadwood: f64::from(k),
        };
    }
    let (mut value, mut undercuts, mut deadwood) = (0.0, 0usize, 0.0);
    for &opp in opponents {
        let own = melds::least_deadwood(&rules.melds, opp);
        deadwood += f64::from(own);
        let after = if lays_off(rules, k) {
            melds::best_lay_off(&rules.melds, &mine.melds, opp)
                .own
                .deadwood
        } else {
            own
        };
        let (points, undercut) = settle(rules, k, after);
        value += points;
        undercuts += usize::from(undercut);
    }
    let n = opponents.len() as f64;
    KnockOdds {
        value: value / n,
        undercut: undercuts as f64 / n,
        opponent_deadwood: deadwood / n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::set;

    #[test]
    fn a_gin_is_worth_what_the_ruleset_lets_the_defender_lay_off() {
        let mut rules = Ruleset::standard();
        let gin = set("AS 2S 3S 4C 5C 6C 7H 8H 9H TH");
        // The defender melds nothing; 4S and JH lay off on the gin's melds when the rules allow.
        let defender = set("4S JH KC KD QS 9D 2D 3H 4D 6D");
        let no_lay_off = knock_odds(&rules, gin, &[defender]).value;
        rules.lay_off_after_gin = true;
        let lay_off = knock_odds(&rules, gin, &[defender]).value;
        assert_eq!((no_lay_off, lay_off), (68.0 + 25.0, 54.0 + 25.0));
        rules.gin_bonus = 40;
        assert_eq!(knock_odds(&rules, gin, &[defender]).value, lay_off + 15.0);
    }
}
