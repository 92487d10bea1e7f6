//! `GET /play`: a table in the browser. The page is a client of the public API like any other
//! frontend (it calls `v1/...` only, with its seat key under `--seat-keys`); it is compiled into
//! the binary, needs no build step and loads nothing from elsewhere. It is not part of the JSON
//! API, so the OpenAPI document leaves it out.

use actix_web::http::header;
use actix_web::{HttpResponse, get};

const PAGE: &str = include_str!("../../web/play.html");
const SCRIPT: &str = include_str!("../../web/play.js");
const STYLE: &str = include_str!("../../web/play.css");

/// What the page may load: its own script and style, and calls to this server only.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
    style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; \
    form-action 'none'; frame-ancestors 'none'";

/// Registers the page and its files.
pub fn register(cfg: &mut actix_web::web::ServiceConfig) {
    cfg.service(page).service(script).service(style);
}

/// The routes of the page and its files, for telling 404 from 405.
pub const ROUTES: [&str; 3] = ["/play", "/play/play.js", "/play/play.css"];

fn answer(content_type: &'static str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, content_type))
        .insert_header((header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(body)
}

#[get("/play")]
pub async fn page() -> HttpResponse {
    answer("text/html; charset=utf-8", PAGE)
}

#[get("/play/play.js")]
pub async fn script() -> HttpResponse {
    answer("text/javascript; charset=utf-8", SCRIPT)
}

#[get("/play/play.css")]
pub async fn style() -> HttpResponse {
    answer("text/css; charset=utf-8", STYLE)
}
