//! What hooks cost: every context of a deal turned into maps (no script bound, contexts
//! observed: what `docs hooks` pays), every hook of one deal bound to scripts that read nothing
//! (the contexts, calls and checks without a script's own work), Hollywood's and Oklahoma's hooks
//! of one deal, and whole bot matches per hand with and without scripts.
//!
//! Times are the CPU time of the benchmark's thread, not the wall clock: the development machine's
//! 2 cores are shared, and a thread that waits for a core would otherwise count the wait.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gin_rules::cards::Card;
use gin_rules::cli::play::simulate;
use gin_rules::engine::hooks::{
    DealInfo, DealerInfo, GameScore, HandOutcome, Hooks, LayoutInfo, MatchLayout, NoHooks,
    RecordInfo, SeatingInfo, TableResult, TableSeating,
};
use gin_rules::role::ByRole;
use gin_rules::rules::script::{ScriptHooks, observe_contexts};
use gin_rules::rules::{Catalog, Variant};
use gin_rules::ruleset::{NextDealer, RulesetRef, Target};
use gin_rules::seat::{BySeat, Seat, TableNo};

/// CPU time of the calling thread.
struct CpuTime;

fn thread_cpu_time() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec into `t`, which is valid and ours alone.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(r, 0, "no thread CPU clock");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

impl Measurement for CpuTime {
    type Intermediate = Duration;
    type Value = Duration;
    fn start(&self) -> Duration {
        thread_cpu_time()
    }
    fn end(&self, start: Duration) -> Duration {
        thread_cpu_time().saturating_sub(start)
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, v: &Duration) -> f64 {
        v.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

/// Times in ns, µs or ms of CPU; a throughput as the CPU time per element (per hand).
struct CpuFormatter;

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, typical_ns: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = if typical_ns < 1e3 {
            (1.0, "ns cpu")
        } else if typical_ns < 1e6 {
            (1e-3, "µs cpu")
        } else {
            (1e-6, "ms cpu")
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }
    fn scale_throughputs(&self, _: f64, t: &Throughput, values: &mut [f64]) -> &'static str {
        let n = match *t {
            Throughput::Elements(n) | Throughput::ElementsAndBytes { elements: n, .. } => n,
            Throughput::Bytes(n) | Throughput::BytesDecimal(n) | Throughput::Bits(n) => n,
        }
        .max(1) as f64;
        values.iter_mut().for_each(|v| *v /= n * 1e3);
        "µs cpu/elem"
    }
    fn scale_for_machines(&self, _: &mut [f64]) -> &'static str {
        "ns"
    }
}

fn variant(id: &str, options: &[&str]) -> Arc<Variant> {
    Catalog::builtin()
        .resolve(&RulesetRef::new(id, options.iter().copied()))
        .unwrap_or_else(|e| panic!("{id} {options:?}: {e}"))
}

/// What a Hollywood deal late in a match shows its hooks: three games, one closed.
struct DealFacts {
    layout: MatchLayout,
    games: Vec<GameScore>,
    results: Vec<TableResult>,
    totals: BySeat<i64>,
}

fn facts() -> DealFacts {
    let mut layout = MatchLayout::individual(2);
    layout.games = 3;
    let game = |points: [i64; 2], closed| GameScore {
        points: points.to_vec(),
        hands_won: vec![3, 2],
        boxes: vec![3, 2],
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
            table: TableNo::new(0),
            seating: TableSeating {
                dealer: Seat::new(1),
                players: ByRole::new(Seat::new(0), Seat::new(1)),
            },
            outcome: HandOutcome::Knock,
            winner: Some(Seat::new(1)),
            loser: Some(Seat::new(0)),
            points: 17,
            multiplier: 1,
            parts: vec![gin_rules::engine::hooks::ScorePart::new("base", 17)],
            boxes: 1,
        }],
        totals: vec![189, 71].into(),
    }
}

/// Every hook the engine calls for one deal of a match that goes on.
fn one_deal(hooks: &dyn Hooks, f: &DealFacts) -> usize {
    let deal = DealInfo {
        upcard: "TD".parse::<Card>().unwrap_or_else(|_| unreachable!()),
        dealer: Seat::new(1),
        hand_number: 7,
        totals: &f.totals,
        knock_limit: Some(10),
    };
    let seating = SeatingInfo {
        seats: 2,
        players: 2,
        dealer: Seat::new(1),
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
        dealer: Seat::new(1),
        hand_number: 7,
        rule: NextDealer::Loser,
        after_wash: gin_rules::ruleset::AfterWash::SameDealer,
        layout: &f.layout,
        results: &f.results,
    };
    // A hook that failed would make the figure that of a shorter run: stop instead.
    let ok = |e: gin_rules::engine::hooks::HookError| -> usize { panic!("{e}") };
    let mut n = 0;
    n += hooks.seating(&seating).map_or_else(ok, |t| t.len());
    n += hooks
        .knock_limit(&deal)
        .map_or_else(ok, |l| usize::from(l.unwrap_or(0)));
    n += hooks
        .score_multiplier(&deal)
        .map_or_else(ok, |m| m as usize);
    n += hooks.record_result(&record).map_or_else(ok, |e| e.len());
    n += hooks.next_dealer(&dealer).map_or_else(ok, Seat::index);
    n
}

/// `standard` with every hook of a deal bound to a script that reads nothing of its context and
/// returns a fixed decision the checks accept for [`facts`].
fn reads_nothing() -> Arc<Variant> {
    let yaml = "id: reads-nothing\nname: Reads Nothing\nextends: standard\nhooks:\n  knock_limit: {script: n.rhai}\n  score_multiplier: {script: n.rhai}\n  seating: {script: n.rhai}\n  record_result: {script: n.rhai}\n  next_dealer: {script: n.rhai}\n";
    let script = "fn knock_limit(ctx) { 10 }\nfn score_multiplier(ctx) { 1 }\nfn seating(ctx) { [#{dealer: 1, players: [0, 1]}] }\nfn record_result(ctx) { [] }\nfn next_dealer(ctx) { 0 }\n";
    let scripts = BTreeMap::from([("n.rhai".to_string(), script.to_string())]);
    Catalog::builtin()
        .check(yaml, &scripts)
        .unwrap_or_else(|e| panic!("{e:?}"))
}

type Cpu = Criterion<CpuTime>;

fn contexts(c: &mut Cpu) {
    let standard = variant("standard", &[]);
    let bare = ScriptHooks::new(standard.ruleset.clone(), std::iter::empty());
    let f = facts();
    let mut g = c.benchmark_group("hook context alone");
    // No script is bound: with the contexts observed, each call builds its context, turns it
    // into a map for the observer and stops.
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

fn per_deal(c: &mut Cpu) {
    let f = facts();
    let mut g = c.benchmark_group("hooks of one deal");
    g.bench_function("no hooks (the data's defaults)", |b| {
        b.iter(|| black_box(one_deal(&NoHooks, &f)))
    });
    let nothing = reads_nothing();
    g.bench_function("five scripts that read nothing", |b| {
        b.iter(|| black_box(one_deal(nothing.hooks.as_ref(), &f)))
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
fn matches(c: &mut Cpu) {
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

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime);
    targets = contexts, per_deal, matches
}
criterion_main!(benches);
