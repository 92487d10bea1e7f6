//! What a step did, in order.

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::hooks::ScoreEntry;
use crate::melds::LayOff;
use crate::ruleset::Seat;

use super::action::Source;
use super::identity::GameRef;
use super::state::HandResult;

/// Something that happened in the game; `type` says what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    Dealt {
        table: u8,
        /// Deals so far in the match, dead hands included (0 for the first).
        deal: u32,
        #[schema(value_type = u8)]
        dealer: Seat,
        /// The two players: first to act, then the dealer's role.
        #[schema(value_type = [u8; 2])]
        seats: [Seat; 2],
        upcard: Card,
        knock_limit: Option<u8>,
        multiplier: u32,
    },
    TookUpcard {
        table: u8,
        #[schema(value_type = u8)]
        seat: Seat,
        card: Card,
    },
    Passed {
        table: u8,
        #[schema(value_type = u8)]
        seat: Seat,
    },
    Drew {
        table: u8,
        #[schema(value_type = u8)]
        seat: Seat,
        from: Source,
        /// The card drawn; left out of what other players see when it came from the stock.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<Card>,
    },
    Discarded {
        table: u8,
        #[schema(value_type = u8)]
        seat: Seat,
        card: Card,
    },
    Reshuffled {
        table: u8,
        /// Cards in the new stock.
        cards: u32,
    },
    Knocked {
        table: u8,
        #[schema(value_type = u8)]
        seat: Seat,
        discard: Card,
        melds: Vec<Vec<Card>>,
        deadwood: u32,
    },
    WentGin {
        table: u8,
        #[schema(value_type = u8)]
        seat: Seat,
        /// `None` for big gin.
        discard: Option<Card>,
        melds: Vec<Vec<Card>>,
        big_gin: bool,
    },
    LaidOff {
        table: u8,
        #[schema(value_type = u8)]
        seat: Seat,
        cards: Vec<LayOff>,
        /// The defender's own melds.
        melds: Vec<Vec<Card>>,
        deadwood: u32,
    },
    HandOver(HandResult),
    /// What the deal added to the match: `points` for `side` (a seat, or a team) in game `game`
    /// (a Hollywood column, else 0).
    Scored {
        #[schema(value_type = Vec<Object>)]
        entries: Vec<ScoreEntry>,
    },
    MatchOver {
        /// The game, as of the action that ended the match.
        game: GameRef,
        /// Empty for a drawn one-hand game.
        #[schema(value_type = Vec<u8>)]
        winners: Vec<Seat>,
        totals: Vec<i64>,
    },
}

impl Event {
    /// The event as `seat` may see it (`None`: as a spectator): a card drawn from the stock is
    /// hidden from everyone but the player who drew it.
    pub fn seen_by(&self, seat: Option<Seat>) -> Event {
        match self {
            Event::Drew {
                table,
                seat: s,
                from: Source::Stock,
                card: Some(_),
            } if seat != Some(*s) => Event::Drew {
                table: *table,
                seat: *s,
                from: Source::Stock,
                card: None,
            },
            e => e.clone(),
        }
    }
}
