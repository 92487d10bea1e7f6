//! The game as a pure state machine: a [`Game`] is dealt or checked, then played with `step`,
//! `legal_actions` and `view`.
//! Nothing here knows YAML, Rhai or HTTP: it reads a validated [`Ruleset`](crate::ruleset::Ruleset)
//! and calls [`Hooks`](hooks::Hooks).

mod action;
mod deal;
mod error;
mod event;
mod game;
mod game_score;
mod hand_score;
pub mod hooks;
mod identity;
mod layout;
mod legal;
mod log;
mod outcome;
mod pile;
mod play_rules;
mod score;
mod start;
mod state;
mod step;
#[cfg(test)]
#[path = "../../tests/baseline/step_before.rs"]
mod step_before;
mod validate;
mod view;

pub use action::{Action, ActionKind, LayOffCard, Source};
pub use deal::{check_deck, cut_for_dealer, seating, shuffled_deck, shuffled_deck_with};
pub use error::{DealError, IllegalAction, Overflow, StepError};
pub use event::Event;
pub use game::{Game, Stepped};
pub use hand_score::ScorePart;
pub use identity::{BadGameId, GameId, GameRef};
pub use log::{Log, Logging, ParseEntryError};
pub use outcome::Outcome;
pub use pile::Pile;
pub use start::NewGame;
pub use state::{
    GameBonus, HandResult, Knock, MatchRecord, Phase, STATE_VERSION, Scores, State, Table,
};
pub use validate::InvalidState;
pub use view::{KnockView, Overview, PlayerView, SeatView};

/// Reads a JSON string with `T`'s parser, without copying it (a `Cow<str>` is always a copy).
fn parse_str<'de, T, D>(d: D) -> Result<T, D::Error>
where
    T: std::str::FromStr<Err: std::fmt::Display>,
    D: serde::Deserializer<'de>,
{
    struct Parsed<T>(std::marker::PhantomData<T>);
    impl<T: std::str::FromStr<Err: std::fmt::Display>> serde::de::Visitor<'_> for Parsed<T> {
        type Value = T;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a string")
        }

        fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<T, E> {
            s.parse().map_err(E::custom)
        }
    }
    d.deserialize_str(Parsed(std::marker::PhantomData))
}
