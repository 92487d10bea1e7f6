//! How a request reaches its handler: the routes registered in order, the body gate in front
//! of them, and the problem answers of an unknown path or a wrong method.

use std::collections::HashMap;
use std::io;
use std::pin::Pin;
use std::sync::LazyLock;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::{ErrorHandlerResponse, Next};
use actix_web::rt::time::{Instant, Sleep, sleep_until};
use actix_web::web::{self, Bytes};
use actix_web::{HttpMessage as _, HttpRequest, ResponseError as _};
use futures_core::Stream;

use super::error::{self, ApiError};
use super::limits::Limits;
use super::routes::Route;
use super::state::AppState;
use super::{BODY_LIMIT, play, routes};

/// How JSON bodies are read: up to [`BODY_LIMIT`], `Content-Type: application/json` only
/// ([`gate::body_gate`] refuses the other types before the body is read), errors as problems.
pub fn json_config() -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(BODY_LIMIT)
        .content_type_required(true)
        .error_handler(|e, _req| ApiError::from(e).into())
}

/// Registers every route in order; after the routes of a path, any other method on that path
/// answers `405` (so `GET /v1/rulesets/check` is not the ruleset `check`).
pub fn register(cfg: &mut web::ServiceConfig) {
    let mut done: Vec<String> = Vec::new();
    let routes = routes::routes();
    let paths: Vec<String> = routes.iter().map(|r| r.path.clone()).collect();
    let mut routes: Vec<Option<Route>> = routes.into_iter().map(Some).collect();
    for path in paths {
        if done.contains(&path) {
            continue;
        }
        for slot in routes.iter_mut() {
            if slot.as_ref().is_some_and(|r| r.path == path)
                && let Some(route) = slot.take()
            {
                route.register(cfg);
            }
        }
        cfg.service(web::resource(path.as_str()).to(not_found));
        done.push(path);
    }
}

/// The methods of the routes `path` matches; a route without parameters that matches hides the
/// patterns that would also match (`/v1/rulesets/check` is not the ruleset `check`).
pub(super) fn allowed_methods(path: &str) -> Vec<&'static str> {
    if let Some(methods) = EXACT.get(path) {
        return methods.clone();
    }
    let matching = || ROUTE_DEFS.iter().filter(|(def, _)| def.is_match(path));
    let exact: Vec<&str> = matching()
        .filter(|(def, _)| def.pattern().is_some_and(|p| !p.contains('{')))
        .map(|&(_, method)| method)
        .collect();
    if exact.is_empty() {
        matching().map(|&(_, method)| method).collect()
    } else {
        exact
    }
}

/// The pattern of the route `path` matches (`/v1/rulesets/{id}`), a path without parameters
/// before a pattern; `None` when no route does.
pub(super) fn route_of(path: &str) -> Option<&'static str> {
    if let Some((&pattern, _)) = EXACT.get_key_value(path) {
        return Some(pattern);
    }
    let matching = || ROUTE_DEFS.iter().filter(|(def, _)| def.is_match(path));
    let pattern = |(def, _): &'static (actix_web::dev::ResourceDef, &'static str)| def.pattern();
    matching()
        .filter_map(pattern)
        .find(|p| !p.contains('{'))
        .or_else(|| matching().find_map(pattern))
}

