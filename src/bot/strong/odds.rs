//! How good a hand is and how risky a discard is, from the cards a seat has seen.

use crate::cards::{Card, CardSet, Rank, Suit};
use crate::melds;
use crate::ruleset::MeldRules;

use super::super::seen::Seen;
use super::Tuning;

/// Knock limits below this count as "only gin goes out" for valuing hands.
const LOW_LIMIT: u8 = 5;

/// The values the strong bot needs, for one view.
pub struct Odds<'a> {
    pub rules: &'a MeldRules,
    /// The rules hands are valued by: the real card values, or per card when only gin counts.
    pub eval: MeldRules,
    /// How much larger `eval`'s values are than the real ones, on average.
    pub scale: f64,
    /// Cards whose place the seat does not know: each is as likely as any other to come next
    /// off the stock.
    pub unseen: Vec<Card>,
    /// Chance that an unseen card is in the opponent's hand.
    pub in_opponent_hand: f64,
    pub opponent_known: CardSet,
    /// Cards nobody can meld with any more: the seat's own, the pile below its top, shown melds.
    pub out_of_play: CardSet,
    /// The danger of these cards as read from the opponent's last discard, by card bit.
    pub read: Option<(CardSet, [f64; 64])>,
}

impl<'a> Odds<'a> {
    pub fn new(
        rules: &'a MeldRules,
        seen: &Seen,
        knock_limit: Option<u8>,
        tuning: &Tuning,
    ) -> Odds<'a> {
        let mut eval = rules.clone();
        let per_card = if knock_limit.is_none_or(|l| l < LOW_LIMIT) {
            tuning.per_card_gin
        } else {
            tuning.per_card_knock
        };
        for v in &mut eval.values {
            *v = v.saturating_add(per_card);
        }
        let total = |r: &MeldRules| r.values.iter().map(|&v| f64::from(v)).sum::<f64>();
        let scale = total(&eval) / total(rules).max(1.0);
        let unseen = seen.unseen.to_vec();
        let in_opponent_hand = if unseen.is_empty() {
            0.0
        } else {
            (f64::from(seen.opponent_hidden) / unseen.len() as f64).min(1.0)
        };
        Odds {
            rules,
            eval,
            scale,
            unseen,
            in_opponent_hand,
            opponent_known: seen.opponent_known,
            out_of_play: seen.hand.union(seen.pile).union(seen.shown),
            read: None,
        }
    }

    /// Least deadwood after drawing `card` into the ten cards `hand` and discarding the best card.
    /// (In `eval` values.)
    pub fn after_draw(&self, hand: CardSet, card: Card) -> u32 {
        melds::best_after_discard(&self.eval, hand.with(card))
    }

    /// The deadwood `hand` (ten cards) can expect after its next draw from the stock, counting
    /// every unseen card that would complete or improve a meld: lower is better (in `eval` values).
    ///
    /// A drawn card that melds with no card of `hand` is solved without a search: the best is then
    /// to discard it (the hand's deadwood) or to keep it unmelded and discard the hand's best
    /// discard (that deadwood plus its value), both the same for every such card.
    pub fn expected(&self, hand: CardSet) -> f64 {
        if self.unseen.is_empty() {
            return f64::from(melds::least_deadwood(&self.eval, hand));
        }
        let near = self.may_meld_with(hand);
        let mut alone: Option<(u32, u32)> = None;
        let sum: u32 = self
            .unseen
            .iter()
            .map(|&c| {
                if near.contains(c) {
                    return self.after_draw(hand, c);
                }
                let (as_is, less_one) = *alone.get_or_insert_with(|| {
                    (
                        melds::least_deadwood(&self.eval, hand),
                        melds::best_after_discard(&self.eval, hand),
                    )
                });
                as_is.min(less_one + self.eval.value(c))
            })
            .sum();
        f64::from(sum) / self.unseen.len() as f64
    }

    /// Every card that may form a meld with cards of `hand`: a card of the same rank as one of
    /// them, or of the same suit and next in rank (round the corner too). Any meld of two cards
    /// or more holds such a pair; when a single card may be a meld, every card.
    pub fn may_meld_with(&self, hand: CardSet) -> CardSet {
        if self.eval.set_min < 2 || self.eval.run_min < 2 {
            return CardSet::FULL;
        }
        // A wild card melds with any card, and a card with a wild one in hand.
        if self.rules.wilds.is_some() {
            return CardSet::ALL;
        }
        let mut near = CardSet::EMPTY;
        for c in hand {
            for s in Suit::ALL {
                near.insert(Card::new(c.rank(), s));
            }
            let r = c.rank().index();
            for next in [(r + 1) % 13, (r + 12) % 13] {
                if let Some(rank) = Rank::from_index(next) {
                    near.insert(Card::new(rank, c.suit()));
                }
            }
        }
        near
    }

    /// Unseen cards that would give `hand` (ten cards) gin.
    pub fn gin_outs(&self, hand: CardSet) -> usize {
        self.unseen
            .iter()
            .filter(|&&c| self.after_draw(hand, c) == 0)
            .count()
    }

    /// Chance that the opponent holds `card`.
    fn held(&self, card: Card) -> f64 {
        if self.opponent_known.contains(card) {
            1.0
        } else if self.out_of_play.contains(card) {
            0.0
        } else {
            self.in_opponent_hand
        }
    }

    /// Chance that the opponent can meld `card` if it is discarded: with two more of its rank, or
    /// in a run of its suit, from the cards they hold (those they took from the pile count as
    /// held for certain). For the cards read from the opponent's last discard, that reading.
    pub fn danger(&self, card: Card) -> f64 {
        if let Some((cards, read)) = &self.read
            && cards.contains(card)
        {
            return read[card.bit() as usize];
        }
        // A wild card fits any meld the opponent is making.
        if self.rules.wild_bits() & CardSet::single(card).0 != 0 {
            return 1.0;
        }
        let mut none = 1.0;
        // Sets: at least set_min - 1 of the other cards of the rank.
        let need = usize::from(self.rules.set_min.saturating_sub(1)).max(1);
        if usize::from(self.rules.set_max) > need {
            let others: Vec<f64> = Suit::ALL
                .iter()
                .map(|&s| Card::new(card.rank(), s))
                .filter(|&c| c != card)
                .map(|c| self.held(c))
                .collect();
            none *= 1.0 - at_least(&others, need);
        }
        // Runs: every window of run_min cards of the suit that holds `card` and is a meld.
        let len = usize::from(self.rules.run_min.clamp(1, 13));
        let r = card.rank().index();
        for start in (r + 14 - len..=r + 13).map(|s| s % 13) {
            let mut window = CardSet::EMPTY;
            for k in 0..len {
                if let Some(rank) = Rank::from_index((start + k) % 13) {
                    window.insert(Card::new(rank, card.suit()));
                }
            }
            if window.len() as usize != len
                || !window.contains(card)
                || !melds::is_meld(self.rules, window)
            {
                continue;
            }
            let p: f64 = window.without(card).iter().map(|c| self.held(c)).product();
            none *= 1.0 - p;
        }
        1.0 - none
    }
}

