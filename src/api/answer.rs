//! How a handler answers: JSON serialised where the engine work ran, and the answers made for
//! one seat, told only if the state they read is not stale.

use actix_web::http::header::ContentType;
use actix_web::{HttpRequest, HttpResponse, web};

use crate::engine::GameRef;

use super::cost::Triage;
use super::open::Opened;
use super::{ApiError, AppState};

/// A JSON answer from bytes serialised where the engine work ran.
pub fn json_answer(mut res: actix_web::HttpResponseBuilder, body: Vec<u8>) -> HttpResponse {
    res.content_type(ContentType::json()).body(body)
}

/// Serialises an answer (where the engine work ran: a state may be large).
pub fn to_json(value: &impl serde::Serialize) -> Result<Vec<u8>, ApiError> {
    to_json_within(value, 0)
}

/// [`to_json`] into a buffer of `capacity` bytes to begin with: an answer whose size is known
/// about is written without growing its buffer over and over.
pub fn to_json_within(value: &impl serde::Serialize, capacity: usize) -> Result<Vec<u8>, ApiError> {
    let mut out = Vec::with_capacity(capacity);
    serde_json::to_writer(&mut out, value)
        .map_err(|e| ApiError::Internal(format!("the answer does not serialise: {e}")))?;
    Ok(out)
}

/// The game a one-seat answer is about, and the answer or why there is none (told only if the
/// state is not stale); the outer error is told at once.
pub type SeatAnswer = Result<(GameRef, Result<Vec<u8>, ApiError>), ApiError>;

/// Answers a request made for one seat that changes nothing: `work` runs with its seat key, on
/// the worker or on an engine thread (within the request's script budget) as `triage` decided
/// for its state, and its answer is told only if the state is not stale.
pub async fn for_one_seat<B: Send + 'static>(
    req: HttpRequest,
    app: web::Data<AppState>,
    triage: Triage,
    body: B,
    work: fn(&AppState, Option<&str>, Opened, B) -> SeatAnswer,
) -> Result<HttpResponse, ApiError> {
    let key = app.seat_key(&req)?.map(str::to_owned);
    let (game, answer) = match triage {
        Triage::Here(opened) => app
            .gate
            .run_here(|| work(&app, key.as_deref(), opened?, body))?,
        Triage::Pool(unopened) => {
            let on = app.clone();
            app.gate
                .run(move || work(&on, key.as_deref(), unopened.open(&on)?, body))
                .await?
        }
    };
    app.check_fresh(game).await?;
    Ok(json_answer(HttpResponse::Ok(), answer?))
}
