//! Fuzzing plain states: real states from random legal play of every built-in ruleset and option
//! set, mutated (numbers at their edges, cards swapped or moved between piles, phases, outcomes,
//! seats, scores) and fed to `validate` and `step` with legal and random actions.
//!
//! What must hold: nothing panics; every state that play reaches is accepted; every state that
//! `validate` accepts keeps each card exactly once and the score invariants, and a step from it
//! gives a state that `validate` accepts again.
//!
//! `FUZZ_CASES=20000 cargo test --release --test it fuzz_states::` runs longer (default: 48 cases
//! per property, a few seconds).

use std::sync::{Arc, OnceLock};

use gin_rules::cards::{Card, CardSet};
use gin_rules::engine::Game;
use gin_rules::engine::{
    Action, ActionKind, GameBonus, HandResult, Knock, LayOffCard, NewGame, Outcome, Phase, Pile,
    Source, State, Table,
};
use gin_rules::melds::LayOff;
use gin_rules::role::Role;
use gin_rules::rules::{Catalog, Variant};
use gin_rules::ruleset::Target;
use gin_rules::seat::{Seat, Side, TableNo};
use proptest::prelude::*;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::variants::{option_subsets, reference};

/// Every built-in ruleset with every set of its options that resolves, and the targets it allows.
fn forms() -> &'static [(Arc<Variant>, Vec<Target>)] {
    static FORMS: OnceLock<Vec<(Arc<Variant>, Vec<Target>)>> = OnceLock::new();
    FORMS.get_or_init(|| {
        let catalog = Catalog::builtin();
        let mut out = Vec::new();
        for id in catalog.ids() {
            let Ok(base) = catalog.resolve(&reference(&id, &[])) else {
                continue;
            };
            let ids: Vec<String> = base.allowed_options.iter().map(|o| o.id.clone()).collect();
            for subset in option_subsets(&ids) {
                let opts: Vec<&str> = subset.iter().map(String::as_str).collect();
                if let Ok(v) = catalog.resolve(&reference(&id, &opts)) {
                    let targets = v
                        .ruleset
                        .match_rules
                        .targets
                        .iter()
                        .copied()
                        .filter(|&t| v.check_target(t).is_ok())
                        .collect();
                    out.push((v, targets));
                }
            }
        }
        out
    })
}

fn cases() -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(48)
}

fn check(v: &Variant, s: &State) -> bool {
    Game::from_state(&v.ruleset, v.hooks.as_ref(), s.clone()).is_ok()
}

/// A state after `steps` random legal actions (or the end of the match); every state on the way
/// must be accepted.
fn played(v: &Variant, targets: &[Target], seed: u64, steps: usize) -> State {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = NewGame::seeded(v.reference.clone(), seed);
    game.target = targets
        .get(rng.random_range(0..targets.len().max(1)))
        .copied();
    let mut state = Game::deal(&v.ruleset, v.hooks.as_ref(), game)
        .expect("a built-in form deals")
        .game;
    for _ in 0..steps {
        if let Err(e) = Game::from_state(&v.ruleset, v.hooks.as_ref(), state.state().clone()) {
            panic!("a state reached by legal play is refused: {e}\n{state:?}");
        }
        let legal = state.legal_actions();
        if legal.is_empty() {
            break;
        }
        let a = &legal[rng.random_range(0..legal.len())];
        state = state
            .step(a)
            .unwrap_or_else(|e| panic!("listed action {a:?} refused: {e}"))
            .game;
    }
    state.into_state()
}

const EDGE_U32: [u32; 10] = [0, 1, 2, 3, 10, 11, 99, 255, u32::MAX - 1, u32::MAX];
const EDGE_I64: [i64; 9] = [
    0,
    1,
    -1,
    99,
    125,
    u32::MAX as i64,
    i64::MAX - 1,
    i64::MAX,
    i64::MIN,
];

fn edge_u32(rng: &mut impl Rng) -> u32 {
    EDGE_U32[rng.random_range(0..EDGE_U32.len())]
}

