//! Every error the API answers, as `application/problem+json` (RFC 9457) with a stable `type` code.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

use crate::engine::hooks::HookError;
use crate::engine::{Action, DealError, IllegalAction, InvalidState, StepError};
use crate::rules::ErrorKind;

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// One problem of an authored ruleset, with its place in the YAML (or script) when known.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(example = json!({
    "path": "knock.limit", "line": 7, "column": 10,
    "field": "knocking.knock_limit", "kind": "syntax",
    "message": "expected a number from 0 to 100, found \"ten\""
}))]
pub struct ProblemPlace {
    /// Where the problem is: a dotted path into the YAML, or a script file name.
    pub path: String,
    /// 1-based line, when known.
    pub line: Option<u32>,
    /// 1-based column, when known.
    pub column: Option<u32>,
    /// The YAML key the problem concerns, as a dotted path, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "melds.set_min")]
    pub field: Option<String>,
    /// What kind of problem it is, for a program to act on without reading `message`.
    #[schema(example = "out-of-range")]
    pub kind: ErrorKind,
    /// What is wrong, in a variant author's words.
    pub message: String,
}

/// The `reason` codes of `illegal-action`, one per kind of refusal of the engine.
pub struct IllegalReason;

impl utoipa::PartialSchema for IllegalReason {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(IllegalAction::REASONS))
            .description(Some(
                "Why an action was refused, as a stable code (the `detail` says it in words).",
            ))
            .examples([serde_json::json!("over-knock-limit")])
            .into()
    }
}

impl utoipa::ToSchema for IllegalReason {}

/// Why a request was refused. Each variant has a stable problem `type` code.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    InvalidJson(String),
    #[error("{0}")]
    InvalidCard(String),
    #[error("{0}")]
    InvalidDeck(String),
    #[error("{0}")]
    InvalidHand(String),
    #[error("there is no ruleset {:?}{}", crate::rules::limits::shown(id), lists_them(suggestion.as_deref()))]
    UnknownRuleset {
        id: String,
        /// The nearest ruleset id, when the id looks like a typo of it.
        suggestion: Option<String>,
    },
    #[error("{0}")]
    UnknownOption(String),
    #[error("{0}")]
    IncompatibleOptions(String),
    #[error("{detail}")]
    InvalidRuleset {
        detail: String,
        errors: Vec<ProblemPlace>,
    },
    #[error("{0}")]
    ScriptError(String),
    #[error("the game state is not valid: {}", .0.join("; "))]
    InvalidState(Vec<String>),
    #[error("{0}")]
    TamperedState(String),
    #[error("{detail}")]
    IllegalAction {
        detail: String,
        /// The engine's stable code for the kind of refusal.
        reason: &'static str,
        legal_actions: Vec<Action>,
    },
    #[error("{0}")]
    UnknownSeat(String),
    #[error("{0}")]
    InvalidTarget(String),
    #[error("{0}")]
    UnknownLevel(String),
    #[error("{0}")]
    NoHumanSeat(String),
    #[error("{0}")]
    BotSeat(String),
    #[error("{0}")]
    NotYourTurn(String),
    #[error("the request body is larger than the limit of {limit} bytes")]
    PayloadTooLarge { limit: usize },
    #[error("there is nothing at {0}")]
    NotFound(String),
    #[error("{0}")]
    MethodNotAllowed(String),
    #[error("{0}")]
    MissingSeatKey(String),
    #[error("{0}")]
    ForbiddenSeat(String),
    #[error("{0}")]
    DeckNotAllowed(String),
    #[error("{0}")]
    StaleState(String),
    #[error("{0}")]
    GuardUnavailable(String),
    #[error("{0}")]
    UnsupportedMediaType(String),
    #[error("{0}")]
    RequestTimeout(String),
    #[error("{0}")]
    ServerBusy(String),
    #[error("{0}")]
    StateTooLarge(String),
    #[error("{0}")]
    Internal(String),
}

fn lists_them(suggestion: Option<&str>) -> String {
    match suggestion {
        Some(s) => format!("; did you mean {s:?}? GET /v1/rulesets lists them"),
        None => ": GET /v1/rulesets lists them".into(),
    }
}

