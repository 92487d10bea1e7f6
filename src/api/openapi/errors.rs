//! The error responses of the OpenAPI document: for each route, every problem it can answer, with
//! a typical example of each code, grouped by status.

use serde_json::{Map, Value, json};

use crate::cards::Card;
use crate::seat::Seat;

use crate::api::error::ApiError;
use crate::api::problem::ProblemCode as P;
use crate::api::routes::Route;

/// A typical error of each code, as documented.
pub fn example_error(code: P) -> Option<ApiError> {
    Some(match code {
        P::InvalidJson => ApiError::InvalidJson(
            "missing field `action` at line 1 column 2048".into(),
        ),
        P::InvalidCard => ApiError::InvalidCard(
            "\"1D\" is not a card (write rank then suit, like \"TD\" or \"10D\" for the ten of diamonds) at line 1 column 24".into(),
        ),
        P::InvalidDeck => ApiError::InvalidDeck("the deck has 51 cards, not 52; lacks KS".into()),
        P::InvalidHand => {
            ApiError::InvalidHand("a hand to analyze has 10 or 11 cards, not 9".into())
        }
        P::UnknownRuleset => ApiError::UnknownRuleset {
            id: "canasta".into(),
            suggestion: None,
        },
        P::UnknownOption => ApiError::UnknownOption(
            "the ruleset does not offer the option \"jokers\"".into(),
        ),
        P::IncompatibleOptions => ApiError::IncompatibleOptions(
            "straight-gin replaces oklahoma: both decide when you may knock".into(),
        ),
        P::InvalidRuleset => super::examples::broken_ruleset()?,
        P::ScriptError => ApiError::ScriptError(
            "hook knock_limit failed: ran over its limit of 100000 operations".into(),
        ),
        P::InvalidState => ApiError::InvalidState(vec![
            "the state is not the one its log gives: at /tables/0/stock/0 it has \"7H\", where the \
             log's 12 actions give \"2C\""
                .into(),
        ]),
        P::TamperedState => ApiError::TamperedState(
            "the state token does not open with this server's secret (altered, cut, or sealed by another server)".into(),
        ),
        P::IllegalAction => ApiError::IllegalAction {
            detail: "deadwood 14 exceeds the knock limit 10".into(),
            reason: "over-knock-limit",
            legal_actions: vec![
                crate::engine::Action::new(
                    0,
                    crate::engine::ActionKind::Discard {
                        card: Card::new(crate::cards::Rank::King, crate::cards::Suit::Clubs),
                    },
                ),
            ],
        },
        P::UnknownSeat => {
            ApiError::UnknownSeat("there is no seat 2: this game has seats 0 to 1".into())
        }
        P::InvalidTarget => ApiError::InvalidTarget(
            "a target of 0 points would end the match before it starts".into(),
        ),
        P::UnknownLevel | P::NoHumanSeat => {
            let bots = match code {
                P::UnknownLevel => [("1", "expert")].as_slice(),
                _ => &[("0", "basic"), ("1", "strong")],
            };
            let bots = bots
                .iter()
                .map(|&(s, l)| (s.to_string(), l.to_string()))
                .collect();
            return super::super::bots::parse_bots(Some(&bots), 2).err();
        }
        P::BotSeat => super::super::bots::bot_seat(Seat::new(1)),
        P::NotYourTurn => super::super::bots::not_to_act(Seat::new(1), &[Seat::new(0)]),
        P::PayloadTooLarge => ApiError::PayloadTooLarge {
            limit: crate::api::BODY_LIMIT,
        },
        P::MissingSeatKey => ApiError::MissingSeatKey(
            "this server binds play to seats: send the seat's key as Authorization: Bearer <key>"
                .into(),
        ),
        P::ForbiddenSeat => {
            ApiError::ForbiddenSeat("this key is seat 1's: it does not open seat 0".into())
        }
        P::DeckNotAllowed => ApiError::DeckNotAllowed(
            "this server binds play to seats and deals only decks nobody can foresee: leave out deck and decks".into(),
        ),
        P::StaleState => ApiError::StaleState(
            "game 5f0c6a8e9b1d4e2fa3c47d21e0b9f8a6 has moved on since this state (move 16): continue from its latest state".into(),
        ),
        P::GuardUnavailable => ApiError::GuardUnavailable(
            "the replay guard does not answer, so no step is accepted now: try again shortly"
                .into(),
        ),
        P::UnsupportedMediaType => ApiError::UnsupportedMediaType(
            "send the body as JSON with Content-Type: application/json".into(),
        ),
        P::RequestTimeout => ApiError::RequestTimeout(
            "the request body did not arrive within 10000 ms: send the whole body promptly".into(),
        ),
        P::ServerBusy => ApiError::ServerBusy(
            "the server is busy: all 2 engine threads stayed taken for 2000 ms; try again shortly"
                .into(),
        ),
        P::StateTooLarge => ApiError::StateTooLarge(
            "this game's state would be 258113 bytes, and every request that continues the game must carry it: at most 253952 bytes (the body limit of 262144 less 8192 for the action and the state's growth); make the authored ruleset or its scripts smaller".into(),
        ),
        P::Internal => {
            ApiError::Internal("the state could not be sealed: out of memory".into())
        }
        P::NotFound => ApiError::NotFound("/v1/game".into()),
        P::MethodNotAllowed => ApiError::MethodNotAllowed(
            "GET is not allowed on /v1/games/step: use POST".into(),
        ),
    })
}

/// Each route's error responses, from [`Route::errors`], by status.
pub fn add_error_responses(doc: &mut Value, routes: &[Route]) {
    for route in routes {
        let pointer = format!(
            "/paths/{}/{}/responses",
            route.path.replace('~', "~0").replace('/', "~1"),
            route.method_key()
        );
        let codes = &route.errors;
        let Some(responses) = doc.pointer_mut(&pointer).and_then(Value::as_object_mut) else {
            continue;
        };
        {
            let mut by_status: Vec<(u16, Vec<ApiError>)> = Vec::new();
            for error in codes.iter().filter_map(|&c| example_error(c)) {
                use actix_web::ResponseError;
                let status = error.status_code().as_u16();
                match by_status.iter_mut().find(|(s, _)| *s == status) {
                    Some((_, list)) => list.push(error),
                    None => by_status.push((status, vec![error])),
                }
            }
            for (status, errors) in by_status {
                let mut examples = Map::new();
                for e in &errors {
                    examples.insert(
                        e.code().into(),
                        json!({"summary": e.title(), "value": e.problem()}),
                    );
                }
                let codes: Vec<&str> = errors.iter().map(ApiError::code).collect();
                let mut response = json!({
                    "description": format!("Problem details; `type` is one of: {}", codes.join(", ")),
                    "content": {
                        crate::api::error::PROBLEM_JSON: {
                            "schema": {"$ref": "#/components/schemas/Problem"},
                            "examples": examples
                        }
                    }
                });
                if codes.contains(&P::ServerBusy.as_str()) {
                    response["headers"] = json!({
                        "Retry-After": {
                            "description": "With `server-busy`: seconds to wait before trying again.",
                            "schema": {"type": "integer", "minimum": 1}
                        }
                    });
                }
                responses.insert(status.to_string(), response);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::routes::routes;

    #[test]
    fn every_documented_error_has_an_example() {
        for route in routes() {
            for code in &route.errors {
                let e = example_error(*code).unwrap_or_else(|| panic!("no example of {code}"));
                assert_eq!(e.problem_code(), *code);
            }
        }
    }
}
