//! This engine against jdh8's `gin-rummy` crate (0.1.3), in one process and on the same deals:
//! whole hands from the deal to the end, each move picked at random among those listed.
//!
//! - "stepping": nobody goes out (the upcard, draws and discards), so a hand is what its ~60 steps
//!   cost, with the deal.
//! - "random legal play": every legal action is listed at every step (the discards, each knock
//!   and gin the hand allows, big gin, the upcard and the draws, and for the defender: no lay-off,
//!   or the best one). `gin-rummy` has no list of legal actions, so the bench lists them with its
//!   public API, two ways: `deadwood` of the hand less each card (a solve per discard), or one
//!   `best_melds` of the hand a turn (a discard of deadwood that leaves the rest within the knock
//!   limit: exact for those, though it misses the rare knock that breaks a meld of four).
//!
//! Both deal from the same shuffled decks, given whole: this engine through `NewGame::decks`,
//! `gin-rummy` through `Round::from_deal`.

use std::hint::black_box;

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gin_rules::cards::Card;
use gin_rules::engine::hooks::NoHooks;
use gin_rules::engine::{
    Action, ActionKind, Event, Game, GameId, NewGame, Phase, Source, shuffled_deck,
};
use gin_rules::ruleset::{Ruleset, RulesetRef, Target};
use gin_rules::seat::{Seat, TableNo};
use gin_rummy as jdh8;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use common::{hand_in_place, legal as legal_actions};

/// Deals in turn, the same for both engines.
const DEALS: usize = 1024;

/// One deal in both engines' terms: our deck (top first) and `gin-rummy`'s cards.
struct Deal {
    deck: Vec<Card>,
    /// The first player's hand, the dealer's, the upcard, and the stock (last drawn first).
    theirs: ([jdh8::Hand; 2], jdh8::Card, Vec<jdh8::Card>),
}

fn deals() -> Vec<Deal> {
    (0..DEALS as u64)
        .map(|seed| {
            let deck = shuffled_deck(seed, 0, TableNo::new(0));
            let card = |c: &Card| -> jdh8::Card {
                c.to_string()
                    .parse()
                    .unwrap_or_else(|_| panic!("gin-rummy reads {c}"))
            };
            let mut hands = [jdh8::Hand::EMPTY; 2];
            for (i, c) in deck[..20].iter().enumerate() {
                hands[i % 2].insert(card(c));
            }
            let stock = deck[21..].iter().rev().map(card).collect();
            Deal {
                theirs: (hands, card(&deck[20]), stock),
                deck,
            }
        })
        .collect()
}

/// Our hand of `deal`, the second seat dealing (as `Player::One` deals theirs).
fn ours_deal<'r>(rules: &'r Ruleset, deal: &Deal) -> Option<Game<'r>> {
    let reference = RulesetRef::named("standard");
    let game = NewGame {
        ruleset: reference,
        seed: 0,
        id: Some(GameId([0; 16])),
        target: Some(Target::SingleHand),
        dealer: Some(Seat::new(1)),
        decks: vec![deal.deck.clone()],
    };
    Game::deal(rules, &NoHooks, game)
        .ok()
        .map(|dealt| dealt.game)
}

/// What lists the moves of our hand.
type Lister = fn(&Game, &mut Vec<Action>);