fn edge_i64(rng: &mut impl Rng) -> i64 {
    EDGE_I64[rng.random_range(0..EDGE_I64.len())]
}

fn seat(rng: &mut impl Rng) -> Seat {
    Seat::new([0, 1, 2, 3, 4, 7, 200, 255][rng.random_range(0..8)])
}

fn card(rng: &mut impl Rng) -> Card {
    Card::all().nth(rng.random_range(0..52)).expect("52 cards")
}

fn outcome(rng: &mut impl Rng) -> Outcome {
    [
        Outcome::Gin,
        Outcome::BigGin,
        Outcome::Knock,
        Outcome::Undercut,
        Outcome::Dead,
    ][rng.random_range(0..5)]
}

fn cards_of(rng: &mut impl Rng, from: CardSet) -> CardSet {
    from.iter().filter(|_| rng.random_bool(0.5)).collect()
}

/// Where a card lies at a table.
#[derive(Clone, Copy)]
enum Place {
    Hand(Role),
    Stock(usize),
    Discard(usize),
}

fn place_of(t: &Table, c: Card) -> Option<Place> {
    t.seats
        .roles()
        .find(|&r| t.hands[r].contains(c))
        .map(Place::Hand)
        .or_else(|| {
            t.stock
                .as_slice()
                .iter()
                .position(|&x| x == c)
                .map(Place::Stock)
        })
        .or_else(|| {
            t.discard
                .as_slice()
                .iter()
                .position(|&x| x == c)
                .map(Place::Discard)
        })
}

fn put(t: &mut Table, at: Place, old: Card, new: Card) {
    match at {
        Place::Hand(r) => {
            t.hands[r].remove(old);
            t.hands[r].insert(new);
        }
        Place::Stock(i) => t.stock.as_mut_slice()[i] = new,
        Place::Discard(i) => t.discard.as_mut_slice()[i] = new,
    }
}

fn without(p: &Pile, c: Card) -> Pile {
    let cards: Vec<Card> = p.as_slice().iter().copied().filter(|&x| x != c).collect();
    Pile::from_bottom_up(&cards).unwrap_or_default()
}