impl ApiError {
    /// The stable problem `type` code.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::InvalidJson(_) => "invalid-json",
            ApiError::InvalidCard(_) => "invalid-card",
            ApiError::InvalidDeck(_) => "invalid-deck",
            ApiError::InvalidHand(_) => "invalid-hand",
            ApiError::UnknownRuleset { .. } => "unknown-ruleset",
            ApiError::UnknownOption(_) => "unknown-option",
            ApiError::IncompatibleOptions(_) => "incompatible-options",
            ApiError::InvalidRuleset { .. } => "invalid-ruleset",
            ApiError::ScriptError(_) => "script-error",
            ApiError::InvalidState(_) => "invalid-state",
            ApiError::TamperedState(_) => "tampered-state",
            ApiError::IllegalAction { .. } => "illegal-action",
            ApiError::UnknownSeat(_) => "unknown-seat",
            ApiError::InvalidTarget(_) => "invalid-target",
            ApiError::UnknownLevel(_) => "unknown-level",
            ApiError::NoHumanSeat(_) => "no-human-seat",
            ApiError::BotSeat(_) => "bot-seat",
            ApiError::NotYourTurn(_) => "not-your-turn",
            ApiError::PayloadTooLarge { .. } => "payload-too-large",
            ApiError::NotFound(_) => "not-found",
            ApiError::MethodNotAllowed(_) => "method-not-allowed",
            ApiError::MissingSeatKey(_) => "missing-seat-key",
            ApiError::ForbiddenSeat(_) => "forbidden-seat",
            ApiError::DeckNotAllowed(_) => "deck-not-allowed",
            ApiError::StaleState(_) => "stale-state",
            ApiError::GuardUnavailable(_) => "replay-guard-unavailable",
            ApiError::UnsupportedMediaType(_) => "unsupported-media-type",
            ApiError::RequestTimeout(_) => "request-timeout",
            ApiError::ServerBusy(_) => "server-busy",
            ApiError::StateTooLarge(_) => "state-too-large",
            ApiError::Internal(_) => "internal-error",
        }
    }

    /// A short, fixed summary of the problem type.
    pub fn title(&self) -> &'static str {
        match self {
            ApiError::InvalidJson(_) => "The body is not JSON of the documented shape",
            ApiError::InvalidCard(_) => "A card string is not a card",
            ApiError::InvalidDeck(_) => "The deck is not 52 distinct cards",
            ApiError::InvalidHand(_) => "The hand is not 10 or 11 distinct cards",
            ApiError::UnknownRuleset { .. } => "No ruleset with that id",
            ApiError::UnknownOption(_) => "The ruleset does not offer that option",
            ApiError::IncompatibleOptions(_) => "Those options exclude each other",
            ApiError::InvalidRuleset { .. } => "The authored ruleset does not load",
            ApiError::ScriptError(_) => "A ruleset script failed",
            ApiError::InvalidState(_) => "The game state is not consistent",
            ApiError::TamperedState(_) => "The sealed state does not open",
            ApiError::IllegalAction { .. } => "That action is not allowed now",
            ApiError::UnknownSeat(_) => "No such seat in this game",
            ApiError::InvalidTarget(_) => "The ruleset does not play to that target",
            ApiError::UnknownLevel(_) => "No bot level of that name",
            ApiError::NoHumanSeat(_) => "Every seat is a bot",
            ApiError::BotSeat(_) => "That seat is played by a bot",
            ApiError::NotYourTurn(_) => "That seat has nothing to do now",
            ApiError::PayloadTooLarge { .. } => "The body is too large",
            ApiError::NotFound(_) => "Not found",
            ApiError::MethodNotAllowed(_) => "Method not allowed",
            ApiError::MissingSeatKey(_) => "A seat key is needed",
            ApiError::ForbiddenSeat(_) => "The key does not open this seat of this game",
            ApiError::DeckNotAllowed(_) => "Explicit decks are not allowed on this server",
            ApiError::StaleState(_) => "The game has moved on since this state",
            ApiError::GuardUnavailable(_) => "The replay guard does not answer",
            ApiError::UnsupportedMediaType(_) => "The body is not application/json",
            ApiError::RequestTimeout(_) => "The request body did not arrive in time",
            ApiError::ServerBusy(_) => "The server is busy",
            ApiError::StateTooLarge(_) => "The game's state would not fit in a request",
            ApiError::Internal(_) => "The server failed",
        }
    }

    /// The problem body.
    pub fn problem(&self) -> Problem {
        let mut p = Problem {
            kind: self.code().to_string(),
            title: self.title().to_string(),
            status: self.status_code().as_u16(),
            detail: self.to_string(),
            legal_actions: None,
            reason: None,
            errors: None,
            problems: None,
        };
        match self {
            ApiError::IllegalAction {
                legal_actions,
                reason,
                ..
            } => {
                p.legal_actions = Some(legal_actions.clone());
                p.reason = Some(reason);
            }
            ApiError::InvalidRuleset { errors, .. } => p.errors = Some(errors.clone()),
            ApiError::InvalidState(problems) => p.problems = Some(problems.clone()),
            _ => {}
        }
        p
    }

    /// An illegal action, with the actions that are legal instead.
    pub fn illegal(e: &IllegalAction, legal_actions: Vec<Action>) -> ApiError {
        ApiError::IllegalAction {
            detail: e.to_string(),
            reason: e.reason(),
            legal_actions,
        }
    }

    /// A step the engine refused; `legal` is asked only for an illegal action.
    pub fn from_step(e: StepError, legal: impl FnOnce() -> Vec<Action>) -> ApiError {
        match e {
            StepError::Illegal(e) => ApiError::illegal(&e, legal()),
            StepError::Hook(h) => ApiError::from(h),
            StepError::Deal(d) => ApiError::from(d),
            StepError::Overflow(o) => ApiError::InvalidState(vec![o.to_string()]),
        }
    }

    /// A JSON body that did not deserialise: a bad card string is `invalid-card`, anything else
    /// `invalid-json`.
    pub fn from_serde(e: &serde_json::Error) -> ApiError {
        let message = in_json_words(&e.to_string());
        if message.contains(CARD_ERROR_MARK) {
            ApiError::InvalidCard(message)
        } else {
            ApiError::InvalidJson(message)
        }
    }
}

