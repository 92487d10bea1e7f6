//! `GET /v1/rulesets`, `GET /v1/rulesets/{id}`, `POST /v1/rulesets/check`.

use std::collections::BTreeMap;

use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::ruleset::{Ruleset, RulesetRef};

use super::answer::to_json;
use super::{ApiError, AppState, Variant};
use crate::rules::{HookInfo, OptionInfo, RulesRow, RulesetInfo, rules_table};

/// A ruleset resolved (after `extends`, options and defaults), with its rules table.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RulesetDetail {
    /// The ruleset id.
    #[schema(example = "standard")]
    pub id: String,
    /// Authored rulesets only: the SHA-256 (hex) of the YAML and scripts, as snapshots of games
    /// dealt from it name it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "5f2b0c1e9a7d4c3b8e6f1a2d0c9b8a7e6f5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b")]
    pub content_hash: Option<String>,
    /// The options in force, in the order applied.
    pub options: Vec<OptionInfo>,
    /// The options the ruleset offers.
    pub allowed_options: Vec<OptionInfo>,
    /// The hooks in force: which script decides which rule.
    pub hooks: Vec<HookInfo>,
    /// Every rule value the engine plays by.
    pub ruleset: Ruleset,
    /// The documented comparison rows (knocking, how a hand ends, hand score, lay-offs and
    /// undercuts, end of the stock, other options), rendered from the data.
    pub rules_table: Vec<RulesRow>,
}

impl RulesetDetail {
    pub(super) fn of(variant: &Variant) -> RulesetDetail {
        RulesetDetail {
            id: variant.reference.id.clone(),
            content_hash: variant.content_hash.map(|h| h.hex()),
            options: variant.options.clone(),
            allowed_options: variant.allowed_options.clone(),
            hooks: variant.hook_points.clone(),
            ruleset: variant.ruleset.as_ref().clone(),
            rules_table: rules_table(variant),
        }
    }
}

/// An authored ruleset to check. Limits: YAML at most 64 KiB and nested at most 10 levels; at
/// most 16 scripts of 64 KiB together, each named like `oklahoma.rhai` in at most 64 characters;
/// at most 64 options and 64 hook bindings; texts at most 1 000 characters. An answer lists at
/// most 50 problems, then counts the rest.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"yaml": "id: my-gin\nextends: standard\n", "scripts": {}}))]
pub struct CheckRequest {
    /// The ruleset's YAML.
    pub yaml: String,
    /// The Rhai scripts the YAML names, by file name.
    #[serde(default)]
    #[schema(value_type = crate::ruleset::Scripts)]
    pub scripts: BTreeMap<String, String>,
    /// Options of the ruleset to apply as well, in order.
    #[serde(default)]
    pub options: Vec<String>,
}

/// Options to resolve a ruleset with: `?option=oklahoma&option=classic-bonuses`.
#[derive(Clone, Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OptionsQuery {
    /// An option to apply (repeatable, in order).
    #[param(example = "oklahoma")]
    pub option: Option<Vec<String>>,
}

/// The rulesets this server plays.
#[utoipa::path(
    tag = "rulesets",
    responses((status = 200, description = "Every ruleset, built-in and added", body = [RulesetInfo]))
)]
#[get("/v1/rulesets")]
pub async fn list(app: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(app.catalog.list())
}

/// One ruleset, resolved, with its rules table.
#[utoipa::path(
    tag = "rulesets",
    params(("id" = String, Path, description = "A ruleset id", example = "standard"), OptionsQuery),
    responses((status = 200, description = "The resolved ruleset", body = RulesetDetail))
)]
#[get("/v1/rulesets/{id}")]
pub async fn get(
    app: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, ApiError> {
    let options = query
        .into_inner()
        .into_iter()
        .filter(|(k, _)| k == "option")
        .map(|(_, v)| v);
    let reference = RulesetRef::new(id.into_inner(), options);
    let work = app.clone();
    let body = app
        .gate
        .run(move || to_json(&RulesetDetail::of(&*work.resolve(&reference)?)))
        .await?;
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(body))
}

/// Checks an authored ruleset without dealing a game.
#[utoipa::path(
    tag = "rulesets",
    request_body = CheckRequest,
    responses((status = 200, description = "The ruleset loads: resolved, with its rules table", body = RulesetDetail))
)]
#[post("/v1/rulesets/check")]
pub async fn check(
    app: web::Data<AppState>,
    body: web::Json<CheckRequest>,
) -> Result<HttpResponse, ApiError> {
    let req = body.into_inner();
    let work = app.clone();
    let body = app.gate.run(move || check_authored(&work, req)).await?;
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(body))
}

pub(super) fn check_authored(app: &AppState, req: CheckRequest) -> Result<Vec<u8>, ApiError> {
    let base = app
        .catalog
        .check(&req.yaml, &req.scripts)
        .map_err(ApiError::invalid_ruleset)?;
    let variant = if req.options.is_empty() {
        base
    } else {
        app.resolve(&RulesetRef {
            options: req.options,
            ..base.reference.clone()
        })?
    };
    to_json(&RulesetDetail::of(&variant))
}
