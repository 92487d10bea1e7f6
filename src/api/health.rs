//! `GET /healthz`, `GET /readyz`, `GET /metrics`, `GET /openapi.json` and `GET /docs`.

use std::sync::LazyLock;

use actix_web::http::header::{self, ContentType};
use actix_web::{HttpResponse, get, web};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::ApiError;
use super::metrics::{CONTENT_TYPE, PATH as METRICS_PATH, Readings};
use super::state::AppState;

/// The server is up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(example = json!({"status": "ok"}))]
pub struct Health {
    /// Always `ok`.
    #[schema(example = "ok")]
    pub status: &'static str,
}

impl Health {
    pub const OK: Health = Health { status: "ok" };
}

/// Whether the server answers.
#[utoipa::path(
    tag = "service",
    responses((status = 200, description = "The server is up", body = Health))
)]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health::OK)
}

/// Whether the instance can serve games now, for a load balancer or an orchestrator: `503` while
/// the replay guard does not answer (Redis pinged at most once a second) or while every engine
/// thread stays taken past the engine wait (this request waits that long for one); `/healthz`
/// only says that the process answers.
#[utoipa::path(
    tag = "service",
    responses((status = 200, description = "The instance can serve games", body = Health))
)]
#[get("/readyz")]
pub async fn readyz(app: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    app.ready().await?;
    Ok(HttpResponse::Ok().json(Health::OK))
}

/// The server's metrics, in the Prometheus text format.
///
/// For Prometheus to scrape (text format version 0.0.4): requests, the engine threads, scripts,
/// bots, the replay guard, the authored-ruleset cache and secret rotations (docs/deploy.md lists
/// them). A server started with `--metrics-addr` serves them there instead, and answers `404
/// not-found` here.
#[utoipa::path(
    tag = "service",
    responses((status = 200, description = "The metrics", content_type = "text/plain; version=0.0.4; charset=utf-8"))
)]
#[get("/metrics")]
pub async fn metrics(app: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    if app.metrics_elsewhere {
        return Err(ApiError::NotFound(METRICS_PATH.to_string()));
    }
    Ok(page(&app))
}

/// `GET /metrics` of the metrics address (`--metrics-addr`): the metrics and nothing else.
pub async fn metrics_here(app: web::Data<AppState>) -> HttpResponse {
    page(&app)
}

fn page(app: &AppState) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(CONTENT_TYPE)
        .body(app.metrics.render(readings(app)))
}

/// What the metrics read from the server at a scrape.
fn readings(app: &AppState) -> Readings {
    let guard_evictions = match &app.guard {
        Some(super::ReplayGuard::Memory(guard)) => guard.forgotten(),
        _ => 0,
    };
    Readings {
        cache: app.catalog.authored_cache_usage(),
        guard_evictions,
        engine_threads: app.limits().engine_threads,
        engine_threads_busy: app.gate.busy(),
    }
}

/// This OpenAPI 3.1 document (identical to the committed `openapi/openapi.json`).
#[utoipa::path(
    tag = "service",
    responses((status = 200, description = "The OpenAPI document", content_type = "application/json"))
)]
#[get("/openapi.json")]
pub async fn openapi_json(document: web::Data<Document>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(ContentType::json())
        .body((document.0)())
}

/// Where `/openapi.json` takes its text from: the document describes this handler too, so the
/// handler is given the text as app data rather than building it.
pub struct Document(pub fn() -> &'static str);

/// The API reference for a person: a self-contained page that renders `/openapi.json` (no
/// internet access needed).
#[utoipa::path(
    tag = "service",
    responses((status = 200, description = "An HTML page", content_type = "text/html"))
)]
#[get("/docs")]
pub async fn docs() -> HttpResponse {
    static POLICY: LazyLock<String> = LazyLock::new(|| docs_policy(DOCS_PAGE));
    HttpResponse::Ok()
        .content_type(ContentType::html())
        .insert_header((header::CONTENT_SECURITY_POLICY, POLICY.as_str()))
        .body(DOCS_PAGE)
}

const DOCS_PAGE: &str = include_str!("../../static/docs.html");

/// What the docs page may run and load: its own inline script and style (by their hashes), and
/// calls to this server (the document, and the requests its forms send).
pub fn docs_policy(page: &str) -> String {
    format!(
        "default-src 'none'; script-src {}; style-src {}; connect-src 'self'; \
         img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        inline_hashes(page, "script"),
        inline_hashes(page, "style"),
    )
}

/// The CSP sources of a page's inline `<tag>` elements: `'sha256-…'` of each one's text, or
/// `'none'` when there is none.
fn inline_hashes(page: &str, tag: &str) -> String {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    let mut sources = Vec::new();
    let mut rest = page;
    while let Some(start) = rest.find(&open) {
        let body = &rest[start + open.len()..];
        let Some(end) = body.find(&close) else { break };
        let digest = Sha256::digest(&body.as_bytes()[..end]);
        sources.push(format!("'sha256-{}'", STANDARD.encode(digest)));
        rest = &body[end + close.len()..];
    }
    if sources.is_empty() {
        "'none'".to_string()
    } else {
        sources.join(" ")
    }
}
