//! A simple bot: takes a discard that lowers its deadwood, discards its costliest card, knocks
//! (or goes gin) as soon as it may, lays off as much as it can.

use crate::engine::{Action, ActionKind, Phase, Source, State, legal_actions};
use crate::melds;
use crate::ruleset::{Ruleset, Seat};

/// The bot's choice for `seat`, or `None` when `seat` has nothing to do.
pub fn choose(rules: &Ruleset, state: &State, seat: Seat) -> Option<Action> {
    let legal: Vec<Action> = legal_actions(rules, state)
        .into_iter()
        .filter(|a| a.seat == seat)
        .collect();
    let first = legal.first()?.clone();
    let Some(table) = state.table_of(seat).and_then(|t| state.tables.get(t)) else {
        return Some(first);
    };
    let r = table.role(seat)?;
    let hand = table.hands[r];
    let find = |pred: &dyn Fn(&ActionKind) -> bool| legal.iter().find(|a| pred(&a.kind)).cloned();
    match &table.phase {
        Phase::UpcardOffer { .. } | Phase::Draw { .. } | Phase::LastDiscard { .. } => {
            let takes_discard = |k: &ActionKind| {
                matches!(
                    k,
                    ActionKind::TakeUpcard
                        | ActionKind::Draw {
                            from: Source::Discard
                        }
                )
            };
            if matches!(table.phase, Phase::LastDiscard { .. }) {
                return find(&takes_discard).or(Some(first));
            }
            let improves = table.discard.top().is_some_and(|card| {
                let now = melds::least_deadwood(&rules.melds, hand);
                let after = melds::analyze_discards(&rules.melds, hand.with(card));
                after
                    .after_discard
                    .iter()
                    .any(|&(c, dw)| (c != card || rules.discard_taken_card) && dw < now)
            });
            if improves && let Some(a) = find(&takes_discard) {
                return Some(a);
            }
            find(&|k| {
                matches!(
                    k,
                    ActionKind::Pass
                        | ActionKind::Draw {
                            from: Source::Stock
                        }
                )
            })
            .or(Some(first))
        }
        Phase::Discard { .. } => {
            if let Some(a) = find(&|k| matches!(k, ActionKind::Gin { .. })) {
                return Some(a);
            }
            let analysis = melds::analyze_discards(&rules.melds, hand);
            let after = |c| {
                analysis
                    .after_discard
                    .iter()
                    .find(|&&(d, _)| d == c)
                    .map_or(u32::MAX, |&(_, dw)| dw)
            };
            let best_of = |pred: &dyn Fn(&ActionKind) -> Option<crate::cards::Card>| {
                legal
                    .iter()
                    .filter_map(|a| pred(&a.kind).map(|c| (a, c)))
                    .min_by_key(|&(_, c)| (after(c), std::cmp::Reverse(rules.melds.value(c))))
                    .map(|(a, _)| a.clone())
            };
            best_of(&|k| match k {
                ActionKind::Knock { discard, .. } => Some(*discard),
                _ => None,
            })
            .or_else(|| {
                best_of(&|k| match k {
                    ActionKind::Discard { card } => Some(*card),
                    _ => None,
                })
            })
            .or(Some(first))
        }
        Phase::LayOff { .. } => legal.last().cloned(),
        Phase::Over { .. } => Some(first),
    }
}
