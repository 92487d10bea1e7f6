//! `POST /v1/games`, `POST /v1/games/step`, `POST /v1/games/view`.

use std::collections::BTreeMap;

use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::cards::Card;
use crate::engine::{Action, Game, GameId, GameRef, NewGame, SeatView};
use crate::ruleset::{AuthoredRuleset, RulesetRef, Target};
use crate::seat::Seat;

use super::answer::{SeatAnswer, for_one_seat, json_answer, to_json};
use super::bots::{bot_seat, parse_bots, play_bots};
use super::cost::{self, Triage};
use super::open::Opened;
use super::seats::Audience;
use super::snapshot::Snapshot;
use super::snapshot::check_state_fits;
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
    /// Without seat keys, the same request and the same seed give the same game, byte for byte;
    /// random when left out. On a server with seat keys every deal is unpredictable instead: the
    /// seed is mixed with the server's secret and a fresh random nonce, so the same seed deals a
    /// different game each time.
    #[schema(example = 42)]
    #[serde(default, deserialize_with = "crate::whole_number::option_u64")]
    pub seed: Option<u64>,
    /// The first dealer's seat; cut for from the seed when left out.
    #[schema(value_type = Option<u8>, example = 1)]
    #[serde(default, deserialize_with = "crate::whole_number::option_u8")]
    pub dealer: Option<Seat>,
    /// The exact 52-card order of the first hand: `deck[0..20]` dealt alternately starting
    /// left of the dealer, `deck[20]` the upcard, `deck[21]` the top of the stock.
    pub deck: Option<Vec<Card>>,
    /// Instead of `deck`, for forms with two tables: one order per table.
    pub decks: Option<Vec<Vec<Card>>>,
    /// Answer as this seat sees the game (its view, its legal actions). With seat keys and
    /// without `as_seat`, the answer shows no hand.
    #[schema(value_type = Option<u8>, example = 0)]
    #[serde(default, deserialize_with = "crate::whole_number::option_u8")]
    pub as_seat: Option<Seat>,
    /// Seats the server plays (seat number → level `random`, `basic` or `strong`). Whenever bots
    /// are to act, the server plays them within the same request, from their own seat's view, so
    /// every answer comes back with a human seat to act (or between hands, or the match over);
    /// `events` include the bots' actions. At least one seat must be left to a human. With seat
    /// keys, `seats` holds keys of the other seats only.
    #[serde(default)]
    #[schema(value_type = Option<crate::bot::BotSeats>)]
    pub bots: Option<BTreeMap<String, String>>,
}

/// An action applied to a game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StepRequest {
    /// The `state` of the last snapshot, verbatim.
    #[schema(schema_with = super::schemas::state_schema)]
    pub state: StateInput,
    /// One of the snapshot's `legal_actions` (or any action; an illegal one is refused).
    pub action: Action,
}

/// A request for one seat's view.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewRequest {
    /// The `state` of the last snapshot, verbatim.
    #[schema(schema_with = super::schemas::state_schema)]
    pub state: StateInput,
    /// The seat whose view is wanted.
    #[schema(value_type = u8, example = 1)]
    #[serde(deserialize_with = "crate::whole_number::u8")]
    pub seat: Seat,
}

/// Deals a new game. With seat keys the answer also holds each seat's key (`seats`), the seed is
/// mixed with the server's secret and a fresh random nonce (every deal differs) and explicit
/// decks are refused.
#[utoipa::path(
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
    let work = app.clone();
    let id = GameId(rand::random());
    let body = app.gate.run(move || deal(&work, req, id)).await?;
    Ok(json_answer(HttpResponse::Created(), body))
}

/// The answer to a deal request, for a game with the id `id`.
pub(super) fn deal(app: &AppState, req: NewGameRequest, id: GameId) -> Result<Vec<u8>, ApiError> {
    if app.seat_keys.is_some() && (req.deck.is_some() || req.decks.is_some()) {
        return Err(ApiError::DeckNotAllowed(
            "this server binds play to seats and deals only decks nobody can foresee: leave out \
             deck and decks"
                .into(),
        ));
    }
    let reference = match req.ruleset {
        RulesetChoice::Id(id) => RulesetRef::new(id, req.options),
        RulesetChoice::Authored(authored) => {
            let base = app
                .catalog
                .check(&authored.yaml, &authored.scripts)
                .map_err(ApiError::invalid_ruleset)?;
            RulesetRef {
                options: req.options,
                ..base.reference.clone()
            }
        }
    };
    let variant = app.resolve(&reference)?;
    if let Some(target) = req.target {
        variant.check_target(target)?;
    }
    let bots = parse_bots(req.bots.as_ref(), variant.ruleset.seats)?;
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
        seed: app.deal_seed(req.seed.unwrap_or_else(rand::random))?,
        id: Some(id),
        target: req.target,
        dealer: req.dealer,
        decks,
    };
    let mut dealt = Game::deal(&variant.ruleset, variant.hooks.as_ref(), game)?;
    let seats = dealt.game.seats();
    let audience = match (req.as_seat, &app.seat_keys) {
        (Some(seat), _) if !dealt.game.has_seat(seat) => {
            return Err(ApiError::UnknownSeat(format!(
                "as_seat {seat}: this game has seats 0 to {}",
                seats.saturating_sub(1)
            )));
        }
        (Some(seat), _) if bots.contains_key(&seat) => return Err(bot_seat(seat)),
        (Some(seat), _) => Audience::Seat(seat),
        (None, Some(_)) => Audience::Nobody,
        (None, None) => Audience::Everyone,
    };
    dealt.game.set_bots(bots)?;
    play_bots(&app.metrics, &mut dealt.game, &mut dealt.events)?;
    let humans: Vec<Seat> = Seat::all(seats)
        .filter(|s| !dealt.game.bots.contains_key(s))
        .collect();
    let mut snapshot = Snapshot::new(app, &variant, dealt.game, dealt.events, audience)?;
    check_state_fits(
        &snapshot.state,
        "make the authored ruleset or its scripts smaller",
    )?;
    snapshot.seats = app.seat_keys.as_ref().map(|k| k.issue(id, &humans));
    snapshot.to_json()
}

