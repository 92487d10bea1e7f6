//! One bot decision per level, on typical mid-hand views (standard rules): half of them a draw
//! (take the upcard or discard, or draw blind), half a discard after drawing; `strong` on the
//! turns that may knock; and `strong`'s decisions at the 99th percentile of many views and the
//! slowest; the last three also without playing discards out.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Instant;

use gin_rules::bot::{self, Level, Tuning};
use gin_rules::engine::hooks::NoHooks;
use gin_rules::engine::{ActionKind, Game, NewGame, SeatView};
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
    let many = views(&rules, 512);
    let views = &many[..64];
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
    // `strong` on each kind of turn alone: choosing a draw, and choosing a discard (or a knock).
    for phase in ["draw", "discard"] {
        let some: Vec<&SeatView> = views.iter().filter(|v| v.phase == phase).collect();
        let mut i = 0;
        g.bench_function(format!("strong, {phase} turns"), |b| {
            b.iter(|| {
                i = (i + 1) % some.len();
                black_box(bot::decide(Level::Strong, &rules, some[i]))
            })
        });
    }
    // Turns that may knock, then the tail: of the 512 views, the one at the 99th percentile of
    // `strong`'s time and the slowest (each timed three times, the least kept), measured as the
    // others are. Each with the same weights playing no discards out, the peer.
    let knocks: Vec<&SeatView> = many
        .iter()
        .filter(|v| {
            v.legal_actions
                .iter()
                .any(|a| matches!(a.kind, ActionKind::Knock { .. }))
        })
        .collect();
    eprintln!("{} of {} views may knock", knocks.len(), many.len());
    let without = Tuning {
        rollouts: 0,
        ..Tuning::STRONG
    };
    for (name, tuning) in [("strong", Tuning::STRONG), ("strong, rollouts=0", without)] {
        let mut i = 0;
        g.bench_function(format!("{name}, turns that may knock"), |b| {
            b.iter(|| {
                i = (i + 1) % knocks.len().max(1);
                black_box(
                    knocks
                        .get(i)
                        .map(|v| bot::decide_strong(&tuning, &rules, v)),
                )
            })
        });
        let cost = |v: &SeatView| {
            (0..3)
                .map(|_| {
                    let t = Instant::now();
                    black_box(bot::decide_strong(&tuning, &rules, v));
                    t.elapsed()
                })
                .min()
                .unwrap_or_default()
        };
        let mut timed: Vec<_> = many.iter().map(|v| (cost(v), v)).collect();
        timed.sort_by_key(|&(t, _)| t);
        let p99 = (timed.len() * 99).div_ceil(100).saturating_sub(1);
        for (what, at) in [
            ("the 99th percentile", p99),
            ("the slowest", timed.len().saturating_sub(1)),
        ] {
            if let Some(&(_, view)) = timed.get(at) {
                g.bench_function(format!("{name}, {what} of 512 views"), |b| {
                    b.iter(|| black_box(bot::decide_strong(&tuning, &rules, view)))
                });
            }
        }
    }
    g.finish();
}

criterion_group!(benches, decisions);
criterion_main!(benches);
