use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gin_rules::cards::{CardSet, set};
use gin_rules::melds::{
    analyze_discards, best_arrangement, best_lay_off, going_out, least_deadwood,
};
use gin_rules::ruleset::MeldRules;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

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

/// 11 cards out of the 20 of five adjacent ranks.
fn dense(rng: &mut ChaCha8Rng) -> CardSet {
    let low = rng.random_range(0..9u32);
    let ranks = ((1u64 << 5) - 1) << low;
    let pool = CardSet(ranks * 0x0001_0001_0001_0001);
    draw(rng, pool, 11)
}

fn hands(seed: u64, f: impl Fn(&mut ChaCha8Rng) -> CardSet) -> Vec<CardSet> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..HANDS).map(|_| f(&mut rng)).collect()
}

fn solver(c: &mut Criterion) {
    let rules = MeldRules::standard();

    let ten = hands(1, |r| draw(r, CardSet::FULL, 10));
    let eleven = hands(2, |r| draw(r, CardSet::FULL, 11));
    let meldy = hands(3, dense);

    let mut g = c.benchmark_group("least_deadwood");
    let mut i = 0;
    g.bench_function("random 10 cards", |b| {
        b.iter(|| {
            i = (i + 1) % HANDS;
            least_deadwood(&rules, black_box(ten[i]))
        })
    });
    g.bench_function("best_arrangement random 10 cards", |b| {
        b.iter(|| {
            i = (i + 1) % HANDS;
            best_arrangement(&rules, black_box(ten[i]))
        })
    });
    g.finish();

    let mut g = c.benchmark_group("analyze_discards");
    g.bench_function("random 11 cards", |b| {
        b.iter(|| {
            i = (i + 1) % HANDS;
            analyze_discards(&rules, black_box(eleven[i]))
        })
    });
    g.bench_function("meld-dense 11 cards", |b| {
        b.iter(|| {
            i = (i + 1) % HANDS;
            analyze_discards(&rules, black_box(meldy[i]))
        })
    });
    g.finish();

    // What legal_actions asks on every discard turn: which discards knock (limit 10) or go gin.
    let mut g = c.benchmark_group("going_out");
    g.bench_function("random 11 cards", |b| {
        b.iter(|| {
            i = (i + 1) % HANDS;
            going_out(&rules, black_box(eleven[i]), 10)
        })
    });
    g.bench_function("meld-dense 11 cards", |b| {
        b.iter(|| {
            i = (i + 1) % HANDS;
            going_out(&rules, black_box(meldy[i]), 10)
        })
    });
    g.finish();

    // A knock with three melds and a defender holding cards that fit them.
    let knocker = [set("5S 6S 7S"), set("9C 9D 9H"), set("2D 3D 4D 5D")];
    let defender = set("4S 8S 9S TS AD 6D 7D KC KH QH");
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let knocked = knocker.iter().fold(CardSet::EMPTY, |a, m| a.union(*m));
    let defenders: Vec<CardSet> = (0..HANDS)
        .map(|_| draw(&mut rng, CardSet::FULL.minus(knocked), 10))
        .collect();
    let mut g = c.benchmark_group("best_lay_off");
    g.bench_function("fixed knock, chained lay-offs", |b| {
        b.iter(|| best_lay_off(&rules, black_box(&knocker), black_box(defender)))
    });
    g.bench_function("fixed knock, random defender", |b| {
        b.iter(|| {
            i = (i + 1) % HANDS;
            best_lay_off(&rules, black_box(&knocker), black_box(defenders[i]))
        })
    });
    g.finish();
}

criterion_group!(benches, solver);
criterion_main!(benches);
