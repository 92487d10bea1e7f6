//! What the opponent's last discard says about its hand. Players discard their highest unmelded
//! card and knock as soon as they may, so only guesses of its hand that would have discarded that
//! card without knocking are kept. The danger of a card is then the share of those guesses that
//! would take it from the pile, counted twice when it would let them go out.

use crate::cards::{Card, CardSet};
use crate::melds::{self, Arrangement};
use crate::ruleset::MeldRules;

use super::super::seen::{Seen, splitmix};
use super::odds::Odds;

/// The most guesses kept, whatever the weights ask for.
const MOST_GUESSES: usize = 2_000;
/// Guesses tried per guess wanted, at most.
const TRIES_PER_GUESS: usize = 20;
/// With fewer guesses kept the reading says too little (or the opponent plays otherwise), and the
/// analytic danger stands.
const FEWEST: usize = 10;

/// The danger of each card of `cards` read from the opponent's last discard, by card bit; `None`
/// when the seat has no discard to read or no guess explains it well enough.
pub fn read(
    odds: &Odds,
    seen: &Seen,
    knock_limit: Option<u8>,
    cards: CardSet,
    wanted: usize,
    seed: u64,
) -> Option<[f64; 64]> {
    let (rules, unseen) = (odds.rules, &odds.unseen);
    let discard = seen.opponent_discard?;
    let hidden = seen.opponent_hidden as usize;
    if wanted == 0 || unseen.len() < hidden {
        return None;
    }
    let wanted = wanted.min(MOST_GUESSES);
    let limit = knock_limit.map(u32::from);
    let mut order = unseen.to_vec();
    let mut roll = seed;
    let mut guesses = Vec::with_capacity(wanted);
    for _ in 0..wanted * TRIES_PER_GUESS {
        for i in 0..hidden {
            roll = splitmix(roll);
            let j = i + (roll % (order.len() - i) as u64) as usize;
            order.swap(i, j);
        }
        let guess = order[..hidden]
            .iter()
            .fold(seen.opponent_known, |h, &c| h.with(c));
        if !explains(rules, limit, guess, discard) {
            continue;
        }
        guesses.push(Guess::of(odds, guess));
        if guesses.len() == wanted {
            break;
        }
    }
    if guesses.len() < FEWEST {
        return None;
    }
    let mut danger = [0.0; 64];
    for card in cards {
        let (mut harm, mut count) = (0u32, 0u32);
        for g in guesses.iter().filter(|g| !g.hand.contains(card)) {
            count += 1;
            harm += g.harm(rules, limit, card);
        }
        if count > 0 {
            danger[card.bit() as usize] = f64::from(harm) / f64::from(count);
        }
    }
    Some(danger)
}

/// One guess of the opponent's ten cards.
struct Guess {
    hand: CardSet,
    /// The cards that may meld with some of `hand`.
    near: CardSet,
    /// The least deadwood of `hand` and the value of its highest unmelded card.
    alone: (u32, u32),
}

impl Guess {
    fn of(odds: &Odds, hand: CardSet) -> Guess {
        let own = melds::best_arrangement(odds.rules, hand);
        Guess {
            hand,
            near: odds.may_meld_with(hand),
            alone: (own.deadwood, highest_value(odds.rules, &own)),
        }
    }

    /// 2 when `card` would let this hand go out, 1 when it would join a meld, else 0.
    fn harm(&self, rules: &MeldRules, limit: Option<u32>, card: Card) -> u32 {
        // A card that melds with none of the hand stays unmelded beside its melds.
        let (melded, out) = if self.near.contains(card) {
            let best = melds::best_arrangement(rules, self.hand.with(card));
            (
                !best.unmelded.contains(card),
                could_knock(rules, limit, &best),
            )
        } else {
            let (deadwood, highest) = self.alone;
            let v = rules.value(card);
            (false, deadwood + v - highest.max(v) <= limit.unwrap_or(0))
        };
        if out { 2 } else { u32::from(melded) }
    }
}

