//! The points of a match: one game's points per side, and what a deal enters into a game.

use serde::{Deserialize, Serialize};

use crate::seat::Side;

/// One game of a match (a Hollywood column; the whole match in plain scoring), per side.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct GameScore {
    /// Points toward the target, per side (bonuses not included).
    pub points: Vec<i64>,
    /// Hands won in this game, per side.
    pub hands_won: Vec<u32>,
    /// Boxes in this game, per side: what the classic box bonus counts (one per hand won,
    /// unless a `score_hand` hook counts otherwise).
    #[serde(default)]
    pub boxes: Vec<u32>,
    /// A side reached the target in this game: it takes no more points.
    pub closed: bool,
}

/// One entry of a deal into the match: `points` for `side` in game `game`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ScoreEntry {
    /// The game (a Hollywood column, else 0) the points go to; it must be open.
    pub game: u8,
    /// The side (a seat, or a team: an index into the match layout's `sides`) that scores.
    #[schema(value_type = u8)]
    pub side: Side,
    /// The points the side scores in that game.
    pub points: u32,
    /// The boxes the side scores in that game.
    #[serde(default)]
    pub boxes: u32,
}
