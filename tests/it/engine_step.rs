//! `step` as it was: random actions, legal or not, tried on the states of random play, each
//! outcome (the events and state it gives, or the refusal) hashed in its wire form. The digest
//! was recorded with the engine before `step` checked an action before changing the state, so
//! any change of behaviour changes it. Recorded again when tables began counting their turns
//! (`turns`, in the wire form of every state) and a hand began to end at the turn limit.
//!
//! `STEP_ACTIONS=3000000 cargo test --test it engine_step -- --nocapture` tries more actions
//! and prints the digest, to compare with the same run of an older engine.

use std::sync::Arc;

use gin_rules::cards::Card;
use gin_rules::engine::hooks::{Hooks, NoHooks};
use gin_rules::engine::{Action, ActionKind, Event, Game, LayOffCard, NewGame, Source, State};
use gin_rules::ruleset::{Ruleset, RulesetRef, Target};
use gin_rules::sample::choose;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::engine_props::{reference, scripted, shortest_target, variants};

/// Actions tried in CI.
const ACTIONS: u64 = 40_000;
/// The digest of the outcomes of the first `ACTIONS` actions.
const DIGEST: u64 = 0x03a2_5112_9262_8ee9;

/// Actions tried in one game at most, so that long matches leave room for many deals.
const GAME_ACTIONS: u64 = 1000;

/// FNV-1a, 64 bits: a hash that no Rust release changes.
struct Fnv(u64);

impl Fnv {
    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = (self.0 ^ 0xff).wrapping_mul(0x0100_0000_01b3);
    }
}

fn any_card(rng: &mut impl Rng) -> Card {
    Card::all().nth(rng.random_range(0..52)).unwrap()
}

/// A well-formed action, most often from a seat that may act, seldom a legal one.
fn random_action(rng: &mut ChaCha8Rng, state: &State) -> Action {
    let to_act = state.to_act();
    let seat = match to_act.first() {
        Some(&s) if rng.random_bool(0.8) => s.index() as u8,
        _ => rng.random_range(0..=state.seats() as u8),
    };
    let hand: Vec<Card> = state
        .tables
        .iter()
        .flat_map(|t| t.role(gin_rules::seat::Seat::new(seat)).map(|r| t.hands[r]))
        .flatten()
        .collect();
    let card = |rng: &mut ChaCha8Rng| match hand.len() {
        n if n > 0 && rng.random_bool(0.8) => hand[rng.random_range(0..n)],
        _ => any_card(rng),
    };
    let melds = |rng: &mut ChaCha8Rng| {
        rng.random_bool(0.3).then(|| {
            hand.chunks(3)
                .take(rng.random_range(0..4))
                .map(<[Card]>::to_vec)
                .collect()
        })
    };
    let kind = match rng.random_range(0..9) {
        0 => ActionKind::TakeUpcard,
        1 => ActionKind::Pass,
        2 => ActionKind::NextHand,
        3 => ActionKind::Draw {
            from: Source::Stock,
        },
        4 => ActionKind::Draw {
            from: Source::Discard,
        },
        5 => ActionKind::Discard { card: card(rng) },
        6 => ActionKind::Knock {
            discard: card(rng),
            melds: melds(rng),
        },
        7 => ActionKind::Gin {
            discard: rng.random_bool(0.8).then(|| card(rng)),
            melds: melds(rng),
        },
        _ => ActionKind::LayOff {
            cards: (0..rng.random_range(0..3))
                .map(|_| LayOffCard {
                    card: card(rng),
                    onto: rng.random_bool(0.5).then(|| rng.random_range(0..4)),
                })
                .collect(),
        },
    };
    Action::new(seat, kind)
}

