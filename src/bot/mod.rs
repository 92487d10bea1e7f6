//! Bots at three levels, each deciding from one seat's view alone (never the stock order or an
//! opponent's unseen cards): `random`, `basic` and `strong`. Every rule they need comes from the
//! `Ruleset`, so they play any built-in or authored ruleset and every form.

mod autoplay;
mod basic;
mod random;
mod seen;
mod strong;

use serde::Serialize;

use crate::engine::{Action, Game, SeatView};
use crate::ruleset::Ruleset;
use crate::seat::Seat;

pub use crate::level::{BotSeats, Level, UnknownLevel};
pub use autoplay::{Pace, Played, Unhurried, play_bots};
pub use seen::Seen;
pub use strong::Tuning;

/// What a bot plays, and why in a sentence a player understands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Decision {
    /// The action, one of the seat's legal actions, accepted verbatim by `POST /v1/games/step`.
    pub action: Action,
    /// Why the bot plays it, in a sentence a player understands.
    pub why: String,
}

/// The action a bot of `level` plays for the seat of `view`, or `None` when that seat has nothing
/// to do. Reads the view only, so the same view always gets the same decision.
pub fn decide(level: Level, rules: &Ruleset, view: &SeatView) -> Option<Decision> {
    let first = view.legal_actions.first()?;
    Some(match level {
        Level::Random => random::decide(view, first),
        Level::Basic => basic::decide(rules, view, first),
        Level::Strong => strong::decide(&Tuning::STRONG, rules, view, first),
    })
}

/// [`decide`] for a `strong` bot playing by other weights than the level's.
pub fn decide_strong(tuning: &Tuning, rules: &Ruleset, view: &SeatView) -> Option<Decision> {
    let first = view.legal_actions.first()?;
    Some(strong::decide(tuning, rules, view, first))
}

/// [`decide`] for `seat` of a whole game: the bot sees that seat's view only, with the match
/// scores as totals (a bot reads no more of them).
pub fn decide_for(level: Level, game: &Game, seat: Seat) -> Option<Decision> {
    decide(level, game.rules(), &game.play_view(seat)?)
}

/// The `basic` bot's action for `seat`, or `None` when `seat` has nothing to do.
pub fn choose(game: &Game, seat: Seat) -> Option<Action> {
    decide_for(Level::Basic, game, seat).map(|d| d.action)
}