/// A bench group: its name, how our moves are listed, and each peer's name and listing.
type Group = (&'static str, Lister, &'static [(&'static str, GoingOut)]);

/// A hand of ours played in place with reused buffers; the steps it took.
fn ours(
    rules: &Ruleset,
    deal: &Deal,
    rng: &mut ChaCha8Rng,
    (legal, events): &mut (Vec<Action>, Vec<Event>),
    moves: Lister,
) -> usize {
    hand_in_place(ours_deal(rules, deal), rng, legal, events, moves)
}

/// The moves of a hand in which nobody goes out (upcard, draws, discards), read from the state:
/// what stepping costs without the going-out check.
fn ours_stepping(state: &Game, out: &mut Vec<Action>) {
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
            // Written from a slice, whose length `extend` knows, as `legal_actions` does.
            let mut cards = [table.upcard; 52];
            let mut n = 0;
            for card in table.hands[r] {
                if Some(card) != *taken {
                    cards[n] = card;
                    n += 1;
                }
            }
            out.extend(
                cards[..n]
                    .iter()
                    .map(|&card| Action::new(seat, ActionKind::Discard { card })),
            );
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

/// How the going-out moves of a `gin-rummy` round are listed.
#[derive(Clone, Copy)]
enum GoingOut {
    /// Not at all: nobody knocks or goes gin.
    Never,
    /// `deadwood` of the hand less each card.
    SolvePerDiscard,
    /// One `best_melds` of the hand: the discards of deadwood that leave the rest within the limit.
    SolvePerTurn,
}

/// Every move of `round` that `going_out` lists. `forced`: both players passed the upcard, so
/// this first draw is from the stock; `taken`: the card just taken from the discard pile.
fn their_moves(
    round: &jdh8::Round,
    forced: bool,
    taken: Option<jdh8::Card>,
    going_out: GoingOut,
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
                if Some(card) != taken {
                    out.push(Move::Discard(card));
                }
            }
            match going_out {
                GoingOut::Never => {}
                GoingOut::SolvePerDiscard => {
                    for card in hand {
                        if Some(card) != taken && jdh8::deadwood(hand - card.into()) <= limit {
                            out.push(Move::Knock(card));
                        }
                    }
                    if round.rules().big_gin_bonus.is_some() && jdh8::deadwood(hand) == 0 {
                        out.push(Move::BigGin);
                    }
                }
                GoingOut::SolvePerTurn => {
                    let best = jdh8::best_melds(hand);
                    let deadwood = best.deadwood();
                    for card in best.deadwood_cards() {
                        if Some(card) != taken && deadwood - card.rank.deadwood() <= limit {
                            out.push(Move::Knock(card));
                        }
                    }
                    if round.rules().big_gin_bonus.is_some() && deadwood == 0 {
                        out.push(Move::BigGin);
                    }
                }
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

/// A hand of `gin-rummy` dealt as `deal`, played in place with one reused buffer; the steps it
/// took.
fn theirs(deal: &Deal, rng: &mut ChaCha8Rng, moves: &mut Vec<Move>, going_out: GoingOut) -> usize {
    let (hands, upcard, stock) = &deal.theirs;
    let dealt = jdh8::Round::from_deal(
        jdh8::Rules::default(),
        jdh8::Player::One,
        [hands[1], hands[0]],
        *upcard,
        stock.clone(),
    );
    let Ok(mut round) = dealt else {
        return 0;
    };
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
    let deals = deals();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut buffers = (Vec::new(), Vec::new());
    let mut moves = Vec::new();
    // Both play whole hands (no step refused), and hands of about the same length.
    let per_hand = |steps: usize| steps as f64 / DEALS as f64;
    let mut ours_steps = |lister: Lister, rng: &mut ChaCha8Rng| {
        let s: usize = deals
            .iter()
            .map(|d| ours(&rules, d, rng, &mut buffers, lister))
            .sum();
        per_hand(s)
    };
    let (a, b) = (
        ours_steps(legal_actions, &mut rng),
        ours_steps(ours_stepping, &mut rng),
    );
    let mut their_steps = |going_out| {
        let s: usize = deals
            .iter()
            .map(|d| theirs(d, &mut rng, &mut moves, going_out))
            .sum();
        per_hand(s)
    };
    eprintln!(
        "steps a hand: gin-rules {a:.1}, gin-rummy {:.1} (solve per discard) and {:.1} (per \
         turn); without going out {b:.1} and {:.1}",
        their_steps(GoingOut::SolvePerDiscard),
        their_steps(GoingOut::SolvePerTurn),
        their_steps(GoingOut::Never),
    );
    let mut buffers = (Vec::new(), Vec::new());
    let mut moves = Vec::new();
    let mut next = 0usize;
    let mut deal = move || {
        next = (next + 1) % DEALS;
        next
    };
    let groups: [Group; 2] = [
        (
            "stepping, one hand",
            ours_stepping,
            &[("gin-rummy 0.1.3", GoingOut::Never)],
        ),
        (
            "random legal play, one hand",
            legal_actions,
            &[
                (
                    "gin-rummy 0.1.3, a solve per discard",
                    GoingOut::SolvePerDiscard,
                ),
                ("gin-rummy 0.1.3, a solve per turn", GoingOut::SolvePerTurn),
            ],
        ),
    ];
    for (group, lister, peers) in groups {
        let mut g = c.benchmark_group(group);
        g.throughput(Throughput::Elements(1));
        g.bench_function("gin-rules", |b| {
            b.iter(|| {
                let d = &deals[deal()];
                black_box(ours(&rules, d, &mut rng, &mut buffers, lister))
            })
        });
        for &(name, going_out) in peers {
            g.bench_function(name, |b| {
                b.iter(|| {
                    let d = &deals[deal()];
                    black_box(theirs(d, &mut rng, &mut moves, going_out))
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, versus);
criterion_main!(benches);
