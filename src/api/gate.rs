//! What keeps one request from holding up the others: engine work (rulesets, hooks, the meld
//! solver) runs on a fixed set of engine threads behind as many permits, never on the async
//! workers that answer `/healthz`; the hooks of a request share one budget; request bodies
//! must be JSON and arrive in time; a deal's state must fit the next request.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::HttpMessage as _;
use actix_web::ResponseError as _;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::Method;
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::Next;
use actix_web::rt::time::{Sleep, sleep};
use actix_web::web::{self, Bytes};
use futures_core::Stream;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::rules::hooks::{Budget, with_budget};

use super::pool::EnginePool;
use super::snapshot::StateOutput;
use super::{ApiError, AppState, BODY_LIMIT};

/// The limits of the server against costly or slow requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Requests doing engine work at once (each on a thread of its own).
    pub engine_threads: usize,
    /// How long a request waits for one of them before `503 server-busy`.
    pub engine_wait: Duration,
    /// What the hooks of one request may spend together.
    pub script_budget: Budget,
    /// How long a request body may take to arrive, from the end of its headers.
    pub body_timeout: Duration,
}

/// How long a request waits for an engine thread unless the server says otherwise.
pub const DEFAULT_ENGINE_WAIT: Duration = Duration::from_secs(2);

/// How long a request body may take to arrive unless the server says otherwise.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(10);

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            engine_threads: std::thread::available_parallelism().map_or(2, usize::from),
            engine_wait: DEFAULT_ENGINE_WAIT,
            script_budget: Budget::default(),
            body_timeout: DEFAULT_BODY_TIMEOUT,
        }
    }
}

/// The permits of engine work, shared by every worker.
#[derive(Clone, Debug)]
pub struct Gate {
    permits: Arc<Semaphore>,
    pool: Arc<EnginePool>,
    limits: Limits,
}

/// The `Retry-After` of a `503 server-busy`, in seconds.
pub const RETRY_AFTER_SECONDS: u32 = 1;

impl Gate {
    pub fn new(limits: Limits) -> Gate {
        Gate {
            permits: Arc::new(Semaphore::new(limits.engine_threads)),
            pool: Arc::new(EnginePool::new(limits.engine_threads)),
            limits,
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// A permit of engine work: `503 server-busy` when none frees up within the wait.
    pub async fn acquire(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        let busy = || {
            ApiError::ServerBusy(format!(
                "the server is busy: all {} engine threads stayed taken for {} ms; try again \
                 shortly",
                self.limits.engine_threads,
                self.limits.engine_wait.as_millis()
            ))
        };
        match actix_web::rt::time::timeout(
            self.limits.engine_wait,
            self.permits.clone().acquire_owned(),
        )
        .await
        {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(busy()),
        }
    }

    /// Runs `work` on an engine thread once a permit is free, with one script budget for every
    /// hook it calls. The permit goes with the work: a request dropped while waiting for its
    /// answer frees it only when the work is done.
    pub async fn run<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        F: FnOnce() -> Result<T, ApiError> + Send + 'static,
        T: Send + 'static,
    {
        let permit = self.acquire().await?;
        let budget = self.limits.script_budget;
        self.pool
            .run(move || {
                let _permit = permit;
                with_budget(budget, work)
            })
            .await
            .map_err(|e| {
                tracing::error!(error = %e, "engine work failed");
                ApiError::Internal("the engine work of this request failed".into())
            })?
    }
}

/// Room a state must leave under the body limit: the action of a step, and what a state gains in
/// a match (knock melds, bonuses, longer numbers), sealed.
pub const STATE_ROOM: usize = 8 * 1024;

/// `422 state-too-large` when `state` would not fit, with room to spare, in the body of the
/// requests that continue the game; `remedy` tells the client what makes it smaller.
pub fn check_state_fits(state: &StateOutput, remedy: &str) -> Result<(), ApiError> {
    let mut count = ByteCount(0);
    serde_json::to_writer(&mut count, state)
        .map_err(|e| ApiError::Internal(format!("the state does not serialise: {e}")))?;
    let room = BODY_LIMIT - STATE_ROOM;
    if count.0 > room {
        return Err(ApiError::StateTooLarge(format!(
            "this game's state would be {} bytes, and every request that continues the game must \
             carry it: at most {room} bytes (the body limit of {BODY_LIMIT} less {STATE_ROOM} for \
             the action and the state's growth); {remedy}",
            count.0
        )));
    }
    Ok(())
}

struct ByteCount(usize);

impl io::Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
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
        && super::allowed_methods(req.path()).contains(&"POST")
        && !is_json(req.headers().get(header::CONTENT_TYPE))
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
            timer: Box::pin(sleep(timeout)),
            timeout,
        }),
    });
    Ok(next.call(req).await?.map_into_left_body())
}

/// A request body that ends with an error once its time is up.
struct Deadline {
    inner: Payload,
    timer: Pin<Box<Sleep>>,
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
        if self.timer.as_mut().poll(cx).is_ready() {
            let message = format!("{BODY_TIMEOUT_MARK} {} ms", self.timeout.as_millis());
            return Poll::Ready(Some(Err(PayloadError::Io(io::Error::new(
                io::ErrorKind::TimedOut,
                message,
            )))));
        }
        Poll::Pending
    }
}
