//! A hand played to its end on card sets alone, from a guess of the cards a seat cannot see: both
//! players take the top discard when it lowers their deadwood, discard the card that leaves the
//! least (the costliest on a tie), and go out as soon as they may. Points come out from the
//! seat's side (what it scores, minus what the opponent scores).

use std::cmp::Reverse;

use crate::cards::{Card, CardSet};
use crate::melds;
use crate::ruleset::{Ruleset, StockEnd, Tie};

/// A guess of everything the seat cannot see, and whose turn it is.
#[derive(Clone, Debug)]
pub struct World {
    /// The seat's cards (ten, after its discard).
    pub mine: CardSet,
    /// The opponent's cards, as guessed (ten).
    pub theirs: CardSet,
    /// The stock in guessed order: the next card drawn is the last.
    pub stock: Vec<Card>,
    /// The discard pile's top card.
    pub top: Option<Card>,
}

/// The rules a rollout plays by, read from the ruleset and the hand's view.
#[derive(Clone, Copy)]
pub struct Play<'a> {
    pub rules: &'a Ruleset,
    /// The most deadwood a knock may leave this hand (`None`: only gin goes out).
    pub knock_limit: Option<u8>,
    /// The most deadwood the seat knocks with in the playout (at most `knock_limit`): lower, it
    /// plays on for a lower count, as an opponent who knocks early may be undercut.
    pub mine: Option<u8>,
}

/// How a player's turn ends.
enum Turn {
    /// Went out with these ten cards kept (deadwood 0 is gin; `big` when all eleven melded).
    Out { kept: CardSet, big: bool },
    /// Discarded and play passes.
    Discarded,
    /// The hand is dead: the stock reached its reserve.
    Dead,
}

