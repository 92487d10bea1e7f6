//! The schemas of the types the API carries that do not derive their own (cards, piles, a match
//! target, a `state` field): the handlers' types name them, the OpenAPI document collects them.

use std::borrow::Cow;

use serde_json::{Value, json};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;
use utoipa::{PartialSchema, ToSchema};

use crate::cards::{Card, CardSet};
use crate::engine::Pile;
use crate::ruleset::Target;

fn schema_from(value: Value) -> RefOr<Schema> {
    serde_json::from_value::<Schema>(value)
        .map(RefOr::T)
        .unwrap_or_else(|_| RefOr::T(Schema::default()))
}

/// The schema of a `state` field: a sealed token or a plain state.
pub fn state_schema() -> RefOr<Schema> {
    schema_from(json!({
        "description": "The game state, passed back verbatim with the next request: a sealed token \
            (a string) when the server has a secret, else the plain state object.",
        "oneOf": [
            {
                "type": "string",
                "description": "A sealed state: base64url, authenticated and encrypted.",
                "examples": [SEALED_EXAMPLE]
            },
            {"$ref": "#/components/schemas/State"}
        ]
    }))
}

const SEALED_EXAMPLE: &str = "AeJ2kQ8m1vYQ0y5x3cP7Hn0bq9Wf1kLx8s2Vd4t6u0ZcR7pE5mN3aB1hG9jK2lO4...";

impl PartialSchema for Card {
    fn schema() -> RefOr<Schema> {
        schema_from(json!({
            "type": "string",
            "description": "A card: rank then suit. Ranks A 2 3 4 5 6 7 8 9 T J Q K, suits C D H S \
                (\"TD\" is the ten of diamonds), or \"JK\" for a joker (a deck holds at most two, \
                alike: an action naming \"JK\" means a joker the player holds). Input also accepts \
                10 for T and lower case; output is always the canonical form.",
            "pattern": "^(?:(?:[2-9TtJjQqKkAa]|10)[CDHScdhs]|[Jj][Kk])$",
            "examples": ["TD", "JK"]
        }))
    }
}

impl ToSchema for Card {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Card")
    }
}

impl PartialSchema for CardSet {
    fn schema() -> RefOr<Schema> {
        schema_from(json!({
            "type": "array",
            "description": "A set of distinct cards, listed clubs first, each suit from ace to king, \
                jokers after the king of clubs; the two jokers may both be listed (\"JK\" twice).",
            "items": {"$ref": "#/components/schemas/Card"},
            "examples": [["5S", "6S", "7S"]]
        }))
    }
}

impl ToSchema for CardSet {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("CardSet")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((Card::name().into(), Card::schema()));
    }
}

impl PartialSchema for Pile {
    fn schema() -> RefOr<Schema> {
        schema_from(json!({
            "type": "array",
            "description": "Cards in order, bottom first: the last card is the top.",
            "items": {"$ref": "#/components/schemas/Card"},
            "maxItems": 54,
            "examples": [["9H", "2C", "KD"]]
        }))
    }
}

impl ToSchema for Pile {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Pile")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((Card::name().into(), Card::schema()));
    }
}

impl PartialSchema for Target {
    fn schema() -> RefOr<Schema> {
        schema_from(json!({
            "description": "Points that win the match, or \"single_hand\" for one hand only.",
            "oneOf": [
                {"type": "integer", "format": "uint32", "minimum": 1, "description": "Points that win the match."},
                {"$ref": "#/components/schemas/SingleHand"}
            ],
            "examples": [100]
        }))
    }
}

impl ToSchema for Target {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Target")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((SingleHand::name().into(), SingleHand::schema()));
    }
}

/// The target of a match of one hand, named so that generated clients name it too.
struct SingleHand;

impl PartialSchema for SingleHand {
    fn schema() -> RefOr<Schema> {
        schema_from(json!({
            "type": "string",
            "enum": ["single_hand"],
            "description": "One hand only: the match ends with the first hand.",
            "examples": ["single_hand"]
        }))
    }
}

impl ToSchema for SingleHand {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("SingleHand")
    }
}
