//! The fast solver against the brute force of `common`, on seeded random hands.

use crate::common::*;
use gin_rules::cards::{Card, CardSet};
use gin_rules::melds::{
    analyze_discards, apply_lay_offs, best_arrangement, best_lay_off, going_out, least_deadwood,
};
use gin_rules::ruleset::MeldRules;

fn check_arrangement_is_best(rules: &MeldRules, hand: &[Card], least: u32) {
    let a = best_arrangement(rules, to_set(hand));
    let mut covered = CardSet::EMPTY;
    for m in &a.melds {
        assert!(bf_is_meld(rules, &m.to_vec()), "{m} is no meld in {hand:?}");
        assert!(m.is_disjoint(covered), "{m} overlaps in {hand:?}");
        covered = covered.union(*m);
    }
    assert!(covered.is_subset(to_set(hand)));
    assert_eq!(a.unmelded, to_set(hand).minus(covered));
    assert_eq!(a.deadwood, value(rules, &a.unmelded.to_vec()));
    assert_eq!(a.deadwood, least, "{hand:?}");
}

/// `count` hands: random 10 and 11 cards, and 10 and 11 out of five adjacent ranks.
fn cross_check(rules: &MeldRules, seed: u64, count: usize) {
    let mut rng = rng(seed);
    let deck = deck();
    for i in 0..count {
        let hand = match i % 4 {
            0 => draw(&mut rng, &deck, 10),
            1 => draw(&mut rng, &deck, 11),
            2 => dense(&mut rng, 11),
            _ => dense(&mut rng, 10),
        };
        let set = to_set(&hand);
        let mut brute = Brute::new(rules);
        let mut sorted = hand.clone();
        sorted.sort();
        let least = brute.least_deadwood(&sorted);
        assert_eq!(least_deadwood(rules, set), least, "{hand:?}");
        check_arrangement_is_best(rules, &hand, least);
        if hand.len() == 11 {
            let a = analyze_discards(rules, set);
            let cards: Vec<Card> = set.iter().collect();
            assert_eq!(a.after_discard.len(), 11);
            for (&(card, dw), &c) in a.after_discard.iter().zip(&cards) {
                assert_eq!(card, c);
                let rest: Vec<Card> = cards.iter().copied().filter(|&x| x != c).collect();
                assert_eq!(
                    dw,
                    bf_least_deadwood(rules, &rest),
                    "discard {c} from {hand:?}"
                );
            }
            assert_eq!(a.best, a.after_discard.iter().map(|x| x.1).min().unwrap());
            assert_eq!(a.big_gin, bf_all_meld(rules, &hand), "{hand:?}");
            for limit in [0, 5, 10, 25] {
                let out = going_out(rules, set, limit);
                for &(card, dw) in &a.after_discard {
                    assert_eq!(out.within.contains(card), dw <= limit, "{card} {hand:?}");
                    assert_eq!(out.gin.contains(card), dw == 0, "{card} {hand:?}");
                }
                assert_eq!(out.big_gin, a.big_gin, "{hand:?}");
            }
        }
    }
}

/// Hands per variant; the last variant (pairs and two-card runs) is slow to brute-force.
const HANDS: [usize; 8] = [
    14_000, 14_000, 14_000, 14_000, 14_000, 14_000, 14_000, 2_500,
];

macro_rules! variant_tests {
    ($($name:ident: $i:expr,)*) => {$(
        #[test]
        fn $name() {
            let (label, rules) = variants().swap_remove($i);
            eprintln!("{label}");
            cross_check(&rules, 1000 + $i, HANDS[$i]);
        }
    )*};
}

variant_tests! {
    brute_force_standard: 0,
    brute_force_ace_high: 1,
    brute_force_ace_both: 2,
    brute_force_ace_both_wrap: 3,
    brute_force_run_min_4: 4,
    brute_force_sets_of_3: 5,
    brute_force_odd_values: 6,
    brute_force_pairs_wrap_zero_values: 7,
}

#[test]
fn variants_cover_100_000_hands() {
    assert_eq!(variants().len(), HANDS.len());
    assert!(HANDS.iter().sum::<usize>() >= 100_000);
}

/// A knocker with melds from a meld-dense hand and a defender, often holding cards that fit.
fn knock_situation(
    rules: &MeldRules,
    rng: &mut rand_chacha::ChaCha8Rng,
) -> (Vec<CardSet>, Vec<Card>) {
    use rand::RngExt;
    loop {
        let low = rng.random_range(0..13);
        let knocker = draw(rng, &ranks_from(low, 5), 10);
        let melds = best_arrangement(rules, to_set(&knocker)).melds;
        if melds.is_empty() {
            continue;
        }
        let taken: CardSet = melds.iter().fold(CardSet::EMPTY, |a, m| a.union(*m));
        let pool: Vec<Card> = if rng.random_range(0..2) == 0 {
            ranks_from(low + 11, 9)
        } else {
            deck()
        }
        .into_iter()
        .filter(|c| !taken.contains(*c))
        .collect();
        return (melds, draw(rng, &pool, 10));
    }
}

#[test]
fn best_lay_off_against_brute_force() {
    let mut rng = rng(77);
    let variants = variants();
    for i in 0..10_000 {
        let rules = &variants[i % variants.len()].1;
        let (melds, defender) = knock_situation(rules, &mut rng);
        let d = to_set(&defender);
        let plan = best_lay_off(rules, &melds, d);

        let mut grown: Vec<Vec<Card>> = melds.iter().map(|m| m.to_vec()).collect();
        let mut laid = CardSet::EMPTY;
        for lo in &plan.lay_offs {
            assert!(d.contains(lo.card) && !laid.contains(lo.card));
            laid.insert(lo.card);
            grown[lo.onto].push(lo.card);
            assert!(
                bf_is_meld(rules, &grown[lo.onto]),
                "{lo:?} in {melds:?} {defender:?}"
            );
        }
        let grown: Vec<CardSet> = grown.iter().map(|m| to_set(m)).collect();
        assert_eq!(plan.extended, grown);
        let rest = d.minus(laid);
        let mut covered = CardSet::EMPTY;
        for m in &plan.own.melds {
            assert!(bf_is_meld(rules, &m.to_vec()) && m.is_disjoint(covered));
            covered = covered.union(*m);
        }
        assert_eq!(plan.own.unmelded, rest.minus(covered));
        assert!(covered.is_subset(rest));
        assert_eq!(plan.own.deadwood, value(rules, &plan.own.unmelded.to_vec()));

        let bf = bf_lay_off(
            rules,
            &melds.iter().map(|m| m.to_vec()).collect::<Vec<_>>(),
            &defender,
        );
        assert_eq!(
            (plan.own.deadwood, plan.lay_offs.len()),
            bf,
            "{melds:?} {defender:?}"
        );

        let replay: Vec<(Card, Option<usize>)> = plan
            .lay_offs
            .iter()
            .map(|l| (l.card, Some(l.onto)))
            .collect();
        let again = apply_lay_offs(rules, &melds, d, &replay).unwrap();
        assert_eq!(again.extended, plan.extended);
        assert_eq!(again.own.deadwood, plan.own.deadwood);
    }
}
