//! What one seat may see: never the stock order, never an opponent's unseen cards.

use serde::Serialize;

use crate::cards::Card;
use crate::melds;
use crate::role::Role;
use crate::ruleset::Ruleset;
use crate::seat::{Seat, TableNo};

use super::action::Action;
use super::legal::legal_actions;
use super::state::{HandResult, Phase, Scores, SeatLayOffs, State, Table};

/// What one seat may see: its own hand, the public cards and the scores, never the stock order
/// or another player's unseen cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct SeatView {
    /// The seat this view is for.
    #[schema(value_type = u8)]
    pub seat: Seat,
    /// The seat is not dealt a hand this deal (the three-player dealer); it sees what a spectator sees.
    pub sitting_out: bool,
    /// The table this seat plays at, or watches.
    #[schema(value_type = u8)]
    pub table: TableNo,
    /// The dealer of this seat's table.
    #[schema(value_type = u8)]
    pub dealer: Seat,
    /// The phase of this seat's table: upcard_offer, draw, discard, last_discard, lay_off, over.
    #[schema(value_type = String, example = "draw")]
    pub phase: &'static str,
    /// Seats that may act now (anywhere in the game).
    #[schema(value_type = Vec<u8>)]
    pub to_act: Vec<Seat>,
    /// Whether this seat may act now.
    pub your_turn: bool,
    /// This seat's cards, sorted (empty when it sits out).
    pub hand: Vec<Card>,
    /// Least deadwood of this seat's hand as it stands.
    pub deadwood: Option<u32>,
    /// The first upcard of the hand.
    pub upcard: Card,
    /// The discard pile's top card (`null` when the pile is empty).
    pub discard_top: Option<Card>,
    /// The whole discard pile, bottom first (it is public).
    pub discard_pile: Vec<Card>,
    /// The card the player to discard took from the discard pile this turn (every player saw it
    /// taken).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taken: Option<Card>,
    /// Cards left in the stock.
    pub stock_count: usize,
    /// The most deadwood a knock may leave this hand; `null` when only gin goes out.
    pub knock_limit: Option<u8>,
    /// What every score of this hand is multiplied by.
    pub multiplier: u32,
    /// The other players at this seat's table, as this seat sees them, in turn order from this
    /// seat's left (from the first to act when this seat sits out).
    pub players: Vec<PlayerView>,
    /// The knocker's melds while the defender lays off.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub knock: Option<KnockView>,
    /// The result once the hand is over: both hands' melds and deadwood are shown then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<HandResult>,
    /// The match scores so far.
    pub scores: Scores,
    /// What this seat may do now.
    pub legal_actions: Vec<Action>,
}

/// Another player at the table, as this seat sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct PlayerView {
    /// That player's seat.
    #[schema(value_type = u8)]
    pub seat: Seat,
    /// How many cards that player holds.
    pub hand_size: u32,
    /// Cards this player took from the discard pile and still holds.
    pub known_cards: Vec<Card>,
}

/// The knocker's melds shown to the defenders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct KnockView {
    /// The seat that knocked.
    #[schema(value_type = u8)]
    pub knocker: Seat,
    /// The knocker's melds with the cards laid off so far, onto which the defender to act may
    /// lay off (`onto` indexes them).
    pub melds: Vec<Vec<Card>>,
    /// What each wild card in `melds` stands for (left out when none is wild).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub wilds: Vec<melds::StandIn>,
    /// The knocker's deadwood.
    pub deadwood: u32,
    /// At a table of three or four, what each defender who already laid off laid off, in turn
    /// order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub laid_off: Vec<SeatLayOffs>,
}

fn phase_name(phase: &Phase) -> &'static str {
    match phase {
        Phase::UpcardOffer { .. } => "upcard_offer",
        Phase::Draw { .. } => "draw",
        Phase::Discard { .. } => "discard",
        Phase::LastDiscard { .. } => "last_discard",
        Phase::LayOff { .. } => "lay_off",
        Phase::Over { .. } => "over",
    }
}

/// What every seat's view shares: computed once for all of them.
struct Shared {
    to_act: Vec<Seat>,
    scores: Scores,
    legal: Vec<Action>,
}

impl Shared {
    fn of(rules: &Ruleset, state: &State) -> Shared {
        Shared {
            to_act: state.to_act(),
            scores: state.scores(),
            legal: legal_actions(rules, state),
        }
    }
}