/// Whether the ten cards `hand` explain discarding `discard` from eleven without going out.
fn explains(rules: &MeldRules, limit: Option<u32>, hand: CardSet, discard: Card) -> bool {
    let best = melds::best_arrangement(rules, hand.with(discard));
    let rank = |c: Card| (rules.value(c), c.rank().index());
    let highest = best.unmelded.iter().map(rank).max();
    best.unmelded.contains(discard)
        && highest <= Some(rank(discard))
        && !could_knock(rules, limit, &best)
}

fn highest_value(rules: &MeldRules, arrangement: &Arrangement) -> u32 {
    arrangement
        .unmelded
        .iter()
        .map(|c| rules.value(c))
        .max()
        .unwrap_or(0)
}

/// Whether eleven cards so arranged go out by discarding their highest unmelded card (gin alone
/// when no knock limit is in force).
fn could_knock(rules: &MeldRules, limit: Option<u32>, best: &Arrangement) -> bool {
    best.deadwood.saturating_sub(highest_value(rules, best)) <= limit.unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::strong::Tuning;
    use crate::cards::parse_cards;
    use rand::SeedableRng;
    use rand::seq::SliceRandom;

    fn hand(s: &str) -> CardSet {
        parse_cards(s).unwrap().into_iter().collect()
    }

    /// A seat of a table of two holding `mine`, the opponent's last discard (if any) alone on the
    /// pile, twenty cards in the stock.
    fn seen(mine: CardSet, discard: Option<Card>) -> Seen {
        let pile = discard.map_or(CardSet::EMPTY, CardSet::single);
        Seen {
            hand: mine,
            pile,
            top: discard,
            opponent_discard: discard,
            opponent_known: CardSet::EMPTY,
            shown: CardSet::EMPTY,
            unseen: CardSet::FULL.minus(mine).minus(pile),
            opponent_hidden: 10,
            stock: 20,
            players: 2,
        }
    }

    #[test]
    fn a_discard_is_explained_by_hands_that_hold_nothing_higher_unmelded_and_cannot_knock() {
        let rules = MeldRules::standard();
        let loose = hand("7S 7C 7D AS 2S 3S 9H 8D 5C 4H");
        let (king, six) = ("KD".parse().unwrap(), "6C".parse().unwrap());
        assert!(explains(&rules, Some(10), loose, king));
        assert!(
            !explains(&rules, Some(10), loose, six),
            "9H and 8D are higher"
        );
        let close = hand("7S 7C 7D AS 2S 3S 4H 5H 6H 9C");
        assert!(
            !explains(&rules, Some(10), close, king),
            "it could have knocked with 9"
        );
        assert!(explains(&rules, None, close, king), "only gin goes out");
    }

    #[test]
    fn weights_asking_for_any_number_of_guesses_read_at_most_the_most() {
        let rules = MeldRules::standard();
        let mine = hand("AS 2S 3S 7C 7D 9H TH JH KS KD");
        let seen = seen(mine, "QC".parse().ok());
        let odds = Odds::new(&rules, &seen, Some(10), &Tuning::STRONG);
        let danger = read(&odds, &seen, Some(10), mine, usize::MAX, 7);
        assert!(
            danger.is_some(),
            "a queen discarded is explained by many hands"
        );
    }

    #[test]
    fn the_shortcut_for_cards_that_meld_with_nothing_is_exact() {
        let rules = MeldRules::standard();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut shortcuts = 0;
        for _ in 0..300 {
            let mut deck: Vec<Card> = Card::all().collect();
            deck.shuffle(&mut rng);
            let seen = seen(deck[..10].iter().copied().collect(), None);
            let odds = Odds::new(&rules, &seen, Some(10), &Tuning::STRONG);
            let guess = Guess::of(&odds, deck[10..20].iter().copied().collect());
            for limit in [Some(10), Some(0), None] {
                for &card in &deck[20..] {
                    let best = melds::best_arrangement(&rules, guess.hand.with(card));
                    let out = could_knock(&rules, limit, &best);
                    let full = if out {
                        2
                    } else {
                        u32::from(!best.unmelded.contains(card))
                    };
                    assert_eq!(
                        guess.harm(&rules, limit, card),
                        full,
                        "{card} to {:?}",
                        guess.hand
                    );
                    shortcuts += usize::from(!guess.near.contains(card));
                }
            }
        }
        assert!(
            shortcuts > 5_000,
            "the shortcut was taken {shortcuts} times only"
        );
    }
}
