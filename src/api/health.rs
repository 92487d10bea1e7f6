//! `GET /healthz`, `GET /openapi.json` and `GET /docs`.

use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, get, web};
use serde::Serialize;
use utoipa::ToSchema;

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
    HttpResponse::Ok()
        .content_type(ContentType::html())
        .body(include_str!("../../static/docs.html"))
}
