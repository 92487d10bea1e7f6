//! This engine against jdh8's `gin-rummy` crate (0.1.3), in one process and on the same deals:
//! whole hands from the deal to the end, each move picked uniformly at random among those listed.
//!
//! - "stepping": nobody goes out (the upcard, draws and discards), so a hand is what its steps
//!   cost, with the deal.
//! - "random legal play": every legal action is listed at every step (the discards, each knock
//!   and gin the hand allows, big gin, the upcard and the draws, and for the defender: no lay-off,
//!   or the best one). `gin-rummy` has no list of legal actions, so the bench lists them with its
//!   public API as cheaply as it allows: one `best_melds` of the hand a turn, a knock offered on
//!   every discard of deadwood that leaves the rest within the knock limit (exact for those,
//!   though it misses the rare knock that breaks a meld of four). Solving the hand once per
//!   discard instead (`deadwood` of the hand less each card) costs the peer eight times as much;
//!   the steps-a-hand line at the start still plays it, to show that the hands are alike.
//!
//! This engine plays each three times: keeping the log a plain state carries (`Game::deal`),
//! without it (`Logging::Off`), as a simulation that never sends its states out plays, and
//! without it nor events (`Game::apply_quiet`), as a simulation that reads only its states.
//!
//! Both deal from the same shuffled decks, given whole: this engine through `NewGame::decks`,
//! `gin-rummy` through `Round::from_deal`.

use std::hint::black_box;

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gin_rules::cards::Card;
use gin_rules::engine::hooks::NoHooks;
use gin_rules::engine::{
    Action, ActionKind, Event, Game, GameId, Logging, NewGame, Phase, Source, shuffled_deck,
};
use gin_rules::ruleset::{Ruleset, RulesetRef, Target};
use gin_rules::seat::{Seat, TableNo};
use gin_rummy as jdh8;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use common::legal as legal_actions;

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
fn ours_deal<'r>(rules: &'r Ruleset, deal: &Deal, logging: Logging) -> Option<Game<'r>> {
    let reference = RulesetRef::named("standard");
    let game = NewGame {
        ruleset: reference,
        seed: 0,
        id: Some(GameId([0; 16])),
        target: Some(Target::SingleHand),
        dealer: Some(Seat::new(1)),
        decks: vec![deal.deck.clone()],
    };
    Game::deal_with(rules, &NoHooks, game, logging)
        .ok()
        .map(|dealt| dealt.game)
}

/// How a hand of ours is played: to its end by uniformly random legal play, or without going
/// out.
#[derive(Clone, Copy)]
enum Play {
    Legal,
    Stepping,
}

/// A bench group: its name, how our hands are played, and the peer's name and listing.
type Group = (&'static str, Play, &'static str, GoingOut);

/// Reused buffers of our hands.
type Buffers = (Vec<Action>, Vec<Event>, (Vec<Step>, Vec<Event>));

/// How our hands are played: with the log, without it, or without it nor events.
#[derive(Clone, Copy)]
enum Mode {
    Logged,
    NoLog,
    Quiet,
}

impl Mode {
    fn logging(self) -> Logging {
        match self {
            Mode::Logged => Logging::Kept,
            Mode::NoLog | Mode::Quiet => Logging::Off,
        }
    }

    /// Plays `action` as this mode does (the events into `events`, cleared first); false when it
    /// is refused.
    #[inline(always)]
    fn apply(self, game: &mut Game, action: &Action, events: &mut Vec<Event>) -> bool {
        match self {
            Mode::Logged | Mode::NoLog => {
                events.clear();
                game.apply(action, events).is_ok()
            }
            Mode::Quiet => game.apply_quiet(action).is_ok(),
        }
    }
}

/// A hand of ours played in place with reused buffers; the steps it took.
fn ours(
    rules: &Ruleset,
    deal: &Deal,
    rng: &mut ChaCha8Rng,
    (legal, events, stepping): &mut Buffers,
    play: Play,
    mode: Mode,
) -> usize {
    let game = ours_deal(rules, deal, mode.logging());
    match play {
        Play::Legal => ours_legal_hand(game, rng, legal, events, mode),
        Play::Stepping => ours_stepping_hand(game, rng, stepping, mode),
    }
}

/// A hand of ours, each move picked at random from the legal actions; the steps it took.
fn ours_legal_hand(
    game: Option<Game>,
    rng: &mut ChaCha8Rng,
    legal: &mut Vec<Action>,
    events: &mut Vec<Event>,
    mode: Mode,
) -> usize {
    let Some(mut game) = game else {
        return 0;
    };
    let mut steps = 0;
    loop {
        legal_actions(&game, legal);
        if legal.is_empty() {
            return steps;
        }
        let a = &legal[rng.random_range(0..legal.len())];
        if !mode.apply(&mut game, a, events) {
            return steps;
        }
        steps += 1;
    }
}

