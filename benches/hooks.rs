//! What hooks cost: each context built alone (no script bound, contexts observed, so only the
//! building runs), the Hollywood script's `record_result` with its context, every hook of one
//! deal, and whole bot matches per hand with and without scripts.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gin_rules::cards::Card;
use gin_rules::cli::play::simulate;
use gin_rules::hooks::{
    DealInfo, DealerInfo, GameScore, HandOutcome, Hooks, LayoutInfo, MatchLayout, NoHooks,
    RecordInfo, SeatingInfo, TableResult, TableSeating,
};
use gin_rules::rules::hooks::{ScriptHooks, observe_contexts};
use gin_rules::rules::{Catalog, Variant};
use gin_rules::ruleset::{NextDealer, RulesetRef, Target};

fn variant(id: &str, options: &[&str]) -> Arc<Variant> {
    Catalog::builtin()
        .resolve(&RulesetRef {
            id: id.into(),
            options: options.iter().map(|o| o.to_string()).collect(),
            authored: None,
        })
        .unwrap_or_else(|e| panic!("{id} {options:?}: {e}"))
}

/// What a Hollywood deal late in a match shows its hooks: three games, one closed.
struct DealFacts {
    layout: MatchLayout,
    games: Vec<GameScore>,
    results: Vec<TableResult>,
    totals: Vec<i64>,
}

fn facts() -> DealFacts {
    let mut layout = MatchLayout::individual(2);
    layout.games = 3;
    let game = |points: [i64; 2], closed| GameScore {
        points: points.to_vec(),
        hands_won: vec![3, 2],
        closed,
    };
    DealFacts {
        layout,
        games: vec![
            game([104, 40], true),
            game([60, 31], false),
            game([25, 0], false),
        ],
        results: vec![TableResult {
            table: 0,
            seating: TableSeating {
                dealer: 1,
                players: [0, 1],
            },
            outcome: HandOutcome::Knock,
            winner: Some(1),
            points: 17,
            multiplier: 1,
        }],
        totals: vec![189, 71],
    }
}

/// Every hook the engine calls for one deal of a match that goes on.
fn one_deal(hooks: &dyn Hooks, f: &DealFacts) -> usize {
    let deal = DealInfo {
        upcard: "TD".parse::<Card>().unwrap_or_else(|_| unreachable!()),
        dealer: 1,
        hand_number: 7,
        totals: &f.totals,
        knock_limit: Some(10),
    };
    let seating = SeatingInfo {
        seats: 2,
        dealer: 1,
        hand_number: 7,
        layout: &f.layout,
    };
    let record = RecordInfo {
        hand_number: 7,
        target: Target::Points(100),
        layout: &f.layout,
        games: &f.games,
        results: &f.results,
    };
    let dealer = DealerInfo {
        seats: 2,
        dealer: 1,
        hand_number: 7,
        rule: NextDealer::Loser,
        layout: &f.layout,
        results: &f.results,
    };
    let mut n = 0;
    n += hooks.seating(&seating).map_or(0, |t| t.len());
    n += hooks
        .knock_limit(&deal)
        .map_or(0, |l| usize::from(l.unwrap_or(0)));
    n += hooks.score_multiplier(&deal).map_or(0, |m| m as usize);
    n += hooks.record_result(&record).map_or(0, |e| e.len());
    n += hooks.next_dealer(&dealer).map_or(0, usize::from);
    n
}

fn contexts(c: &mut Criterion) {
    let standard = variant("standard", &[]);
    let bare = ScriptHooks::new(standard.ruleset.clone(), std::iter::empty());
    let f = facts();
    let mut g = c.benchmark_group("hook context alone");
    // No script is bound: with the contexts observed, each call builds its context and stops.
    observe_contexts(
        |_, ctx| {
            black_box(ctx);
        },
        || {
            g.bench_function("every context of one deal", |b| {
                b.iter(|| black_box(one_deal(&bare, &f)))
            });
            g.bench_function("match_layout", |b| {
                b.iter(|| {
                    black_box(bare.match_layout(&LayoutInfo {
                        seats: 2,
                        target: Target::Points(100),
                    }))
                })
            });
        },
    );
    g.finish();
}

fn per_deal(c: &mut Criterion) {
    let f = facts();
    let mut g = c.benchmark_group("hooks of one deal");
    g.bench_function("no hooks (the data's defaults)", |b| {
        b.iter(|| black_box(one_deal(&NoHooks, &f)))
    });
    for (name, options) in [
        ("hollywood", &["hollywood"][..]),
        ("oklahoma", &["oklahoma"]),
    ] {
        let v = variant("standard", options);
        g.bench_with_input(BenchmarkId::new("script", name), &v, |b, v| {
            b.iter(|| black_box(one_deal(v.hooks.as_ref(), &f)))
        });
    }
    g.finish();
}

/// Bot matches to 100 of one form, per hand played.
fn matches(c: &mut Criterion) {
    let mut g = c.benchmark_group("bot match to 100, per hand");
    g.sample_size(20);
    const MATCHES: u64 = 20;
    for (name, options) in [
        ("standard", &[][..]),
        ("standard + hollywood", &["hollywood"]),
    ] {
        let v = variant("standard", options);
        let play = |v: &Variant| {
            simulate(
                &v.ruleset,
                v.hooks.as_ref(),
                &v.reference,
                1,
                MATCHES,
                Some(Target::Points(100)),
                |_| {},
            )
            .map_or(0, |s| s.hands)
        };
        g.throughput(Throughput::Elements(play(&v)));
        g.bench_with_input(BenchmarkId::from_parameter(name), &v, |b, v| {
            b.iter(|| black_box(play(v)))
        });
    }
    g.finish();
}

criterion_group!(benches, contexts, per_deal, matches);
criterion_main!(benches);
