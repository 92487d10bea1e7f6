//! What bounds a request's cost: every hand ends (past the ruleset's turn limit a discard without
//! going out ends the hand dead, so a game whose bots can never finish a hand still comes back
//! with a human to act), bots decide cheaply once the request's budget is half spent, and the
//! authored-ruleset cache counts what its entries really hold.

use serde_json::{Value, json};

use std::collections::BTreeMap;

use gin_rules::bot::{Pace, play_bots};
use gin_rules::engine::hooks::NoHooks;
use gin_rules::engine::{Action, ActionKind, Event, Game, NewGame, Outcome, Phase, Source};
use gin_rules::level::Level;
use gin_rules::rules::Catalog;
use gin_rules::ruleset::{Ruleset, RulesetRef, StockEnd, Target};
use gin_rules::seat::Seat;

use crate::api_support::Client;

/// Plays `game` with draws from the stock (the upcard passed) and discards of the card drawn,
/// never going out, until its hand is over; the turns played and the events.
fn play_without_going_out(game: &mut Game) -> Vec<Event> {
    let mut events = Vec::new();
    for _ in 0..10_000 {
        if game.is_between_hands() {
            return events;
        }
        let legal = game.legal_actions();
        let pick = |want: &dyn Fn(&ActionKind) -> bool| legal.iter().find(|a| want(&a.kind));
        let drawn = events.iter().rev().find_map(|e| match e {
            Event::Drew { card, .. } => *card,
            _ => None,
        });
        let action: &Action = pick(&|k| matches!(k, ActionKind::Pass))
            .or_else(|| {
                pick(&|k| {
                    matches!(
                        k,
                        ActionKind::Draw {
                            from: Source::Stock
                        }
                    )
                })
            })
            .or_else(|| {
                pick(&|k| matches!(k, ActionKind::Discard { card } if Some(*card) == drawn))
            })
            .or_else(|| pick(&|k| matches!(k, ActionKind::Discard { .. })))
            .unwrap_or_else(|| panic!("nothing to play but {legal:?}"));
        let action = action.clone();
        game.apply(&action, &mut events).unwrap();
    }
    panic!("the hand never ended");
}

#[test]
fn a_hand_past_its_turn_limit_ends_dead() {
    for stock_end in [StockEnd::Reshuffle, StockEnd::DeadHand] {
        let rules = Ruleset {
            knock_limit: None,
            big_gin_bonus: None,
            stock_end,
            turn_limit: 12,
            ..Ruleset::standard()
        };
        let new = NewGame {
            ruleset: RulesetRef::named("standard"),
            seed: 5,
            target: Some(Target::Points(100)),
            id: None,
            dealer: Some(Seat::new(0)),
            decks: Vec::new(),
        };
        let mut game = Game::deal(&rules, &NoHooks, new).unwrap().game;
        let events = play_without_going_out(&mut game);
        let table = &game.tables[0];
        assert_eq!(table.turns, 12, "{stock_end:?}");
        let Phase::Over { result } = &table.phase else {
            panic!("the hand is not over: {:?}", table.phase)
        };
        assert_eq!(result.outcome, Outcome::Dead);
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::HandOver(r) if r.outcome == Outcome::Dead))
        );
        let draws = events
            .iter()
            .filter(|e| matches!(e, Event::Drew { .. }))
            .count();
        assert_eq!(draws, 12);
    }
}

#[test]
fn an_unlimited_stock_still_ends_at_the_default_limit() {
    let rules = Ruleset {
        knock_limit: None,
        big_gin_bonus: None,
        stock_end: StockEnd::Reshuffle,
        ..Ruleset::standard()
    };
    let new = NewGame {
        ruleset: RulesetRef::named("standard"),
        seed: 9,
        target: Some(Target::SingleHand),
        id: None,
        dealer: None,
        decks: Vec::new(),
    };
    let mut game = Game::deal(&rules, &NoHooks, new).unwrap().game;
    play_without_going_out(&mut game);
    assert_eq!(game.tables[0].turns, gin_rules::ruleset::DEFAULT_TURN_LIMIT);
    assert!(game.is_over());
}

/// A three-player ruleset whose hands the bots can never finish: no knocking, no big gin, sets of
/// exactly three, runs of all thirteen cards, the stock reshuffled for ever.
pub fn endless_yaml(id: &str) -> String {
    format!(
        "id: {id}\nname: Endless\nsummary: Hands nobody finishes.\nextends: three-player\n\
         knocking:\n  allowed: false\nscoring:\n  big_gin: false\n\
         melds:\n  set_min: 3\n  set_max: 3\n  run_min: 13\nstock:\n  end: reshuffle\n"
    )
}

