//! The answer to a deal or a step: the state to send back and everything a client shows.

use serde::Serialize;
use utoipa::ToSchema;

use crate::engine::{self, Action, Event, Scores, SeatView, State};
use crate::ruleset::Seat;

use super::{AppState, Variant};

/// Where the match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Someone may act (or deal the next hand).
    InProgress,
    /// The match is over: `scores` and the `match_over` event name the winner(s).
    MatchOver,
}

/// A game state as the server hands it out: a sealed token when the server has a secret, else the
/// plain state object. Send it back verbatim with the next request.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum StateOutput {
    Sealed(String),
    Plain(Box<State>),
}

/// A game after a deal or a step.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct Snapshot {
    /// Pass back verbatim with the next action.
    #[schema(schema_with = super::openapi::state_schema)]
    pub state: StateOutput,
    pub status: Status,
    /// Seats that may act now (every seat between hands, where any may deal the next hand).
    #[schema(value_type = Vec<u8>)]
    pub to_act: Vec<Seat>,
    /// Every action the engine accepts now; each is accepted verbatim by `POST /v1/games/step`.
    pub legal_actions: Vec<Action>,
    /// What this request did, in order, as every player may see it (a card drawn from the stock
    /// is left out).
    pub events: Vec<Event>,
    /// One view per seat: what that player may see.
    pub views: Vec<SeatView>,
    /// Match scores so far.
    pub scores: Scores,
}

impl Snapshot {
    /// The snapshot of `state` after `events`, sealing the state when the server seals.
    pub fn new(app: &AppState, variant: &Variant, state: State, events: Vec<Event>) -> Snapshot {
        let rules = &variant.ruleset;
        let status = if state.is_over() {
            Status::MatchOver
        } else {
            Status::InProgress
        };
        let legal_actions = engine::legal_actions(rules, &state);
        let views = engine::views(rules, &state);
        let to_act = state.to_act();
        let scores = state.scores();
        let events = events.iter().map(|e| e.seen_by(None)).collect();
        let state = match &app.sealer {
            Some(sealer) => StateOutput::Sealed(sealer.seal(&state)),
            None => StateOutput::Plain(Box::new(state)),
        };
        Snapshot {
            state,
            status,
            to_act,
            legal_actions,
            events,
            views,
            scores,
        }
    }
}
