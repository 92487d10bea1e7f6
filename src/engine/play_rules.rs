//! The rules of play that the legal actions, `step`, scoring and the state checks share, each
//! written once.

use crate::cards::{Card, CardSet};
use crate::melds::{self, LayOff};
use crate::ruleset::{Ruleset, StockEnd};

use super::outcome::Outcome;
use super::state::{Knock, Table};

/// The stock is down to the cards that are never drawn.
pub(crate) fn at_reserve(rules: &Ruleset, table: &Table) -> bool {
    table.stock.len() <= usize::from(rules.stock_reserve)
}

/// A draw from the stock first shuffles the discard pile (but its top card) into the stock.
pub(crate) fn reshuffles_before_draw(rules: &Ruleset, table: &Table) -> bool {
    rules.stock_end == StockEnd::Reshuffle && at_reserve(rules, table)
}

/// The player to draw may take the stock's top card (after the reshuffle the rule makes).
pub(crate) fn may_draw_stock(rules: &Ruleset, table: &Table) -> bool {
    let reserve = usize::from(rules.stock_reserve);
    let after_reshuffle = table.stock.len() + table.discard.len().saturating_sub(1);
    !at_reserve(rules, table)
        || (rules.stock_end == StockEnd::Reshuffle && after_reshuffle > reserve)
}

/// What follows a discard that does not go out.
pub(crate) enum AfterDiscard {
    /// The other player draws.
    Draw,
    /// The other player may take the last discard only to go out.
    LastDiscard,
    /// The hand is dead.
    Dead,
}

pub(crate) fn after_discard(rules: &Ruleset, table: &Table) -> AfterDiscard {
    if table.turns >= rules.turn_limit {
        return AfterDiscard::Dead;
    }
    match rules.stock_end {
        StockEnd::DeadHand if at_reserve(rules, table) => AfterDiscard::Dead,
        StockEnd::LastDiscardToGoOut if at_reserve(rules, table) => AfterDiscard::LastDiscard,
        _ => AfterDiscard::Draw,
    }
}

/// The cards of `hand` a player may discard (or go out with), `taken` being the card just taken
/// from the discard pile.
pub(crate) fn discardable(rules: &Ruleset, hand: CardSet, taken: Option<Card>) -> CardSet {
    match taken {
        Some(card) if !rules.discard_taken_card => hand.without(card),
        _ => hand,
    }
}

/// Big gin (going out with all the cards, discarding none) is played.
pub(crate) fn plays_big_gin(rules: &Ruleset) -> bool {
    rules.big_gin_bonus.is_some()
}

/// The most deadwood going out may leave in a hand with this knock limit (`None`: gin only).
pub(crate) fn deadwood_allowed(knock_limit: Option<u8>) -> u32 {
    knock_limit.map_or(0, u32::from)
}

/// Whether a player holding `hand` could take `card` and go out at once.
pub(crate) fn can_go_out_with(
    rules: &Ruleset,
    knock_limit: Option<u8>,
    hand: CardSet,
    card: Card,
) -> bool {
    let held = hand.with(card);
    let out = melds::going_out(&rules.melds, held, deadwood_allowed(knock_limit));
    if out.big_gin && plays_big_gin(rules) {
        return true;
    }
    !out.within
        .intersect(discardable(rules, held, Some(card)))
        .is_empty()
}

/// The defender lays off after a hand that went out this way.
pub(crate) fn lays_off(rules: &Ruleset, outcome: Outcome) -> bool {
    match outcome {
        Outcome::Knock => rules.lay_offs,
        Outcome::Gin | Outcome::BigGin => rules.lay_offs && rules.lay_off_after_gin,
        Outcome::Undercut | Outcome::Wash | Outcome::Dead => false,
    }
}

/// The lay-off that leaves the defender to lay off now the least deadwood (onto the cards laid
/// off before too).
pub(crate) fn best_lay_off(rules: &Ruleset, table: &Table, knock: &Knock) -> Vec<LayOff> {
    let Some(r) = table.to_act().and_then(|s| table.role(s)) else {
        return Vec::new();
    };
    melds::best_lay_off(&rules.melds, &knock.melds_now(), table.hands[r]).lay_offs
}