fn mutate_table(rng: &mut impl Rng, t: &mut Table, seats: u8) {
    match rng.random_range(0..16) {
        0 => {
            // Two cards change places: every card still once.
            let (a, b) = (card(rng), card(rng));
            if let (Some(pa), Some(pb)) = (place_of(t, a), place_of(t, b)) {
                put(t, pa, a, b);
                put(t, pb, b, a);
            }
        }
        1 => {
            // A card moves to another pile or hand.
            let c = card(rng);
            for r in [Role::new(0), Role::new(1)] {
                t.hands[r].remove(c);
                t.taken[r].remove(c);
            }
            t.stock = without(&t.stock, c);
            t.discard = without(&t.discard, c);
            match rng.random_range(0..4) {
                0 => {
                    t.stock.push(c);
                }
                1 => {
                    t.discard.push(c);
                }
                r => {
                    t.hands[[Role::new(0), Role::new(1)][r - 2]].insert(c);
                }
            }
        }
        2 => t.upcard = card(rng),
        3 => {
            t.knock_limit =
                [None, Some(0), Some(1), Some(10), Some(98), Some(255)][rng.random_range(0..6)]
        }
        4 => t.multiplier = edge_u32(rng),
        5 => t.reshuffles = edge_u32(rng),
        6 => t.dealer = Seat::new(seat(rng).number() % seats.max(1)),
        7 => t.seats.swap(Role::new(0), Role::new(1)),
        8 => {
            let r = [Role::new(0), Role::new(1)][rng.random_range(0..2)];
            t.taken[r] = cards_of(rng, t.hands[r]);
        }
        9 => {
            let (s, passes) = (
                t.seats[[Role::new(0), Role::new(1)][rng.random_range(0..2)]],
                rng.random_range(0..3),
            );
            t.phase = match rng.random_range(0..5) {
                0 => Phase::UpcardOffer { seat: s, passes },
                1 => Phase::Draw {
                    seat: s,
                    stock_only: rng.random_bool(0.5),
                },
                2 => Phase::Discard {
                    seat: s,
                    taken: rng.random_bool(0.5).then(|| card(rng)),
                    must_go_out: rng.random_bool(0.3),
                },
                3 => Phase::LastDiscard { seat: s, passes: 0 },
                _ => {
                    let k = t.seats.find(|&x| x != s).unwrap_or(Role::FIRST);
                    let melds = gin_rules::melds::best_arrangement(
                        &gin_rules::ruleset::MeldRules::standard(),
                        t.hands[k],
                    );
                    Phase::LayOff {
                        seat: s,
                        knock: Box::new(Knock {
                            knocker: t.seats[k],
                            melds: melds.melds,
                            deadwood: melds.deadwood,
                            outcome: outcome(rng),
                            laid_off: Vec::new(),
                        }),
                    }
                }
            };
        }
        10 => match &mut t.phase {
            Phase::LayOff { knock, .. } => match rng.random_range(0..3) {
                0 => knock.outcome = outcome(rng),
                1 => knock.deadwood = edge_u32(rng),
                _ => knock.melds = knock.melds.repeat(rng.random_range(2..5)),
            },
            Phase::Over { result } => mutate_result(rng, result),
            _ => {}
        },
        11 => {
            if let Phase::Over { result } = &mut t.phase {
                mutate_result(rng, result);
            }
        }
        12 => {
            let r = [Role::new(0), Role::new(1)][rng.random_range(0..2)];
            if let Some(c) = t.hands[r].first() {
                t.hands[r].remove(c);
                t.taken[r].remove(c);
                t.hands[t.seats.next(r)].insert(c);
            }
        }
        13 => {
            let top = t.discard.pop();
            if let Some(c) = top {
                t.stock.push(c);
            }
        }
        14 => {
            if let Some(c) = t.stock.pop() {
                t.discard.push(c);
            }
        }
        _ => t.seats[[Role::new(0), Role::new(1)][rng.random_range(0..2)]] = seat(rng),
    }
}

fn mutate_result(rng: &mut impl Rng, r: &mut HandResult) {
    match rng.random_range(0..9) {
        0 => r.outcome = outcome(rng),
        1 => r.winner = rng.random_bool(0.8).then(|| seat(rng)),
        2 => {
            if let Some(p) = r.points.iter_mut().next() {
                *p = edge_i64(rng);
            }
        }
        3 => {
            let i = rng.random_range(0..r.deadwood.len().max(1));
            if let Some(d) = r.deadwood.get_mut(Seat::new(i as u8)) {
                *d = edge_u32(rng);
            }
        }
        4 => r.multiplier = edge_u32(rng),
        5 => r.game.moves = edge_u32(rng),
        6 => r.table = TableNo::new(rng.random_range(0..3)),
        7 => r.laid_off.push(LayOff {
            card: card(rng),
            onto: rng.random_range(0..4),
        }),
        _ => {
            let i = rng.random_range(0..r.melds.len().max(1));
            if let Some(m) = r.melds.get_mut(Seat::new(i as u8)) {
                m.push(vec![card(rng), card(rng), card(rng)]);
            }
        }
    }
}