/// A move of a hand in which nobody goes out, as the bench lists it for this engine: a plain
/// value like the peer's [`Move`], made an [`Action`] once picked.
#[derive(Clone, Copy)]
enum Step {
    TakeUpcard,
    Pass,
    Draw(Source),
    Discard(Card),
}

/// The moves of a hand in which nobody goes out (upcard, draws, discards), read from the state:
/// what stepping costs without the going-out check.
fn ours_stepping(game: &Game, out: &mut Vec<Step>) {
    out.clear();
    let Some(table) = game.tables.first() else {
        return;
    };
    let Some(seat) = table.to_act() else {
        return;
    };
    match &table.phase {
        Phase::UpcardOffer { .. } => out.extend([Step::TakeUpcard, Step::Pass]),
        Phase::Draw { stock_only, .. } => {
            out.push(Step::Draw(Source::Stock));
            if !stock_only {
                out.push(Step::Draw(Source::Discard));
            }
        }
        Phase::Discard { taken, .. } => {
            if let Some(r) = table.role(seat) {
                let hand = table.hands[r];
                let hand = taken.map_or(hand, |t| hand.without(t));
                out.extend(hand.into_iter().map(Step::Discard));
            }
        }
        _ => {}
    }
}

/// A hand of ours in which nobody goes out, each move picked at random from what
/// [`ours_stepping`] lists; the steps it took.
fn ours_stepping_hand(
    game: Option<Game>,
    rng: &mut ChaCha8Rng,
    (moves, events): &mut (Vec<Step>, Vec<Event>),
    mode: Mode,
) -> usize {
    let Some(mut game) = game else {
        return 0;
    };
    let mut steps = 0;
    loop {
        ours_stepping(&game, moves);
        if moves.is_empty() {
            return steps;
        }
        let Some(seat) = game.tables.first().and_then(|t| t.to_act()) else {
            return steps;
        };
        let kind = match moves[rng.random_range(0..moves.len())] {
            Step::TakeUpcard => ActionKind::TakeUpcard,
            Step::Pass => ActionKind::Pass,
            Step::Draw(from) => ActionKind::Draw { from },
            Step::Discard(card) => ActionKind::Discard { card },
        };
        if !mode.apply(&mut game, &Action::new(seat, kind), events) {
            return steps;
        }
        steps += 1;
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
    let mut buffers: Buffers = Default::default();
    let mut moves = Vec::new();
    // Both play whole hands (no step refused), and hands of about the same length.
    let per_hand = |steps: usize| steps as f64 / DEALS as f64;
    let mut ours_steps = |play: Play, rng: &mut ChaCha8Rng| {
        let s: usize = deals
            .iter()
            .map(|d| ours(&rules, d, rng, &mut buffers, play, Mode::Logged))
            .sum();
        per_hand(s)
    };
    let (a, b) = (
        ours_steps(Play::Legal, &mut rng),
        ours_steps(Play::Stepping, &mut rng),
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
    let mut buffers: Buffers = Default::default();
    let mut moves = Vec::new();
    let mut next = 0usize;
    let mut deal = move || {
        next = (next + 1) % DEALS;
        next
    };
    let groups: [Group; 2] = [
        (
            "stepping, one hand",
            Play::Stepping,
            "gin-rummy 0.1.3",
            GoingOut::Never,
        ),
        (
            "random legal play, one hand",
            Play::Legal,
            "gin-rummy 0.1.3, a solve per turn",
            GoingOut::SolvePerTurn,
        ),
    ];
    for (group, play, peer, going_out) in groups {
        let mut g = c.benchmark_group(group);
        g.throughput(Throughput::Elements(1));
        for (name, mode) in [
            ("gin-rules", Mode::Logged),
            ("gin-rules, no log", Mode::NoLog),
            ("gin-rules, no log or events", Mode::Quiet),
        ] {
            g.bench_function(name, |b| {
                b.iter(|| {
                    let d = &deals[deal()];
                    black_box(ours(&rules, d, &mut rng, &mut buffers, play, mode))
                })
            });
        }
        g.bench_function(peer, |b| {
            b.iter(|| {
                let d = &deals[deal()];
                black_box(theirs(d, &mut rng, &mut moves, going_out))
            })
        });
        g.finish();
    }
}

criterion_group!(benches, versus);
criterion_main!(benches);
