//! `POST /v1/hands/analyze`.

use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::analysis::HandAnalysis;
use crate::cards::Card;
use crate::ruleset::RulesetRef;

use super::answer::to_json;
use super::{ApiError, AppState};

/// A hand to analyse under a ruleset's melds, values and knock limit.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "cards": ["5S", "6S", "7S", "9C", "9D", "9H", "JC", "QC", "KC", "AD", "KD"],
    "ruleset": "standard"
}))]
pub struct AnalyzeRequest {
    /// 10 cards, or 11 (a hand after drawing).
    pub cards: Vec<Card>,
    /// A ruleset id; `standard` when left out.
    #[serde(default = "standard")]
    pub ruleset: String,
    /// Options of the ruleset, in order.
    #[serde(default)]
    pub options: Vec<String>,
}

fn standard() -> String {
    "standard".into()
}

/// Least deadwood, one best arrangement, and (for 11 cards) every best discard.
#[utoipa::path(
    tag = "hands",
    request_body = AnalyzeRequest,
    responses((status = 200, description = "The analysis", body = HandAnalysis))
)]
#[post("/v1/hands/analyze")]
pub async fn analyze(
    app: web::Data<AppState>,
    body: web::Json<AnalyzeRequest>,
) -> Result<HttpResponse, ApiError> {
    let req = body.into_inner();
    let work = app.clone();
    let body = app.gate.run(move || analysis(&work, req)).await?;
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(body))
}

/// The answer to an analysis request.
pub(super) fn analysis(app: &AppState, req: AnalyzeRequest) -> Result<Vec<u8>, ApiError> {
    let variant = app.resolve(&RulesetRef::new(req.ruleset, req.options))?;
    let rules = &variant.ruleset;
    let held = [rules.hand_size_at(usize::from(rules.table_players))];
    let analysis = HandAnalysis::of(&rules.melds, rules.knock_limit, &held, &req.cards)
        .map_err(|e| ApiError::InvalidHand(e.to_string()))?;
    to_json(&analysis)
}
