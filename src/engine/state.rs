//! The whole of a game: everything a server needs to continue it travels in a `State`.

use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardSet};
use crate::melds::LayOff;
use crate::ruleset::{RulesetRef, Seat, Target};

use super::pile::Pile;

/// Bumped whenever the serialised shape of `State` changes.
pub const STATE_VERSION: u32 = 1;

/// A whole game, plain: everything needed to continue it (the stock order and both hands
/// included, so it is for trusted backends; a server with a secret seals it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct State {
    pub version: u32,
    pub ruleset: RulesetRef,
    /// Every shuffle of the match comes from this seed.
    pub seed: u64,
    pub target: Target,
    /// Deals so far, counting dead hands dealt again (0 for the first deal).
    pub deal_number: u32,
    pub scores: Scores,
    /// The tables of the current deal (one, except in forms with two tables).
    pub tables: Vec<Table>,
    /// Set once the match is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<u8>>)]
    pub winners: Option<Vec<Seat>>,
}

/// One hand in play: two players (by role), the cards and the phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Table {
    /// Who dealt this table (who may sit the hand out).
    #[schema(value_type = u8)]
    pub dealer: Seat,
    /// The two players: `[first to act, dealer's role]`.
    #[schema(value_type = [u8; 2])]
    pub seats: [Seat; 2],
    /// Each player's cards, by role.
    pub hands: [CardSet; 2],
    /// Cards each player took from the discard pile and still holds (everyone saw them).
    pub taken: [CardSet; 2],
    pub stock: Pile,
    pub discard: Pile,
    /// The first upcard of the hand.
    pub upcard: Card,
    /// The knock limit of this hand (`None`: only gin goes out).
    pub knock_limit: Option<u8>,
    /// Every score of this hand is multiplied by this.
    pub multiplier: u32,
    /// How often the discard pile became the stock in this hand.
    #[serde(default)]
    pub reshuffles: u32,
    pub phase: Phase,
}

impl Table {
    /// The role (0 = first to act, 1 = dealer's role) of a seat at this table.
    pub fn role(&self, seat: Seat) -> Option<usize> {
        self.seats.iter().position(|&s| s == seat)
    }

    pub fn all_cards(&self) -> CardSet {
        self.hands[0]
            .union(self.hands[1])
            .union(self.stock.to_set())
            .union(self.discard.to_set())
    }

    /// The seat expected to act at this table, if any.
    pub fn to_act(&self) -> Option<Seat> {
        match &self.phase {
            Phase::UpcardOffer { seat, .. }
            | Phase::Draw { seat, .. }
            | Phase::Discard { seat, .. }
            | Phase::LastDiscard { seat }
            | Phase::LayOff { seat, .. } => Some(*seat),
            Phase::Over { .. } => None,
        }
    }
}

/// Where a table's hand stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "name", rename_all = "snake_case")]
pub enum Phase {
    /// The first turn: `seat` may take the upcard or pass; `passes` players have passed.
    UpcardOffer {
        #[schema(value_type = u8)]
        seat: Seat,
        passes: u8,
    },
    /// `seat` draws; after both players passed the upcard, from the stock only.
    Draw {
        #[schema(value_type = u8)]
        seat: Seat,
        #[serde(default)]
        stock_only: bool,
    },
    /// `seat` has drawn and discards or goes out.
    Discard {
        #[schema(value_type = u8)]
        seat: Seat,
        /// The card just taken from the discard pile.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        taken: Option<Card>,
        /// The card was taken under the rule "the last discard only to go out".
        #[serde(default)]
        must_go_out: bool,
    },
    /// The stock is down to its reserve: `seat` may take the last discard only to go out, or pass.
    LastDiscard {
        #[schema(value_type = u8)]
        seat: Seat,
    },
    /// The defender (`seat`) lays off onto the knocker's melds.
    LayOff {
        #[schema(value_type = u8)]
        seat: Seat,
        knock: Knock,
    },
    /// The hand is over.
    Over { result: Box<HandResult> },
}

/// A knock (or gin, where lay-offs after gin are played) waiting for the defender.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Knock {
    #[schema(value_type = u8)]
    pub knocker: Seat,
    pub melds: Vec<CardSet>,
    pub deadwood: u32,
    pub outcome: Outcome,
}

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Gin,
    BigGin,
    Knock,
    Undercut,
    Dead,
}

/// The result of one hand at one table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct HandResult {
    pub table: u8,
    pub outcome: Outcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<u8>)]
    pub winner: Option<Seat>,
    /// Points scored this hand, per seat (multiplier included).
    pub points: Vec<i64>,
    /// Deadwood per seat (after lay-offs for the defender; 0 for a seat not at the table).
    pub deadwood: Vec<u32>,
    /// The melds each seat showed.
    pub melds: Vec<Vec<Vec<Card>>>,
    pub laid_off: Vec<LayOff>,
    pub multiplier: u32,
}

/// Match scores.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Scores {
    /// Points toward the target, per seat.
    pub totals: Vec<i64>,
    /// Hands won per seat (the boxes of the classic bonuses).
    pub hands_won: Vec<u32>,
    /// Final scores with the classic bonuses, once a game with bonuses ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonuses: Option<Bonuses>,
}

/// The classic bonuses awarded when a game ends.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Bonuses {
    pub game: Vec<i64>,
    pub boxes: Vec<i64>,
    /// The multiplier applied to the winner for a shutout (1 when none).
    pub shutout: u32,
    /// Totals, bonuses and shutout included.
    pub final_totals: Vec<i64>,
}

impl State {
    pub fn is_over(&self) -> bool {
        self.winners.is_some()
    }

    /// Every deal's tables are over (a next hand or the end of the match is due).
    pub fn is_between_hands(&self) -> bool {
        self.tables
            .iter()
            .all(|t| matches!(t.phase, Phase::Over { .. }))
    }

    pub fn seats(&self) -> usize {
        self.scores.totals.len()
    }

    /// Seats that may act now.
    pub fn to_act(&self) -> Vec<Seat> {
        if self.is_over() {
            return Vec::new();
        }
        if self.is_between_hands() {
            return (0..self.seats() as Seat).collect();
        }
        let mut seats: Vec<Seat> = self.tables.iter().filter_map(Table::to_act).collect();
        seats.sort_unstable();
        seats
    }

    /// The table where `seat` plays this deal.
    pub fn table_of(&self, seat: Seat) -> Option<usize> {
        self.tables.iter().position(|t| t.role(seat).is_some())
    }
}
