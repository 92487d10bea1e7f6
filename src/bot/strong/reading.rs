//! What the opponent's last discard says about its hand. Players discard their highest unmelded
//! card and knock as soon as they may, so only guesses of its hand that would have discarded that
//! card without knocking are kept. The danger of a card is then the share of those guesses that
//! would take it from the pile, counted twice when it would let them go out; and the same guesses
//! play the opponent's next turn, to tell how likely it is to go out and what that would cost.

use crate::cards::{Card, CardSet};
use crate::melds::{self, Arrangement};
use crate::ruleset::{MeldRules, Ruleset};

use super::super::seen::{Seen, shuffle_front};
use super::odds::Odds;
use super::settle::{lays_off, settle};

/// The most guesses kept, whatever the weights ask for.
const MOST_GUESSES: usize = 2_000;
/// Guesses tried per guess wanted, at most.
const TRIES_PER_GUESS: usize = 20;
/// With fewer guesses kept the reading says too little (or the opponent plays otherwise), and the
/// analytic danger stands.
const FEWEST: usize = 10;

/// What the opponent's last discard says: the guesses of its hand that explain it, and from them
/// the danger of the cards asked about.
pub struct Reading {
    /// By card bit, for the cards asked about.
    pub danger: [f64; 64],
    guesses: Vec<Guess>,
}

/// The opponent's next turn after a discard, as the guesses play it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TheirTurn {
    /// Chance that the opponent goes out on it.
    pub out: f64,
    /// What the seat then scores, on average (negative when it loses).
    pub worth: f64,
}

/// The reading of the danger of `cards`; `None` when the seat has no discard to read or no guess
/// explains it well enough.
pub fn read(
    odds: &Odds,
    seen: &Seen,
    knock_limit: Option<u8>,
    cards: CardSet,
    wanted: usize,
    seed: u64,
) -> Option<Reading> {
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
        shuffle_front(&mut order, hidden, &mut roll);
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
    Some(Reading { danger, guesses })
}

impl Reading {
    /// The kept guesses of the opponent's hand.
    pub fn hands(&self) -> Vec<CardSet> {
        self.guesses.iter().map(|g| g.hand).collect()
    }

    /// The opponent's turn after the seat discards `discard` and keeps `kept`. By each guess, it
    /// takes the discard when that melds or lets it go out, else draws any card it has not seen;
    /// it goes out when it may, discarding its highest unmelded card. `None` when no guess goes
    /// out.
    pub fn their_turn(
        &self,
        rules: &Ruleset,
        unseen: &[Card],
        knock_limit: Option<u8>,
        discard: Card,
        kept: CardSet,
    ) -> Option<TheirTurn> {
        let m = &rules.melds;
        let limit = knock_limit.map(u32::from);
        let (mut out, mut worth, mut guesses) = (0.0, 0.0, 0usize);
        for g in self.guesses.iter().filter(|g| !g.hand.contains(discard)) {
            guesses += 1;
            if g.harm(m, limit, discard) > 0 {
                let best = melds::best_arrangement(m, g.hand.with(discard));
                if let Some(x) = goes_out(m, limit, &best) {
                    out += 1.0;
                    worth -= settle(rules, x, left(rules, x, &best.melds, kept)).0;
                }
                continue;
            }
            let draws = || {
                unseen
                    .iter()
                    .copied()
                    .filter(|&c| c != discard && !g.hand.contains(c))
            };
            let each = 1.0 / draws().count().max(1) as f64;
            // A drawn card that melds with nothing leaves the guess's melds as they are.
            let mut left_alone = None;
            for c in draws() {
                let (x, y) = if g.near.contains(c) {
                    let best = melds::best_arrangement(m, g.hand.with(c));
                    let Some(x) = goes_out(m, limit, &best) else {
                        continue;
                    };
                    (x, left(rules, x, &best.melds, kept))
                } else {
                    let x = g.alone_with(m, c);
                    if x > limit.unwrap_or(0) {
                        continue;
                    }
                    (
                        x,
                        *left_alone.get_or_insert_with(|| left(rules, x, &g.melds, kept)),
                    )
                };
                out += each;
                worth -= each * settle(rules, x, y).0;
            }
        }
        (out > 0.0).then(|| TheirTurn {
            out: out / guesses as f64,
            worth: worth / out,
        })
    }
}

/// The deadwood left to the seat holding `kept` when the opponent goes out with `x` deadwood and
/// `melds`, after its lay-offs.
fn left(rules: &Ruleset, x: u32, melds: &[CardSet], kept: CardSet) -> u32 {
    if lays_off(rules, x) {
        melds::best_lay_off(&rules.melds, melds, kept).own.deadwood
    } else {
        melds::least_deadwood(&rules.melds, kept)
    }
}