/// Applies one action. With seat keys, the key of the action's seat is needed and the answer is
/// that seat's; under a replay guard, a state older than the game's latest is refused.
#[utoipa::path(
    tag = "games",
    request_body = StepRequest,
    responses((status = 200, description = "The game after the action", body = Snapshot)),
    security(("seat_key" = []), ())
)]
#[post("/v1/games/step")]
pub async fn step(
    req: HttpRequest,
    app: web::Data<AppState>,
    body: web::Json<StepRequest>,
) -> Result<HttpResponse, ApiError> {
    let key = app.seat_key(&req)?.map(str::to_owned);
    let StepRequest { state, action } = body.into_inner();
    let applied = match cost::triage(&app, state) {
        Triage::Here(opened) => app
            .gate
            .run_here(|| apply_to(&app, key.as_deref(), opened?, &action))?,
        Triage::Pool(unopened) => {
            let work = app.clone();
            app.gate
                .run(move || apply_to(&work, key.as_deref(), unopened.open(&work)?, &action))
                .await?
        }
    };
    match applied {
        Applied::Stepped { from, to, answer } => {
            app.record_step(from, to).await?;
            Ok(json_answer(HttpResponse::Ok(), answer))
        }
        Applied::Refused { game, error } => {
            app.check_fresh(game).await?;
            Err(error)
        }
    }
}

/// A step as the engine's thread leaves it; the replay guard has the last word.
pub(super) enum Applied {
    /// Accepted from the state `from`, leaving the game at `to` (after the bots' actions): the
    /// answer, if the guard agrees.
    Stepped {
        from: GameRef,
        to: GameRef,
        answer: Vec<u8>,
    },
    /// Refused by the engine: the answer, unless the state is stale.
    Refused { game: GameRef, error: ApiError },
}

pub(super) fn apply(
    app: &AppState,
    key: Option<&str>,
    body: StepRequest,
) -> Result<Applied, ApiError> {
    apply_to(app, key, app.open_state(&body.state)?, &body.action)
}

/// [`apply`] to a state already opened: the action is applied to the opened state in place
/// (a refused action leaves it untouched).
fn apply_to(
    app: &AppState,
    key: Option<&str>,
    opened: Opened,
    action: &Action,
) -> Result<Applied, ApiError> {
    opened.play(|variant, mut game| {
        let audience = app.audience(key, &game, action.seat)?;
        let from = game.game;
        let mut events = Vec::with_capacity(4);
        if let Err(e) = game.apply(action, &mut events) {
            let error = ApiError::from_step(e, || {
                let mut legal = game.legal_actions();
                legal.retain(|a| audience.shows(a.seat));
                legal
            });
            return Ok(Applied::Refused { game: from, error });
        }
        play_bots(&app.metrics, &mut game, &mut events)?;
        let to = game.game;
        let snapshot = Snapshot::new(app, variant, game, events, audience)?;
        // A hand's plays grow with every turn: one played so long that its state no longer fits
        // a request is refused here rather than answered with a state no request can carry.
        if let Err(error) = check_state_fits(
            &snapshot.state,
            "this hand has been played too long to continue",
        ) {
            return Ok(Applied::Refused { game: from, error });
        }
        Ok(Applied::Stepped {
            from,
            to,
            answer: snapshot.to_json()?,
        })
    })
}

/// What one seat may see. With seat keys, the key of that seat is needed.
#[utoipa::path(
    tag = "games",
    request_body = ViewRequest,
    responses((status = 200, description = "That seat's view", body = SeatView)),
    security(("seat_key" = []), ())
)]
#[post("/v1/games/view")]
pub async fn view(
    req: HttpRequest,
    app: web::Data<AppState>,
    body: web::Json<ViewRequest>,
) -> Result<HttpResponse, ApiError> {
    let ViewRequest { state, seat } = body.into_inner();
    let triage = cost::triage(&app, state);
    for_one_seat(req, app, triage, seat, see_in).await
}

/// The view, or why there is none (told only if the state is not stale).
pub(super) fn see(app: &AppState, key: Option<&str>, body: ViewRequest) -> SeatAnswer {
    see_in(app, key, app.open_state(&body.state)?, body.seat)
}

/// [`see`] in a state already opened.
fn see_in(app: &AppState, key: Option<&str>, opened: Opened, seat: Seat) -> SeatAnswer {
    opened.play(|_, game| {
        app.audience(key, &game, seat)?;
        let answer = match game.view(seat) {
            Some(seen) => to_json(&seen),
            None => Err(ApiError::UnknownSeat(format!(
                "there is no seat {seat}: this game has seats 0 to {}",
                game.seats().saturating_sub(1)
            ))),
        };
        Ok((game.game, answer))
    })
}
