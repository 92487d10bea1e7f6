//! The `score_hand` hook: what its context holds, what its decision may change, what the engine
//! refuses; and a misread field of a result object named against that object's fields.

use std::sync::Arc;

use gin_rules::engine::hooks::Hooks;
use gin_rules::engine::{Action, Event, Game, NewGame, Outcome, StepError};
use gin_rules::rules::HookPoint;
use gin_rules::rules::script::{Binding, ScriptHooks, compile};
use gin_rules::ruleset::{Ruleset, RulesetRef};
use gin_rules::seat::Seat;

use crate::snapshots::scenarios::deck_of;

fn hooks(point: HookPoint, script: &str) -> (Arc<Ruleset>, ScriptHooks) {
    let rules = Arc::new(Ruleset::standard());
    let script = compile("h.rhai", script).unwrap_or_else(|e| panic!("{e:#?}"));
    let binding = Binding {
        point,
        script: Arc::new(script),
        rule: None,
        from: "test".into(),
    };
    (rules.clone(), ScriptHooks::new(rules, [binding]))
}

fn action(json: &str) -> Action {
    serde_json::from_str(json).unwrap()
}

/// Seat 1 knocks with 2C 3D 4H (9) against seat 0's 9: under standard rules, an undercut
/// scoring 0 + 25. Returns the game before the last action (seat 0 lays off nothing) and the
/// result of that action.
fn tie<'r>(
    rules: &'r Ruleset,
    hooks: &'r dyn Hooks,
) -> (Game<'r>, Result<(Game<'r>, Vec<Event>), StepError>) {
    let deck = deck_of(
        "7C 7D 7H 7S AS 2S 3S 2C 3D KH",
        "4C 5C 6C 8H 8D 8S TC JC QC 9S",
        "5S",
        "4H",
    );
    let new = NewGame {
        dealer: Some(Seat::new(0)),
        decks: vec![deck],
        ..NewGame::seeded(RulesetRef::named("standard"), 1)
    };
    let mut game = Game::deal(rules, hooks, new).unwrap().game;
    for a in [
        r#"{"seat": 1, "type": "pass"}"#,
        r#"{"seat": 0, "type": "pass"}"#,
        r#"{"seat": 1, "type": "draw", "from": "stock"}"#,
        r#"{"seat": 1, "type": "knock", "discard": "KH"}"#,
    ] {
        game = game.step(&action(a)).unwrap().game;
    }
    let last = game
        .step(&action(r#"{"seat": 0, "type": "lay_off", "cards": []}"#))
        .map(|s| (s.game, s.events));
    (game, last)
}

fn result_of(events: &[Event]) -> gin_rules::engine::HandResult {
    events
        .iter()
        .find_map(|e| match e {
            Event::HandOver(r) => Some(gin_rules::engine::HandResult::clone(r)),
            _ => None,
        })
        .expect("the hand is over")
}

#[test]
fn the_context_holds_the_hands_facts() {
    let script = r#"fn score_hand(ctx) {
    if type_of(ctx) != "HandContext" { throw "type"; }
    if ctx.outcome != "undercut" || ctx.knocker != 1 || ctx.knock_limit != 10 { throw "knock"; }
    if ctx.upcard != "5S" || ctx.stock != 30 || ctx.turns != 1 || ctx.multiplier != 1 { throw "table"; }
    if ctx.players != [1, 0] || ctx.dealer != 0 || ctx.hand_number != 0 || ctx.seats != 2 { throw "seats"; }
    let k = ctx.hands[1];
    let d = ctx.hands[0];
    if k.deadwood != 9 || k.deadwood_cards.len() != 3 || !k.deadwood_cards.contains("4H") { throw "knocker"; }
    if k.melds.len() != 2 || !k.playing || k.seat != 1 { throw "knocker's melds"; }
    if d.deadwood != 9 || d.deadwood_before != 9 || d.laid_off != [] || d.melds.len() != 3 { throw "defender"; }
    if ctx.totals != [0, 0] || ctx.sides != [[0], [1]] || ctx.games[0].boxes != [0, 0] { throw "match"; }
    let want = #{winner: 0, parts: [#{name: "base", points: 0}, #{name: "undercut bonus", points: 25}],
                 multiplier: 1, boxes: 1, wash: false};
    if ctx["default"] != want { throw "default"; }
    ()
}
"#;
    let (rules, hooks) = hooks(HookPoint::ScoreHand, script);
    let (_, last) = tie(&rules, &hooks);
    let (game, events) = last.unwrap_or_else(|e| panic!("{e}"));
    let r = result_of(&events);
    assert_eq!(r.outcome, Outcome::Undercut);
    assert_eq!(r.points[Seat::new(0)], 25);
    let names: Vec<(&str, i64)> = r
        .parts
        .iter()
        .map(|p| (p.name.as_str(), p.points))
        .collect();
    assert_eq!(names, [("base", 0), ("undercut bonus", 25)]);
    assert_eq!(game.state().scores().boxes, vec![1, 0]);
}

