//! The stateless HTTP API (see `docs/http.md`): actix-web handlers, one file per resource,
//! problem+json errors, sealed states and the OpenAPI document.
//!
//! ```no_run
//! use actix_web::{App, HttpServer, web};
//! use gin_rules::api::{self, AppState};
//!
//! # async fn run() -> std::io::Result<()> {
//! let state = web::Data::new(AppState::builtin());
//! HttpServer::new(move || App::new().app_data(state.clone()).configure(api::configure))
//!     .bind("127.0.0.1:8080")?
//!     .run()
//!     .await
//! # }
//! ```

pub mod bots;
pub mod error;
pub mod games;
pub mod gate;
pub mod guard;
pub mod hands;
pub mod health;
pub mod openapi;
pub mod play;
pub mod pool;
pub mod problem;
pub mod routes;
pub mod rulesets;
pub mod schemas;
pub mod seal;
pub mod seats;
pub mod secrets;
pub mod server;
pub mod snapshot;
mod spec_errors;
mod spec_examples;
mod spec_unions;

use std::sync::{Arc, LazyLock};

use actix_web::dev::ServiceResponse;
use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::middleware::{ErrorHandlerResponse, ErrorHandlers};
use actix_web::{HttpRequest, ResponseError, web};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::engine::{Game, GameRef, InvalidState, STATE_VERSION, State};
use crate::rules::did_you_mean;
use crate::ruleset::{RulesetRef, Target};
use crate::seat::Seat;

pub use crate::rules::{Catalog, ResolveError, RulesetError, Variant};
pub use error::{ApiError, Problem};
pub use gate::{Gate, Limits};
pub use guard::ReplayGuard;
pub use seal::Sealer;
pub use seats::{Audience, SeatKeys};

