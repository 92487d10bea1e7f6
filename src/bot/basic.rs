//! `basic`: takes a discard that lowers its deadwood, discards its costliest card, knocks (or goes
//! gin) as soon as it may, lays off as much as it can.

use std::cmp::Reverse;

use crate::cards::Card;
use crate::engine::{Action, SeatView};
use crate::melds;
use crate::ruleset::Ruleset;

use super::Decision;
use super::seen::{Options, Seen, plain_why};

/// `first` is the view's first legal action, played when nothing better is found.
pub fn decide(rules: &Ruleset, view: &SeatView, first: &Action) -> Decision {
    let options = Options::of(view);
    let seen = Seen::of(view);
    let (action, why) = match view.phase {
        "upcard_offer" | "draw" | "last_discard" => draw(rules, view, &options, &seen),
        "discard" => discard(rules, &options, &seen),
        "lay_off" => (view.legal_actions.last(), None),
        _ => (None, None),
    };
    let action = action.unwrap_or(first).clone();
    let why = why.unwrap_or_else(|| plain_why(&action, view));
    Decision { action, why }
}

type Choice<'a> = (Option<&'a Action>, Option<String>);

fn draw<'a>(rules: &Ruleset, view: &SeatView, options: &Options<'a>, seen: &Seen) -> Choice<'a> {
    if view.phase == "last_discard" {
        return match options.take() {
            Some(a) => (
                Some(a),
                Some("Took the last discard: it lets me go out.".into()),
            ),
            None => (
                options.leave(),
                Some("Passed: the last discard does not let me go out.".into()),
            ),
        };
    }
    let Some(card) = seen.top else {
        return (options.leave(), None);
    };
    let now = melds::least_deadwood(&rules.melds, seen.hand);
    let after = melds::analyze_discards(&rules.melds, seen.hand.with(card));
    let lowest = after
        .after_discard
        .iter()
        .filter(|&&(c, _)| c != card || rules.discard_taken_card)
        .map(|&(_, dw)| dw)
        .min();
    if let Some(low) = lowest.filter(|&low| low < now)
        && let Some(a) = options.take()
    {
        return (
            Some(a),
            Some(format!(
                "Took {card}: it lowers my deadwood from {now} to {low}."
            )),
        );
    }
    (
        options.leave(),
        Some(format!(
            "Left {card}: it would not lower my deadwood ({now})."
        )),
    )
}

fn discard<'a>(rules: &Ruleset, options: &Options<'a>, seen: &Seen) -> Choice<'a> {
    if let Some((a, d)) = options.gins().next() {
        let why = match d {
            Some(d) => format!("Went gin, discarding {d}: every card I keep is melded."),
            None => "Went big gin: all eleven cards meld.".into(),
        };
        return (Some(a), Some(why));
    }
    let analysis = melds::analyze_discards(&rules.melds, seen.hand);
    let after = |c: Card| {
        analysis
            .after_discard
            .iter()
            .find(|&&(d, _)| d == c)
            .map_or(u32::MAX, |&(_, dw)| dw)
    };
    let best = |it: &mut dyn Iterator<Item = (&'a Action, Card)>| {
        it.min_by_key(|&(_, c)| (after(c), Reverse(rules.melds.value(c))))
    };
    if let Some((a, c)) = best(&mut options.knocks()) {
        return (
            Some(a),
            Some(format!(
                "Knocked with {} deadwood, discarding {c}: I knock as soon as I may.",
                after(c)
            )),
        );
    }
    match best(&mut options.discards()) {
        Some((a, c)) => (
            Some(a),
            Some(format!(
                "Discarded {c}: it leaves the least deadwood ({}).",
                after(c)
            )),
        ),
        None => (None, None),
    }
}
