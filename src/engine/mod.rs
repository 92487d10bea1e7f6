//! The game as a pure state machine: `new_game`, `legal_actions`, `step`, `view`.
//! Nothing here knows YAML, Rhai or HTTP: it reads a validated [`Ruleset`](crate::ruleset::Ruleset)
//! and calls [`Hooks`](crate::hooks::Hooks).

mod action;
mod deal;
mod error;
mod event;
mod game;
mod identity;
mod legal;
mod pile;
mod rule;
mod score;
mod state;
mod step;
mod validate;
mod view;

pub use crate::game_types::Outcome;
pub use action::{Action, ActionKind, LayOffCard, Source};
pub use deal::{check_deck, cut_for_dealer, seating, shuffled_deck};
pub use error::{DealError, IllegalAction, Overflow, StepError};
pub use event::Event;
pub use game::{NewGame, new_game};
pub use identity::{BadGameId, GameId, GameRef};
pub use legal::{legal_actions, legal_actions_into};
pub use pile::Pile;
pub use state::{
    GameBonus, HandResult, Knock, MatchRecord, Phase, STATE_VERSION, Scores, State, Table,
};
pub use step::{Stepped, apply, step};
pub use validate::{InvalidState, validate};
pub use view::{KnockView, PlayerView, SeatView, play_view, view, views};