/// serde's message with Rust's type names said as JSON: `expected u8` becomes `expected a whole
/// number from 0 to 255`.
fn in_json_words(message: &str) -> String {
    const WORDS: [(&str, &str); 10] = [
        ("expected u8", "expected a whole number from 0 to 255"),
        ("expected u16", "expected a whole number from 0 to 65535"),
        (
            "expected u32",
            "expected a whole number from 0 to 4294967295",
        ),
        (
            "expected u64",
            "expected a whole number from 0 to 18446744073709551615",
        ),
        ("expected usize", "expected a whole number of at least 0"),
        ("expected i32", "expected a whole number"),
        ("expected i64", "expected a whole number"),
        ("expected a boolean", "expected true or false"),
        ("expected a sequence", "expected an array"),
        ("expected a map", "expected an object"),
    ];
    let mut out = message.to_string();
    for (rust, json) in WORDS {
        out = out.replace(rust, json);
    }
    out
}

/// Part of [`ParseCardError`](crate::cards::ParseCardError)'s message, by which a card error is
/// told apart from other JSON errors (serde keeps only the text of a custom error).
const CARD_ERROR_MARK: &str = " is not a card (";

impl From<HookError> for ApiError {
    fn from(e: HookError) -> ApiError {
        ApiError::ScriptError(e.to_string())
    }
}

impl From<DealError> for ApiError {
    fn from(e: DealError) -> ApiError {
        match e {
            DealError::InvalidDeck(_) | DealError::WrongDeckCount { .. } => {
                ApiError::InvalidDeck(e.to_string())
            }
            DealError::NoSuchSeat { .. } => ApiError::UnknownSeat(e.to_string()),
            DealError::Hook(h) => ApiError::from(h),
            DealError::Unsupported(m) => ApiError::InvalidRuleset {
                detail: format!("this ruleset cannot be dealt: {m}"),
                errors: vec![ProblemPlace {
                    path: String::new(),
                    line: None,
                    column: None,
                    field: Some("deal.hand_size".into()),
                    kind: ErrorKind::Conflict,
                    message: m,
                }],
            },
        }
    }
}

impl From<InvalidState> for ApiError {
    fn from(e: InvalidState) -> ApiError {
        ApiError::InvalidState(e.problems)
    }
}