/// Hashes what `a` does to `game` (by `step`), checking that `apply` does the same in place.
fn try_action(game: &Game, a: &Action, digest: &mut Fnv) {
    let stepped = game.step(a);
    let mut in_place = game.clone();
    let mut events: Vec<Event> = Vec::new();
    let applied = in_place.apply(a, &mut events);
    match stepped {
        Ok(next) => {
            assert!(applied.is_ok(), "{a:?}");
            assert_eq!(in_place.state(), next.game.state(), "{a:?}");
            assert_eq!(events, next.events, "{a:?}");
            digest.add(&serde_json::to_vec(&next.events).unwrap_or_default());
            let mut state = next.game.into_state();
            let log = state.log.take().unwrap_or_default();
            digest.add(&serde_json::to_vec(&state).unwrap_or_default());
            digest.add(&log.actions.len().to_le_bytes());
            let last = log.actions.last().map(ToString::to_string);
            digest.add(last.unwrap_or_default().as_bytes());
        }
        Err(e) => {
            assert_eq!(applied.err(), Some(e.clone()), "{a:?}");
            assert_eq!(in_place.state(), game.state(), "{a:?}");
            assert!(events.is_empty());
            digest.add(e.to_string().as_bytes());
        }
    }
}

/// A ruleset, its hooks, what a state names it by, and the target of its games.
type Form = (Arc<Ruleset>, Arc<dyn Hooks>, RulesetRef, Target);

/// Plays game `g` (random legal play with a bias to go out) until it ends or `budget` runs out,
/// trying random actions at every step; the actions tried.
fn play(g: u64, forms: &[Form], budget: u64, digest: &mut Fnv) -> u64 {
    let (rules, hooks, reference, target) = &forms[(g % forms.len() as u64) as usize];
    let mut rng = ChaCha8Rng::seed_from_u64(g);
    let mut deal = NewGame::seeded(reference.clone(), g);
    deal.target = Some(*target);
    let Ok(dealt) = Game::deal(rules, hooks.as_ref(), deal) else {
        panic!("game {g} is not dealt");
    };
    let mut game = dealt.game;
    let mut tried = 0;
    while tried < budget.min(GAME_ACTIONS) {
        let legal = game.legal_actions();
        if legal.is_empty() {
            break;
        }
        for _ in 0..4 {
            try_action(&game, &random_action(&mut rng, &game), digest);
        }
        let a = match rng.random_range(0..4) {
            0 => choose(rules, &game, &legal, rng.random_bool(0.5)),
            1 => legal
                .iter()
                .find(|a| matches!(a.kind, ActionKind::Knock { .. } | ActionKind::Gin { .. }))
                .cloned(),
            _ => None,
        }
        .unwrap_or_else(|| legal[rng.random_range(0..legal.len())].clone());
        try_action(&game, &a, digest);
        tried += 5;
        match game.step(&a) {
            Ok(next) => game = next.game,
            Err(e) => panic!("listed action {a:?} refused: {e}"),
        }
    }
    tried
}

#[test]
fn step_behaves_as_it_did() {
    let actions = std::env::var("STEP_ACTIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(ACTIONS);
    let plain: Arc<dyn Hooks> = Arc::new(NoHooks);
    let mut forms: Vec<Form> = variants()
        .into_iter()
        .map(|rules| {
            (
                Arc::new(rules),
                plain.clone(),
                reference(),
                Target::SingleHand,
            )
        })
        .collect();
    forms.extend(scripted().into_iter().map(|f| {
        let target = shortest_target(&f);
        (
            f.ruleset.clone(),
            f.hooks.clone(),
            f.reference.clone(),
            target,
        )
    }));
    let mut digest = Fnv(0xcbf2_9ce4_8422_2325);
    let (mut tried, mut g) = (0, 0);
    while tried < actions {
        tried += play(g, &forms, actions - tried, &mut digest);
        g += 1;
    }
    eprintln!("{tried} actions in {g} games: digest {:#018x}", digest.0);
    if actions == ACTIONS {
        assert_eq!(digest.0, DIGEST);
    }
}
