//! The deal the tables come from: seated as the ruleset seats it, with the knock limit and
//! multiplier its hooks give. (That its cards are the seeded ones is checked by [`super::replay`].)

use crate::game_types::TableSeating;
use crate::hooks::{DealInfo, Hooks};
use crate::ruleset::{Ruleset, Seat};

use super::super::deal::seating;
use super::super::score;
use super::super::state::State;
use super::at;

pub(super) fn check_deal(rules: &Ruleset, hooks: &dyn Hooks, state: &State, p: &mut Vec<String>) {
    check_seating(rules, hooks, state, p);
    check_hand_rules(rules, hooks, state, p);
}

/// The tables are the seating the `seating` hook gives for this deal, with some dealer.
fn check_seating(rules: &Ruleset, hooks: &dyn Hooks, state: &State, p: &mut Vec<String>) {
    let tables: Vec<TableSeating> = state
        .tables
        .iter()
        .map(|t| TableSeating {
            dealer: t.dealer,
            players: t.seats.into_array(),
        })
        .collect();
    // The tables' own dealers first: that is who dealt in every built-in form.
    let mut tried = Vec::with_capacity(usize::from(rules.seats));
    let candidates = tables
        .iter()
        .map(|t| t.dealer)
        .chain(0..rules.seats)
        .filter(|d| {
            let new = !tried.contains(d);
            if new {
                tried.push(*d);
            }
            new
        })
        .collect::<Vec<Seat>>();
    let mut failed = None;
    for dealer in candidates {
        match seating(
            rules,
            hooks,
            &state.record.layout,
            dealer,
            state.deal_number,
        ) {
            Ok(s) if s == tables => return,
            Ok(_) => {}
            Err(e) => failed = Some(e),
        }
    }
    match failed {
        Some(e) => p.push(format!("the seating of the deal cannot be checked: {e}")),
        None => p.push(format!(
            "the tables are not seated as this game seats deal {}: no dealer gives {}",
            state.deal_number,
            describe(&tables)
        )),
    }
}

fn describe(tables: &[TableSeating]) -> String {
    let v: Vec<String> = tables
        .iter()
        .map(|t| {
            format!(
                "{} against {} (dealer {})",
                t.players[0], t.players[1], t.dealer
            )
        })
        .collect();
    v.join(", ")
}

/// Each table's knock limit and multiplier are what the hooks give at its deal. The hooks read
/// the match totals before the deal: known while the deal is not yet scored, and at the first
/// deal (all 0). A scored later deal is checked through its results instead.
fn check_hand_rules(rules: &Ruleset, hooks: &dyn Hooks, state: &State, p: &mut Vec<String>) {
    let seats = usize::from(rules.seats);
    let totals = if state.deal_number == 0 {
        vec![0; seats]
    } else if !state.is_between_hands() {
        match score::checked_totals(&state.record) {
            Ok(sides) => (0..rules.seats)
                .map(|s| {
                    state
                        .record
                        .layout
                        .side_of(s)
                        .and_then(|side| sides.get(side).copied())
                        .unwrap_or(0)
                })
                .collect(),
            Err(_) => return,
        }
    } else {
        return;
    };
    let named = state.tables.len() > 1;
    for (i, t) in state.tables.iter().enumerate() {
        let at = at(i, named);
        let info = DealInfo {
            upcard: t.upcard,
            dealer: t.dealer,
            hand_number: state.deal_number,
            totals: &totals,
            knock_limit: rules.knock_limit,
        };
        match hooks.knock_limit(&info) {
            Ok(limit) if limit == t.knock_limit => {}
            Ok(limit) => p.push(format!(
                "{at}the knock limit of this hand is {}, not {}",
                limit_words(limit),
                limit_words(t.knock_limit)
            )),
            Err(e) => p.push(format!("{at}the knock limit cannot be checked: {e}")),
        }
        match hooks.score_multiplier(&info) {
            Ok(m) if m == t.multiplier => {}
            Ok(m) => p.push(format!(
                "{at}the score multiplier of this hand is {m}, not {}",
                t.multiplier
            )),
            Err(e) => p.push(format!("{at}the score multiplier cannot be checked: {e}")),
        }
    }
}

fn limit_words(limit: Option<u8>) -> String {
    match limit {
        Some(l) => l.to_string(),
        None => "none (only gin goes out)".into(),
    }
}