impl Play<'_> {
    /// Plays `w` to the end of the hand, the opponent drawing first; the seat's points.
    pub fn finish(&self, mut w: World) -> i32 {
        // Every turn draws a card, so a hand ends within the stock's length (a reshuffle is
        // counted as the end of the hand: its value is unknown, so zero).
        let mut mine_to_play = false;
        loop {
            let (hand, other) = if mine_to_play {
                (&mut w.mine, w.theirs)
            } else {
                (&mut w.theirs, w.mine)
            };
            let limit = if mine_to_play {
                self.mine
            } else {
                self.knock_limit
            };
            match self.turn(hand, &mut w.stock, &mut w.top, limit) {
                Turn::Dead => return 0,
                Turn::Discarded => mine_to_play = !mine_to_play,
                Turn::Out { kept, big } => {
                    let points = self.score(kept, big, other);
                    return if mine_to_play { points } else { -points };
                }
            }
        }
    }

    /// One turn of a player holding `hand` (ten cards).
    fn turn(
        &self,
        hand: &mut CardSet,
        stock: &mut Vec<Card>,
        top: &mut Option<Card>,
        limit: Option<u8>,
    ) -> Turn {
        let reserve = usize::from(self.rules.stock_reserve);
        let at_wall = stock.len() <= reserve;
        let now = melds::least_deadwood(&self.rules.melds, *hand);
        if let Some(card) = *top {
            let eleven = hand.with(card);
            let a = melds::analyze_discards(&self.rules.melds, eleven);
            let pick = self.pick(&a, Some(card));
            let goes_out = pick.is_some_and(|(_, dw)| self.may_go_out(dw, self.knock_limit));
            let wanted = pick.is_some_and(|(_, dw)| dw < now);
            let may_take = if at_wall {
                self.rules.stock_end == StockEnd::LastDiscardToGoOut && goes_out
            } else {
                wanted
            };
            if may_take && let Some((d, dw)) = pick {
                *top = None;
                let left = (stock.len(), reserve);
                return self.after_draw(hand, eleven, &a, (d, dw), top, left, limit);
            }
        }
        if at_wall {
            return Turn::Dead;
        }
        let Some(card) = stock.pop() else {
            return Turn::Dead;
        };
        let eleven = hand.with(card);
        let a = melds::analyze_discards(&self.rules.melds, eleven);
        let Some((d, dw)) = self.pick(&a, None) else {
            return Turn::Dead;
        };
        self.after_draw(hand, eleven, &a, (d, dw), top, (stock.len(), reserve), limit)
    }

    #[allow(clippy::too_many_arguments)]
    fn after_draw(
        &self,
        hand: &mut CardSet,
        eleven: CardSet,
        a: &melds::DiscardAnalysis,
        (d, dw): (Card, u32),
        top: &mut Option<Card>,
        (stock_left, reserve): (usize, usize),
        limit: Option<u8>,
    ) -> Turn {
        if a.big_gin && self.rules.big_gin_bonus.is_some() {
            return Turn::Out {
                kept: eleven,
                big: true,
            };
        }
        if self.may_go_out(dw, limit) {
            return Turn::Out {
                kept: eleven.without(d),
                big: false,
            };
        }
        *hand = eleven.without(d);
        *top = Some(d);
        if stock_left <= reserve && self.rules.stock_end == StockEnd::DeadHand {
            return Turn::Dead;
        }
        Turn::Discarded
    }

    fn may_go_out(&self, deadwood: u32, limit: Option<u8>) -> bool {
        deadwood == 0 || limit.is_some_and(|l| deadwood <= u32::from(l))
    }

    /// The discard that leaves the least deadwood (the costliest card on a tie), never `taken`
    /// when the rules forbid discarding the card just taken.
    fn pick(&self, a: &melds::DiscardAnalysis, taken: Option<Card>) -> Option<(Card, u32)> {
        a.after_discard
            .iter()
            .copied()
            .filter(|&(c, _)| self.rules.discard_taken_card || Some(c) != taken)
            .min_by_key(|&(c, dw)| (dw, Reverse(self.rules.melds.value(c))))
    }

    /// The knocker's points (negative when undercut) going out with `kept` against `defender`.
    pub fn score(&self, kept: CardSet, big: bool, defender: CardSet) -> i32 {
        let rules = self.rules;
        let mine = melds::best_arrangement(&rules.melds, kept);
        let k = mine.deadwood;
        let lays_off = rules.lay_offs && (k > 0 || rules.lay_off_after_gin);
        let after = if lays_off {
            melds::best_lay_off(&rules.melds, &mine.melds, defender)
                .own
                .deadwood
        } else {
            melds::least_deadwood(&rules.melds, defender)
        };
        let points = |p: u32| i32::try_from(p).unwrap_or(i32::MAX / 4);
        if big {
            points(after + rules.big_gin_bonus.unwrap_or(rules.gin_bonus))
        } else if k == 0 {
            points(after + rules.gin_bonus)
        } else if after < k || (after == k && rules.tie == Tie::Undercut) {
            -points(k - after + rules.undercut_bonus)
        } else {
            points(after - k)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::set;

    fn play(rules: &Ruleset) -> Play<'_> {
        Play {
            rules,
            knock_limit: Some(10),
            mine: Some(10),
        }
    }

    #[test]
    fn a_knock_scores_as_the_ruleset_says() {
        let mut rules = Ruleset::standard();
        // Three melds and 3D unmelded: deadwood 3.
        let kept = set("AS 2S 3S 4C 5C 6C 9D TD JD 3D");
        // Melds nothing; 4S lays off on the knocker's spades.
        let defender = set("4S KC KD QH 8H 7S 5H 9H 2C TC");
        let own = 4 + 10 + 10 + 10 + 8 + 7 + 5 + 9 + 2 + 10;
        assert_eq!(play(&rules).score(kept, false, defender), own - 4 - 3);
        rules.lay_offs = false;
        assert_eq!(play(&rules).score(kept, false, defender), own - 3);
        // Against less deadwood (2D), an undercut with its bonus.
        let low = set("7S 7H 7D 8C 9C TC JH QH KH 2D");
        assert_eq!(play(&rules).score(kept, false, low), -(3 - 2 + 25));
        rules.undercut_bonus = 10;
        assert_eq!(play(&rules).score(kept, false, low), -(3 - 2 + 10));
        // Gin: the defender's whole deadwood and the gin bonus.
        let gin = set("AS 2S 3S 4C 5C 6C 9D TD JD QD");
        assert_eq!(play(&rules).score(gin, false, low), 2 + 25);
    }

    #[test]
    fn a_hand_nobody_finishes_ends_dead_at_the_reserve() {
        let rules = Ruleset::standard();
        let w = World {
            mine: set("AS 3S 5S 7S 9S JS KS 2H 4H 6H"),
            theirs: set("AC 3C 5C 7C 9C JC KC 2D 4D 6D"),
            stock: set("8H TH QH").iter().collect(),
            top: None,
        };
        assert_eq!(play(&rules).finish(w), 0);
    }
}
