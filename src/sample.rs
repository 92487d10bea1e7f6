//! Sample games: a plain, deterministic player that goes out when it can, for the examples of
//! the API document and for `gin-rules check`, which runs a ruleset's hooks in real games.

use std::ops::ControlFlow;

use crate::engine::hooks::Hooks;
use crate::engine::{
    Action, ActionKind, DealError, Game, NewGame, Source, State, StepError, Stepped,
};
use crate::melds::least_deadwood;
use crate::ruleset::Ruleset;

/// Plays `game` for at most `max_steps` actions (or to the match's end), calling `seen` with the
/// deal and after every action, and the legal actions offered before each; `seen` may stop it.
/// The first error ends it.
pub fn play(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    game: NewGame,
    max_steps: usize,
    greedy: bool,
    mut seen: impl FnMut(&Stepped, &[Action]) -> ControlFlow<()>,
) -> Result<(), SampleError> {
    let mut at = Game::deal(rules, hooks, game).map_err(SampleError::Deal)?;
    for _ in 0..max_steps {
        let legal = at.game.legal_actions();
        if seen(&at, &legal).is_break() {
            return Ok(());
        }
        let Some(action) = choose(rules, &at.game, &legal, greedy) else {
            return Ok(());
        };
        at = at.game.step(&action).map_err(SampleError::Step)?;
    }
    let _ = seen(&at, &[]);
    Ok(())
}

/// Why a sample game stopped early.
#[derive(Debug, thiserror::Error)]
pub enum SampleError {
    #[error("{0}")]
    Deal(DealError),
    #[error("{0}")]
    Step(StepError),
}

/// Gin or knock when allowed, the largest lay-off, the next hand, the upcard when `greedy`, else
/// the stock, and the discard that leaves the least deadwood.
pub fn choose(rules: &Ruleset, state: &State, legal: &[Action], greedy: bool) -> Option<Action> {
    let first = |f: &dyn Fn(&ActionKind) -> bool| legal.iter().find(|a| f(&a.kind)).cloned();
    first(&|k| matches!(k, ActionKind::Gin { .. }))
        .or_else(|| first(&|k| matches!(k, ActionKind::Knock { .. })))
        .or_else(|| {
            legal
                .iter()
                .filter(|a| matches!(a.kind, ActionKind::LayOff { .. }))
                .max_by_key(|a| match &a.kind {
                    ActionKind::LayOff { cards } => cards.len(),
                    _ => 0,
                })
                .cloned()
        })
        .or_else(|| first(&|k| matches!(k, ActionKind::NextHand)))
        .or_else(|| {
            greedy
                .then(|| first(&|k| matches!(k, ActionKind::TakeUpcard)))
                .flatten()
        })
        .or_else(|| {
            first(&|k| {
                matches!(
                    k,
                    ActionKind::Draw {
                        from: Source::Stock
                    }
                )
            })
        })
        .or_else(|| first(&|k| matches!(k, ActionKind::Pass)))
        .or_else(|| {
            legal
                .iter()
                .filter_map(|a| match a.kind {
                    ActionKind::Discard { card } => {
                        let table = state.tables.get(state.table_of(a.seat)?.index())?;
                        let hand = table.hands[table.role(a.seat)?];
                        Some((least_deadwood(&rules.melds, hand.without(card)), a))
                    }
                    _ => None,
                })
                .min_by_key(|(deadwood, _)| *deadwood)
                .map(|(_, a)| a.clone())
        })
        .or_else(|| legal.first().cloned())
}