#[test]
fn a_decision_may_wash_name_the_winner_change_parts_multiplier_and_boxes() {
    let (rules, h) = hooks(HookPoint::ScoreHand, "fn score_hand(ctx) { #{wash: true} }");
    let (_, last) = tie(&rules, &h);
    let (game, events) = last.unwrap();
    let r = result_of(&events);
    assert_eq!((r.outcome, r.winner, r.boxes), (Outcome::Wash, None, 0));
    assert!(r.parts.is_empty() && r.points.iter().all(|&p| p == 0));
    assert_eq!(game.state().scores().totals, vec![0, 0]);

    let script =
        r#"fn score_hand(ctx) { #{winner: ctx.knocker, parts: [["house", 7]], boxes: 2} }"#;
    let (rules, h) = hooks(HookPoint::ScoreHand, script);
    let (game, events) = tie(&rules, &h).1.unwrap();
    let r = result_of(&events);
    assert_eq!(
        (r.outcome, r.winner, r.boxes),
        (Outcome::Knock, Some(Seat::new(1)), 2)
    );
    assert_eq!(r.points[Seat::new(1)], 7);
    let s = game.state().scores();
    assert_eq!(
        (s.totals, s.hands_won, s.boxes),
        (vec![0, 7], vec![0, 1], vec![0, 2])
    );

    let (rules, h) = hooks(
        HookPoint::ScoreHand,
        "fn score_hand(ctx) { #{multiplier: 3} }",
    );
    let (game, events) = tie(&rules, &h).1.unwrap();
    let r = result_of(&events);
    let parts: Vec<(&str, i64, Option<u32>)> = r
        .parts
        .iter()
        .map(|p| (p.name.as_str(), p.points, p.multiplier))
        .collect();
    assert_eq!(
        parts,
        [
            ("base", 0, None),
            ("undercut bonus", 25, None),
            ("multiplier x3", 50, Some(3))
        ]
    );
    assert_eq!(game.state().scores().totals, vec![75, 0]);
}

#[test]
fn a_decision_the_engine_refuses_names_the_problem_and_changes_nothing() {
    for (decision, says) in [
        (
            "#{winner: 1, parts: [[\"x\", -5]]}",
            "a hand scores 0 to 1000000",
        ),
        ("#{points: 5}", "unknown key `points`"),
        ("#{boxes: 200}", "the boxes 200 is out of range (0 to 100)"),
        (
            "#{parts: [[\"x\"]]}",
            "a part is `[name, points]`, but this one has 1 items",
        ),
        (
            "#{parts: [[\"\", 3]]}",
            "a part's name must be 1 to 60 characters",
        ),
        ("#{wash: true, boxes: 1}", "nobody wins the hand (a wash)"),
        ("42", "the decision must be a map"),
    ] {
        let (rules, h) = hooks(
            HookPoint::ScoreHand,
            &format!("fn score_hand(ctx) {{ {decision} }}"),
        );
        let (before, last) = tie(&rules, &h);
        let Err(StepError::Hook(e)) = last else {
            panic!("{decision}: accepted");
        };
        assert_eq!(e.hook, "score_hand");
        assert!(e.message.contains(says), "{decision}: {e}");
        assert!(!before.state().is_between_hands());
    }
}

#[test]
fn a_misread_field_of_a_result_lists_the_results_fields() {
    let script = "fn record_result(ctx) { let r = ctx.results[0]; r.deadwood }";
    let (rules, h) = hooks(HookPoint::RecordResult, script);
    let (_, last) = tie(&rules, &h);
    let Err(StepError::Hook(e)) = last else {
        panic!("accepted");
    };
    assert!(
        e.message
            .contains("no field `deadwood` (a TableResult has: table, dealer, players, outcome"),
        "{e}"
    );
    assert!(!e.message.contains("hand_number"), "{e}");
}
