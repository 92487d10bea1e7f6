//! The solver with wild cards against a brute force that shares no code with it: a list of cards
//! with wild cards is a meld when some natural meld (read by `common::bf_is_meld`) holds its
//! natural cards and has exactly one place more for each wild card; the most value melded is
//! searched over every subset of the hand.

use std::collections::HashMap;

use crate::common::*;
use gin_rules::cards::{Card, CardSet, Rank, Suit};
use gin_rules::melds::{
    analyze_discards, apply_lay_offs, best_arrangement, best_lay_off, going_out, is_meld,
    least_deadwood, wild_reading,
};
use gin_rules::ruleset::{AceRank, MeldRules, Wilds};
use rand::RngExt;

fn wild_rules(label: &str) -> MeldRules {
    let std = MeldRules::standard();
    let deuces: CardSet = Suit::ALL
        .map(|s| Card::new(Rank::Two, s))
        .into_iter()
        .collect();
    let wilds = |cards: CardSet, min_natural| {
        Some(Wilds {
            cards,
            min_natural,
            joker: 25,
        })
    };
    match label {
        "jokers, two natural" => MeldRules {
            wilds: wilds(CardSet::JOKERS, 2),
            ..std
        },
        "jokers and deuces, one natural" => MeldRules {
            wilds: wilds(CardSet::JOKERS.union(deuces), 1),
            ..std
        },
        "deuces, ace both, wrap" => MeldRules {
            ace: AceRank::Both,
            wrap: true,
            wilds: wilds(deuces, 1),
            ..std
        },
        _ => MeldRules {
            run_min: 4,
            set_max: 3,
            ace: AceRank::High,
            values: [15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
            wilds: wilds(CardSet::JOKERS.union(deuces), 2),
            ..std
        },
    }
}

const LABELS: [&str; 4] = [
    "jokers, two natural",
    "jokers and deuces, one natural",
    "deuces, ace both, wrap",
    "jokers and deuces, runs of 4 ace high, sets of 3, odd values",
];

fn card_value(rules: &MeldRules, c: Card) -> u32 {
    if c.is_joker() {
        rules.wilds.map_or(0, |w| u32::from(w.joker))
    } else {
        rules.values[c.rank().index()] as u32
    }
}

/// Every natural meld, as a set of cards.
fn natural_melds(rules: &MeldRules) -> Vec<CardSet> {
    let mut out = Vec::new();
    for rank in Rank::ALL {
        for suits in 1..16u32 {
            let cards: Vec<Card> = (0..4)
                .filter(|s| suits & (1 << s) != 0)
                .map(|s| Card::new(rank, Suit::ALL[s]))
                .collect();
            if bf_is_meld(rules, &cards) {
                out.push(to_set(&cards));
            }
        }
    }
    for suit in Suit::ALL {
        for start in 0..13 {
            for len in 1..=13 {
                let cards: Vec<Card> = (0..len)
                    .map(|i| Card::new(Rank::ALL[(start + i) % 13], suit))
                    .collect();
                if bf_is_meld(rules, &cards) {
                    out.push(to_set(&cards));
                }
            }
        }
    }
    out
}

/// Whether `cards` is a meld: its natural cards fill part of a natural meld with one place more
/// for each of its wild cards.
fn bf_wild_meld(rules: &MeldRules, natural: &[CardSet], cards: CardSet) -> bool {
    let wild = rules.wilds.map_or(CardSet::EMPTY, |w| w.cards);
    let min_natural = rules.wilds.map_or(1, |w| u32::from(w.min_natural));
    let nat = cards.minus(wild);
    let w = cards.len() - nat.len();
    nat.len() >= min_natural
        && natural
            .iter()
            .any(|m| nat.is_subset(*m) && m.len() == nat.len() + w)
}

struct Oracle<'a> {
    rules: &'a MeldRules,
    cards: Vec<Card>,
    /// Every subset of `cards` (by index mask) that is a meld, with its value.
    melds: Vec<(u32, u32)>,
    memo: HashMap<u32, u32>,
}

