//! This engine against jdh8's `gin-rummy` crate (0.1.3), in one process: a whole hand of uniformly
//! random legal play with each, from the deal to the end of the hand. Both list every legal action
//! at every step (the discards, each knock and gin that the hand allows, big gin, the upcard and
//! the draws, and for the defender: no lay-off, or the best one) and play one of them at random.
//! `gin-rummy` has no list of legal actions, so the bench lists them with its public API:
//! `deadwood` of the hand less each card for the knocks, `Meld::extended` for the lay-offs.

use std::hint::black_box;

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gin_rules::engine::{Action, ActionKind, Game, Phase, Source};
use gin_rules::ruleset::Ruleset;
use gin_rummy as jdh8;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use common::{hand_in_place, legal as legal_actions};

/// The moves of a hand in which nobody goes out (upcard, draws, discards), read from the state:
/// what stepping costs without the going-out check.
/// What lists the moves of our hand.
type Lister = fn(&Game, &mut Vec<Action>);

fn ours_moves(state: &Game, out: &mut Vec<Action>) {
    out.clear();
    let Some(table) = state.tables.first() else {
        return;
    };
    let Some(seat) = table.to_act() else {
        return;
    };
    let kinds = |out: &mut Vec<Action>, kinds: &[ActionKind]| {
        out.extend(kinds.iter().map(|k| Action::new(seat, k.clone())));
    };
    match &table.phase {
        Phase::UpcardOffer { .. } => kinds(out, &[ActionKind::TakeUpcard, ActionKind::Pass]),
        Phase::Draw { stock_only, .. } => {
            out.push(Action::new(
                seat,
                ActionKind::Draw {
                    from: Source::Stock,
                },
            ));
            if !stock_only {
                out.push(Action::new(
                    seat,
                    ActionKind::Draw {
                        from: Source::Discard,
                    },
                ));
            }
        }
        Phase::Discard { taken, .. } => {
            let Some(r) = table.role(seat) else {
                return;
            };
            for card in table.hands[r] {
                if Some(card) != *taken {
                    out.push(Action::new(seat, ActionKind::Discard { card }));
                }
            }
        }
        _ => {}
    }
}

/// A legal move of a `gin-rummy` round.
#[derive(Clone, Copy)]
enum Move {
    TakeDiscard,
    Pass,
    DrawStock,
    Discard(jdh8::Card),
    Knock(jdh8::Card),
    BigGin,
    NoLayOff,
    LayOffAll,
}

/// Every legal move of `round`. `forced`: both players passed the upcard, so this first draw is
/// from the stock; `taken`: the card just taken from the discard pile.
fn their_moves(
    round: &jdh8::Round,
    forced: bool,
    taken: Option<jdh8::Card>,
    going_out: bool,
    out: &mut Vec<Move>,
) {
    out.clear();
    let Some(player) = round.turn() else {
        return;
    };
    let hand = round.hand(player);
    match round.phase() {
        jdh8::Phase::Upcard => out.extend([Move::TakeDiscard, Move::Pass]),
        jdh8::Phase::Draw => {
            out.push(Move::DrawStock);
            if !forced {
                out.push(Move::TakeDiscard);
            }
        }
        jdh8::Phase::Discard => {
            let limit = round.knock_limit();
            for card in hand {
                if Some(card) == taken {
                    continue;
                }
                out.push(Move::Discard(card));
                if going_out && jdh8::deadwood(hand - card.into()) <= limit {
                    out.push(Move::Knock(card));
                }
            }
            if going_out && round.rules().big_gin_bonus.is_some() && jdh8::deadwood(hand) == 0 {
                out.push(Move::BigGin);
            }
        }
        jdh8::Phase::Layoff => {
            out.push(Move::NoLayOff);
            if hand
                .into_iter()
                .any(|card| round.spread().any(|m| m.extended(card).is_some()))
            {
                out.push(Move::LayOffAll);
            }
        }
        jdh8::Phase::Finished => {}
    }
}