/// Chance that at least `k` of independent events with chances `p` happen.
fn at_least(p: &[f64], k: usize) -> f64 {
    let mut dist = vec![0.0; p.len() + 1];
    dist[0] = 1.0;
    for &q in p {
        for j in (0..dist.len()).rev() {
            let stay = dist[j] * (1.0 - q);
            let up = if j > 0 { dist[j - 1] * q } else { 0.0 };
            dist[j] = stay + up;
        }
    }
    dist.iter().skip(k).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::AceRank;
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};

    /// `expected` with a search for every unseen card, as it was before the shortcut.
    fn searched(odds: &Odds, hand: CardSet) -> f64 {
        let sum: u32 = odds.unseen.iter().map(|&c| odds.after_draw(hand, c)).sum();
        f64::from(sum) / odds.unseen.len() as f64
    }

    #[test]
    fn the_shortcut_for_cards_that_meld_with_nothing_is_exact() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let wrap = MeldRules {
            ace: AceRank::Both,
            wrap: true,
            ..MeldRules::standard()
        };
        let high = MeldRules {
            ace: AceRank::High,
            ..MeldRules::standard()
        };
        let mut differ = 0;
        for rules in [MeldRules::standard(), wrap, high] {
            for limit in [Some(10), None] {
                for _ in 0..150 {
                    let mut deck: Vec<Card> = Card::all().collect();
                    deck.shuffle(&mut rng);
                    let hand: CardSet = deck[..10].iter().copied().collect();
                    let seen_more = rng.random_range(0..20);
                    let pile: CardSet = deck[10..10 + seen_more].iter().copied().collect();
                    let seen = Seen {
                        hand,
                        pile,
                        top: None,
                        opponent_discard: None,
                        opponent_known: CardSet::EMPTY,
                        shown: CardSet::EMPTY,
                        unseen: CardSet::FULL.minus(hand).minus(pile),
                        opponent_hidden: 10,
                        stock: 20,
                        players: 2,
                    };
                    let odds = Odds::new(&rules, &seen, limit, &Tuning::STRONG);
                    let (fast, slow) = (odds.expected(hand), searched(&odds, hand));
                    assert!(
                        (fast - slow).abs() < 1e-9,
                        "{hand:?}: {fast} against {slow}"
                    );
                    differ += usize::from(!seen.unseen.is_subset(odds.may_meld_with(hand)));
                }
            }
        }
        assert!(
            differ > 100,
            "the shortcut was taken in {differ} hands only"
        );
    }

    #[test]
    fn at_least_counts_the_ways() {
        assert!((at_least(&[0.5, 0.5], 1) - 0.75).abs() < 1e-9);
        assert!((at_least(&[0.5, 0.5], 2) - 0.25).abs() < 1e-9);
        assert!((at_least(&[1.0, 0.0, 0.3], 2) - 0.3).abs() < 1e-9);
    }
}
