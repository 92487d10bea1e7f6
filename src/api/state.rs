//! What every request may use: the rulesets, the sealer, the seat keys, the replay guard and the
//! gate, with what they answer about a request (its seat key and audience, a state's freshness).

use std::sync::Arc;

use actix_web::HttpRequest;
use rand::TryRng as _;
use rand::rngs::SysRng;

use crate::engine::GameRef;
use crate::engine::State;
use crate::rules::{Catalog, ResolveError, Variant, did_you_mean};
use crate::ruleset::RulesetRef;
use crate::seat::Seat;

use super::ApiError;
use super::gate::Gate;
use super::guard::{self, ReplayGuard};
use super::limits::Limits;
use super::metrics::{GuardCall, Metrics, Sealed};
use super::seal::Sealer;
use super::seats::{self, Audience, SeatKeys};
use super::secrets::SecretAge;

/// What every request may use: the rulesets and, when states are sealed, the sealer; with seat
/// keys, the key maker; with a replay guard, the guard.
pub struct AppState {
    pub catalog: Catalog,
    /// `Some`: states travel as sealed tokens only.
    pub sealer: Option<Sealer>,
    /// `Some`: play is bound to seats (`Authorization: Bearer <seat key>`).
    pub seat_keys: Option<SeatKeys>,
    /// `Some`: a state older than its game's latest is refused.
    pub guard: Option<ReplayGuard>,
    /// Engine work runs behind it, within its limits.
    pub gate: Gate,
    /// What `GET /metrics` reports.
    pub metrics: Arc<Metrics>,
    /// `true`: `GET /metrics` is served on its own address (`--metrics-addr`), not with the API.
    pub metrics_elsewhere: bool,
}

/// Seat keys need a secret to derive them from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("seat keys need a secret: give --secret-file or GIN_RULES_SECRET")]
pub struct SeatKeysNeedSecret;

impl AppState {
    /// The built-in rulesets, plain states.
    pub fn builtin() -> AppState {
        AppState::new(Catalog::builtin(), None)
    }

    pub fn new(catalog: Catalog, sealer: Option<Sealer>) -> AppState {
        let metrics = Arc::new(Metrics::new());
        AppState {
            catalog,
            sealer,
            seat_keys: None,
            guard: None,
            gate: Gate::new(Limits::default()).observed_by(metrics.engine()),
            metrics,
            metrics_elsewhere: false,
        }
    }

    /// Runs engine work within `limits` instead of the defaults.
    pub fn with_limits(mut self, limits: Limits) -> AppState {
        self.gate = Gate::new(limits).observed_by(self.metrics.engine());
        self
    }

    /// Serves `GET /metrics` elsewhere than with the API (`--metrics-addr`).
    pub fn with_metrics_elsewhere(mut self) -> AppState {
        self.metrics_elsewhere = true;
        self
    }

    pub fn limits(&self) -> &Limits {
        self.gate.limits()
    }

    /// Binds play to seats, with keys derived from the sealer's secrets.
    pub fn with_seat_keys(mut self) -> Result<AppState, SeatKeysNeedSecret> {
        let secrets = self.sealer.as_ref().ok_or(SeatKeysNeedSecret)?.secrets();
        self.seat_keys = Some(SeatKeys::new(secrets.clone()));
        Ok(self)
    }

    pub fn with_guard(mut self, guard: ReplayGuard) -> AppState {
        self.guard = Some(guard);
        self
    }

    /// The seed a deck is shuffled from: in plain mode the client's seed, so that a seed deals
    /// the same game again; with seat keys, the client's seed mixed with the newest secret and a
    /// fresh nonce from the operating system's generator, so that nobody can compute the stock
    /// nor deal the same deck twice. The sealed state keeps the seed it gives, never the nonce.
    pub fn deal_seed(&self, seed: u64) -> Result<u64, ApiError> {
        let (Some(_), Some(sealer)) = (&self.seat_keys, &self.sealer) else {
            return Ok(seed);
        };
        let mut nonce = [0u8; 16];
        SysRng.try_fill_bytes(&mut nonce).map_err(|e| {
            tracing::error!(error = %e, "the operating system's random generator failed");
            ApiError::Internal("no random nonce could be drawn for the deal".into())
        })?;
        Ok(sealer.secrets().newest().mix_seed(seed, &nonce))
    }

