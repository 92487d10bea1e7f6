//! The server's bots: the seats a game's state names in `bots` are played, each from its own
//! seat's view, whenever they are to act, until a human seat must act or the match is over.

use crate::engine::{Event, Game, StepError};
use crate::level::Level;
use crate::seat::Seat;

use super::decide_for;

/// Bot actions one call plays at most, per table of the deal and turn a hand may last: more than
/// any hand takes (its turns, two each, and the upcard offer, a lay-off or a last-discard pass),
/// so a call always ends with the hand over or a human to act, and the bound only guards against
/// a mistake.
const ACTIONS_PER_TURN: usize = 2;
const ACTIONS_BEYOND_TURNS: usize = 8;

/// How a call's bots decide: at their own level while `think` says there is time, then, for the
/// rest of the call, at the cheap level [`Level::Basic`] (a `strong` bot's decision costs up to a
/// millisecond; a `basic` one, about a microsecond).
pub trait Pace {
    /// Whether the bots may still decide at their own level.
    fn think(&mut self) -> bool;
}

/// Bots always at their own level (the command line, and anything without a CPU budget).
pub struct Unhurried;

impl Pace for Unhurried {
    fn think(&mut self) -> bool {
        true
    }
}

/// What [`play_bots`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// Bot actions played.
    pub actions: usize,
    /// Of those, decided at the cheap level because the pace said there was no more time.
    pub hurried: usize,
}

/// Plays the bot seats of `game` that are to act, appending what they did to `events`, until no
/// bot is to act, the hand is over at every table (a human deals the next one) or the match is
/// over. Bots at a table without a human play on while a human elsewhere is to act. Every hand
/// ends within the ruleset's turn limit, so so does this.
pub fn play_bots(
    game: &mut Game,
    events: &mut Vec<Event>,
    pace: &mut dyn Pace,
) -> Result<Played, StepError> {
    let tables = game.tables.len().max(1);
    let per_table = (game.rules().turn_limit as usize)
        .saturating_mul(ACTIONS_PER_TURN)
        .saturating_add(ACTIONS_BEYOND_TURNS);
    let most = tables.saturating_mul(per_table);
    let mut played = Played::default();
    let mut thinking = true;
    while played.actions < most {
        thinking = thinking && pace.think();
        let Some((seat, decision)) = next_bot(game, thinking) else {
            break;
        };
        debug_assert_eq!(decision.action.seat, seat);
        game.apply(&decision.action, events)?;
        played.actions += 1;
        if !thinking {
            played.hurried += 1;
        }
    }
    Ok(played)
}

/// The first bot seat to act, with what it plays (at its level, or `basic` when not
/// `thinking`); `None` when no bot acts now.
fn next_bot(game: &Game, thinking: bool) -> Option<(Seat, super::Decision)> {
    if game.bots.is_empty() || game.is_over() || game.is_between_hands() {
        return None;
    }
    game.to_act().into_iter().find_map(|seat| {
        let level = *game.bots.get(&seat)?;
        let level = if thinking {
            level
        } else {
            level.min(Level::Basic)
        };
        decide_for(level, game, seat).map(|d| (seat, d))
    })
}
