//! `legal_actions`: every action the engine accepts now (for the lay-off, the empty one and the best).

use crate::melds;
use crate::ruleset::{Ruleset, StockEnd};

use super::action::{Action, ActionKind, LayOffCard, Source};
use super::state::{Phase, State, Table};
use super::step::{best_lay_off_action, can_go_out_with};

pub fn legal_actions(rules: &Ruleset, state: &State) -> Vec<Action> {
    let mut out = Vec::new();
    if state.is_over() {
        return out;
    }
    if state.is_between_hands() {
        for seat in 0..state.seats() as u8 {
            out.push(Action::new(seat, ActionKind::NextHand));
        }
        return out;
    }
    for table in &state.tables {
        table_actions(rules, table, &mut out);
    }
    out
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
            let reserve = usize::from(rules.stock_reserve);
            let can_reshuffle = rules.stock_end == StockEnd::Reshuffle
                && table.stock.len() + table.discard.len().saturating_sub(1) > reserve;
            if table.stock.len() > reserve || can_reshuffle {
                push(
                    out,
                    ActionKind::Draw {
                        from: Source::Stock,
                    },
                );
            }
            if !stock_only && !table.discard.is_empty() {
                push(
                    out,
                    ActionKind::Draw {
                        from: Source::Discard,
                    },
                );
            }
        }
        Phase::LastDiscard { .. } => {
            if let Some(card) = table.discard.top()
                && can_go_out_with(rules, table.knock_limit, table.hands[r], card)
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
            let analysis = melds::analyze_discards(&rules.melds, hand);
            out.reserve(2 * analysis.after_discard.len() + 1);
            for &(card, deadwood) in &analysis.after_discard {
                if Some(card) == *taken && !rules.discard_taken_card {
                    continue;
                }
                if !must_go_out {
                    push(out, ActionKind::Discard { card });
                }
                if let Some(limit) = table.knock_limit
                    && deadwood <= u32::from(limit)
                {
                    push(
                        out,
                        ActionKind::Knock {
                            discard: card,
                            melds: None,
                        },
                    );
                }
                if deadwood == 0 {
                    push(
                        out,
                        ActionKind::Gin {
                            discard: Some(card),
                            melds: None,
                        },
                    );
                }
            }
            if analysis.big_gin && rules.big_gin_bonus.is_some() {
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
            let best = best_lay_off_action(rules, table, knock);
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
