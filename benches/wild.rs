//! The meld solver with wild cards, and today's solver against the one before wild cards, in one
//! run: `cargo bench --bench wild`. docs/performance.md keeps the figures.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gin_rules::cards::{Card, CardSet, Rank, Suit};
use gin_rules::melds::{analyze_discards, least_deadwood};
use gin_rules::ruleset::{MeldRules, Wilds};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[path = "baseline/melds_before.rs"]
mod before;

const HANDS: usize = 4096;

/// `n` distinct cards drawn from `pool`.
fn draw(rng: &mut ChaCha8Rng, pool: CardSet, n: usize) -> CardSet {
    let mut cards = pool.to_vec();
    for i in 0..n {
        let j = rng.random_range(i..cards.len());
        cards.swap(i, j);
    }
    cards[..n].iter().copied().collect()
}

/// Hands of `n` cards holding exactly `wild` wild cards (jokers first, then deuces).
fn hands(seed: u64, n: usize, wild: usize, wilds: CardSet) -> Vec<CardSet> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..HANDS)
        .map(|_| {
            draw(&mut rng, wilds, wild).union(draw(&mut rng, CardSet::FULL.minus(wilds), n - wild))
        })
        .collect()
}

fn solver(c: &mut Criterion) {
    let plain = MeldRules::standard();
    let ten = hands(1, 10, 0, CardSet::EMPTY);
    let eleven = hands(2, 11, 0, CardSet::EMPTY);

    // Rules without a wild card: the solver before wild cards and today's, on the same hands.
    let mut g = c.benchmark_group("no wild card in the rules");
    let mut i = 0;
    g.bench_function("least_deadwood 10 cards, before", |b| {
        b.iter(|| {
            i = (i + 1) % HANDS;
            before::least_deadwood(&plain, black_box(ten[i]))
        })
    });
    g.bench_function("least_deadwood 10 cards, now", |b| {
        b.iter(|| {
            i = (i + 1) % HANDS;
            least_deadwood(&plain, black_box(ten[i]))
        })
    });
    g.bench_function("analyze_discards 11 cards, before", |b| {
        b.iter(|| {
            i = (i + 1) % HANDS;
            before::analyze_discards(&plain, black_box(eleven[i]))
        })
    });
    g.bench_function("analyze_discards 11 cards, now", |b| {
        b.iter(|| {
            i = (i + 1) % HANDS;
            analyze_discards(&plain, black_box(eleven[i]))
        })
    });
    g.finish();

    // Jokers and deuces wild, every meld with two natural cards: hands with 0, 1, 2 and 4 wilds.
    let deuces: CardSet = Suit::ALL
        .map(|s| Card::new(Rank::Two, s))
        .into_iter()
        .collect();
    let wilds = CardSet::JOKERS.union(deuces);
    let rules = MeldRules {
        wilds: Some(Wilds {
            cards: wilds,
            min_natural: 2,
            joker: 25,
        }),
        ..MeldRules::standard()
    };
    let mut g = c.benchmark_group("jokers and deuces wild");
    for k in [0, 1, 2, 4] {
        let ten = hands(10 + k as u64, 10, k, wilds);
        let eleven = hands(20 + k as u64, 11, k, wilds);
        g.bench_function(format!("least_deadwood 10 cards, {k} wild"), |b| {
            b.iter(|| {
                i = (i + 1) % HANDS;
                least_deadwood(&rules, black_box(ten[i]))
            })
        });
        g.bench_function(format!("analyze_discards 11 cards, {k} wild"), |b| {
            b.iter(|| {
                i = (i + 1) % HANDS;
                analyze_discards(&rules, black_box(eleven[i]))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, solver);
criterion_main!(benches);
