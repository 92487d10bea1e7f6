//! `POST /v1/games`, `POST /v1/games/step`, `POST /v1/games/view`.

use actix_web::{HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::cards::Card;
use crate::engine::{self, Action, NewGame, SeatView};
use crate::ruleset::{AuthoredRuleset, RulesetRef, Seat, Target};

use super::snapshot::Snapshot;
use super::{ApiError, AppState, StateInput};

/// Which ruleset to deal from: an id, or an authored ruleset sent with the request.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum RulesetChoice {
    /// A ruleset id (`GET /v1/rulesets`).
    #[schema(example = "straight-gin")]
    Id(String),
    /// A ruleset written by a variant author; the game state carries it.
    Authored(AuthoredRuleset),
}

impl Default for RulesetChoice {
    fn default() -> RulesetChoice {
        RulesetChoice::Id("standard".into())
    }
}

/// A new game (a match of one or more hands).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewGameRequest {
    /// A ruleset id or an authored ruleset; `standard` when left out.
    #[serde(default)]
    pub ruleset: RulesetChoice,
    /// Overlays the ruleset offers, applied in order.
    #[serde(default)]
    #[schema(example = json!(["oklahoma"]))]
    pub options: Vec<String>,
    /// Points that win the match, or `"single_hand"`; the ruleset's default when left out.
    pub target: Option<Target>,
    /// Same request and same seed give the same game, byte for byte; random when left out.
    #[schema(example = 42)]
    pub seed: Option<u64>,
    /// The first dealer's seat; cut for from the seed when left out.
    #[schema(value_type = Option<u8>, example = 1)]
    pub dealer: Option<Seat>,
    /// The exact 52-card order of the first hand: `deck[0..20]` dealt alternately starting
    /// left of the dealer, `deck[20]` the upcard, `deck[21]` the top of the stock.
    pub deck: Option<Vec<Card>>,
    /// Instead of `deck`, for forms with two tables: one order per table.
    pub decks: Option<Vec<Vec<Card>>>,
}

/// An action applied to a game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StepRequest {
    /// The `state` of the last snapshot, verbatim.
    #[schema(schema_with = super::openapi::state_schema)]
    pub state: StateInput,
    /// One of the snapshot's `legal_actions` (or any action; an illegal one is refused).
    pub action: Action,
}

/// A request for one seat's view.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewRequest {
    /// The `state` of the last snapshot, verbatim.
    #[schema(schema_with = super::openapi::state_schema)]
    pub state: StateInput,
    /// The seat whose view is wanted.
    #[schema(value_type = u8, example = 1)]
    pub seat: Seat,
}

/// Deals a new game.
#[utoipa::path(
    post,
    path = "/v1/games",
    tag = "games",
    request_body = NewGameRequest,
    responses((status = 201, description = "The game is dealt", body = Snapshot))
)]
#[post("/v1/games")]
pub async fn create(
    app: web::Data<AppState>,
    body: web::Json<NewGameRequest>,
) -> Result<HttpResponse, ApiError> {
    let req = body.into_inner();
    let reference = match req.ruleset {
        RulesetChoice::Id(id) => RulesetRef {
            id,
            options: req.options,
            authored: None,
        },
        RulesetChoice::Authored(authored) => {
            let base = app
                .catalog
                .check(&authored.yaml, &authored.scripts)
                .map_err(ApiError::invalid_ruleset)?;
            RulesetRef {
                id: base.reference.id.clone(),
                options: req.options,
                authored: Some(authored),
            }
        }
    };
    let variant = app.resolve(&reference)?;
    if let Some(target) = req.target {
        variant.check_target(target)?;
    }
    let decks = match (req.deck, req.decks) {
        (Some(_), Some(_)) => {
            return Err(ApiError::InvalidDeck("give deck or decks, not both".into()));
        }
        (Some(deck), None) => vec![deck],
        (None, Some(decks)) => decks,
        (None, None) => Vec::new(),
    };
    let game = NewGame {
        ruleset: reference,
        seed: req.seed.unwrap_or_else(rand::random),
        target: req.target,
        dealer: req.dealer,
        decks,
    };
    let dealt = engine::new_game(&variant.ruleset, variant.hooks.as_ref(), game)?;
    let snapshot = Snapshot::new(&app, &variant, dealt.state, dealt.events);
    Ok(HttpResponse::Created().json(snapshot))
}

/// Applies one action.
#[utoipa::path(
    post,
    path = "/v1/games/step",
    tag = "games",
    request_body = StepRequest,
    responses((status = 200, description = "The game after the action", body = Snapshot))
)]
#[post("/v1/games/step")]
pub async fn step(
    app: web::Data<AppState>,
    body: web::Json<StepRequest>,
) -> Result<HttpResponse, ApiError> {
    let (state, variant) = app.open_state(&body.state)?;
    let rules = &variant.ruleset;
    let stepped = engine::step(rules, variant.hooks.as_ref(), &state, &body.action)
        .map_err(|e| ApiError::from_step(e, || engine::legal_actions(rules, &state)))?;
    let snapshot = Snapshot::new(&app, &variant, stepped.state, stepped.events);
    Ok(HttpResponse::Ok().json(snapshot))
}

/// What one seat may see.
#[utoipa::path(
    post,
    path = "/v1/games/view",
    tag = "games",
    request_body = ViewRequest,
    responses((status = 200, description = "That seat's view", body = SeatView))
)]
#[post("/v1/games/view")]
pub async fn view(
    app: web::Data<AppState>,
    body: web::Json<ViewRequest>,
) -> Result<HttpResponse, ApiError> {
    let (state, variant) = app.open_state(&body.state)?;
    let seat = body.seat;
    let view = engine::view(&variant.ruleset, &state, seat).ok_or_else(|| {
        ApiError::UnknownSeat(format!(
            "there is no seat {seat}: this game has seats 0 to {}",
            state.seats().saturating_sub(1)
        ))
    })?;
    Ok(HttpResponse::Ok().json(view))
}
