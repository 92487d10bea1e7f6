//! Examples of every action and event, and of the bots' decisions, for the OpenAPI document, taken
//! from real games of the built-in rulesets (seeded, so the document is the same at every build),
//! never written by hand.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::bot::{Level, decide_for};
use crate::engine::{NewGame, apply, new_game};
use crate::rules::Catalog;
use crate::ruleset::{Ruleset, RulesetRef, StockEnd, Target};
use crate::sample;

/// One real example of each action, event and phase, by its tag.
pub struct Examples {
    pub actions: BTreeMap<String, Value>,
    pub events: BTreeMap<String, Value>,
    pub phases: BTreeMap<String, Value>,
    /// What the `strong` bot plays, one decision per kind of action.
    pub decisions: BTreeMap<String, Value>,
}

/// The games the examples come from: enough forms for every event and phase to occur (the last
/// plays Standard with the stock's end rule that no built-in ruleset uses).
type Game = (
    &'static str,
    &'static [&'static str],
    Option<u32>,
    Option<StockEnd>,
);
const GAMES: [Game; 5] = [
    ("standard", &[], None, None),
    ("standard", &["classic-bonuses"], Some(100), None),
    ("standard", &["reshuffle-stock"], None, None),
    ("standard", &["hollywood"], Some(100), None),
    ("standard", &[], None, Some(StockEnd::LastDiscardToGoOut)),
];

pub fn collect() -> Examples {
    let catalog = Catalog::builtin();
    let mut out = Examples {
        actions: BTreeMap::new(),
        events: BTreeMap::new(),
        phases: BTreeMap::new(),
        decisions: BTreeMap::new(),
    };
    for (id, options, target, stock_end) in GAMES {
        let reference = RulesetRef {
            id: id.into(),
            options: options.iter().map(|o| o.to_string()).collect(),
            authored: None,
        };
        let Ok(variant) = catalog.resolve(&reference) else {
            continue;
        };
        let mut rules = Ruleset::clone(&variant.ruleset);
        if let Some(end) = stock_end {
            rules.stock_end = end;
        }
        for seed in 0..40 {
            let mut game = NewGame::seeded(reference.clone(), seed);
            game.target = Some(target.map_or(Target::SingleHand, Target::Points));
            let _ = sample::play(
                &rules,
                variant.hooks.as_ref(),
                game,
                5_000,
                seed % 2 == 1,
                |at, legal| {
                    record_events(&mut out, &at.events);
                    for table in &at.state.tables {
                        let value = serde_json::to_value(&table.phase).unwrap_or(Value::Null);
                        if let Some(name) = value.get("name").and_then(Value::as_str) {
                            out.phases.entry(name.to_string()).or_insert(value);
                        }
                    }
                    for action in legal {
                        out.actions
                            .entry(action.type_name().to_string())
                            .or_insert_with(|| serde_json::to_value(action).unwrap_or(Value::Null));
                    }
                },
            );
        }
    }
    record_decisions(&catalog, &mut out);
    out
}

/// Hands of Standard where the `strong` bot plays every seat, its decisions kept by kind of action.
fn record_decisions(catalog: &Catalog, out: &mut Examples) {
    let reference = RulesetRef {
        id: "standard".into(),
        options: Vec::new(),
        authored: None,
    };
    let Ok(variant) = catalog.resolve(&reference) else {
        return;
    };
    let (rules, hooks) = (&variant.ruleset, variant.hooks.as_ref());
    for seed in 0..20 {
        let mut game = NewGame::seeded(reference.clone(), seed);
        game.target = Some(Target::SingleHand);
        let Ok(dealt) = new_game(rules, hooks, game) else {
            continue;
        };
        let mut state = dealt.state;
        let mut events = Vec::new();
        while !state.is_between_hands() {
            let Some(&seat) = state.to_act().first() else {
                break;
            };
            let Some(decision) = decide_for(Level::Strong, rules, &state, seat) else {
                break;
            };
            out.decisions
                .entry(decision.action.type_name().to_string())
                .or_insert_with(|| serde_json::to_value(&decision).unwrap_or(Value::Null));
            if apply(rules, hooks, &mut state, &decision.action, &mut events).is_err() {
                break;
            }
        }
    }
}

fn record_events(out: &mut Examples, events: &[crate::engine::Event]) {
    for event in events {
        let value = serde_json::to_value(event).unwrap_or(Value::Null);
        if let Some(kind) = value.get("type").and_then(Value::as_str) {
            out.events.entry(kind.to_string()).or_insert(value);
        }
    }
}
