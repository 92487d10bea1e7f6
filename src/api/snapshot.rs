//! The answer to a deal or a step: the state to send back and everything a client shows.

use serde::Serialize;
use serde_json::value::RawValue;
use utoipa::ToSchema;

use crate::engine::{Action, Event, Game, GameRef, Overview, Scores, SeatView, State};
use crate::seat::Seat;

use super::BODY_LIMIT;
use super::answer::to_json_within;
use super::limits::STATE_ROOM;
use super::seats::{Audience, SeatKey};
use super::{ApiError, AppState, Variant};

/// Where the match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Someone may act (or deal the next hand).
    InProgress,
    /// The match is over: `scores` and the `match_over` event name the winner(s).
    MatchOver,
}

/// The ruleset a game is played under, readable even when the state is sealed: an authored
/// ruleset is told apart from any other with the same id by the hash of its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(example = json!({"id": "standard", "options": ["oklahoma"]}))]
pub struct RulesetName {
    /// The ruleset id (for an authored ruleset, the id its YAML declares; never a built-in id).
    #[schema(example = "standard")]
    pub id: String,
    /// The options in force, in the order applied.
    pub options: Vec<String>,
    /// Authored rulesets only: the SHA-256 (64 hex digits) of the YAML and scripts the game
    /// was dealt from, the same on every server (`POST /v1/rulesets/check` answers it too).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_hash: Option<String>,
}

impl RulesetName {
    pub fn of(variant: &Variant) -> RulesetName {
        RulesetName {
            id: variant.reference.id.clone(),
            options: variant.reference.options.clone(),
            content_hash: variant.content_hash.map(|h| h.hex()),
        }
    }
}

/// A game state as the server hands it out, written as JSON once: a sealed token when the server
/// has a secret, else the plain state object. Send it back verbatim with the next request.
#[derive(Clone, Debug, Serialize)]
#[serde(transparent)]
pub struct StateOutput(Box<RawValue>);

impl StateOutput {
    /// The plain state's JSON.
    pub fn plain(state: &State) -> Result<StateOutput, ApiError> {
        serde_json::value::to_raw_value(state)
            .map(StateOutput)
            .map_err(|e| ApiError::Internal(format!("the state does not serialise: {e}")))
    }

    /// A sealed token, as a JSON string.
    pub fn sealed(token: &str) -> Result<StateOutput, ApiError> {
        serde_json::value::to_raw_value(token)
            .map(StateOutput)
            .map_err(|e| ApiError::Internal(format!("the token does not serialise: {e}")))
    }

    /// The length of its JSON text.
    pub fn json_len(&self) -> usize {
        self.0.get().len()
    }
}

/// A game after a deal or a step. With seat keys it is one seat's: `views`, `legal_actions` and
/// `events` show what that seat may see and do.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Snapshot {
    /// Pass back verbatim with the next action.
    #[schema(schema_with = super::schemas::state_schema)]
    pub state: StateOutput,
    /// The game's id and the number of actions accepted so far.
    pub game: GameRef,
    /// The ruleset and options the game is played under.
    pub ruleset: RulesetName,
    /// `in_progress`, or `match_over` once the match is decided.
    pub status: Status,
    /// Seats a client may act for now (in the four-player form, one per table). Between hands
    /// every seat may deal the next hand but the server's bots: a bot's seat is never named.
    #[schema(value_type = Vec<u8>)]
    pub to_act: Vec<Seat>,
    /// Every action the engine accepts now (with seat keys: the key's seat's alone); each is
    /// accepted verbatim by `POST /v1/games/step`.
    pub legal_actions: Vec<Action>,
    /// What this request did, in order, as the answer's seat may see it (a card drawn from the
    /// stock shows only to the seat that drew it; without seat keys, to nobody).
    pub events: Vec<Event>,
    /// One view per seat: what that player may see (with seat keys: the key's seat's alone, or
    /// none in the deal's answer without `as_seat`).
    pub views: Vec<SeatView>,
    /// Match scores so far.
    pub scores: Scores,
    /// With seat keys, in the deal's answer only: each seat's key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<Vec<SeatKey>>,
}

impl Snapshot {
    /// The snapshot of `game` after `events` for `audience`, sealing its state when the server
    /// seals.
    pub fn new(
        app: &AppState,
        variant: &Variant,
        game: Game,
        events: Vec<Event>,
        audience: Audience,
    ) -> Result<Snapshot, ApiError> {
        let status = if game.is_over() {
            Status::MatchOver
        } else {
            Status::InProgress
        };
        let Overview {
            to_act,
            scores,
            legal_actions,
            views,
        } = game.overview(|seat| audience.shows(seat));
        let state = game.into_state();
        let events = events.iter().map(|e| e.seen_by(audience.seat())).collect();
        let game = state.game;
        let state = match &app.sealer {
            // A sealed state needs no proof: it is sealed without its log.
            Some(sealer) => {
                let token = sealer.seal(&State { log: None, ..state }).map_err(|e| {
                    tracing::error!(error = %e, "sealing");
                    ApiError::Internal(e.to_string())
                })?;
                StateOutput::sealed(&token)?
            }
            None => StateOutput::plain(&state)?,
        };
        Ok(Snapshot {
            state,
            game,
            ruleset: RulesetName::of(variant),
            status,
            to_act,
            legal_actions,
            events,
            views,
            scores,
            seats: None,
        })
    }
}

impl Snapshot {
    /// The answer's JSON, written into a buffer sized for it: the state, and about a kilobyte for
    /// each view and the rest.
    pub fn to_json(&self) -> Result<Vec<u8>, ApiError> {
        to_json_within(self, self.state.json_len() + 1024 * (self.views.len() + 1))
    }
}

/// `422 state-too-large` when `state` would not fit, with room to spare, in the body of the
/// requests that continue the game; `remedy` tells the client what makes it smaller.
pub fn check_state_fits(state: &StateOutput, remedy: &str) -> Result<(), ApiError> {
    let room = BODY_LIMIT - STATE_ROOM;
    let len = state.json_len();
    if len > room {
        return Err(ApiError::StateTooLarge(format!(
            "this game's state would be {len} bytes, and every request that continues the game \
             must carry it: at most {room} bytes (the body limit of {BODY_LIMIT} less \
             {STATE_ROOM} for the action and the state's growth); {remedy}"
        )));
    }
    Ok(())
}