fn dead_hands(events: &Value) -> usize {
    events
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "hand_over" && e["outcome"] == "dead")
        .count()
}

#[actix_web::test]
async fn a_game_where_only_strong_bots_play_an_endless_hand_comes_back_to_its_human() {
    let app = Client::new(false).await;
    // Seat 0 deals and sits the hand out; bots 1 and 2 play it without end.
    let (status, snap) = app
        .post(
            "/v1/games",
            &json!({
                "ruleset": {"yaml": endless_yaml("endless")},
                "seed": 3,
                "dealer": 0,
                "target": 100,
                "bots": {"1": "strong", "2": "strong"},
            }),
        )
        .await;
    assert_eq!(status, 201, "{snap}");
    assert_eq!(dead_hands(&snap["events"]), 1, "{}", snap["events"]);
    assert_eq!(snap["status"], "in_progress", "{snap}");
    assert!(
        snap["to_act"].as_array().unwrap().contains(&json!(0)),
        "{}",
        snap["to_act"]
    );
    let turns = snap["state"]["tables"][0]["turns"].as_u64();
    assert_eq!(
        turns,
        Some(u64::from(gin_rules::ruleset::DEFAULT_TURN_LIMIT))
    );
    // The human deals the next hand (the same dealer after a dead hand): again the bots play it
    // to its limit within the request, and the human is to act again.
    let next = app
        .step(&snap, &json!({"seat": 0, "type": "next_hand"}))
        .await;
    assert_eq!(dead_hands(&next["events"]), 1, "{}", next["events"]);
    assert!(
        next["to_act"].as_array().unwrap().contains(&json!(0)),
        "{next}"
    );
}

/// Thinks a given number of times, then no more.
struct Thinks(usize);

impl Pace for Thinks {
    fn think(&mut self) -> bool {
        self.0 = self.0.saturating_sub(1);
        self.0 > 0
    }
}

#[test]
fn bots_out_of_time_play_on_cheaply_to_the_end_of_the_hand() {
    let rules = Ruleset {
        knock_limit: None,
        big_gin_bonus: None,
        stock_end: StockEnd::Reshuffle,
        turn_limit: 40,
        seats: 3,
        ..Ruleset::standard()
    };
    let new = NewGame {
        ruleset: RulesetRef::named("three-player"),
        seed: 2,
        target: Some(Target::Points(100)),
        id: None,
        dealer: Some(Seat::new(0)),
        decks: Vec::new(),
    };
    let mut game = Game::deal(&rules, &NoHooks, new).unwrap().game;
    let bots = BTreeMap::from([(Seat::new(1), Level::Strong), (Seat::new(2), Level::Strong)]);
    game.set_bots(bots).unwrap();
    let mut events = Vec::new();
    let played = play_bots(&mut game, &mut events, &mut Thinks(5)).unwrap();
    assert!(
        game.is_between_hands(),
        "the bots stopped before the hand's end"
    );
    assert_eq!(played.hurried, played.actions - 4, "{played:?}");
    assert!(played.actions > 40, "{played:?}");
}

#[test]
fn the_cache_counts_what_a_compiled_script_holds() {
    // Nested calls: the script shape that compiles to the most memory found, some 67 times its
    // text; the old estimate counted 8 times.
    let line = "    f(f(f(f(f(f(f(f(n))))))));\n";
    let script = format!(
        "fn knock_limit(ctx) {{ 10 }}\nprivate fn unused(n) {{\n{}    n\n}}\nprivate fn f(x) {{ x }}\n",
        line.repeat(500)
    );
    let yaml = "id: big-script\nname: Big\nextends: standard\nhooks:\n  knock_limit:\n    script: k.rhai\n    rule: ten\noptions:\n  oklahoma: null\n";
    let scripts = BTreeMap::from([("k.rhai".to_string(), script.clone())]);
    let catalog = Catalog::builtin();
    catalog.check(yaml, &scripts).unwrap();
    let usage = catalog.authored_cache_usage();
    let per_byte = usage.bytes / script.len();
    assert!(
        (30..120).contains(&per_byte),
        "{} bytes held for {} bytes of script ({per_byte} a byte)",
        usage.bytes,
        script.len()
    );
    assert_eq!(
        (usage.rulesets, usage.insertions, usage.evictions),
        (1, 1, 0)
    );
}
