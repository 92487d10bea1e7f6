//! The server's bots: the seats a game's state names in `bots` are played, each from its own
//! seat's view, whenever they are to act, until a human seat must act or the match is over.

use crate::engine::{Event, Game, StepError};
use crate::seat::Seat;

use super::decide_for;

/// Bot actions one call plays at most: far more than a hand takes, so only a hand that never
/// ends (bots passing a reshuffled stock back and forth) stops here.
pub const MAX_BOT_ACTIONS: usize = 2_000;

/// Plays the bot seats of `game` that are to act, appending what they did to `events`, until no
/// bot is to act, the hand is over at every table (a human deals the next one) or the match is
/// over. Bots at a table without a human play on while a human elsewhere is to act. Returns how
/// many actions the bots played.
pub fn play_bots(game: &mut Game, events: &mut Vec<Event>) -> Result<usize, StepError> {
    let mut played = 0;
    while played < MAX_BOT_ACTIONS {
        let Some((seat, decision)) = next_bot(game) else {
            break;
        };
        debug_assert_eq!(decision.action.seat, seat);
        game.apply(&decision.action, events)?;
        played += 1;
    }
    Ok(played)
}

/// The first bot seat to act, with what it plays; `None` when no bot acts now.
fn next_bot(game: &Game) -> Option<(Seat, super::Decision)> {
    if game.bots.is_empty() || game.is_over() || game.is_between_hands() {
        return None;
    }
    game.to_act().into_iter().find_map(|seat| {
        let level = *game.bots.get(&seat)?;
        decide_for(level, game, seat).map(|d| (seat, d))
    })
}