/// One guess of the opponent's ten cards.
struct Guess {
    hand: CardSet,
    /// The cards that may meld with some of `hand`.
    near: CardSet,
    /// The least deadwood of `hand` and the value of its highest unmelded card.
    alone: (u32, u32),
    /// The melds of that arrangement.
    melds: Vec<CardSet>,
}

impl Guess {
    fn of(odds: &Odds, hand: CardSet) -> Guess {
        let own = melds::best_arrangement(odds.rules, hand);
        Guess {
            hand,
            near: odds.may_meld_with(hand),
            alone: (own.deadwood, highest_value(odds.rules, &own)),
            melds: own.melds,
        }
    }

    /// 2 when `card` would let this hand go out, 1 when it would join a meld, else 0.
    fn harm(&self, rules: &MeldRules, limit: Option<u32>, card: Card) -> u32 {
        // A card that melds with none of the hand stays unmelded beside its melds.
        let (melded, out) = if self.near.contains(card) {
            let best = melds::best_arrangement(rules, self.hand.with(card));
            (
                !best.unmelded.contains(card),
                goes_out(rules, limit, &best).is_some(),
            )
        } else {
            (false, self.alone_with(rules, card) <= limit.unwrap_or(0))
        };
        if out { 2 } else { u32::from(melded) }
    }

    /// The deadwood after drawing `card`, one that melds with none of the hand, and discarding
    /// the highest unmelded card.
    fn alone_with(&self, rules: &MeldRules, card: Card) -> u32 {
        let (deadwood, highest) = self.alone;
        let v = rules.value(card);
        deadwood + v - highest.max(v)
    }
}

/// Whether the ten cards `hand` explain discarding `discard` from eleven without going out.
fn explains(rules: &MeldRules, limit: Option<u32>, hand: CardSet, discard: Card) -> bool {
    let best = melds::best_arrangement(rules, hand.with(discard));
    let rank = |c: Card| (rules.value(c), c.rank().index());
    let highest = best.unmelded.iter().map(rank).max();
    best.unmelded.contains(discard)
        && highest <= Some(rank(discard))
        && goes_out(rules, limit, &best).is_none()
}

fn highest_value(rules: &MeldRules, arrangement: &Arrangement) -> u32 {
    arrangement
        .unmelded
        .iter()
        .map(|c| rules.value(c))
        .max()
        .unwrap_or(0)
}

/// The deadwood eleven cards so arranged go out with by discarding their highest unmelded card,
/// if they may (gin alone when no knock limit is in force).
fn goes_out(rules: &MeldRules, limit: Option<u32>, best: &Arrangement) -> Option<u32> {
    let left = best.deadwood.saturating_sub(highest_value(rules, best));
    (left <= limit.unwrap_or(0)).then_some(left)
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

    /// The opponent is read to hold `guess` alone: A♠ 2♠ 3♠, 7♣ 7♦ 7♥ and 39 unmelded in
    /// 9♥ 10♥ Q♣ K♦. Given J♥, it knocks with 10 (discarding a ten) and runs 9♥ 10♥ J♥.
    #[test]
    fn their_turn_takes_a_discard_that_lets_them_out_or_draws_one() {
        let rules = Ruleset::standard();
        let guess = hand("AS 2S 3S 7C 7D 7H 9H TH QC KD");
        let mine = hand("4S 8H 2C 3C 4C 9C TC JC 5D 6D");
        let odds = Odds::new(&rules.melds, &seen(mine, None), Some(10), &Tuning::STRONG);
        let reading = Reading {
            danger: [0.0; 64],
            guesses: vec![Guess::of(&odds, guess)],
        };
        let card = |s: &str| s.parse::<Card>().unwrap();
        let turn = |unseen: &str, discard: &str, kept: CardSet| {
            let unseen: Vec<Card> = parse_cards(unseen).unwrap();
            reading.their_turn(&rules, &unseen, Some(10), card(discard), kept)
        };
        // 4♠ and 8♥ lay off; 5♦ 6♦ leave 11 against their 10.
        let kept = mine;
        let one_behind = Some(TheirTurn {
            out: 1.0,
            worth: -1.0,
        });
        assert_eq!(turn("5C", "JH", kept), one_behind, "J♥ is taken");
        // With A♦ for 6♦, 6 left: an undercut, 25 + 4.
        let low = kept.without(card("6D")).with(card("AD"));
        assert_eq!(turn("5C", "JH", low).map(|t| t.worth), Some(29.0));
        // 5♥ melds with nothing of theirs: they draw one of J♥, 5♣, 6♣ and only J♥ lets them out.
        let drawn = turn("JH 5C 6C 5H", "5H", kept);
        assert_eq!(drawn.map(|t| (t.out * 3.0, t.worth)), Some((1.0, -1.0)));
        assert_eq!(turn("5C 6C", "5H", kept), None, "no card lets them out");
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
                    let out = goes_out(&rules, limit, &best).is_some();
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
