//! A hand's score as named parts: the decision that scores a hand (the plain data's, or a
//! `score_hand` hook's) and the parts it shows, which always sum to the hand's points.

use serde::{Deserialize, Serialize};

use crate::seat::Seat;

/// One named part of a hand's score. A multiplier part shows the points the multiplier added,
/// so the parts of a hand always sum to its points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ScorePart {
    /// What the points are for: `base`, `gin bonus`, `undercut bonus`, a hook's own name.
    pub name: String,
    /// The points of this part (a multiplier part: the points it added).
    pub points: i64,
    /// For a multiplier part, the multiplier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multiplier: Option<u32>,
}

impl ScorePart {
    pub fn new(name: impl Into<String>, points: i64) -> ScorePart {
        ScorePart {
            name: name.into(),
            points,
            multiplier: None,
        }
    }
}

/// How a hand is scored: the plain data's decision, which a `score_hand` hook may change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandScore {
    /// The seat that scores; `None`: nobody scores (a wash, or a dead hand).
    pub winner: Option<Seat>,
    /// The parts of the score before the multiplier.
    pub parts: Vec<ScorePart>,
    /// What the parts are multiplied by.
    pub multiplier: u32,
    /// The boxes the winner counts (the classic box bonus counts boxes).
    pub boxes: u32,
}

/// The most points one hand may score, multiplier included (a hook's decision is checked
/// against it).
pub const MAX_HAND_POINTS: i64 = 1_000_000;

/// The most boxes one hand may count.
pub const MAX_HAND_BOXES: u32 = 100;

impl HandScore {
    /// Nobody scores.
    pub fn nobody(multiplier: u32) -> HandScore {
        HandScore {
            winner: None,
            parts: Vec::new(),
            multiplier,
            boxes: 0,
        }
    }

    /// The parts' sum before the multiplier.
    pub fn base(&self) -> i64 {
        self.parts.iter().map(|p| p.points).sum()
    }

    /// The parts as shown: the parts, then the points the multiplier adds as a part of its own
    /// (when it is above 1 and adds any); their sum is the hand's points.
    pub fn shown_parts(&self) -> Vec<ScorePart> {
        let mut parts = self.parts.clone();
        let base = self.base();
        if self.multiplier > 1 && base != 0 {
            parts.push(ScorePart {
                name: format!("multiplier x{}", self.multiplier),
                points: base * (i64::from(self.multiplier) - 1),
                multiplier: Some(self.multiplier),
            });
        }
        parts
    }
}