/// One random change a client could make to a plain state.
fn mutate(rng: &mut impl Rng, s: &mut State, seats: u8) {
    match rng.random_range(0..14) {
        0..=5 => {
            let i = rng.random_range(0..s.tables.len().max(1));
            if let Some(t) = s.tables.get_mut(i) {
                mutate_table(rng, t, seats);
            }
        }
        6 => s.deal_number = edge_u32(rng),
        7 => s.game.moves = edge_u32(rng),
        8 => {
            let r = Arc::make_mut(&mut s.record);
            let g = rng.random_range(0..r.games.len().max(1));
            if let Some(game) = r.games.get_mut(g) {
                let side = rng.random_range(0..game.points.len().max(1));
                match rng.random_range(0..3) {
                    0 => {
                        if let Some(p) = game.points.get_mut(side) {
                            *p = edge_i64(rng);
                        }
                    }
                    1 => {
                        if let Some(h) = game.hands_won.get_mut(side) {
                            *h = edge_u32(rng);
                        }
                    }
                    _ => game.closed = !game.closed,
                }
            }
        }
        9 => {
            let r = Arc::make_mut(&mut s.record);
            let sides = r.layout.sides.len();
            r.bonuses.push(GameBonus {
                game: rng.random_range(0..3),
                winner: Side::new([0, 1, 7][rng.random_range(0..3)]),
                game_bonus: vec![100; sides],
                boxes: vec![25; sides],
                shutout: 1,
                totals: vec![edge_i64(rng); sides],
            });
        }
        10 => {
            let r = Arc::make_mut(&mut s.record);
            match rng.random_range(0..3) {
                0 => r.layout.sides.reverse(),
                1 => {
                    if let Some(first) = r.layout.sides.first_mut() {
                        first.reverse();
                    }
                    let n = r.layout.sides.len();
                    if n >= 2 {
                        let moved = r.layout.sides[0].pop();
                        if let Some(m) = moved {
                            r.layout.sides[1].push(m);
                        }
                    }
                }
                _ => r.layout.games = [0, 1, 3, 9][rng.random_range(0..4)],
            }
        }
        11 => {
            s.winners = match rng.random_range(0..3) {
                0 => None,
                1 => Some(Vec::new()),
                _ => Some(vec![seat(rng)]),
            }
        }
        12 => match rng.random_range(0..3) {
            0 => {
                s.tables.pop();
            }
            1 => {
                if let Some(t) = s.tables.first().cloned() {
                    s.tables.push(t);
                }
            }
            _ => s.tables.reverse(),
        },
        _ => {
            s.target = [
                Target::SingleHand,
                Target::Points(0),
                Target::Points(1),
                Target::Points(100),
                Target::Points(u32::MAX),
            ][rng.random_range(0..5)]
        }
    }
}

/// Any action a client could send, legal or not.
fn random_action(rng: &mut impl Rng, s: &State) -> Action {
    let seat = rng.random_range(0..(s.seats() as u8).saturating_add(1));
    let melds = |rng: &mut ChaCha8Rng| {
        rng.random_bool(0.3)
            .then(|| vec![vec![card(rng), card(rng), card(rng)]])
    };
    let mut r = ChaCha8Rng::seed_from_u64(rng.random());
    let kind = match r.random_range(0..8) {
        0 => ActionKind::TakeUpcard,
        1 => ActionKind::Pass,
        2 => ActionKind::Draw {
            from: if r.random_bool(0.5) {
                Source::Stock
            } else {
                Source::Discard
            },
        },
        3 => ActionKind::Discard { card: card(&mut r) },
        4 => ActionKind::Knock {
            discard: card(&mut r),
            melds: melds(&mut r),
        },
        5 => ActionKind::Gin {
            discard: r.random_bool(0.8).then(|| card(&mut r)),
            melds: melds(&mut r),
        },
        6 => ActionKind::LayOff {
            cards: (0..r.random_range(0..4))
                .map(|_| LayOffCard {
                    card: card(&mut r),
                    onto: [None, Some(0), Some(1), Some(usize::MAX)][r.random_range(0..4)],
                })
                .collect(),
        },
        _ => ActionKind::NextHand,
    };
    Action::new(seat, kind)
}

