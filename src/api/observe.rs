//! Every answer of the API counted by method, route pattern and status, and timed, for
//! [`Metrics`](super::Metrics).

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::web;

use super::dispatch;
use super::metrics::UNMATCHED;
use super::state::AppState;

/// Counts every answer of the app by method, route pattern and status, and times it.
pub async fn observe<B: MessageBody + 'static>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<B>, actix_web::Error> {
    let app = req.app_data::<web::Data<AppState>>().cloned();
    let method = req.method().clone();
    let route = dispatch::route_of(req.path()).unwrap_or(UNMATCHED);
    let start = std::time::Instant::now();
    let res = next.call(req).await;
    let status = match &res {
        Ok(res) => res.status(),
        Err(e) => e.as_response_error().status_code(),
    };
    if let Some(app) = app {
        app.metrics
            .request(&method, route, status.as_u16(), start.elapsed());
    }
    res
}
