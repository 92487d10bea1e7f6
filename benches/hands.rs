//! Whole hands: uniformly random legal play (legal actions computed exactly at every step) and
//! bot play, from the deal to the end of the hand.

use std::hint::black_box;

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gin_rules::bot;
use gin_rules::ruleset::Ruleset;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use common::{deal, hand_in_place};

fn random_hand(rules: &Ruleset, seed: u64, rng: &mut ChaCha8Rng) -> usize {
    let Some(mut game) = deal(rules, seed) else {
        return 0;
    };
    let mut steps = 0;
    loop {
        let legal = game.legal_actions();
        if legal.is_empty() {
            return steps;
        }
        let a = &legal[rng.random_range(0..legal.len())];
        match game.step(a) {
            Ok(next) => game = next.game,
            Err(_) => return steps,
        }
        steps += 1;
    }
}

fn bot_hand(rules: &Ruleset, seed: u64) -> usize {
    let Some(mut game) = deal(rules, seed) else {
        return 0;
    };
    let mut steps = 0;
    while let Some(&seat) = game.to_act().first() {
        let Some(a) = bot::choose(&game, seat) else {
            break;
        };
        match game.step(&a) {
            Ok(next) => game = next.game,
            Err(_) => break,
        }
        steps += 1;
    }
    steps
}

fn hands(c: &mut Criterion) {
    let rules = Ruleset::standard();
    let mut g = c.benchmark_group("hand");
    g.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    g.bench_function("random legal play", |b| {
        b.iter(|| {
            seed += 1;
            black_box(random_hand(&rules, seed, &mut rng))
        })
    });
    let (mut legal, mut events) = (Vec::new(), Vec::new());
    g.bench_function("random legal play in place", |b| {
        b.iter(|| {
            seed += 1;
            black_box(hand_in_place(
                deal(&rules, seed),
                &mut rng,
                &mut legal,
                &mut events,
                common::legal,
            ))
        })
    });
    g.bench_function("bot play", |b| {
        b.iter(|| {
            seed += 1;
            black_box(bot_hand(&rules, seed))
        })
    });
    g.finish();
}

criterion_group!(benches, hands);
criterion_main!(benches);
