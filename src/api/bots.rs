//! Bots over HTTP: the `bots` of a deal (seats the server plays within every request), and
//! `POST /v1/games/suggest` (what a bot of a level would play for a seat now).

use std::collections::BTreeMap;
use std::time::Instant;

use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::bot::{self, Decision, Level};
use crate::engine::{Game, StepError};
use crate::rules::script::time_left;
use crate::seat::Seat;

use super::answer::{SeatAnswer, for_one_seat, to_json};
use super::cost::{self, Triage, Unopened};
use super::metrics::{BotWork, Metrics};
use super::open::Opened;
use super::{ApiError, AppState, StateInput};

/// The `bots` of a deal, read and checked against the game's `seats`: each key a seat of the
/// game, each value a level, and one seat at least left to a human.
pub fn parse_bots(
    asked: Option<&BTreeMap<String, String>>,
    seats: u8,
) -> Result<BTreeMap<Seat, Level>, ApiError> {
    let mut bots = BTreeMap::new();
    let range = || format!("this game has seats 0 to {}", seats.saturating_sub(1));
    for (key, level) in asked.into_iter().flatten() {
        let seat = key
            .trim()
            .parse::<u8>()
            .ok()
            .and_then(|n| Seat::of(n, seats))
            .ok_or_else(|| {
                ApiError::UnknownSeat(format!(
                    "bots: {:?} is not a seat of this game: {}",
                    crate::rules::limits::shown(key),
                    range()
                ))
            })?;
        let level: Level = level.parse().map_err(|e: bot::UnknownLevel| {
            ApiError::UnknownLevel(format!(
                "bots: seat {seat}: {:?} is not a bot level: random, basic or strong",
                crate::rules::limits::shown(&e.0)
            ))
        })?;
        if bots.insert(seat, level).is_some() {
            return Err(ApiError::InvalidJson(format!(
                "bots names seat {seat} twice"
            )));
        }
    }
    if !bots.is_empty() && bots.len() >= usize::from(seats) {
        return Err(ApiError::NoHumanSeat(format!(
            "bots: every seat of this game ({seats}) would be a bot, and then nobody could ever \
             act: leave at least one seat out of bots (to watch bots play each other, use \
             gin-rules play --bots)"
        )));
    }
    Ok(bots)
}

/// `as_seat` names a bot's seat: nobody sees a bot's hand.
pub fn bot_seat(seat: Seat) -> ApiError {
    ApiError::BotSeat(format!(
        "as_seat {seat}: that seat is played by a bot, and nobody sees a bot's hand: name a seat \
         left to a human"
    ))
}

/// Plays the bot seats of `game` (see [`bot::play_bots`]), appending their actions to `events`;
/// counts and times them in `metrics`. Their decisions count against the request's CPU budget
/// with its hooks: they decide at their level while half of it is left ([`WithinBudget`]), then
/// at `basic`.
pub fn play_bots(
    metrics: &Metrics,
    game: &mut Game,
    events: &mut Vec<crate::engine::Event>,
) -> Result<(), ApiError> {
    // Most games have no bots: asking the budget whether they may think reads the thread's CPU
    // clock, a system call.
    if game.bots.is_empty() {
        return Ok(());
    }
    let start = Instant::now();
    let played = bot::play_bots(game, events, &mut WithinBudget).map_err(|e| match e {
        StepError::Illegal(e) => {
            tracing::error!(error = %e, "a bot chose an action the engine refuses");
            ApiError::Internal(format!("a bot chose an action the engine refuses: {e}"))
        }
        e => ApiError::from_step(e, Vec::new),
    })?;
    metrics.bots(BotWork::Play, played.actions, start.elapsed());
    if played.hurried > 0 {
        tracing::debug!(
            actions = played.actions,
            hurried = played.hurried,
            "the bots ran out of their share of the CPU budget and played on at basic"
        );
    }
    Ok(())
}

