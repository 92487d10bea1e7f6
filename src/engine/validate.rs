//! Checking a plain state that arrives from outside before anything is done with it.
//!
//! The rule: a state is accepted only if legal play from a deal reaches it. Its log says which
//! deal and which play: the check deals the first hand again from the state's seed, id, target
//! and the log's dealer and decks, plays every logged action through the engine's own
//! [`step::apply`], and then requires the state to be exactly what that gives.

use std::collections::BTreeMap;

use serde_json::Value;

use super::hooks::Hooks;
use crate::level::Level;
use crate::ruleset::{Ruleset, Target};
use crate::seat::Seat;

use super::log::Logging;
use super::start::{NewGame, deal_first};
use super::state::{STATE_VERSION, State};
use super::step;

/// A state that cannot be played, with every problem found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game state is not valid: {}", .problems.join("; "))]
pub struct InvalidState {
    pub problems: Vec<String>,
}

/// Checks that `state` is what its log gives under `rules` and `hooks`.
pub(crate) fn validate(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &State,
) -> Result<(), InvalidState> {
    let mut p = check_frame(rules, state);
    if let Err(problem) = replay(rules, hooks, state) {
        p.push(problem);
    }
    done(p)
}

/// What a sealed state is checked for: it came from this engine, but perhaps from another
/// version or under options since refused.
pub(crate) fn check_sealed(rules: &Ruleset, state: &State) -> Result<(), InvalidState> {
    done(check_frame(rules, state))
}

fn done(problems: Vec<String>) -> Result<(), InvalidState> {
    if problems.is_empty() {
        Ok(())
    } else {
        Err(InvalidState { problems })
    }
}

/// The format version, the target and the bots.
fn check_frame(rules: &Ruleset, state: &State) -> Vec<String> {
    let mut p = Vec::new();
    if state.version != STATE_VERSION {
        p.push(format!(
            "format version {} is not the supported version {STATE_VERSION}",
            state.version
        ));
    }
    let target = state.target;
    let m = &rules.match_rules;
    if target == Target::Points(0) || !(m.targets.contains(&target) || m.default_target == target) {
        p.push(format!("this game is not played to {target}"));
    }
    check_bots(&state.bots, rules.seats, &mut p);
    p
}

/// Bots play seats of the game, and leave at least one seat to a human.
pub(crate) fn check_bots(bots: &BTreeMap<Seat, Level>, seats: u8, p: &mut Vec<String>) {
    if let Some((&seat, _)) = bots.iter().find(|&(&s, _)| !s.is_in(seats)) {
        p.push(format!(
            "bots: seat {seat} is not a seat of this game (seats 0 to {})",
            seats.saturating_sub(1)
        ));
    } else if !bots.is_empty() && bots.len() >= usize::from(seats) {
        p.push("bots: every seat is a bot's, and a game needs a human seat".into());
    }
}

/// Deals and plays the log again; the state must be what that gives.
fn replay(rules: &Ruleset, hooks: &dyn Hooks, state: &State) -> Result<(), String> {
    let (Some(log), Some(new)) = (&state.log, NewGame::of_log(state)) else {
        return Err(
            "the state has no log: a plain state carries the log of its match, which proves it"
                .into(),
        );
    };
    let (mut played, _) = deal_first(rules, hooks, new, Logging::Kept)
        .map_err(|e| format!("the log's deal is not one: {e}"))?;
    played.bots = state.bots.clone();
    let mut events = Vec::new();
    for (n, action) in log.actions.iter().enumerate() {
        if let Err(e) = step::apply(rules, hooks, &mut played, action, &mut events) {
            return Err(format!(
                "log entry {} (\"{action}\") cannot be played there: {e}",
                n + 1
            ));
        }
        events.clear();
    }
    if played == *state {
        return Ok(());
    }
    // The logs are the same (the replay logged the state's own actions): only the rest is shown.
    let unlogged = |s: &State| State {
        log: None,
        ..s.clone()
    };
    let (got, want) = match (
        serde_json::to_value(unlogged(&played)),
        serde_json::to_value(unlogged(state)),
    ) {
        (Ok(got), Ok(want)) => (got, want),
        _ => return Err("the state is not the one its log gives".into()),
    };
    let (path, got, want) = first_difference(&got, &want, String::new())
        .unwrap_or_else(|| (String::new(), got.clone(), want.clone()));
    Err(format!(
        "the state is not the one its log gives: at /{path} it has {}, where the log's {} actions \
         give {}",
        brief(&want),
        log.actions.len(),
        brief(&got)
    ))
}

/// The first place (a JSON pointer without its leading slash) where two values differ, and
/// what each has there.
fn first_difference(got: &Value, want: &Value, at: String) -> Option<(String, Value, Value)> {
    let child = |key: &str| {
        if at.is_empty() {
            key.to_string()
        } else {
            format!("{at}/{key}")
        }
    };
    match (got, want) {
        (Value::Object(a), Value::Object(b)) => {
            let keys = a.keys().chain(b.keys().filter(|k| !a.contains_key(*k)));
            for key in keys {
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) if x == y => {}
                    (Some(x), Some(y)) => return first_difference(x, y, child(key)),
                    (x, y) => {
                        let absent = || Value::String("nothing".into());
                        return Some((
                            child(key),
                            x.cloned().unwrap_or_else(absent),
                            y.cloned().unwrap_or_else(absent),
                        ));
                    }
                }
            }
            None
        }
        // A short list of cards or numbers is shown whole; a longer one (a stock) or a list of
        // lists or objects, from its first differing entry.
        (Value::Array(a), Value::Array(b))
            if a.len() == b.len()
                && (a.len() > 4 || a.iter().any(|x| x.is_array() || x.is_object())) =>
        {
            a.iter()
                .zip(b)
                .enumerate()
                .find(|(_, (x, y))| x != y)
                .and_then(|(i, (x, y))| first_difference(x, y, child(&i.to_string())))
        }
        _ if got == want => None,
        _ => Some((at, got.clone(), want.clone())),
    }
}

/// A value as JSON, cut short.
fn brief(v: &Value) -> String {
    const MOST: usize = 120;
    let text = v.to_string();
    match text.char_indices().nth(MOST) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}
