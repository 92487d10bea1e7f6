//! What a step did, in order.

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::melds::{LayOff, StandIn};
use crate::role::ByRole;
use crate::seat::{Seat, TableNo};

use super::action::Source;
use super::game_score::ScoreEntry;
use super::identity::GameRef;
use super::state::HandResult;

/// Something that happened in the game; `type` says what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A hand was dealt: who deals, the upcard, and the knock limit and score multiplier in force.
    Dealt {
        /// The table it happened at (always 0 but in the four-player form).
        #[schema(value_type = u8)]
        table: TableNo,
        /// Deals so far in the match, dead hands included (0 for the first).
        deal: u32,
        /// The dealer's seat.
        #[schema(value_type = u8)]
        dealer: Seat,
        /// The players in turn order: the first to act first, the dealer's role last (2 to 4).
        #[schema(value_type = Vec<u8>)]
        seats: ByRole<Seat>,
        /// The first card of the discard pile.
        upcard: Card,
        /// The most deadwood a knock may leave this hand; `null` when only gin goes out.
        knock_limit: Option<u8>,
        /// What every score of this hand is multiplied by (Oklahoma: 2 with a spade upcard).
        multiplier: u32,
    },
    /// The offered player took the upcard.
    TookUpcard {
        /// The table it happened at (always 0 but in the four-player form).
        #[schema(value_type = u8)]
        table: TableNo,
        /// The seat it concerns.
        #[schema(value_type = u8)]
        seat: Seat,
        /// The upcard taken.
        card: Card,
    },
    /// A player declined the upcard (or the last discard).
    Passed {
        /// The table it happened at (always 0 but in the four-player form).
        #[schema(value_type = u8)]
        table: TableNo,
        /// The seat it concerns.
        #[schema(value_type = u8)]
        seat: Seat,
    },
    /// A player drew a card.
    Drew {
        /// The table it happened at (always 0 but in the four-player form).
        #[schema(value_type = u8)]
        table: TableNo,
        /// The seat it concerns.
        #[schema(value_type = u8)]
        seat: Seat,
        /// Where from: the stock or the discard pile.
        from: Source,
        /// The card drawn; left out of what other players see when it came from the stock.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<Card>,
    },
    /// A player discarded without going out.
    Discarded {
        /// The table it happened at (always 0 but in the four-player form).
        #[schema(value_type = u8)]
        table: TableNo,
        /// The seat it concerns.
        #[schema(value_type = u8)]
        seat: Seat,
        /// The card discarded.
        card: Card,
    },
    /// The discard pile, all but its top card, was shuffled into a new stock.
    Reshuffled {
        /// The table it happened at (always 0 but in the four-player form).
        #[schema(value_type = u8)]
        table: TableNo,
        /// Cards in the new stock.
        cards: u32,
    },
    /// A player knocked: their discard, melds and deadwood are shown.
    Knocked {
        /// The table it happened at (always 0 but in the four-player form).
        #[schema(value_type = u8)]
        table: TableNo,
        /// The seat it concerns.
        #[schema(value_type = u8)]
        seat: Seat,
        /// The card discarded to knock.
        discard: Card,
        /// The knocker's melds.
        melds: Vec<Vec<Card>>,
        /// What each wild card in `melds` stands for (left out when none is wild).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        wilds: Vec<StandIn>,
        /// The knocker's deadwood.
        deadwood: u32,
    },
    /// A player went gin (or big gin, all eleven cards melded).
    WentGin {
        /// The table it happened at (always 0 but in the four-player form).
        #[schema(value_type = u8)]
        table: TableNo,
        /// The seat it concerns.
        #[schema(value_type = u8)]
        seat: Seat,
        /// `null` for big gin.
        discard: Option<Card>,
        /// The melds of the hand.
        melds: Vec<Vec<Card>>,
        /// What each wild card in `melds` stands for (left out when none is wild).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        wilds: Vec<StandIn>,
        /// All eleven cards melded, no discard.
        big_gin: bool,
    },
    /// The defender laid off cards onto the knocker's melds.
    LaidOff {
        /// The table it happened at (always 0 but in the four-player form).
        #[schema(value_type = u8)]
        table: TableNo,
        /// The seat it concerns.
        #[schema(value_type = u8)]
        seat: Seat,
        /// Each card laid off and the index of the knocker's meld it went onto.
        cards: Vec<LayOff>,
        /// The defender's own melds.
        melds: Vec<Vec<Card>>,
        /// What each wild card in `melds` stands for (left out when none is wild).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        wilds: Vec<StandIn>,
        /// What each wild card in the knocker's melds stands for once the cards are laid off
        /// (`meld` indexes the knocker's melds, as `onto` does; left out when none is wild).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        onto_wilds: Vec<StandIn>,
        /// The defender's deadwood after laying off.
        deadwood: u32,
    },
    // Boxed: every step's event is moved into place, and this one is larger than all the others.
    /// A hand ended: its outcome, deadwood, melds and points.
    HandOver(Box<HandResult>),
    /// What the deal added to the match: `points` for `side` (a seat, or a team) in game `game`
    /// (a Hollywood column, else 0).
    Scored {
        /// One entry per side that scored.
        entries: Vec<ScoreEntry>,
    },
    /// The match is over.
    MatchOver {
        /// The game, as of the action that ended the match.
        game: GameRef,
        /// Empty for a drawn one-hand game.
        #[schema(value_type = Vec<u8>)]
        winners: Vec<Seat>,
        /// The final totals, per seat (per team in the partnership form).
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

/// Where a step says what it did: a vector of events, or nowhere ([`Quiet`], for a simulation
/// that reads only the state).
pub(crate) trait Events {
    /// Adds the event `event` builds; [`Quiet`] builds none.
    fn push_with(&mut self, event: impl FnOnce() -> Event);
    fn append(&mut self, events: Vec<Event>);
}

impl Events for Vec<Event> {
    #[inline(always)]
    fn push_with(&mut self, event: impl FnOnce() -> Event) {
        push_in_place(self, event);
    }

    fn append(&mut self, mut events: Vec<Event>) {
        Vec::append(self, &mut events);
    }
}

/// Pushes what `make` builds onto `v`, written in place. `Vec::push` of a value built before a
/// call it might make (to grow) builds it on the stack a field at a time and copies it whole,
/// stalling as it reads it back; with room known, nothing comes between building and writing.
#[inline(always)]
pub(crate) fn push_in_place<T>(v: &mut Vec<T>, make: impl FnOnce() -> T) {
    if v.len() < v.capacity() {
        v.push(make());
    } else {
        push_grown(v, make);
    }
}

/// [`push_in_place`] when `v` is full.
#[cold]
#[inline(never)]
fn push_grown<T>(v: &mut Vec<T>, make: impl FnOnce() -> T) {
    v.reserve(1);
    v.push(make());
}

/// Events dropped before they are built.
pub(crate) struct Quiet;

impl Events for Quiet {
    #[inline(always)]
    fn push_with(&mut self, _: impl FnOnce() -> Event) {}

    #[inline(always)]
    fn append(&mut self, _: Vec<Event>) {}
}