/// The bots of a request think at their level while at least half its CPU budget is left: the
/// other half is for the cheap decisions after that, the hooks that end the hand and the answer.
pub struct WithinBudget;

impl bot::Pace for WithinBudget {
    fn think(&mut self) -> bool {
        time_left().is_none_or(|(left, budget)| left > budget.time / 2)
    }
}

/// A request for a bot's suggestion.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SuggestRequest {
    /// The `state` of the last snapshot, verbatim.
    #[schema(schema_with = super::schemas::state_schema)]
    pub state: StateInput,
    /// The seat to suggest an action for: a seat that is to act now.
    #[schema(value_type = u8, example = 0)]
    #[serde(deserialize_with = "crate::whole_number::u8")]
    pub seat: Seat,
    /// How well the suggesting bot plays: `random`, `basic` or `strong`.
    #[schema(value_type = Level, example = "strong")]
    pub level: String,
}

/// What a bot of `level` would play for `seat` now, deciding from that seat's view only (a hint
/// for a player, or an opponent run by the client). The seat must be one that is to act now
/// (`422 not-your-turn` otherwise). With seat keys, the key of that seat is needed.
#[utoipa::path(
    tag = "games",
    request_body = SuggestRequest,
    responses((status = 200, description = "The action the bot would play, and why", body = Decision)),
    security(("seat_key" = []), ())
)]
#[post("/v1/games/suggest")]
pub async fn suggest(
    req: HttpRequest,
    app: web::Data<AppState>,
    body: web::Json<SuggestRequest>,
) -> Result<HttpResponse, ApiError> {
    let SuggestRequest { state, seat, level } = body.into_inner();
    // A `strong` decision can take milliseconds: an engine thread's work.
    let triage = match level.parse::<Level>() {
        Ok(Level::Strong) => Triage::Pool(Unopened::Raw(state)),
        _ => cost::triage(&app, state),
    };
    for_one_seat(req, app, triage, (seat, level), advise_in).await
}

/// The suggestion, or why there is none (told only if the state is not stale).
pub(super) fn advise(app: &AppState, key: Option<&str>, body: SuggestRequest) -> SeatAnswer {
    let opened = app.open_state(&body.state)?;
    advise_in(app, key, opened, (body.seat, body.level))
}

/// [`advise`] in a state already opened, for a seat at a level.
fn advise_in(
    app: &AppState,
    key: Option<&str>,
    opened: Opened,
    (seat, level): (Seat, String),
) -> SeatAnswer {
    opened.play(|_, state| {
        if !state.has_seat(seat) {
            return Err(ApiError::UnknownSeat(format!(
                "there is no seat {seat}: this game has seats 0 to {}",
                state.seats().saturating_sub(1)
            )));
        }
        app.audience(key, &state, seat)?;
        let level: Level = level.parse().map_err(|e: bot::UnknownLevel| {
            ApiError::UnknownLevel(format!(
                "{:?} is not a bot level: random, basic or strong",
                crate::rules::limits::shown(&e.0)
            ))
        })?;
        let start = Instant::now();
        let decided = bot::decide_for(level, &state, seat);
        let answer = match decided {
            Some(decision) => {
                app.metrics.bots(BotWork::Suggest, 1, start.elapsed());
                to_json(&decision)
            }
            None => Err(not_to_act(seat, &state.to_act())),
        };
        Ok((state.game, answer))
    })
}

/// `422 not-your-turn`: `seat` is not among the seats to act, `to_act`.
pub fn not_to_act(seat: Seat, to_act: &[Seat]) -> ApiError {
    let detail = match to_act {
        [] => "the match is over: no seat acts, so there is nothing to suggest".to_string(),
        [one] => format!("seat {seat} has nothing to do now: seat {one} is to act"),
        many => format!(
            "seat {seat} has nothing to do now: seats {} are to act",
            many.iter()
                .map(Seat::to_string)
                .collect::<Vec<_>>()
                .join(" and ")
        ),
    };
    ApiError::NotYourTurn(detail)
}