impl<'a> Oracle<'a> {
    fn new(rules: &'a MeldRules, natural: &'a [CardSet], cards: Vec<Card>) -> Oracle<'a> {
        let wild = rules.wilds.map_or(CardSet::EMPTY, |w| w.cards);
        let mut by_nat: HashMap<(CardSet, u32), bool> = HashMap::new();
        let mut melds = Vec::new();
        for mask in 1u32..(1 << cards.len()) {
            let picked: Vec<Card> = (0..cards.len())
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| cards[i])
                .collect();
            let nat: CardSet = picked
                .iter()
                .copied()
                .filter(|c| !wild.contains(*c))
                .collect();
            let w = picked.len() as u32 - nat.len();
            let ok = *by_nat
                .entry((nat, w))
                .or_insert_with(|| bf_wild_meld(rules, natural, to_set(&picked)));
            if ok {
                let v = picked.iter().map(|&c| card_value(rules, c)).sum();
                melds.push((mask, v));
            }
        }
        Oracle {
            rules,
            cards,
            melds,
            memo: HashMap::new(),
        }
    }

    /// The most value melds take out of the cards of `rest` (an index mask).
    fn melded(&mut self, rest: u32) -> u32 {
        if rest == 0 {
            return 0;
        }
        if let Some(&v) = self.memo.get(&rest) {
            return v;
        }
        let low = rest & rest.wrapping_neg();
        let mut best = self.melded(rest & !low);
        for i in 0..self.melds.len() {
            let (m, v) = self.melds[i];
            if m & low != 0 && m & !rest == 0 {
                best = best.max(v + self.melded(rest & !m));
            }
        }
        self.memo.insert(rest, best);
        best
    }

    fn least(&mut self, rest: u32) -> u32 {
        let total: u32 = (0..self.cards.len())
            .filter(|i| rest & (1 << i) != 0)
            .map(|i| card_value(self.rules, self.cards[i]))
            .sum();
        total - self.melded(rest)
    }

    fn is_meld(&self, cards: CardSet) -> bool {
        let mask = (0..self.cards.len())
            .filter(|&i| cards.contains(self.cards[i]))
            .fold(0u32, |a, i| a | 1 << i);
        cards.len() == mask.count_ones() && self.melds.iter().any(|&(m, _)| m == mask)
    }
}

/// A hand of `n` cards with `k` wild cards, its naturals often close together.
fn wild_hand(
    rules: &MeldRules,
    rng: &mut rand_chacha::ChaCha8Rng,
    n: usize,
    k: usize,
) -> Vec<Card> {
    let wild = rules.wilds.map_or(CardSet::EMPTY, |w| w.cards);
    let pool: Vec<Card> = wild.iter().collect();
    let mut hand = draw(rng, &pool, k.min(pool.len()));
    let naturals: Vec<Card> = if rng.random_range(0..2) == 0 {
        deck()
    } else {
        ranks_from(rng.random_range(0..13), 5)
    }
    .into_iter()
    .filter(|c| !wild.contains(*c))
    .collect();
    let more = n - hand.len();
    hand.extend(draw(rng, &naturals, more));
    hand
}

fn cross_check(label: &str, seed: u64, count: usize) {
    let rules = wild_rules(label);
    let natural = natural_melds(&rules);
    let mut rng = rng(seed);
    for i in 0..count {
        let n = 10 + i % 2;
        let k = i % 5;
        let mut hand = wild_hand(&rules, &mut rng, n, k);
        hand.sort();
        let set = to_set(&hand);
        let mut oracle = Oracle::new(&rules, &natural, hand.clone());
        let all = (1u32 << hand.len()) - 1;
        let least = oracle.least(all);
        assert_eq!(least_deadwood(&rules, set), least, "{label}: {hand:?}");

        let a = best_arrangement(&rules, set);
        let mut covered = CardSet::EMPTY;
        for m in &a.melds {
            assert!(oracle.is_meld(*m), "{label}: {m} is no meld in {hand:?}");
            assert!(is_meld(&rules, *m), "{label}: {m}");
            assert!(m.is_disjoint(covered), "{label}: {m} overlaps in {hand:?}");
            covered = covered.union(*m);
            if let Some(read) = wild_reading(&rules, *m) {
                // What the wild cards stand for makes a natural meld with the natural cards.
                let as_: CardSet = read.iter().map(|&(_, c)| c).collect();
                assert_eq!(as_.len(), m.len(), "{label}: {read:?}");
                assert!(natural.contains(&as_), "{label}: {read:?} reads as no meld");
            }
        }
        assert_eq!(a.unmelded, set.minus(covered));
        assert_eq!(a.deadwood, least, "{label}: {hand:?}");

        if n == 11 {
            let d = analyze_discards(&rules, set);
            for (j, &(card, dw)) in d.after_discard.iter().enumerate() {
                assert_eq!(card, hand[j]);
                assert_eq!(
                    dw,
                    oracle.least(all & !(1 << j)),
                    "{label}: discard {card} from {hand:?}"
                );
            }
            assert_eq!(d.big_gin, least == 0, "{label}: {hand:?}");
            let out = going_out(&rules, set, 10);
            for &(card, dw) in &d.after_discard {
                assert_eq!(
                    out.within.contains(card),
                    dw <= 10,
                    "{label}: {card} {hand:?}"
                );
                assert_eq!(out.gin.contains(card), dw == 0, "{label}: {card} {hand:?}");
            }
        }
    }
}

