//! The problem `type` codes, declared once: each code's status, title and when it is answered.
//! The handlers answer them ([`ApiError::problem_code`](super::ApiError::problem_code)), the
//! route table lists them, the OpenAPI document types `Problem.type` with them and
//! `gin-rules docs problems` writes the table of `docs/http.md` from them.

use std::fmt;

use actix_web::http::StatusCode;
use serde::{Serialize, Serializer};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

use super::limits::{DEFAULT_BODY_TIMEOUT, DEFAULT_ENGINE_WAIT, STATE_ROOM};

macro_rules! problem_codes {
    ($($variant:ident = $code:literal, $status:ident, $title:literal, $when:expr;)*) => {
        /// A stable problem `type` code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum ProblemCode {
            $($variant,)*
        }

        impl ProblemCode {
            /// Every code, in the order of the table of `docs/http.md`.
            pub const ALL: &[ProblemCode] = &[$(ProblemCode::$variant,)*];

            /// The code as the `type` of a problem writes it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ProblemCode::$variant => $code,)*
                }
            }

            /// The HTTP status every problem of this code has.
            pub fn status(self) -> StatusCode {
                match self {
                    $(ProblemCode::$variant => StatusCode::$status,)*
                }
            }

            /// A short, fixed summary of the problem type.
            pub fn title(self) -> &'static str {
                match self {
                    $(ProblemCode::$variant => $title,)*
                }
            }

            /// When a request gets this problem, as `docs/http.md` says it.
            pub fn description(self) -> String {
                match self {
                    $(ProblemCode::$variant => String::from($when),)*
                }
            }
        }
    };
}

