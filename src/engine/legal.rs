//! `legal_actions`: every action the engine accepts now (for the lay-off, the empty one and the best).

use crate::cards::{Card, CardSet, Rank, Suit};
use crate::melds;
use crate::ruleset::Ruleset;
use crate::seat::Seat;

use super::action::{Action, ActionKind, LayOffCard, Source, clear_actions};
use super::play_rules;
use super::state::{Phase, State, Table};

pub(crate) fn legal_actions(rules: &Ruleset, state: &State) -> Vec<Action> {
    let mut out = Vec::with_capacity(16);
    legal_actions_into(rules, state, &mut out);
    out
}

/// [`legal_actions`] into a buffer the caller reuses (cleared first).
pub(crate) fn legal_actions_into(rules: &Ruleset, state: &State, out: &mut Vec<Action>) {
    clear_actions(out);
    if state.is_over() {
        return;
    }
    if state.is_between_hands() {
        for seat in state.to_act() {
            out.push(Action::new(seat, ActionKind::NextHand));
        }
        return;
    }
    for table in &state.tables {
        table_actions(rules, table, out);
    }
}

fn table_actions(rules: &Ruleset, table: &Table, out: &mut Vec<Action>) {
    let Some(seat) = table.to_act() else {
        return;
    };
    let Some(r) = table.role(seat) else {
        return;
    };
    let push = |out: &mut Vec<Action>, kind| out.push(Action::new(seat, kind));
    match &table.phase {
        Phase::UpcardOffer { .. } => {
            push(out, ActionKind::TakeUpcard);
            push(out, ActionKind::Pass);
        }
        Phase::Draw { stock_only, .. } => {
            let stock = play_rules::may_draw_stock(rules, table);
            let discard = !stock_only && !table.discard.is_empty();
            let sources: &[Source] = match (stock, discard) {
                (true, true) => &[Source::Stock, Source::Discard],
                (true, false) => &[Source::Stock],
                (false, true) => &[Source::Discard],
                (false, false) => &[],
            };
            push_each(out, seat, sources, |from| ActionKind::Draw { from });
        }
        Phase::LastDiscard { .. } => {
            if let Some(card) = table.discard.top()
                && play_rules::can_go_out_with(rules, table.knock_limit, table.hands[r], card)
            {
                push(
                    out,
                    ActionKind::Draw {
                        from: Source::Discard,
                    },
                );
            }
            push(out, ActionKind::Pass);
        }
        Phase::Discard {
            taken, must_go_out, ..
        } => {
            let hand = table.hands[r];
            let limit = play_rules::deadwood_allowed(table.knock_limit);
            let out_with = melds::going_out(&rules.melds, hand, limit);
            let discardable = play_rules::discardable(rules, hand, *taken);
            let knocks = match table.knock_limit {
                Some(_) => out_with.within.intersect(discardable),
                None => CardSet::EMPTY,
            };
            let gins = out_with.gin.intersect(discardable);
            out.reserve((discardable.len() + knocks.len() + gins.len()) as usize + 1);
            if !must_go_out {
                push_per_card(out, seat, discardable, |card| ActionKind::Discard { card });
            }
            push_per_card(out, seat, knocks, |discard| ActionKind::Knock {
                discard,
                melds: None,
            });
            push_per_card(out, seat, gins, |card| ActionKind::Gin {
                discard: Some(card),
                melds: None,
            });
            if out_with.big_gin && play_rules::plays_big_gin(rules) {
                push(
                    out,
                    ActionKind::Gin {
                        discard: None,
                        melds: None,
                    },
                );
            }
        }
        Phase::LayOff { knock, .. } => {
            push(out, ActionKind::LayOff { cards: Vec::new() });
            let best = play_rules::best_lay_off(rules, table, knock);
            if !best.is_empty() {
                push(
                    out,
                    ActionKind::LayOff {
                        cards: best.into_iter().map(LayOffCard::from).collect(),
                    },
                );
            }
        }
        Phase::Over { .. } => {}
    }
}

/// One action per item. `extend` over a slice knows the count and writes each action in place;
/// pushing freshly built actions one by one stalls on store forwarding, and this runs every turn.
fn push_each<T: Copy>(
    out: &mut Vec<Action>,
    seat: Seat,
    items: &[T],
    kind: impl Fn(T) -> ActionKind,
) {
    out.extend(items.iter().map(|&x| Action::new(seat, kind(x))));
}

/// One action per card, as [`push_each`].
fn push_per_card(
    out: &mut Vec<Action>,
    seat: Seat,
    cards: CardSet,
    kind: impl Fn(Card) -> ActionKind,
) {
    let mut list = [Card::new(Rank::Ace, Suit::Clubs); crate::cards::MAX_DECK];
    let mut n = 0;
    let cards = if cards.contains(Card::JOKERS[0]) {
        cards.without(Card::JOKERS[1])
    } else {
        cards
    };
    for (slot, card) in list.iter_mut().zip(cards) {
        *slot = card;
        n += 1;
    }
    push_each(out, seat, &list[..n], kind);
}