/// Hands per variant: 24 000 in all, a fifth of them without a wild card.
const HANDS: usize = 6_000;

#[test]
fn brute_force_jokers_two_natural() {
    cross_check(LABELS[0], 2000, HANDS);
}

#[test]
fn brute_force_jokers_and_deuces() {
    cross_check(LABELS[1], 2001, HANDS);
}

#[test]
fn brute_force_deuces_wrap() {
    cross_check(LABELS[2], 2002, HANDS);
}

#[test]
fn brute_force_odd_rules_with_wilds() {
    cross_check(LABELS[3], 2003, HANDS);
}

#[test]
fn lay_offs_with_wild_cards_against_brute_force() {
    let mut rng = rng(2077);
    for i in 0..4_000 {
        let rules = wild_rules(LABELS[i % LABELS.len()]);
        let natural = natural_melds(&rules);
        let knocker = wild_hand(&rules, &mut rng, 10, i % 3);
        let melds = best_arrangement(&rules, to_set(&knocker)).melds;
        if melds.is_empty() {
            continue;
        }
        let taken: CardSet = to_set(&knocker);
        let wild = rules.wilds.map_or(CardSet::EMPTY, |w| w.cards);
        let pool: Vec<Card> = Card::all()
            .chain(Card::JOKERS)
            .filter(|c| !taken.contains(*c) && (!c.is_joker() || wild.contains(*c)))
            .collect();
        let defender = to_set(&draw(&mut rng, &pool, 10));
        let plan = best_lay_off(&rules, &melds, defender);
        // Every step of the plan is legal, and the plan replays through apply_lay_offs.
        let mut grown = melds.clone();
        for lo in &plan.lay_offs {
            grown[lo.onto].insert(lo.card);
            assert!(
                bf_wild_meld(&rules, &natural, grown[lo.onto]),
                "{lo:?} onto {melds:?}"
            );
        }
        assert_eq!(plan.extended, grown);
        let order: Vec<(Card, Option<usize>)> = plan
            .lay_offs
            .iter()
            .map(|l| (l.card, Some(l.onto)))
            .collect();
        let applied = apply_lay_offs(&rules, &melds, defender, &order).expect("the plan replays");
        assert_eq!(applied.own.deadwood, plan.own.deadwood);
        // No single further lay-off lowers the deadwood left.
        let laid: CardSet = plan.lay_offs.iter().map(|l| l.card).collect();
        let left = defender.minus_all(&[laid]);
        assert_eq!(plan.own.deadwood, least_deadwood(&rules, left));
        for c in left {
            for (j, m) in plan.extended.iter().enumerate() {
                let as_laid = m.free(c);
                if !m.contains(as_laid) && is_meld(&rules, m.with(as_laid)) {
                    assert!(
                        least_deadwood(&rules, left.without(c)) >= plan.own.deadwood,
                        "laying {c} onto meld {j} would do better: {melds:?} {defender}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_joker_is_laid_off_onto_a_run_and_a_meld_with_a_joker_grows() {
    let rules = wild_rules(LABELS[0]);
    let [j1, j2] = Card::JOKERS;
    let run = CardSet::EMPTY
        .with("5S".parse().unwrap())
        .with("6S".parse().unwrap())
        .with(j1);
    let read = wild_reading(&rules, run).unwrap();
    assert_eq!(format!("{read:?}"), "[(5S, 5S), (6S, 6S), (JK, 7S)]");
    // The defender's joker (named like the knocker's) goes on as the other one.
    let defender = CardSet::EMPTY.with(j1).with("KD".parse().unwrap());
    let plan = apply_lay_offs(&rules, &[run], defender, &[(j1, Some(0))]).unwrap();
    assert_eq!(plan.extended[0], run.with(j2));
    assert_eq!(plan.own.deadwood, 10);
    // A natural card goes onto a run whose joker moves to make room.
    let plan = apply_lay_offs(&rules, &[run], "7S 4S".parse_set(), &[]).unwrap();
    assert_eq!(plan.own.deadwood, 11);
    let best = best_lay_off(&rules, &[run], "7S 4S".parse_set());
    assert_eq!(best.own.deadwood, 0);
    assert_eq!(best.extended[0].len(), 5);
}

trait ParseSet {
    fn parse_set(&self) -> CardSet;
}

impl ParseSet for str {
    fn parse_set(&self) -> CardSet {
        gin_rules::cards::set(self)
    }
}
