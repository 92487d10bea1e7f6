//! `POST /v1/hands/analyze`.

use actix_web::{HttpResponse, post, web};

use super::{ApiError, AppState};

/// Analyses a hand of 10 or 11 cards.
#[utoipa::path(
    post,
    path = "/v1/hands/analyze",
    tag = "hands",
    responses((status = 200, description = "The analysis"))
)]
#[post("/v1/hands/analyze")]
pub async fn analyze(
    _app: web::Data<AppState>,
    _body: web::Json<serde_json::Value>,
) -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound("/v1/hands/analyze".into()))
}