/// The [`routes::table`] and the pages of [`play::ROUTES`] as matchers, built once: the body
/// gate asks on every `POST`, and actix-router compiles a regular expression for a pattern with a
/// parameter and leaks its parameter names on purpose each time it builds a matcher (the server's
/// memory grew by about 40 bytes a request when they were built per request).
static ROUTE_DEFS: LazyLock<Vec<(actix_web::dev::ResourceDef, &'static str)>> =
    LazyLock::new(|| {
        let pages = play::ROUTES.iter().map(|p| (*p, "GET"));
        routes::table()
            .iter()
            .map(|(p, m)| (p.as_str(), *m))
            .chain(pages)
            .map(|(pattern, method)| (actix_web::dev::ResourceDef::new(pattern), method))
            .collect()
    });

/// The methods of each route without parameters, by its path: what [`allowed_methods`] and
/// [`route_of`] answer for most requests, without running the other patterns' regular
/// expressions (a pattern without parameters matches its own path only).
static EXACT: LazyLock<HashMap<&'static str, Vec<&'static str>>> = LazyLock::new(|| {
    let mut exact: HashMap<&'static str, Vec<&'static str>> = HashMap::new();
    for (def, method) in ROUTE_DEFS.iter() {
        if let Some(pattern) = def.pattern().filter(|p| !p.contains('{')) {
            exact.entry(pattern).or_default().push(*method);
        }
    }
    exact
});

pub async fn not_found(req: HttpRequest) -> actix_web::HttpResponse {
    let path = req.path();
    let allowed = allowed_methods(path);
    if allowed.is_empty() {
        return ApiError::NotFound(path.to_string()).error_response();
    }
    let mut res = ApiError::MethodNotAllowed(format!(
        "{} is not allowed on {path}: use {}",
        req.method(),
        allowed.join(" or ")
    ))
    .error_response();
    if let Ok(v) = header::HeaderValue::from_str(&allowed.join(", ")) {
        res.headers_mut().insert(header::ALLOW, v);
    }
    res
}

/// Turns actix's bare 404 and 405 answers into problems (ours already are).
pub fn as_problem<B>(res: ServiceResponse<B>) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes() == error::PROBLEM_JSON.as_bytes());
    if is_problem {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let (req, res) = res.into_parts();
    let error = if res.status() == StatusCode::METHOD_NOT_ALLOWED {
        ApiError::MethodNotAllowed(format!("{} is not allowed on {}", req.method(), req.path()))
    } else {
        ApiError::NotFound(req.path().to_string())
    };
    let res = ServiceResponse::new(req, error.error_response()).map_into_right_body();
    Ok(ErrorHandlerResponse::Response(res))
}

/// Whether a `Content-Type` is `application/json`, with any parameters (`charset=utf-8`).
pub fn is_json(content_type: Option<&HeaderValue>) -> bool {
    content_type
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<actix_web::mime::Mime>().ok())
        .is_some_and(|m| {
            m.type_() == actix_web::mime::APPLICATION
                && m.subtype() == actix_web::mime::JSON
                && m.suffix().is_none()
        })
}

/// Refuses a body sent to a `POST` route as anything but `application/json` (`415
/// unsupported-media-type`), before reading it: a web page can make a visitor's browser post
/// text or forms anywhere without a CORS preflight, never JSON. A body must then arrive within
/// the body timeout of [`Limits`], counted from the end of its headers; else reading it fails
/// (`408 request-timeout`).
pub async fn body_gate(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody + 'static>>, actix_web::Error> {
    if req.method() == Method::POST
        && !is_json(req.headers().get(header::CONTENT_TYPE))
        && allowed_methods(req.path()).contains(&"POST")
    {
        let error = ApiError::UnsupportedMediaType(
            "send the body as JSON with Content-Type: application/json".into(),
        );
        return Ok(req
            .into_response(error.error_response())
            .map_into_right_body());
    }
    let timeout = req.app_data::<web::Data<AppState>>().map_or_else(
        || Limits::default().body_timeout,
        |a| a.limits().body_timeout,
    );
    let payload = req.take_payload();
    req.set_payload(Payload::Stream {
        payload: Box::pin(Deadline {
            inner: payload,
            deadline: Instant::now() + timeout,
            timer: None,
            timeout,
        }),
    });
    Ok(next.call(req).await?.map_into_left_body())
}

/// A request body that ends with an error once its time is up.
struct Deadline {
    inner: Payload,
    deadline: Instant,
    /// Set the first time the body is not all there: most bodies arrive with their headers and
    /// need no timer.
    timer: Option<Pin<Box<Sleep>>>,
    timeout: Duration,
}

/// The message of the error a late body ends with (told apart from other read errors by it).
pub const BODY_TIMEOUT_MARK: &str = "the request body did not arrive within";

impl Stream for Deadline {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if let Poll::Ready(item) = Pin::new(&mut self.inner).poll_next(cx) {
            return Poll::Ready(item);
        }
        let deadline = self.deadline;
        let timer = self
            .timer
            .get_or_insert_with(|| Box::pin(sleep_until(deadline)));
        if timer.as_mut().poll(cx).is_ready() {
            let message = format!("{BODY_TIMEOUT_MARK} {} ms", self.timeout.as_millis());
            return Poll::Ready(Some(Err(PayloadError::Io(io::Error::new(
                io::ErrorKind::TimedOut,
                message,
            )))));
        }
        Poll::Pending
    }
}
