//! Opening a state a client sends back: a sealed token opened, or a plain state parsed and
//! checked against its ruleset, hooks and target.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::engine::{Game, InvalidState, STATE_VERSION, State};
use crate::rules::{ResolveError, Variant};
use crate::ruleset::Target;

use super::ApiError;
use super::metrics::Sealed;
use super::secrets::SecretAge;
use super::state::AppState;

impl AppState {
    /// Reads a `state` sent by a client: opens a sealed token (or refuses a plain state when
    /// sealing), parses it and resolves its ruleset; [`Opened::play`] checks it.
    pub fn open_state(&self, raw: &StateInput) -> Result<Opened, ApiError> {
        self.read_state(raw)?.resolve(self)
    }

    /// The first half of [`AppState::open_state`]: a sealed token opened and the state parsed,
    /// its ruleset not yet resolved (resolving an authored one compiles its scripts).
    pub fn read_state(&self, raw: &StateInput) -> Result<Read, ApiError> {
        let text = raw.0.get();
        let Some(sealer) = &self.sealer else {
            if text.trim_start().starts_with('"') {
                return Err(ApiError::TamperedState(
                    "this server does not seal states and cannot open a token: send the \
                     plain state object"
                        .into(),
                ));
            }
            return Ok(Read {
                state: parse_plain_state(text)?,
                sealed: false,
            });
        };
        let token: String = serde_json::from_str(text).map_err(|_| {
            ApiError::TamperedState(
                "this server accepts only sealed states: send back the state token exactly as \
                 it was returned"
                    .into(),
            )
        })?;
        let (bytes, age) = sealer
            .open(&token)
            .map_err(|e| ApiError::TamperedState(e.to_string()))?;
        if age == SecretAge::Older {
            self.metrics.older_secret(Sealed::State);
        }
        let state = serde_json::from_slice(&bytes)
            .map_err(|e| ApiError::TamperedState(format!("the sealed state does not read: {e}")))?;
        Ok(Read {
            state,
            sealed: true,
        })
    }
}

/// A state as a request sent it, parsed (or unsealed) but with its ruleset not yet resolved.
pub struct Read {
    pub state: State,
    sealed: bool,
}

impl Read {
    /// The state with the variant its ruleset names.
    pub fn resolve(self, app: &AppState) -> Result<Opened, ApiError> {
        let variant = app.resolve(&self.state.ruleset)?;
        Ok(Opened {
            variant,
            state: self.state,
            sealed: self.sealed,
        })
    }
}

/// A state as a request sent it, with the variant its ruleset names; not yet checked.
pub struct Opened {
    pub variant: Arc<Variant>,
    state: State,
    /// Sealed by this server (a plain state's problems are all listed at once).
    sealed: bool,
}

impl Opened {
    /// Checks the state and hands `work` the game to play with the variant it is played under:
    /// a plain state checked against its ruleset and hooks (its log played again), a sealed one
    /// taken as this server made it; and its target against the options in force (the engine
    /// sees only the resolved ruleset). The state moves into the game, uncopied.
    pub fn play<T>(
        self,
        work: impl FnOnce(&Variant, Game<'_>) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let Opened {
            variant,
            state,
            sealed,
        } = self;
        let (rules, hooks) = (&variant.ruleset, variant.hooks.as_ref());
        let game = if sealed {
            let game = Game::from_sealed(rules, hooks, state)?;
            variant
                .check_target(game.target)
                .map_err(|e| ApiError::InvalidState(vec![e.to_string()]))?;
            game
        } else {
            let target = state.target;
            check_plain_state(&variant, Game::from_state(rules, hooks, state), target)?
        };
        work(&variant, game)
    }
}

/// A plain state is checked against its ruleset and hooks, and its match target against the
/// options: a target an option refuses is never dealt.
fn check_plain_state<'v>(
    variant: &Variant,
    checked: Result<Game<'v>, InvalidState>,
    target: Target,
) -> Result<Game<'v>, ApiError> {
    let mut problems = match &checked {
        Ok(_) => Vec::new(),
        Err(e) => e.problems.clone(),
    };
    if let Err(ResolveError::IncompatibleOptions { reason, .. }) = variant.check_target(target) {
        problems.push(format!("no game is dealt with this target: {reason}"));
    }
    match checked {
        Ok(game) if problems.is_empty() => Ok(game),
        _ => Err(ApiError::InvalidState(problems)),
    }
}

/// A plain state that does not even parse: the version first, as it explains most such cases.
fn parse_plain_state(text: &str) -> Result<State, ApiError> {
    serde_json::from_str(text).map_err(|e| {
        #[derive(Deserialize)]
        struct Versioned {
            version: Option<serde_json::Value>,
        }
        let mut problems = Vec::new();
        match serde_json::from_str::<Versioned>(text) {
            Ok(Versioned { version: Some(v) }) if v != serde_json::json!(STATE_VERSION) => {
                problems.push(format!(
                    "format version {v} is not the supported version {STATE_VERSION}"
                ));
            }
            _ => {}
        }
        problems.push(format!("the state does not read: {e}"));
        ApiError::InvalidState(problems)
    })
}

/// A `state` as it arrives: a sealed token (JSON string) or a plain state (JSON object), kept
/// unparsed until the request knows which it expects.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub struct StateInput(pub Box<RawValue>);
