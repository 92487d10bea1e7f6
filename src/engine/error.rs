//! Why an action, a deal or a state is refused, in a player's words.

use super::hooks::HookError;
use crate::cards::Card;
use crate::melds::MeldError;
use crate::seat::Seat;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    #[error("the match is over")]
    MatchOver,
    #[error("there is no seat {0} in this game")]
    NoSuchSeat(Seat),
    #[error("seat {0} sits this hand out")]
    SittingOut(Seat),
    #[error("it is not seat {seat}'s turn: waiting for {}", seat_list(.waiting))]
    NotYourTurn { seat: Seat, waiting: Vec<Seat> },
    #[error("the hand is over: deal the next hand")]
    HandIsOver,
    #[error("the hand is still being played")]
    HandNotOver,
    #[error("first decide on the upcard: take it or pass")]
    DecideOnUpcard,
    #[error("the upcard is not on offer now")]
    UpcardNotOffered,
    #[error("there is nothing to pass now")]
    NothingToPass,
    #[error("you must draw before you discard")]
    MustDraw,
    #[error("you have already drawn: discard or go out")]
    AlreadyDrew,
    #[error("both players passed the upcard: draw from the stock")]
    StockOnly,
    #[error("the discard pile is empty")]
    DiscardPileEmpty,
    #[error("{}", stock_exhausted(*.0))]
    StockExhausted(usize),
    #[error("you may take the last discard only to go out, or pass")]
    LastDiscardOnly,
    #[error("you took the last discard, so you must go out with it")]
    MustGoOut,
    #[error("{0} is not in your hand")]
    NotInHand(Card),
    #[error("{0} was just taken from the discard pile and may not be discarded this turn")]
    TakenCard(Card),
    #[error("knocking is not allowed in this hand: only gin goes out")]
    NoKnocking,
    #[error("deadwood {deadwood} exceeds the knock limit {limit}")]
    OverKnockLimit { deadwood: u32, limit: u8 },
    #[error("that is not gin: {0} deadwood would be left")]
    NotGin(u32),
    #[error("big gin is not played in this game: discard a card to go gin")]
    NoBigGin,
    #[error("not all eleven cards meld, so that is not big gin")]
    NotBigGin,
    #[error("{0}")]
    Melds(#[from] MeldError),
    #[error("there is nothing to lay off now")]
    NoLayOff,
    #[error(
        "the knocker has shown melds: lay off your cards first (an empty lay-off lays off nothing)"
    )]
    MustLayOff,
}

/// Declares each variant's stable [`reason`](IllegalAction::reason) code once, and the list of
/// them all.
macro_rules! reasons {
    ($($variant:ident => $code:literal,)*) => {
        impl IllegalAction {
            /// Every [`reason`](IllegalAction::reason), in the order of the variants.
            pub const REASONS: &[&'static str] = &[$($code,)*];

            /// A stable code for the kind of refusal, for programs to branch on (the message is
            /// for people).
            pub fn reason(&self) -> &'static str {
                match self {
                    $(IllegalAction::$variant { .. } => $code,)*
                }
            }
        }
    };
}

reasons! {
    MatchOver => "match-over",
    NoSuchSeat => "no-such-seat",
    SittingOut => "sitting-out",
    NotYourTurn => "not-your-turn",
    HandIsOver => "hand-is-over",
    HandNotOver => "hand-not-over",
    DecideOnUpcard => "decide-on-upcard",
    UpcardNotOffered => "upcard-not-offered",
    NothingToPass => "nothing-to-pass",
    MustDraw => "must-draw-first",
    AlreadyDrew => "already-drew",
    StockOnly => "stock-only",
    DiscardPileEmpty => "discard-pile-empty",
    StockExhausted => "stock-exhausted",
    LastDiscardOnly => "last-discard-only-to-go-out",
    MustGoOut => "must-go-out",
    NotInHand => "not-in-hand",
    TakenCard => "taken-card-discard",
    NoKnocking => "no-knocking",
    OverKnockLimit => "over-knock-limit",
    NotGin => "not-gin",
    NoBigGin => "no-big-gin",
    NotBigGin => "not-big-gin",
    Melds => "invalid-melds",
    NoLayOff => "no-lay-off",
    MustLayOff => "must-lay-off",
}

fn seat_list(seats: &[Seat]) -> String {
    match seats {
        [] => "nobody".into(),
        [s] => format!("seat {s}"),
        _ => {
            let v: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
            format!("seats {}", v.join(", "))
        }
    }
}

/// A step that could not be made. The state passed in is untouched either way.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    #[error(transparent)]
    Illegal(#[from] IllegalAction),
    #[error(transparent)]
    Hook(#[from] HookError),
    #[error(transparent)]
    Deal(#[from] DealError),
    #[error(transparent)]
    Overflow(#[from] Overflow),
}

/// A number of the state (from a request) so large that going on would overflow it: the
/// state cannot have come from play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0} is too large to go on with")]
pub struct Overflow(pub &'static str);

/// Adds, or names what would overflow.
pub(crate) fn add_i64(a: i64, b: i64, what: &'static str) -> Result<i64, Overflow> {
    a.checked_add(b).ok_or(Overflow(what))
}

pub(crate) fn mul_i64(a: i64, b: i64, what: &'static str) -> Result<i64, Overflow> {
    a.checked_mul(b).ok_or(Overflow(what))
}

/// A new game that cannot be dealt.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    #[error("the deck {0}")]
    InvalidDeck(String),
    #[error("there is no seat {seat}: this game has seats 0 to {}", .seats - 1)]
    NoSuchSeat { seat: Seat, seats: u8 },
    #[error("this game needs {needed} decks, {given} given")]
    WrongDeckCount { needed: usize, given: usize },
    #[error("{0}")]
    Unsupported(String),
    #[error(transparent)]
    Hook(#[from] HookError),
}

fn stock_exhausted(reserve: usize) -> String {
    match reserve {
        0 => "the stock is empty".to_string(),
        1 => "the stock is down to its last card, which is never drawn".to_string(),
        n => format!("the stock is down to its last {n} cards, which are never drawn"),
    }
}
