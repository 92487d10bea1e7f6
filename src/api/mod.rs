//! The stateless HTTP API (see `docs/http.md`): actix-web handlers, one file per resource,
//! problem+json errors, sealed states and the OpenAPI document.
//!
//! ```no_run
//! use actix_web::{App, HttpServer, web};
//! use gin_rules::api::{self, AppState};
//!
//! # async fn run() -> std::io::Result<()> {
//! let state = web::Data::new(AppState::builtin());
//! HttpServer::new(move || App::new().app_data(state.clone()).configure(api::configure))
//!     .bind("127.0.0.1:8080")?
//!     .run()
//!     .await
//! # }
//! ```

pub mod answer;
pub mod bots;
pub mod cost;
pub mod dispatch;
pub mod error;
pub mod games;
pub mod gate;
pub mod guard;
pub mod hands;
pub mod headers;
pub mod health;
pub mod limits;
pub mod metrics;
pub mod observe;
pub mod open;
pub mod openapi;
pub mod play;
pub mod pool;
pub mod problem;
pub mod routes;
pub mod rulesets;
pub mod schemas;
pub mod seal;
pub mod seats;
pub mod secrets;
pub mod snapshot;
pub mod state;

use actix_web::http::StatusCode;
use actix_web::middleware::ErrorHandlers;
use actix_web::web;

pub use crate::rules::{Catalog, ResolveError, RulesetError, Variant};
pub use error::{ApiError, Problem};
pub use gate::Gate;
pub use guard::ReplayGuard;
pub use limits::Limits;
pub use metrics::Metrics;
pub use open::{Opened, StateInput};
pub use seal::Sealer;
pub use seats::{Audience, SeatKeys};
pub use state::{AppState, SeatKeysNeedSecret};

/// The largest request body accepted (256 KiB).
pub const BODY_LIMIT: usize = 256 * 1024;

/// Registers every route of the API. The caller adds an [`AppState`] as `web::Data`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.app_data(dispatch::json_config())
        .app_data(web::Data::new(health::Document(openapi::document_text)))
        .service(
            web::scope("")
                .wrap(
                    ErrorHandlers::new()
                        .handler(StatusCode::NOT_FOUND, dispatch::as_problem)
                        .handler(StatusCode::METHOD_NOT_ALLOWED, dispatch::as_problem),
                )
                .wrap(actix_web::middleware::from_fn(dispatch::body_gate))
                .wrap(actix_web::middleware::from_fn(headers::every_answer))
                .wrap(actix_web::middleware::from_fn(observe::observe))
                .configure(dispatch::register)
                .configure(play::register)
                .default_service(web::to(dispatch::not_found)),
        );
}
