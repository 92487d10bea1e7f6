//! What a player can do, as it travels on the wire.

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::ruleset::Seat;

/// An action of one seat: `type` says which, with its fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Action {
    /// The seat that acts.
    #[schema(value_type = u8)]
    #[serde(deserialize_with = "crate::whole::u8")]
    pub seat: Seat,
    #[serde(flatten)]
    pub kind: ActionKind,
}

/// What an action does (the `type` field and its fields).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ActionKind {
    TakeUpcard,
    Pass,
    Draw {
        from: Source,
    },
    Discard {
        card: Card,
    },
    Knock {
        discard: Card,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        melds: Option<Vec<Vec<Card>>>,
    },
    /// `discard: None` is big gin.
    Gin {
        discard: Option<Card>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        melds: Option<Vec<Vec<Card>>>,
    },
    LayOff {
        cards: Vec<LayOffCard>,
    },
    NextHand,
}

/// Where a card is drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Stock,
    Discard,
}

/// One card the defender lays off; `onto` may be left out when only one meld fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct LayOffCard {
    pub card: Card,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::whole::option_usize"
    )]
    pub onto: Option<usize>,
}

impl Action {
    pub fn new(seat: Seat, kind: ActionKind) -> Action {
        Action { seat, kind }
    }

    pub fn type_name(&self) -> &'static str {
        match self.kind {
            ActionKind::TakeUpcard => "take_upcard",
            ActionKind::Pass => "pass",
            ActionKind::Draw { .. } => "draw",
            ActionKind::Discard { .. } => "discard",
            ActionKind::Knock { .. } => "knock",
            ActionKind::Gin { .. } => "gin",
            ActionKind::LayOff { .. } => "lay_off",
            ActionKind::NextHand => "next_hand",
        }
    }
}