impl From<actix_web::error::JsonPayloadError> for ApiError {
    fn from(e: actix_web::error::JsonPayloadError) -> ApiError {
        use actix_web::error::JsonPayloadError as E;
        match e {
            E::OverflowKnownLength { limit, .. } | E::Overflow { limit } => {
                ApiError::PayloadTooLarge { limit }
            }
            E::Deserialize(e) => ApiError::from_serde(&e),
            E::Payload(actix_web::error::PayloadError::Overflow) => ApiError::PayloadTooLarge {
                limit: super::BODY_LIMIT,
            },
            E::Payload(actix_web::error::PayloadError::Io(e))
                if e.kind() == std::io::ErrorKind::TimedOut =>
            {
                ApiError::RequestTimeout(format!("{e}: send the whole body promptly"))
            }
            E::ContentType => ApiError::UnsupportedMediaType(
                "send the body as JSON with Content-Type: application/json".into(),
            ),
            e => ApiError::InvalidJson(e.to_string()),
        }
    }
}

/// An error answer (RFC 9457 problem details).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "illegal-action",
    "title": "That action is not allowed now",
    "status": 422,
    "detail": "you must draw before you discard",
    "legal_actions": [{"seat": 0, "type": "draw", "from": "stock"}, {"seat": 0, "type": "draw", "from": "discard"}]
}))]
pub struct Problem {
    /// The stable problem code: invalid-json, invalid-card, invalid-deck, invalid-hand, unknown-ruleset,
    /// unknown-option, incompatible-options, invalid-ruleset, script-error, invalid-state,
    /// tampered-state, illegal-action, unknown-seat, invalid-target, unknown-level, no-human-seat,
    /// bot-seat, not-your-turn, payload-too-large, not-found, method-not-allowed, missing-seat-key,
    /// forbidden-seat, deck-not-allowed, stale-state, replay-guard-unavailable,
    /// unsupported-media-type, request-timeout, server-busy, state-too-large, internal-error.
    #[serde(rename = "type")]
    #[schema(example = "illegal-action")]
    pub kind: String,
    /// A fixed summary of the problem type.
    #[schema(example = "That action is not allowed now")]
    pub title: String,
    /// The HTTP status code.
    #[schema(example = 422)]
    pub status: u16,
    /// What went wrong in this request, in a player's words.
    #[schema(example = "you must draw before you discard")]
    pub detail: String,
    /// `illegal-action` only: the actions that are legal now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_actions: Option<Vec<Action>>,
    /// `illegal-action` only: a stable code for why the action was refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<IllegalReason>)]
    pub reason: Option<&'static str>,
    /// `invalid-ruleset` only: each problem of the authored ruleset with its place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<Vec<ProblemPlace>>,
    /// `invalid-state` only: every problem found in the state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problems: Option<Vec<String>>,
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::InvalidJson(_) => StatusCode::BAD_REQUEST,
            ApiError::UnknownRuleset { .. } | ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::MissingSeatKey(_) => StatusCode::UNAUTHORIZED,
            ApiError::ForbiddenSeat(_) => StatusCode::FORBIDDEN,
            ApiError::StaleState(_) => StatusCode::CONFLICT,
            ApiError::GuardUnavailable(_) | ApiError::ServerBusy(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::RequestTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::UNPROCESSABLE_ENTITY,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let body = serde_json::to_vec(&self.problem()).unwrap_or_default();
        let mut res = HttpResponse::build(self.status_code());
        res.insert_header((header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON)));
        match self {
            ApiError::MissingSeatKey(_) => {
                res.insert_header((
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static("Bearer realm=\"gin-rules\""),
                ));
            }
            ApiError::ServerBusy(_) => {
                res.insert_header((header::RETRY_AFTER, super::gate::RETRY_AFTER_SECONDS));
            }
            ApiError::RequestTimeout(_) => {
                res.insert_header((header::CONNECTION, HeaderValue::from_static("close")));
            }
            _ => {}
        }
        res.body(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_errors_are_told_apart() {
        let e = serde_json::from_str::<crate::cards::Card>("\"ZZ\"").unwrap_err();
        assert_eq!(ApiError::from_serde(&e).code(), "invalid-card");
        let e = serde_json::from_str::<crate::cards::Card>("12").unwrap_err();
        assert_eq!(ApiError::from_serde(&e).code(), "invalid-json");
    }

    #[test]
    fn problems_carry_their_extras() {
        let p = ApiError::InvalidState(vec!["a".into(), "b".into()]).problem();
        assert_eq!(p.kind, "invalid-state");
        assert_eq!(p.status, 422);
        assert_eq!(
            p.problems.as_deref(),
            Some(&["a".to_string(), "b".to_string()][..])
        );
    }
}