/// What every accepted state keeps: each card once at every table, and scores that add up.
fn invariants(v: &Variant, s: &Game) {
    for t in &s.tables {
        let held: usize = t.hands.iter().map(|h| h.len() as usize).sum();
        let n = held + t.stock.len() + t.discard.len();
        let all = t
            .hands
            .iter()
            .fold(CardSet::EMPTY, |a, &h| a.union(h))
            .union(t.stock.to_set())
            .union(t.discard.to_set());
        // The natural cards once each; the jokers (alike, so counted) as many as the deck has.
        assert_eq!(
            all.minus(CardSet::JOKERS),
            CardSet::FULL,
            "a card is lost: {t:?}"
        );
        let jokers = t
            .hands
            .iter()
            .map(|h| h.intersect(CardSet::JOKERS).len() as usize)
            .sum::<usize>()
            + t.stock.as_slice().iter().filter(|c| c.is_joker()).count()
            + t.discard.as_slice().iter().filter(|c| c.is_joker()).count();
        assert_eq!(
            jokers,
            usize::from(v.ruleset.jokers),
            "a joker is lost: {t:?}"
        );
        assert_eq!(n, 52 + jokers, "a card is doubled: {t:?}");
        // Each hand names its jokers from the first: only natural cards are told apart.
        let naturals: Vec<CardSet> = t.hands.iter().map(|&h| h.minus(CardSet::JOKERS)).collect();
        for (i, a) in naturals.iter().enumerate() {
            for b in &naturals[i + 1..] {
                assert!(a.is_disjoint(*b), "a card is in two hands: {t:?}");
            }
        }
        if let Phase::Over { result } = &t.phase
            && let Some(w) = result.winner
        {
            assert!(t.role(w).is_some(), "winner {w} not at the table");
        }
    }
    let seats = v.ruleset.seats;
    let r = &s.record;
    let mut totals = vec![0i64; r.layout.sides.len()];
    for g in &r.games {
        for (side, (&p, &h)) in g.points.iter().zip(&g.hands_won).enumerate() {
            assert!(p >= i64::from(h), "points {p} from {h} hands won");
            totals[side] = totals[side].checked_add(p).expect("totals fit");
        }
    }
    assert_eq!(s.scores().totals, totals);
    if s.deal_number == 0 && !s.is_between_hands() {
        assert!(totals.iter().all(|&t| t == 0), "scores before any hand");
    }
    if let Some(w) = &s.winners {
        assert!(w.iter().all(|x| x.is_in(seats)));
        assert!(r.games.iter().all(|g| g.closed));
    }
    for seat in Seat::all(seats) {
        let _ = s.view(seat);
    }
}

fn fuzz_one(form: usize, seed: u64, steps: usize, changes: usize) {
    let all = forms();
    let (v, targets) = &all[form % all.len()];
    let real = played(v, targets, seed, steps);
    assert!(check(v, &real), "a played state is refused");
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut s = real.clone();
    for _ in 0..changes {
        mutate(&mut rng, &mut s, v.ruleset.seats);
    }
    // Through JSON, as a client sends it.
    let Ok(s) = serde_json::from_str::<State>(&serde_json::to_string(&s).expect("writes")) else {
        return;
    };
    let Ok(game) = Game::from_state(&v.ruleset, v.hooks.as_ref(), s.clone()) else {
        return;
    };
    invariants(v, &game);
    let mut actions = game.legal_actions();
    actions.truncate(4);
    actions.push(random_action(&mut rng, &s));
    for a in &actions {
        if let Ok(next) = game.step(a) {
            let state = next.game.state().clone();
            if let Err(e) = Game::from_state(&v.ruleset, v.hooks.as_ref(), state) {
                panic!(
                    "a step from an accepted state gives a refused one: {e}\nfrom {s:?}\nby {a:?}"
                );
            }
            invariants(v, &next.game);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn mutated_states_are_refused_or_keep_every_invariant(
        form in 0usize..1000,
        seed in any::<u64>(),
        steps in 0usize..400,
        changes in 1usize..4,
    ) {
        fuzz_one(form, seed, steps, changes);
    }

    #[test]
    fn states_played_far_are_accepted_and_step(
        form in 0usize..1000,
        seed in any::<u64>(),
    ) {
        fuzz_one(form, seed, 600, 0);
    }
}

#[test]
fn every_form_is_fuzzed() {
    assert!(forms().len() >= 20, "{} forms", forms().len());
}
