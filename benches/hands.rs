//! Whole hands: uniformly random legal play (legal actions computed exactly at every step) and
//! bot play, from the deal to the end of the hand.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gin_rules::bot;
use gin_rules::engine::{Action, Event, Game, NewGame};
use gin_rules::hooks::NoHooks;
use gin_rules::ruleset::{Ruleset, RulesetRef, Target};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn reference() -> RulesetRef {
    RulesetRef {
        id: "standard".into(),
        options: vec![],
        authored: None,
    }
}

/// A one-hand game dealt from `seed`.
fn deal(rules: &Ruleset, seed: u64) -> Option<Game<'_>> {
    let mut game = NewGame::seeded(reference(), seed);
    game.target = Some(Target::SingleHand);
    Game::deal(rules, &NoHooks, game)
        .ok()
        .map(|dealt| dealt.game)
}

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

/// The same play through `apply` and `legal_actions_into`: one state changed in place and two
/// reused buffers, as a simulation runs it.
fn random_hand_in_place(
    rules: &Ruleset,
    seed: u64,
    rng: &mut ChaCha8Rng,
    legal: &mut Vec<Action>,
    events: &mut Vec<Event>,
) -> usize {
    let Some(mut game) = deal(rules, seed) else {
        return 0;
    };
    let mut steps = 0;
    loop {
        game.legal_actions_into(legal);
        if legal.is_empty() {
            return steps;
        }
        let a = &legal[rng.random_range(0..legal.len())];
        events.clear();
        if game.apply(a, events).is_err() {
            return steps;
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
            black_box(random_hand_in_place(
                &rules,
                seed,
                &mut rng,
                &mut legal,
                &mut events,
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
