//! The bot levels a game names for the seats the server plays (the bots themselves are in `bot`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// How well a bot plays: `random` draws and discards at random and goes out whenever it can;
/// `basic` takes a discard that lowers its deadwood, discards its costliest card and knocks as soon
/// as it may; `strong` counts the cards it has seen, values draws and discards by the melds still
/// possible, keeps back cards the opponent wants and weighs knocking now against playing on.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
#[schema(example = "strong")]
pub enum Level {
    /// Draws and discards at random; goes out whenever it can.
    Random,
    #[default]
    /// Takes a discard that lowers its deadwood, discards its costliest card, knocks as soon as it
    /// may.
    Basic,
    /// Counts the cards it has seen, values draws and discards by the melds still possible, keeps
    /// cards the opponent wants, and weighs knocking now against playing on.
    Strong,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Random, Level::Basic, Level::Strong];

    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Basic => "basic",
            Level::Strong => "strong",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is not a level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a bot level (random, basic or strong)")]
pub struct UnknownLevel(pub String);

impl FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

/// The schema of the seats a server plays: seat number (as a string key) → level. A type of its
/// own so that the API document names it (`BotSeats`) and generated clients do too.
pub struct BotSeats;

impl utoipa::PartialSchema for BotSeats {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Object)
            .description(Some(
                "The seats the server plays: seat number (a key such as \"1\") → bot level.",
            ))
            .property_names(Some(
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .pattern(Some("^[0-9]+$")),
            ))
            .additional_properties(Some(utoipa::openapi::Ref::from_schema_name("Level")))
            .examples([serde_json::json!({"1": "strong"})])
            .into()
    }
}

impl utoipa::ToSchema for BotSeats {
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        schemas.push((
            <Level as utoipa::ToSchema>::name().into(),
            <Level as utoipa::PartialSchema>::schema(),
        ));
    }
}
