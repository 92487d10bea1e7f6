//! What a player can do, as it travels on the wire.

use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardSet};
use crate::melds::LayOff;
use crate::seat::Seat;

/// An action of one seat: `type` says which, with its fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(from = "WireAction")]
pub struct Action {
    /// The seat that acts.
    #[schema(value_type = u8)]
    pub seat: Seat,
    #[serde(flatten)]
    pub kind: ActionKind,
}

/// What an action does (the `type` field and its fields).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ActionKind {
    /// The first turn: the offered player takes the upcard.
    TakeUpcard,
    /// The first turn: decline the upcard (or, where a ruleset allows the last discard only to
    /// go out, decline that discard).
    Pass,
    /// The start of a turn: draw from the stock or take the discard pile's top card.
    Draw {
        /// `stock` or `discard`.
        from: Source,
    },
    /// After drawing: discard a card and stay in.
    Discard {
        /// The card to discard.
        card: Card,
    },
    /// After drawing: discard and knock, the deadwood left within the knock limit.
    Knock {
        /// The card to discard.
        discard: Card,
        /// How to meld the ten cards kept; left out, the engine arranges them for the least
        /// deadwood.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        melds: Option<Vec<Vec<Card>>>,
    },
    /// After drawing: discard and go gin, every card kept melded (big gin: all eleven melded,
    /// no discard).
    Gin {
        /// The card to discard; `null` for big gin.
        discard: Option<Card>,
        /// How to meld the cards kept; left out, the engine finds an arrangement.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        melds: Option<Vec<Vec<Card>>>,
    },
    /// The defender, once after a knock: lay cards off onto the knocker's melds (`[]`: none).
    LayOff {
        /// The cards to lay off and the knocker's meld each goes onto.
        cards: Vec<LayOffCard>,
    },
    /// Between the hands of a match, from any seat: deal the next hand.
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
#[serde(deny_unknown_fields)]
pub struct LayOffCard {
    /// The card laid off.
    pub card: Card,
    /// The index of the knocker's meld it goes onto (in the `knocked` event's `melds`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::whole_number::option_usize"
    )]
    pub onto: Option<usize>,
}

/// An action as read from a request: every field named, nothing else accepted (serde cannot
/// refuse unknown fields of a flattened struct, so `Action` is read through this); the seat may
/// be written `1` or `1.0`.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum WireAction {
    TakeUpcard {
        #[serde(deserialize_with = "crate::whole_number::u8")]
        seat: Seat,
    },
    Pass {
        #[serde(deserialize_with = "crate::whole_number::u8")]
        seat: Seat,
    },
    Draw {
        #[serde(deserialize_with = "crate::whole_number::u8")]
        seat: Seat,
        from: Source,
    },
    Discard {
        #[serde(deserialize_with = "crate::whole_number::u8")]
        seat: Seat,
        card: Card,
    },
    Knock {
        #[serde(deserialize_with = "crate::whole_number::u8")]
        seat: Seat,
        discard: Card,
        #[serde(default)]
        melds: Option<Vec<Vec<Card>>>,
    },
    Gin {
        #[serde(deserialize_with = "crate::whole_number::u8")]
        seat: Seat,
        discard: Option<Card>,
        #[serde(default)]
        melds: Option<Vec<Vec<Card>>>,
    },
    LayOff {
        #[serde(deserialize_with = "crate::whole_number::u8")]
        seat: Seat,
        cards: Vec<LayOffCard>,
    },
    NextHand {
        #[serde(deserialize_with = "crate::whole_number::u8")]
        seat: Seat,
    },
}

impl From<WireAction> for Action {
    fn from(wire: WireAction) -> Action {
        use ActionKind as K;
        match wire {
            WireAction::TakeUpcard { seat } => Action::new(seat, K::TakeUpcard),
            WireAction::Pass { seat } => Action::new(seat, K::Pass),
            WireAction::Draw { seat, from } => Action::new(seat, K::Draw { from }),
            WireAction::Discard { seat, card } => Action::new(seat, K::Discard { card }),
            WireAction::Knock {
                seat,
                discard,
                melds,
            } => Action::new(seat, K::Knock { discard, melds }),
            WireAction::Gin {
                seat,
                discard,
                melds,
            } => Action::new(seat, K::Gin { discard, melds }),
            WireAction::LayOff { seat, cards } => Action::new(seat, K::LayOff { cards }),
            WireAction::NextHand { seat } => Action::new(seat, K::NextHand),
        }
    }
}

impl Action {
    pub fn new(seat: impl Into<Seat>, kind: ActionKind) -> Action {
        Action {
            seat: seat.into(),
            kind,
        }
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

impl From<LayOff> for LayOffCard {
    fn from(l: LayOff) -> LayOffCard {
        LayOffCard {
            card: l.card,
            onto: Some(l.onto),
        }
    }
}

/// The card of `hand` that a discard of `card` names: a joker names a joker the hand holds
/// (`"JK"` names either; with both in hand, the one not `taken` this turn); any other card names
/// itself.
#[inline]
pub(crate) fn discard_named(hand: CardSet, taken: Option<Card>, card: Card) -> Card {
    let pool = match taken {
        Some(t) if t.is_joker() && hand.intersect(CardSet::JOKERS).len() == 2 => hand.without(t),
        _ => hand,
    };
    pool.resolve(card)
}

/// Empties the list. `Vec::clear` drops each action through a call (an action may hold melds or
/// lay-offs on the heap), and a list of a turn's ten discards is dropped every turn: when no
/// action holds anything, which one pass over the list tells, they are forgotten instead (which
/// is all their drops would do).
#[inline(always)]
pub(crate) fn clear_actions(out: &mut Vec<Action>) {
    let owns = out.iter().fold(false, |owns, a| owns | holds_heap(&a.kind));
    if owns {
        out.clear();
    } else {
        out.drain(..).for_each(std::mem::forget);
    }
}

/// Whether dropping an action of this kind frees anything.
#[inline(always)]
fn holds_heap(kind: &ActionKind) -> bool {
    match kind {
        ActionKind::Knock { melds, .. } | ActionKind::Gin { melds, .. } => melds.is_some(),
        ActionKind::LayOff { .. } => true,
        ActionKind::TakeUpcard
        | ActionKind::Pass
        | ActionKind::Draw { .. }
        | ActionKind::Discard { .. }
        | ActionKind::NextHand => false,
    }
}
