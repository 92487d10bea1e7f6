//! Playing the rest of a hand out, many times over: each world deals the opponent one guess of its
//! hand and the stock one order of the other unseen cards, and both sides then play plainly (take
//! the top card when it melds or lets them out, discard the highest unmelded card, go out as soon
//! as they may) until one goes out or the stock runs down. Every choice is played in the same
//! worlds, so their difference is not the luck of the draw.

use crate::cards::{Card, CardSet};
use crate::melds;
use crate::ruleset::{Ruleset, StockEnd};

use super::super::seen::shuffle_front;
use super::settle::{lays_off, settle};

/// One deal of what the seat has not seen.
pub struct World {
    pub opponent: CardSet,
    /// The stock, next card first.
    pub stock: Vec<Card>,
}

/// `count` worlds: the opponent holds one of `hands` (in turn), the stock is `stock` cards drawn
/// from the rest of `unseen`.
pub fn worlds(
    hands: &[CardSet],
    unseen: &[Card],
    stock: usize,
    count: usize,
    seed: u64,
) -> Vec<World> {
    let mut roll = seed;
    let mut out = Vec::with_capacity(count);
    if hands.is_empty() {
        return out;
    }
    for i in 0..count {
        let opponent = hands[i % hands.len()];
        let mut rest: Vec<Card> = unseen
            .iter()
            .copied()
            .filter(|&c| !opponent.contains(c))
            .collect();
        shuffle_front(&mut rest, stock, &mut roll);
        rest.truncate(stock);
        out.push(World {
            opponent,
            stock: rest,
        });
    }
    out
}

/// The seat's points (negative when it loses) when it keeps the ten cards `mine`, has just
/// discarded `discard`, and the hand is played out in `world`.
pub fn play_out(
    rules: &Ruleset,
    limit: Option<u8>,
    world: &World,
    mine: CardSet,
    discard: Card,
) -> f64 {
    Table {
        rules,
        limit: u32::from(limit.unwrap_or(0)),
        world,
        hands: [world.opponent, mine],
        top: discard,
        next: 0,
    }
    .play(0)
}

/// A hand being played out: both hands, the top of the pile and the next card of the stock.
struct Table<'a> {
    rules: &'a Ruleset,
    limit: u32,
    world: &'a World,
    /// The opponent's, then the seat's.
    hands: [CardSet; 2],
    top: Card,
    next: usize,
}

impl Table<'_> {
    /// Turns from `who`'s (0: the opponent, 1: the seat) to the end of the hand: the seat's
    /// points.
    fn play(&mut self, mut who: usize) -> f64 {
        let rules = self.rules;
        // Bounded: a stock that is never used up would otherwise let a rollout run on.
        for _ in 0..60 {
            let left = self.world.stock.len().saturating_sub(self.next);
            let hand = self.hands[who];
            let with_top = hand.with(self.top);
            let best = melds::best_arrangement(&rules.melds, with_top);
            let out_with_top = goes_out(rules, self.limit, &best, Some(self.top));
            let (eleven, taken, best) = if left <= usize::from(rules.stock_reserve) {
                if rules.stock_end != StockEnd::LastDiscardToGoOut || out_with_top.is_none() {
                    return 0.0;
                }
                (with_top, Some(self.top), best)
            } else if out_with_top.is_some() || !best.unmelded.contains(self.top) {
                (with_top, Some(self.top), best)
            } else {
                let Some(&drawn) = self.world.stock.get(self.next) else {
                    return 0.0;
                };
                self.next += 1;
                let eleven = hand.with(drawn);
                (eleven, None, melds::best_arrangement(&rules.melds, eleven))
            };
            if let Some(points) = self.turn(who, eleven, &best, taken) {
                return points;
            }
            who = 1 - who;
        }
        0.0
    }

    /// `who` holds `eleven` cards so arranged, having taken `taken` from the pile: it discards
    /// plainly, and goes out when it may. The seat's points when the hand ends there.
    fn turn(
        &mut self,
        who: usize,
        eleven: CardSet,
        best: &melds::Arrangement,
        taken: Option<Card>,
    ) -> Option<f64> {
        let rules = self.rules;
        let forbidden = taken.filter(|_| !rules.discard_taken_card);
        let (d, x) = match plain_discard(rules, best, forbidden) {
            Some(p) => p,
            None => {
                // Every unmelded card is the one just taken: discard what leaves the least.
                let a = melds::analyze_discards(&rules.melds, eleven);
                let least = a
                    .after_discard
                    .iter()
                    .filter(|&&(c, _)| Some(c) != forbidden)
                    .min_by_key(|&&(c, dw)| (dw, std::cmp::Reverse(rules.melds.value(c))));
                match least {
                    Some(&p) => p,
                    None => return Some(0.0),
                }
            }
        };
        let kept = eleven.without(d);
        if x <= self.limit {
            let theirs = self.hands[1 - who];
            let melds = melds::best_arrangement(&rules.melds, kept).melds;
            let after = if lays_off(rules, x) {
                melds::best_lay_off(&rules.melds, &melds, theirs)
                    .own
                    .deadwood
            } else {
                melds::least_deadwood(&rules.melds, theirs)
            };
            let points = settle(rules, x, after).0;
            return Some(if who == 1 { points } else { -points });
        }
        self.hands[who] = kept;
        self.top = d;
        None
    }
}