/// The largest request body accepted (256 KiB).
pub const BODY_LIMIT: usize = 256 * 1024;

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
        AppState {
            catalog,
            sealer,
            seat_keys: None,
            guard: None,
            gate: Gate::new(Limits::default()),
        }
    }

    /// Runs engine work within `limits` instead of the defaults.
    pub fn with_limits(mut self, limits: Limits) -> AppState {
        self.gate = Gate::new(limits);
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

    /// The seed a deck is shuffled from: with seat keys, the client's seed mixed with the
    /// newest secret, so that nobody can compute the stock from it.
    pub fn deal_seed(&self, seed: u64) -> u64 {
        match (&self.seat_keys, &self.sealer) {
            (Some(_), Some(sealer)) => sealer.secrets().newest().mix_seed(seed),
            _ => seed,
        }
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
                keys.check(key, state.game.id, seat, state.seats())?;
                Ok(Audience::Seat(seat))
            }
            (Some(_), None) => Err(ApiError::MissingSeatKey(
                "send the seat's key as Authorization: Bearer <key>".into(),
            )),
            (None, _) => Ok(Audience::Everyone),
        }
    }

    /// `409 stale-state` when the guard knows a newer state of this game.
    pub async fn check_fresh(&self, game: GameRef) -> Result<(), ApiError> {
        let Some(guard) = &self.guard else {
            return Ok(());
        };
        if guard.is_stale(game).await.map_err(guard_down)? {
            return Err(stale(game));
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
        if guard.advance(from, to.moves).await.map_err(guard_down)? {
            Ok(())
        } else {
            Err(stale(from))
        }
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

    /// Reads a `state` sent by a client: opens a sealed token (or refuses a plain state when
    /// sealing), parses it and resolves its ruleset; [`Opened::game`] checks it.
    pub fn open_state(&self, raw: &StateInput) -> Result<Opened, ApiError> {
        let text = raw.0.get();
        let state: State = match &self.sealer {
            Some(sealer) => {
                let token: String = serde_json::from_str(text).map_err(|_| {
                    ApiError::TamperedState(
                        "this server accepts only sealed states: send back the state token \
                         exactly as it was returned"
                            .into(),
                    )
                })?;
                let bytes = sealer
                    .open_bytes(&token)
                    .map_err(|e| ApiError::TamperedState(e.to_string()))?;
                serde_json::from_slice(&bytes).map_err(|e| {
                    ApiError::TamperedState(format!("the sealed state does not read: {e}"))
                })?
            }
            None => {
                if text.trim_start().starts_with('"') {
                    return Err(ApiError::TamperedState(
                        "this server does not seal states and cannot open a token: send the \
                         plain state object"
                            .into(),
                    ));
                }
                let state = parse_plain_state(text)?;
                let variant = self.resolve(&state.ruleset)?;
                return Ok(Opened {
                    variant,
                    state,
                    sealed: false,
                });
            }
        };
        let variant = self.resolve(&state.ruleset)?;
        Ok(Opened {
            variant,
            state,
            sealed: true,
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
    /// The game to play: a plain state checked against its ruleset and hooks (its log played
    /// again), a sealed one taken as this server made it; and its target against the options in
    /// force (the engine sees only the resolved ruleset).
    pub fn game(&self) -> Result<Game<'_>, ApiError> {
        let variant = &self.variant;
        let (rules, hooks, state) = (&variant.ruleset, variant.hooks.as_ref(), self.state.clone());
        if !self.sealed {
            let checked = Game::from_state(rules, hooks, state);
            return check_plain_state(variant, checked, self.state.target);
        }
        let game = Game::from_sealed(rules, hooks, state)?;
        variant
            .check_target(game.target)
            .map_err(|e| ApiError::InvalidState(vec![e.to_string()]))?;
        Ok(game)
    }
}

fn stale(game: GameRef) -> ApiError {
    ApiError::StaleState(format!(
        "game {} has moved on since this state (move {}): continue from its latest state",
        game.id, game.moves
    ))
}

fn guard_down(e: guard::GuardError) -> ApiError {
    tracing::error!(error = %e, "replay guard");
    ApiError::GuardUnavailable(
        "the replay guard does not answer, so no step is accepted now: try again shortly".into(),
    )
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

impl From<ResolveError> for ApiError {
    fn from(e: ResolveError) -> ApiError {
        match e {
            ResolveError::UnknownRuleset(id) => ApiError::UnknownRuleset {
                id,
                suggestion: None,
            },
            e @ ResolveError::UnknownOption { .. } => ApiError::UnknownOption(e.to_string()),
            ResolveError::IncompatibleOptions { reason, .. } => {
                ApiError::IncompatibleOptions(reason)
            }
            e @ ResolveError::TargetNotAllowed { .. } => ApiError::InvalidTarget(e.to_string()),
            ResolveError::Invalid(errors) => ApiError::invalid_ruleset(errors),
        }
    }
}

impl ApiError {
    /// `invalid-ruleset` from the catalog's errors.
    pub fn invalid_ruleset(errors: Vec<RulesetError>) -> ApiError {
        let detail = match errors.as_slice() {
            [one] => format!("the ruleset does not load: {}", one.message),
            many => format!("the ruleset does not load: {} problems", many.len()),
        };
        ApiError::InvalidRuleset {
            detail,
            errors: errors
                .into_iter()
                .map(|e| error::ProblemPlace {
                    path: e.path,
                    line: e.line,
                    column: e.column,
                    field: e.field,
                    kind: e.kind,
                    message: e.message,
                })
                .collect(),
        }
    }
}

/// How JSON bodies are read: up to [`BODY_LIMIT`], `Content-Type: application/json` only
/// ([`gate::body_gate`] refuses the other types before the body is read), errors as problems.
pub fn json_config() -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(BODY_LIMIT)
        .content_type_required(true)
        .error_handler(|e, _req| ApiError::from(e).into())
}

/// Registers every route of the API. The caller adds an [`AppState`] as `web::Data`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.app_data(json_config())
        .app_data(web::Data::new(health::Document(openapi::document_text)))
        .service(
            web::scope("")
                .wrap(
                    ErrorHandlers::new()
                        .handler(StatusCode::NOT_FOUND, as_problem)
                        .handler(StatusCode::METHOD_NOT_ALLOWED, as_problem),
                )
                .wrap(actix_web::middleware::from_fn(gate::body_gate))
                .configure(routes::register)
                .configure(play::register)
                .default_service(web::to(not_found)),
        );
}

/// The methods of the routes `path` matches; a route without parameters that matches hides the
/// patterns that would also match (`/v1/rulesets/check` is not the ruleset `check`).
fn allowed_methods(path: &str) -> Vec<&'static str> {
    let matching = || ROUTE_DEFS.iter().filter(|(def, _)| def.is_match(path));
    let exact: Vec<&str> = matching()
        .filter(|(def, _)| def.pattern().is_some_and(|p| !p.contains('{')))
        .map(|&(_, method)| method)
        .collect();
    if exact.is_empty() {
        matching().map(|&(_, method)| method).collect()
    } else {
        exact
    }
}

/// The [`routes::table`] and the pages of [`play::ROUTES`] as matchers, built once: the body
/// gate asks on every `POST`, and actix-router compiles a regular expression for a pattern with a
/// parameter and leaks its parameter names on purpose each time it builds a matcher (the server's
/// memory grew by about 40 bytes a request when they were built per request).
static ROUTE_DEFS: LazyLock<Vec<(actix_web::dev::ResourceDef, &'static str)>> =
    LazyLock::new(|| {
        let pages = play::ROUTES.iter().map(|p| (*p, "GET"));
        routes::table()
            .iter()
            .map(|(p, m)| (p.as_str(), *m))
            .chain(pages)
            .map(|(pattern, method)| (actix_web::dev::ResourceDef::new(pattern), method))
            .collect()
    });

async fn not_found(req: HttpRequest) -> actix_web::HttpResponse {
    let path = req.path();
    let allowed = allowed_methods(path);
    if allowed.is_empty() {
        return ApiError::NotFound(path.to_string()).error_response();
    }
    let mut res = ApiError::MethodNotAllowed(format!(
        "{} is not allowed on {path}: use {}",
        req.method(),
        allowed.join(" or ")
    ))
    .error_response();
    if let Ok(v) = header::HeaderValue::from_str(&allowed.join(", ")) {
        res.headers_mut().insert(header::ALLOW, v);
    }
    res
}

/// Turns actix's bare 404 and 405 answers into problems (ours already are).
fn as_problem<B>(res: ServiceResponse<B>) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes() == error::PROBLEM_JSON.as_bytes());
    if is_problem {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let (req, res) = res.into_parts();
    let error = if res.status() == StatusCode::METHOD_NOT_ALLOWED {
        ApiError::MethodNotAllowed(format!("{} is not allowed on {}", req.method(), req.path()))
    } else {
        ApiError::NotFound(req.path().to_string())
    };
    let res = ServiceResponse::new(req, error.error_response()).map_into_right_body();
    Ok(ErrorHandlerResponse::Response(res))
}