    /// The request's seat key: `None` without seat keys; `401 missing-seat-key` when one is
    /// needed and not sent.
    pub fn seat_key<'r>(&self, req: &'r HttpRequest) -> Result<Option<&'r str>, ApiError> {
        match self.seat_keys {
            Some(_) => seats::bearer(req).map(Some),
            None => Ok(None),
        }
    }

    /// Whose answer a request about `seat` of `state` gets, checking its key (`403
    /// forbidden-seat` when the key does not open that seat of that game).
    pub fn audience(
        &self,
        key: Option<&str>,
        state: &State,
        seat: Seat,
    ) -> Result<Audience, ApiError> {
        match (&self.seat_keys, key) {
            (Some(keys), Some(key)) => {
                if keys.check(key, state.game.id, seat, state.seats())? == SecretAge::Older {
                    self.metrics.older_secret(Sealed::SeatKey);
                }
                Ok(Audience::Seat(seat))
            }
            (Some(_), None) => Err(ApiError::MissingSeatKey(
                "send the seat's key as Authorization: Bearer <key>".into(),
            )),
            (None, _) => Ok(Audience::Everyone),
        }
    }

    /// Whether the instance can serve games now: the replay guard answers (`503
    /// replay-guard-unavailable`) and an engine thread frees up within the engine wait (`503
    /// server-busy`; the permit is given back at once).
    pub async fn ready(&self) -> Result<(), ApiError> {
        if let Some(guard) = &self.guard {
            self.timed(GuardCall::Ping, guard.check())
                .await
                .map_err(guard_down)?;
        }
        drop(self.gate.acquire().await?);
        Ok(())
    }

    /// `409 stale-state` when the guard knows a newer state of this game.
    pub async fn check_fresh(&self, game: GameRef) -> Result<(), ApiError> {
        let Some(guard) = &self.guard else {
            return Ok(());
        };
        if self
            .timed(GuardCall::Check, guard.is_stale(game))
            .await
            .map_err(guard_down)?
        {
            return Err(self.stale(game));
        }
        Ok(())
    }

    /// Records an accepted step from `from` that left the game at `to` (after the bots' actions
    /// too), atomically: `409 stale-state` when the game has moved on meanwhile (the step is then
    /// not to be answered).
    pub async fn record_step(&self, from: GameRef, to: GameRef) -> Result<(), ApiError> {
        let Some(guard) = &self.guard else {
            return Ok(());
        };
        if self
            .timed(GuardCall::Advance, guard.advance(from, to.moves))
            .await
            .map_err(guard_down)?
        {
            Ok(())
        } else {
            Err(self.stale(from))
        }
    }

    /// A call of the replay guard, counted and timed.
    async fn timed<T>(
        &self,
        call: GuardCall,
        work: impl Future<Output = Result<T, guard::GuardError>>,
    ) -> Result<T, guard::GuardError> {
        let start = std::time::Instant::now();
        let outcome = work.await;
        self.metrics
            .guard_call(call, outcome.is_err(), start.elapsed());
        outcome
    }

    fn stale(&self, game: GameRef) -> ApiError {
        self.metrics.stale();
        ApiError::StaleState(format!(
            "game {} has moved on since this state (move {}): continue from its latest state",
            game.id, game.moves
        ))
    }

    /// The variant a ruleset reference names.
    pub fn resolve(&self, r: &RulesetRef) -> Result<Arc<Variant>, ApiError> {
        self.catalog.resolve(r).map_err(|e| match e {
            ResolveError::UnknownRuleset(id) => ApiError::UnknownRuleset {
                suggestion: did_you_mean(&id, self.catalog.ids().iter().map(String::as_str))
                    .map(str::to_string),
                id,
            },
            e => ApiError::from(e),
        })
    }
}

fn guard_down(e: guard::GuardError) -> ApiError {
    tracing::error!(error = %e, "replay guard");
    ApiError::GuardUnavailable(
        "the replay guard does not answer, so no step is accepted now: try again shortly".into(),
    )
}