/// A hand of `gin-rummy`, played in place with one reused buffer; the steps it took. Without
/// `going_out`, nobody knocks or goes gin.
fn theirs(rng: &mut ChaCha8Rng, moves: &mut Vec<Move>, going_out: bool) -> usize {
    let mut round = jdh8::Round::deal(jdh8::Rules::default(), jdh8::Player::One, rng);
    let (mut passes, mut forced, mut taken) = (0, false, None);
    let mut steps = 0;
    loop {
        their_moves(&round, forced, taken, going_out, moves);
        if moves.is_empty() {
            return steps;
        }
        let m = moves[rng.random_range(0..moves.len())];
        let hand = round.turn().map_or(jdh8::Hand::EMPTY, |p| round.hand(p));
        let done = match m {
            Move::TakeDiscard => round.take_discard().map(|card| {
                taken = Some(card);
                forced = false;
            }),
            Move::Pass => round.pass().map(|()| {
                passes += 1;
                forced = passes == 2;
            }),
            Move::DrawStock => round.draw_stock().map(|_| {
                taken = None;
                forced = false;
            }),
            Move::Discard(card) => round.discard(card),
            Move::Knock(card) => round.knock(card, jdh8::best_melds(hand - card.into())),
            Move::BigGin => round.declare_big_gin(jdh8::best_melds(hand)),
            Move::NoLayOff => round.finish_layoffs().map(|_| ()),
            Move::LayOffAll => {
                loop {
                    let hand = round.turn().map_or(jdh8::Hand::EMPTY, |p| round.hand(p));
                    let laid = hand
                        .into_iter()
                        .any(|card| (0..3).any(|i| round.lay_off(card, i).is_ok()));
                    if !laid {
                        break;
                    }
                }
                round.finish_layoffs().map(|_| ())
            }
        };
        if done.is_err() {
            return steps;
        }
        steps += 1;
        if round.result().is_some() {
            return steps;
        }
    }
}

fn versus(c: &mut Criterion) {
    let rules = Ruleset::standard();
    // Both play whole hands (no step refused), and hands of about the same length.
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let (mut legal, mut events, mut moves) = (Vec::new(), Vec::new(), Vec::new());
    let n = 2000;
    let ours_steps: usize = (0..n)
        .map(|seed| {
            hand_in_place(
                &rules,
                seed,
                &mut rng,
                &mut legal,
                &mut events,
                legal_actions,
            )
        })
        .sum();
    let their_steps: usize = (0..n).map(|_| theirs(&mut rng, &mut moves, true)).sum();
    let our_stepping: usize = (0..n)
        .map(|seed| hand_in_place(&rules, seed, &mut rng, &mut legal, &mut events, ours_moves))
        .sum();
    let their_stepping: usize = (0..n).map(|_| theirs(&mut rng, &mut moves, false)).sum();
    eprintln!(
        "steps a hand: gin-rules {:.1}, gin-rummy {:.1}; without going out {:.1} and {:.1}",
        ours_steps as f64 / n as f64,
        their_steps as f64 / n as f64,
        our_stepping as f64 / n as f64,
        their_stepping as f64 / n as f64
    );
    let mut seed = 0u64;
    let pairs: [(&str, &str, Lister, bool); 2] = [
        (
            "random legal play, one hand",
            "gin-rules (legal_actions_into + apply)",
            legal_actions,
            true,
        ),
        (
            "random play without going out, one hand",
            "gin-rules (apply)",
            ours_moves,
            false,
        ),
    ];
    for (group, ours_name, lister, going_out) in pairs {
        let mut g = c.benchmark_group(group);
        g.throughput(Throughput::Elements(1));
        g.bench_function(ours_name, |b| {
            b.iter(|| {
                seed += 1;
                black_box(hand_in_place(
                    &rules,
                    seed,
                    &mut rng,
                    &mut legal,
                    &mut events,
                    lister,
                ))
            })
        });
        g.bench_function("gin-rummy 0.1.3", |b| {
            b.iter(|| black_box(theirs(&mut rng, &mut moves, going_out)))
        });
        g.finish();
    }
}

criterion_group!(benches, versus);
criterion_main!(benches);
