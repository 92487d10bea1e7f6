//! One bot decision per level, on typical mid-hand views (standard rules): half of them a draw
//! (take the upcard or discard, or draw blind), half a discard after drawing. Then the tail of
//! `strong` and `expert`: one decision on each of 1 000 views, timed one by one.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};

use gin_rules::bot::{self, Level};
use gin_rules::engine::hooks::NoHooks;
use gin_rules::engine::{Game, NewGame, SeatView};
use gin_rules::ruleset::{Ruleset, RulesetRef, Target};

/// Views of the seat to act, taken after 6 to 20 moves of `basic` play in seeded deals.
fn views(rules: &Ruleset, n: usize) -> Vec<SeatView> {
    let mut out = Vec::new();
    let mut seed = 0u64;
    while out.len() < n {
        seed += 1;
        let game = NewGame {
            ruleset: RulesetRef::named(rules.id.clone()),
            seed,
            id: None,
            target: Some(Target::SingleHand),
            dealer: None,
            decks: Vec::new(),
        };
        let Ok(dealt) = Game::deal(rules, &NoHooks, game) else {
            continue;
        };
        let mut state = dealt.game;
        let moves = 6 + (seed % 15) as usize;
        for _ in 0..moves {
            let Some(&seat) = state.to_act().first() else {
                break;
            };
            let Some(a) = bot::choose(&state, seat) else {
                break;
            };
            let Ok(next) = state.step(&a) else {
                break;
            };
            state = next.game;
        }
        if let Some(&seat) = state.to_act().first()
            && let Some(v) = state.view(seat)
            && matches!(v.phase, "draw" | "discard")
        {
            out.push(v);
        }
    }
    out
}

fn decisions(c: &mut Criterion) {
    let rules = Ruleset::standard();
    let views = views(&rules, 64);
    let mut g = c.benchmark_group("bot decision");
    for level in Level::ALL {
        let mut i = 0;
        g.bench_function(level.name(), |b| {
            b.iter(|| {
                i = (i + 1) % views.len();
                black_box(bot::decide(level, &rules, &views[i]))
            })
        });
    }
    // `strong` and `expert` on each kind of turn alone: choosing a draw, and choosing a discard
    // (or a knock).
    for level in [Level::Strong, Level::Expert] {
        for phase in ["draw", "discard"] {
            let some: Vec<&SeatView> = views.iter().filter(|v| v.phase == phase).collect();
            let mut i = 0;
            g.bench_function(format!("{level}, {phase} turns"), |b| {
                b.iter(|| {
                    i = (i + 1) % some.len();
                    black_box(bot::decide(level, &rules, some[i]))
                })
            });
        }
    }
    g.finish();
    tail(&rules);
}

/// The slowest decisions, which criterion's means hide: each level timed once on each of 1 000
/// views, the 50th, 99th percentile and the worst printed.
fn tail(rules: &Ruleset) {
    let views = views(rules, 1000);
    for level in [Level::Strong, Level::Expert] {
        let mut times: Vec<Duration> = views
            .iter()
            .map(|v| {
                let start = Instant::now();
                black_box(bot::decide(level, rules, v));
                start.elapsed()
            })
            .collect();
        times.sort();
        let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
        println!(
            "bot decision tail/{level}: p50 {:?}, p99 {:?}, max {:?} over {} views",
            at(0.5),
            at(0.99),
            at(1.0),
            times.len()
        );
    }
}

criterion_group!(benches, decisions);
criterion_main!(benches);
