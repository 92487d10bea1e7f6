//! What every answer carries whatever its route: `X-Content-Type-Options: nosniff`, and `HEAD`
//! answered on every `GET` route as `GET` would be, without the body.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::body::{BodySize, EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::Next;
use actix_web::web::Bytes;

use super::dispatch;

/// Adds `nosniff` to every answer, errors included, and answers `HEAD` on a `GET` route with the
/// `GET` answer's status and headers (its `Content-Length` too) and no body.
pub async fn every_answer<B: MessageBody + 'static>(
    mut req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<EitherBody<B, Headless>>, actix_web::Error> {
    let head = req.method() == Method::HEAD;
    if head && dispatch::allowed_methods(req.path()).contains(&"GET") {
        req.head_mut().method = Method::GET;
    }
    // Handlers' and extractors' errors arrive here as answers; the layers inside this one
    // return none of their own.
    let mut res = next.call(req).await?;
    res.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if !head {
        return Ok(res.map_into_left_body());
    }
    Ok(res
        .map_body(|_, body| Headless(body.size()))
        .map_into_right_body())
}

/// The body of an answer to `HEAD`: the size of the body `GET` answers, so that the headers
/// give its `Content-Length`, and no bytes.
pub struct Headless(BodySize);

impl MessageBody for Headless {
    type Error = Infallible;

    fn size(&self) -> BodySize {
        self.0
    }

    fn poll_next(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        Poll::Ready(None)
    }
}
