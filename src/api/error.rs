//! Every error the API answers, as `application/problem+json` (RFC 9457) with a stable `type` code.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

use crate::engine::hooks::HookError;
use crate::engine::{Action, DealError, IllegalAction, InvalidState, StepError};
use crate::rules::{ErrorKind, ResolveError, RulesetError};

use super::problem::ProblemCode;

/// The `Retry-After` of a `503 server-busy`, in seconds.
pub const RETRY_AFTER_SECONDS: u32 = 1;

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
            .enum_values(Some(IllegalAction::REASONS.iter().copied()))
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
    pub fn problem_code(&self) -> ProblemCode {
        match self {
            ApiError::InvalidJson(_) => ProblemCode::InvalidJson,
            ApiError::InvalidCard(_) => ProblemCode::InvalidCard,
            ApiError::InvalidDeck(_) => ProblemCode::InvalidDeck,
            ApiError::InvalidHand(_) => ProblemCode::InvalidHand,
            ApiError::UnknownRuleset { .. } => ProblemCode::UnknownRuleset,
            ApiError::UnknownOption(_) => ProblemCode::UnknownOption,
            ApiError::IncompatibleOptions(_) => ProblemCode::IncompatibleOptions,
            ApiError::InvalidRuleset { .. } => ProblemCode::InvalidRuleset,
            ApiError::ScriptError(_) => ProblemCode::ScriptError,
            ApiError::InvalidState(_) => ProblemCode::InvalidState,
            ApiError::TamperedState(_) => ProblemCode::TamperedState,
            ApiError::IllegalAction { .. } => ProblemCode::IllegalAction,
            ApiError::UnknownSeat(_) => ProblemCode::UnknownSeat,
            ApiError::InvalidTarget(_) => ProblemCode::InvalidTarget,
            ApiError::UnknownLevel(_) => ProblemCode::UnknownLevel,
            ApiError::NoHumanSeat(_) => ProblemCode::NoHumanSeat,
            ApiError::BotSeat(_) => ProblemCode::BotSeat,
            ApiError::NotYourTurn(_) => ProblemCode::NotYourTurn,
            ApiError::PayloadTooLarge { .. } => ProblemCode::PayloadTooLarge,
            ApiError::NotFound(_) => ProblemCode::NotFound,
            ApiError::MethodNotAllowed(_) => ProblemCode::MethodNotAllowed,
            ApiError::MissingSeatKey(_) => ProblemCode::MissingSeatKey,
            ApiError::ForbiddenSeat(_) => ProblemCode::ForbiddenSeat,
            ApiError::DeckNotAllowed(_) => ProblemCode::DeckNotAllowed,
            ApiError::StaleState(_) => ProblemCode::StaleState,
            ApiError::GuardUnavailable(_) => ProblemCode::GuardUnavailable,
            ApiError::UnsupportedMediaType(_) => ProblemCode::UnsupportedMediaType,
            ApiError::RequestTimeout(_) => ProblemCode::RequestTimeout,
            ApiError::ServerBusy(_) => ProblemCode::ServerBusy,
            ApiError::StateTooLarge(_) => ProblemCode::StateTooLarge,
            ApiError::Internal(_) => ProblemCode::Internal,
        }
    }

    /// The problem `type` code as the body writes it.
    pub fn code(&self) -> &'static str {
        self.problem_code().as_str()
    }

    /// A short, fixed summary of the problem type.
    pub fn title(&self) -> &'static str {
        self.problem_code().title()
    }

    /// The problem body.
    pub fn problem(&self) -> Problem {
        let mut p = Problem {
            kind: self.problem_code(),
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
    /// The stable problem code.
    #[serde(rename = "type")]
    pub kind: ProblemCode,
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
        self.problem_code().status()
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
                res.insert_header((header::RETRY_AFTER, RETRY_AFTER_SECONDS));
            }
            ApiError::RequestTimeout(_) => {
                res.insert_header((header::CONNECTION, HeaderValue::from_static("close")));
            }
            _ => {}
        }
        res.body(body)
    }
}

impl From<ResolveError> for ApiError {
    fn from(e: ResolveError) -> ApiError {
        match e {
            ResolveError::UnknownRuleset(id) => ApiError::UnknownRuleset {
                id,
                suggestion: None,
            },
            e @ ResolveError::UnknownOption { .. } => ApiError::UnknownOption(e.to_string()),
            ResolveError::IncompatibleOptions { reason, .. } => {
                ApiError::IncompatibleOptions(reason)
            }
            e @ ResolveError::TargetNotAllowed { .. } => ApiError::InvalidTarget(e.to_string()),
            ResolveError::Invalid(errors) => ApiError::invalid_ruleset(errors),
        }
    }
}

impl ApiError {
    /// `invalid-ruleset` from the catalog's errors.
    pub fn invalid_ruleset(errors: Vec<RulesetError>) -> ApiError {
        let detail = match errors.as_slice() {
            [one] => format!("the ruleset does not load: {}", one.message),
            many => format!("the ruleset does not load: {} problems", many.len()),
        };
        ApiError::InvalidRuleset {
            detail,
            errors: errors
                .into_iter()
                .map(|e| ProblemPlace {
                    path: e.path,
                    line: e.line,
                    column: e.column,
                    field: e.field,
                    kind: e.kind,
                    message: e.message,
                })
                .collect(),
        }
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
        assert_eq!(p.kind, ProblemCode::InvalidState);
        assert_eq!(p.status, 422);
        assert_eq!(
            p.problems.as_deref(),
            Some(&["a".to_string(), "b".to_string()][..])
        );
    }
}