/// The plain discard from eleven cards so arranged: the highest unmelded card but `forbidden`,
/// and the deadwood that leaves.
fn plain_discard(
    rules: &Ruleset,
    best: &melds::Arrangement,
    forbidden: Option<Card>,
) -> Option<(Card, u32)> {
    let m = &rules.melds;
    let d = best
        .unmelded
        .iter()
        .filter(|&c| Some(c) != forbidden)
        .max_by_key(|&c| (m.value(c), c.rank().index()))?;
    Some((d, best.deadwood - m.value(d)))
}

/// Whether eleven cards so arranged go out by the plain discard.
fn goes_out(
    rules: &Ruleset,
    limit: u32,
    best: &melds::Arrangement,
    forbidden: Option<Card>,
) -> Option<u32> {
    if best.unmelded.is_empty() {
        return Some(0);
    }
    let forbidden = forbidden.filter(|_| !rules.discard_taken_card);
    plain_discard(rules, best, forbidden)
        .map(|(_, x)| x)
        .filter(|&x| x <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::set;

    fn card(s: &str) -> Card {
        match s.parse() {
            Ok(c) => c,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn worlds_deal_the_rest_of_the_unseen_cards_to_the_stock_the_same_way_for_a_seed() {
        let unseen: Vec<Card> = set("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH 2H")
            .iter()
            .collect();
        let hands = [set("AS 2S 3S"), set("KS QS JS")];
        let worlds = worlds(&hands, &unseen, 12, 5, 7);
        assert_eq!(worlds.len(), 5);
        for (i, w) in worlds.iter().enumerate() {
            assert_eq!(w.opponent, hands[i % 2]);
            assert_eq!(w.stock.len(), 12);
            let stock: CardSet = w.stock.iter().copied().collect();
            assert_eq!(stock.len(), 12, "a card dealt twice");
            assert!(stock.intersect(w.opponent).is_empty());
            assert!(w.stock.iter().all(|c| unseen.contains(c)));
        }
        let again = super::worlds(&hands, &unseen, 12, 5, 7);
        assert!(worlds.iter().zip(&again).all(|(a, b)| a.stock == b.stock));
        let other = super::worlds(&hands, &unseen, 12, 5, 8);
        assert!(worlds.iter().zip(&other).any(|(a, b)| a.stock != b.stock));
        assert!(super::worlds(&[], &unseen, 12, 5, 7).is_empty());
    }

    /// What the seat scores in Standard holding `mine`, having discarded `discard`, against
    /// `opponent` with the stock `stock` (next card first).
    fn points(opponent: &str, stock: &str, mine: &str, discard: &str) -> f64 {
        let world = World {
            opponent: set(opponent),
            stock: stock.split_whitespace().map(card).collect(),
        };
        play_out(
            &Ruleset::standard(),
            Some(10),
            &world,
            set(mine),
            card(discard),
        )
    }

    #[test]
    fn an_opponent_who_goes_gin_on_the_discard_scores_the_seats_count_and_the_bonus() {
        // They take TH for a run, discard KD and hold gin: 73 deadwood and 25 for gin.
        let mine = "KS KH QC JD 9C 8D 6S 5H 3D 2C";
        let theirs = "AS 2S 3S 4C 5C 6C 7H 8H 9H KD";
        assert_eq!(points(theirs, "2D 4D 6D 8C", mine, "TH"), -98.0);
    }

    #[test]
    fn a_hand_that_reaches_the_reserve_with_nobody_out_is_worth_nothing() {
        let mine = "AS 2S 3S 4C 5C 6C 7H 8H 9H KD";
        assert_eq!(
            points("KC QD JS 9S 7D 5S 3C AH 2H 4H", "2D 4D", mine, "TC"),
            0.0
        );
    }

    #[test]
    fn the_seat_that_knocks_first_scores_the_difference_after_lay_offs() {
        // The opponent leaves KH, draws 2D and discards KC; the seat takes KC, since it lets it
        // knock at once (discarding AD, 10 left). The opponent lays 3C off and counts 50.
        let mine = "AS 2S 3S 4C 5C 6C 7H 8H 9H AD";
        let theirs = "KC QD JS 9S 7D 5S 3C AH 2H 4H";
        assert_eq!(points(theirs, "2D JC 6D 8D 9D", mine, "KH"), 40.0);
    }
}
