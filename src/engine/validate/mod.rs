//! Checking a plain state that arrives from outside before anything is done with it.
//!
//! The rule: a state is accepted only if legal play from a deal can reach it. The checks run in
//! three rounds, each only on a state that passed the one before (so that no check indexes past
//! what an earlier one found wrong):
//! 1. shape ([`record::check_shape`], [`table::check_seats`]): the version, the match layout the
//!    ruleset's hook gives, lengths, seats, the target;
//! 2. each table ([`table::check_table`]): every card once, hand sizes, piles and phase as play
//!    leaves them;
//! 3. across fields ([`deal`], [`record`], [`replay`]): the seating, knock limit and multiplier
//!    the hooks give for this deal; scores, closed games, bonuses and winners as the results make
//!    them; and each table's hand played again from its deal through the plays it records, which
//!    must give its cards, phase and result exactly (a later deal's cards are the seeded ones).
//!
//! What no check can see: the play of earlier deals, and the play before a reshuffle, whose plays
//! are not kept (see README, "Plain states").

mod deal;
mod record;
mod replay;
mod table;

use crate::hooks::Hooks;
use crate::ruleset::Ruleset;

use super::state::{STATE_VERSION, State};

pub(crate) use table::check_bots;

/// A state that cannot be played, with every problem found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game state is not valid: {}", .problems.join("; "))]
pub struct InvalidState {
    pub problems: Vec<String>,
}

/// Checks everything a state must satisfy under `rules` and `hooks`, listing the problems found.
pub(crate) fn validate(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &State,
) -> Result<(), InvalidState> {
    let mut p = Vec::new();
    if state.version != STATE_VERSION {
        p.push(format!(
            "format version {} is not the supported version {STATE_VERSION}",
            state.version
        ));
    }
    // The version alone does not stop the later rounds: every problem of an old state is listed.
    let versioned = p.len();
    record::check_shape(rules, hooks, state, &mut p);
    table::check_seats(rules, state, &mut p);
    if p.len() > versioned {
        return Err(InvalidState { problems: p });
    }
    let named = state.tables.len() > 1;
    for (i, t) in state.tables.iter().enumerate() {
        table::check_table(rules, t, &at(i, named), &mut p);
    }
    if p.len() > versioned {
        return Err(InvalidState { problems: p });
    }
    deal::check_deal(rules, hooks, state, &mut p);
    record::check_scores(rules, hooks, state, &mut p);
    record::check_moves(rules, state, &mut p);
    replay::check_replays(rules, state, &mut p);
    if p.is_empty() {
        Ok(())
    } else {
        Err(InvalidState { problems: p })
    }
}

/// How a problem names its table: `"table 1: "` where there are several.
fn at(index: usize, named: bool) -> String {
    if named {
        format!("table {index}: ")
    } else {
        String::new()
    }
}

/// The cards dealt before the stock: both hands and the upcard.
fn stock_at_deal(rules: &Ruleset) -> usize {
    52usize.saturating_sub(2 * usize::from(rules.hand_size) + 1)
}

/// Cards drawn from the stock so far at a table that was never reshuffled (`None` when the stock
/// holds more than it was dealt).
fn drawn_from_stock(rules: &Ruleset, t: &super::state::Table) -> Option<usize> {
    stock_at_deal(rules).checked_sub(t.stock.len())
}