/// The view of `seat`, or `None` when the game has no such seat.
pub(crate) fn view(rules: &Ruleset, state: &State, seat: Seat) -> Option<SeatView> {
    // One view: the scores move into it instead of being copied.
    let mut shared = Shared::of(rules, state);
    let scores = std::mem::take(&mut shared.scores);
    let mut v = seat_view(rules, state, seat, &shared)?;
    v.scores = scores;
    Some(v)
}

/// The view of `seat` as a bot reads it: [`view`] with the scores cut to the totals (no teams,
/// hands won, games or bonuses), so deciding a play copies no game's scores.
pub(crate) fn play_view(rules: &Ruleset, state: &State, seat: Seat) -> Option<SeatView> {
    let shared = Shared {
        to_act: state.to_act(),
        scores: Scores::default(),
        legal: legal_actions(rules, state),
    };
    let mut v = seat_view(rules, state, seat, &shared)?;
    v.scores.totals = state.record.totals();
    Some(v)
}

/// What a client shows of a game: the seats to act, the scores, the legal actions of the seats
/// `shows` lets it see and their views, each computed once.
#[derive(Clone, Debug)]
pub struct Overview {
    pub to_act: Vec<Seat>,
    pub scores: Scores,
    pub legal_actions: Vec<Action>,
    pub views: Vec<SeatView>,
}

pub(crate) fn overview(rules: &Ruleset, state: &State, shows: impl Fn(Seat) -> bool) -> Overview {
    let shared = Shared::of(rules, state);
    let views = Seat::all(state.seats())
        .filter(|&s| shows(s))
        .filter_map(|s| seat_view(rules, state, s, &shared))
        .collect();
    let Shared {
        to_act,
        scores,
        legal: mut legal_actions,
    } = shared;
    legal_actions.retain(|a| shows(a.seat));
    Overview {
        to_act,
        scores,
        legal_actions,
        views,
    }
}

/// One view per seat.
pub(crate) fn views(rules: &Ruleset, state: &State) -> Vec<SeatView> {
    overview(rules, state, |_| true).views
}

fn seat_view(rules: &Ruleset, state: &State, seat: Seat, shared: &Shared) -> Option<SeatView> {
    if !state.has_seat(seat) {
        return None;
    }
    let t = state.table_of(seat).unwrap_or_else(|| {
        TableNo::all(state.tables.len())
            .zip(&state.tables)
            .find_map(|(n, t)| (t.dealer == seat).then_some(n))
            .unwrap_or_default()
    });
    let table: &Table = state.tables.get(t.index())?;
    let role = table.role(seat);
    // What a player holds: while others lay off, less what it laid off already.
    let held = |r: Role| match &table.phase {
        Phase::LayOff { knock, .. } => table.hands[r].minus(knock.laid_by(table.seats[r])),
        _ => table.hands[r],
    };
    let hand = role.map(held).unwrap_or_default();
    let knock = match &table.phase {
        Phase::LayOff { knock, .. } => Some(KnockView {
            knocker: knock.knocker,
            melds: melds::meld_lists(&rules.melds, &knock.melds_now()),
            wilds: melds::stand_ins(&rules.melds, &knock.melds_now()),
            deadwood: knock.deadwood,
            laid_off: knock.laid_off.clone(),
        }),
        _ => None,
    };
    let result = match &table.phase {
        Phase::Over { result } => Some(result.as_ref().clone()),
        _ => None,
    };
    // The others in turn order from this seat's left; a seat sitting out sees them from the
    // first to act.
    let from = role.unwrap_or(table.seats.dealer_role());
    Some(SeatView {
        seat,
        sitting_out: role.is_none(),
        table: t,
        dealer: table.dealer,
        phase: phase_name(&table.phase),
        your_turn: shared.to_act.contains(&seat),
        to_act: shared.to_act.clone(),
        hand: hand.to_vec(),
        deadwood: role.map(|_| melds::least_deadwood(&rules.melds, hand)),
        upcard: table.upcard,
        discard_top: table.discard.top(),
        discard_pile: table.discard.as_slice().to_vec(),
        taken: match table.phase {
            Phase::Discard { taken, .. } => taken,
            _ => None,
        },
        stock_count: table.stock.len(),
        knock_limit: table.knock_limit,
        multiplier: table.multiplier,
        players: table
            .seats
            .after(from)
            .chain(std::iter::once(from))
            .filter(|&r| Some(r) != role)
            .map(|r| PlayerView {
                seat: table.seats[r],
                hand_size: held(r).len(),
                known_cards: table.taken[r].to_vec(),
            })
            .collect(),
        knock,
        result,
        scores: shared.scores.clone(),
        legal_actions: shared
            .legal
            .iter()
            .filter(|a| a.seat == seat)
            .cloned()
            .collect(),
    })
}