problem_codes! {
    InvalidJson = "invalid-json", BAD_REQUEST, "The body is not JSON of the documented shape",
        "the body is not JSON or not the documented shape (unknown fields included)";
    NotFound = "not-found", NOT_FOUND, "Not found", "no such route";
    MethodNotAllowed = "method-not-allowed", METHOD_NOT_ALLOWED, "Method not allowed",
        "the route exists for another method (`Allow` names it)";
    UnknownRuleset = "unknown-ruleset", NOT_FOUND, "No ruleset with that id",
        "no ruleset with that id (the answer suggests the nearest)";
    RequestTimeout = "request-timeout", REQUEST_TIMEOUT, "The request body did not arrive in time",
        format!(
            "the body did not arrive within the server's body timeout ({} s by default)",
            DEFAULT_BODY_TIMEOUT.as_secs()
        );
    PayloadTooLarge = "payload-too-large", PAYLOAD_TOO_LARGE, "The body is too large",
        format!("a body over {} KiB", super::BODY_LIMIT / 1024);
    UnsupportedMediaType = "unsupported-media-type", UNSUPPORTED_MEDIA_TYPE,
        "The body is not application/json",
        "a body not sent as `Content-Type: application/json`";
    InvalidCard = "invalid-card", UNPROCESSABLE_ENTITY, "A card string is not a card",
        "a card string is not a card";
    InvalidDeck = "invalid-deck", UNPROCESSABLE_ENTITY, "The deck is not 52 distinct cards",
        "an explicit deck is not 52 distinct cards";
    InvalidHand = "invalid-hand", UNPROCESSABLE_ENTITY, "The hand is not a hand of the ruleset",
        "a hand to analyze is not distinct cards of the ruleset's hand size, or one more (10 or 11 in Standard)";
    UnknownOption = "unknown-option", UNPROCESSABLE_ENTITY,
        "The ruleset does not offer that option", "an option the ruleset does not offer";
    IncompatibleOptions = "incompatible-options", UNPROCESSABLE_ENTITY,
        "Those options exclude each other", "two options that exclude each other";
    InvalidTarget = "invalid-target", UNPROCESSABLE_ENTITY,
        "The ruleset does not play to that target", "a target the ruleset does not play to";
    UnknownSeat = "unknown-seat", UNPROCESSABLE_ENTITY, "No such seat in this game",
        "a seat the game does not have (also a `bots` key)";
    UnknownLevel = "unknown-level", UNPROCESSABLE_ENTITY, "No bot level of that name",
        "a bot level that is not `random`, `basic` or `strong`";
    NoHumanSeat = "no-human-seat", UNPROCESSABLE_ENTITY, "Every seat is a bot",
        "`bots` names every seat of the game";
    BotSeat = "bot-seat", UNPROCESSABLE_ENTITY, "That seat is played by a bot",
        "`as_seat` names a seat a bot plays";
    NotYourTurn = "not-your-turn", UNPROCESSABLE_ENTITY, "That seat has nothing to do now",
        "`suggest` for a seat that is not to act now (or the match is over)";
    InvalidRuleset = "invalid-ruleset", UNPROCESSABLE_ENTITY,
        "The authored ruleset does not load",
        "an authored ruleset does not load; `errors` lists each problem and its place";
    ScriptError = "script-error", UNPROCESSABLE_ENTITY, "A ruleset script failed",
        "a ruleset's hook failed or ran over its limits (all the hooks of one request share one \
         budget of time and operations); the game is unchanged";
    StateTooLarge = "state-too-large", UNPROCESSABLE_ENTITY,
        "The game's state would not fit in a request",
        format!(
            "the game's state would not fit, with {} KiB to spare, in the body of the requests \
             that continue it: at the deal (an authored ruleset too large), or at a step of a \
             hand played too long",
            STATE_ROOM / 1024
        );
    InvalidState = "invalid-state", UNPROCESSABLE_ENTITY, "The game state is not consistent",
        "a plain state that no legal play reaches";
    TamperedState = "tampered-state", UNPROCESSABLE_ENTITY, "The sealed state does not open",
        "a sealed state that does not open with this server's secrets";
    IllegalAction = "illegal-action", UNPROCESSABLE_ENTITY, "That action is not allowed now",
        "the action is not allowed now; `reason` says why as a code, `legal_actions` lists what \
         is";
    MissingSeatKey = "missing-seat-key", UNAUTHORIZED, "A seat key is needed",
        "seat keys are on and no key was sent";
    ForbiddenSeat = "forbidden-seat", FORBIDDEN, "The key does not open this seat of this game",
        "the key does not open this game, or not this seat";
    DeckNotAllowed = "deck-not-allowed", UNPROCESSABLE_ENTITY,
        "Explicit decks are not allowed on this server",
        "an explicit deck on a server with seat keys";
    StaleState = "stale-state", CONFLICT, "The game has moved on since this state",
        "under a replay guard, a state older than its game's latest";
    GuardUnavailable = "replay-guard-unavailable", SERVICE_UNAVAILABLE,
        "The replay guard does not answer", "the replay guard's Redis does not answer; try again";
    ServerBusy = "server-busy", SERVICE_UNAVAILABLE, "The server is busy",
        format!(
            "every engine thread stayed taken for the server's wait ({} s by default); try again \
             after `Retry-After` seconds",
            DEFAULT_ENGINE_WAIT.as_secs()
        );
    Internal = "internal-error", INTERNAL_SERVER_ERROR, "The server failed",
        "a defect of the server (never caused by what you send)";
}

impl fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ProblemCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl utoipa::PartialSchema for ProblemCode {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(ProblemCode::ALL.iter().map(|c| c.as_str())))
            .description(Some(
                "The stable problem code (the table of docs/http.md says when each is answered).",
            ))
            .examples([serde_json::json!(ProblemCode::IllegalAction.as_str())])
            .into()
    }
}

impl utoipa::ToSchema for ProblemCode {}

/// The table of problem codes in `docs/http.md`, as `gin-rules docs problems` prints it.
pub fn problems_markdown() -> String {
    let mut out = String::from("| `type` | status | when |\n|---|---|---|\n");
    for code in ProblemCode::ALL {
        out.push_str(&format!(
            "| `{code}` | {} | {} |\n",
            code.status().as_u16(),
            code.description()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct() {
        let mut codes: Vec<&str> = ProblemCode::ALL.iter().map(|c| c.as_str()).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), ProblemCode::ALL.len());
    }
}
