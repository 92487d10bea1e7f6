//! What the benches share: a one-hand standard game from a seed, and a hand played in place.
#![allow(dead_code)]

use gin_rules::engine::hooks::NoHooks;
use gin_rules::engine::{Action, Event, Game, NewGame};
use gin_rules::ruleset::{Ruleset, RulesetRef, Target};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// A one-hand game dealt from `seed`.
pub fn deal(rules: &Ruleset, seed: u64) -> Option<Game<'_>> {
    let reference = RulesetRef::named("standard");
    let mut game = NewGame::seeded(reference, seed);
    game.target = Some(Target::SingleHand);
    Game::deal(rules, &NoHooks, game)
        .ok()
        .map(|dealt| dealt.game)
}

/// A hand (`None`: not dealt) played in place with two reused buffers, each move picked at
/// random from what `moves` lists; the steps it took.
pub fn hand_in_place(
    game: Option<Game>,
    rng: &mut ChaCha8Rng,
    legal: &mut Vec<Action>,
    events: &mut Vec<Event>,
    moves: impl Fn(&Game, &mut Vec<Action>),
) -> usize {
    let Some(mut game) = game else {
        return 0;
    };
    let mut steps = 0;
    loop {
        moves(&game, legal);
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

/// Every legal action, as `Game::legal_actions_into` lists them.
pub fn legal(game: &Game, out: &mut Vec<Action>) {
    game.legal_actions_into(out);
}
