//! The authored variants of `examples/`: each passes the check and shows its rule in dealt hands.
//! And, over many hands of every built-in ruleset and of authored ones with a scoring hook, a
//! hand's named parts sum to its points and the match totals move by exactly those points.

use std::path::Path;
use std::sync::Arc;

use gin_rules::cards::{Card, CardSet};
use gin_rules::engine::{Action, Event, Game, HandResult, NewGame, Outcome};
use gin_rules::rules::{Catalog, HookPoint, Variant};
use gin_rules::ruleset::Target;
use gin_rules::sample;
use gin_rules::seat::Seat;

use crate::snapshots::scenarios::deck_of;

fn example(file: &str) -> Arc<Variant> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(file);
    Catalog::builtin()
        .check_file(&path)
        .unwrap_or_else(|e| panic!("{file}: {e:#?}"))
}

/// Every step's events of `games` seeded sample games of `v` (to its default target), with the
/// match totals before and after each step.
fn played(v: &Variant, games: u64) -> Vec<(Vec<i64>, Vec<Event>, Vec<i64>)> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut before: Option<Vec<i64>> = None;
        let new = NewGame::seeded(v.reference.clone(), seed);
        sample::play(
            &v.ruleset,
            v.hooks.as_ref(),
            new,
            3_000,
            seed % 2 == 0,
            |at, _| {
                let totals = at.game.state().scores().totals;
                if let Some(b) = before.replace(totals.clone()) {
                    out.push((b, at.events.clone(), totals));
                }
                std::ops::ControlFlow::Continue(())
            },
        )
        .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", v.reference.id));
    }
    out
}

fn hands(steps: &[(Vec<i64>, Vec<Event>, Vec<i64>)]) -> Vec<HandResult> {
    steps
        .iter()
        .flat_map(|(_, events, _)| events)
        .filter_map(|e| match e {
            Event::HandOver(r) => Some(HandResult::clone(r)),
            _ => None,
        })
        .collect()
}

fn part(r: &HandResult, name: &str) -> Option<i64> {
    r.parts.iter().find(|p| p.name == name).map(|p| p.points)
}

fn winner_points(r: &HandResult) -> i64 {
    r.winner.map_or(0, |w| r.points[w])
}

/// Deals `v` from a constructed deck (dealer seat 0) and plays `actions`, given as JSON.
fn scripted<'v>(
    v: &'v Variant,
    deck: Vec<Card>,
    actions: &[serde_json::Value],
) -> (Game<'v>, Vec<Event>) {
    let new = NewGame {
        dealer: Some(Seat::new(0)),
        target: Some(v.ruleset.match_rules.default_target),
        decks: vec![deck],
        ..NewGame::seeded(v.reference.clone(), 1)
    };
    let dealt = Game::deal(&v.ruleset, v.hooks.as_ref(), new).unwrap();
    let (mut game, mut events) = (dealt.game, dealt.events);
    for a in actions {
        let action: Action = serde_json::from_value(a.clone()).unwrap();
        let stepped = game
            .step(&action)
            .unwrap_or_else(|e| panic!("{action:?}: {e}"));
        game = stepped.game;
        events.extend(stepped.events);
    }
    (game, events)
}

fn hand_over(events: &[Event]) -> &HandResult {
    events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::HandOver(r) => Some(&**r),
            _ => None,
        })
        .expect("a hand ended")
}

/// The first player (seat 1) knocks with 2C 3D 4H (9) against the dealer's 9: a tie.
fn tie_deck() -> (Vec<Card>, Vec<serde_json::Value>) {
    let deck = deck_of(
        "7C 7D 7H 7S AS 2S 3S 2C 3D KH",
        "4C 5C 6C 8H 8D 8S TC JC QC 9S",
        "5S",
        "4H",
    );
    let actions = [
        r#"{"seat": 1, "type": "pass"}"#,
        r#"{"seat": 0, "type": "pass"}"#,
        r#"{"seat": 1, "type": "draw", "from": "stock"}"#,
        r#"{"seat": 1, "type": "knock", "discard": "KH"}"#,
        r#"{"seat": 0, "type": "lay_off", "cards": []}"#,
    ];
    (
        deck,
        actions
            .iter()
            .map(|a| serde_json::from_str(a).unwrap())
            .collect(),
    )
}

#[test]
fn knock_bonus_is_a_named_part_of_a_low_knock() {
    let v = example("knock-bonus.yaml");
    let all = hands(&played(&v, 30));
    let knocks: Vec<&HandResult> = all.iter().filter(|r| r.outcome == Outcome::Knock).collect();
    let low: Vec<&&HandResult> = knocks
        .iter()
        .filter(|r| r.winner.is_some_and(|w| r.deadwood[w] <= 1))
        .collect();
    assert!(
        !low.is_empty(),
        "no knock with 1 deadwood or less in 30 games"
    );
    for r in &low {
        assert_eq!(part(r, "knock bonus"), Some(10), "{r:?}");
        assert_eq!(
            part(r, "base").map(|b| b + 10),
            Some(winner_points(r)),
            "{r:?}"
        );
    }
    for r in knocks
        .iter()
        .filter(|r| r.winner.is_some_and(|w| r.deadwood[w] > 1))
    {
        assert_eq!(part(r, "knock bonus"), None, "{r:?}");
    }
}

#[test]
fn oklahoma_boxes_count_boxes_not_points() {
    let v = example("oklahoma-boxes.yaml");
    assert_eq!(v.ruleset.match_rules.default_target, Target::Points(150));
    let steps = played(&v, 20);
    let all = hands(&steps);
    let boxes = |o: Outcome| all.iter().filter(move |r| r.outcome == o).map(|r| r.boxes);
    assert!(boxes(Outcome::Gin).count() > 0 && boxes(Outcome::Knock).count() > 0);
    assert!(boxes(Outcome::Gin).all(|b| b == 3));
    assert!(boxes(Outcome::Undercut).all(|b| b == 2));
    assert!(boxes(Outcome::Knock).all(|b| b == 1 || b == 0));
    // The points are the plain ones: base and bonus, doubled on a spade upcard; no trick.
    for r in all.iter().filter(|r| r.winner.is_some()) {
        let sum: i64 = r.parts.iter().map(|p| p.points).sum();
        assert_eq!(sum, winner_points(r));
        assert!(
            r.parts
                .iter()
                .all(|p| ["base", "gin bonus", "big gin bonus", "undercut bonus"]
                    .contains(&p.name.as_str())
                    || p.multiplier == Some(2)),
            "{:?}",
            r.parts
        );
    }
    // A whole game: hands won count one a hand, the box bonus counts boxes.
    let mut finished = 0;
    for seed in 0..20 {
        let new = NewGame::seeded(v.reference.clone(), seed);
        let mut last = None;
        sample::play(&v.ruleset, v.hooks.as_ref(), new, 3_000, true, |at, _| {
            last = Some(at.game.state().clone());
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
        let state = last.unwrap();
        let Some(bonus) = state.record.bonuses.first() else {
            continue;
        };
        finished += 1;
        let game = &state.record.games[0];
        for side in 0..2 {
            assert_eq!(bonus.boxes[side], i64::from(game.boxes[side]) * 25);
            assert!(game.boxes[side] >= game.hands_won[side]);
        }
    }
    assert!(finished > 0, "no game of 20 reached 150");
}

#[test]
fn a_tie_is_a_wash_and_the_same_dealer_deals_again() {
    let v = example("tie-wash.yaml");
    let (deck, actions) = tie_deck();
    let (game, events) = scripted(&v, deck, &actions);
    let r = hand_over(&events);
    assert_eq!(r.outcome, Outcome::Wash);
    assert_eq!(r.winner, None);
    assert_eq!(r.deadwood[Seat::new(0)], r.deadwood[Seat::new(1)]);
    assert!(r.points.iter().all(|&p| p == 0) && r.parts.is_empty() && r.boxes == 0);
    assert_eq!(game.state().scores().totals, vec![0, 0]);
    let next: Action = serde_json::from_str(r#"{"seat": 0, "type": "next_hand"}"#).unwrap();
    let events = game.step(&next).unwrap().events;
    let dealer = events.iter().find_map(|e| match e {
        Event::Dealt { dealer, .. } => Some(*dealer),
        _ => None,
    });
    assert_eq!(dealer, Some(Seat::new(0)));

    // The same hand under standard rules is an undercut.
    let standard = Catalog::builtin()
        .resolve(&gin_rules::ruleset::RulesetRef::named("standard"))
        .unwrap();
    let (deck, actions) = tie_deck();
    let (_, events) = scripted(&standard, deck, &actions);
    assert_eq!(hand_over(&events).outcome, Outcome::Undercut);
}

#[test]
fn the_winner_deals_next() {
    let v = example("winner-deals.yaml");
    let mut checked = 0;
    let mut winner = None;
    for (_, events, _) in played(&v, 10) {
        for e in events {
            match e {
                Event::HandOver(r) => winner = r.winner,
                Event::Dealt { dealer, .. } => {
                    if let Some(w) = winner.take() {
                        assert_eq!(dealer, w);
                        checked += 1;
                    }
                }
                _ => {}
            }
        }
    }
    assert!(checked > 10, "{checked} deals after a won hand");
}

#[test]
fn a_straight_knock_allows_no_lay_off() {
    let v = example("straight-knock.yaml");
    let laid_off = |v: &Variant| {
        let steps = played(v, 10);
        let events = steps.iter().flat_map(|(_, e, _)| e);
        let lay_offs = events
            .clone()
            .filter(|e| matches!(e, Event::LaidOff { .. }))
            .count();
        let knocks = hands(&steps)
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Knock | Outcome::Undercut))
            .count();
        (lay_offs, knocks)
    };
    let (lay_offs, knocks) = laid_off(&v);
    assert!(knocks > 10);
    assert_eq!(lay_offs, 0);
    let standard = Catalog::builtin()
        .resolve(&gin_rules::ruleset::RulesetRef::named("standard"))
        .unwrap();
    assert!(
        laid_off(&standard).0 > 0,
        "standard lays off in the same games"
    );
}

#[test]
fn round_the_corner_melds_k_a_2_and_an_ace_counts_15() {
    let v = example("round-the-corner.yaml");
    // Seat 1 melds KS AS 2S round the corner and knocks with 9C; seat 0 holds AH unmelded.
    let deck = deck_of(
        "KS AS 2S 7C 7D 7H 4D 5D 6D 9C",
        "AH 3C 5C 8S TH JD 9D 6H 2C 4H",
        "8H",
        "QH",
    );
    let actions: Vec<serde_json::Value> = [
        r#"{"seat": 1, "type": "pass"}"#,
        r#"{"seat": 0, "type": "pass"}"#,
        r#"{"seat": 1, "type": "draw", "from": "stock"}"#,
        r#"{"seat": 1, "type": "knock", "discard": "QH"}"#,
        r#"{"seat": 0, "type": "lay_off", "cards": []}"#,
    ]
    .iter()
    .map(|a| serde_json::from_str(a).unwrap())
    .collect();
    let (_, events) = scripted(&v, deck, &actions);
    let r = hand_over(&events);
    let corner: CardSet = ["KS", "AS", "2S"]
        .iter()
        .map(|c| c.parse::<Card>().unwrap())
        .collect();
    assert!(
        r.melds[Seat::new(1)]
            .iter()
            .any(|m| m.iter().copied().collect::<CardSet>() == corner),
        "{:?}",
        r.melds
    );
    // A 15, 3 5 8 T J 9 6 2 4: 72 (58 with the ace at 1).
    assert_eq!(r.deadwood[Seat::new(0)], 72);
    assert_eq!(r.outcome, Outcome::Knock);
    assert_eq!(winner_points(r), 72 - 9);
}

#[test]
fn totals_move_by_the_sum_of_the_parts_shown() {
    let catalog = Catalog::builtin();
    let mut forms: Vec<Arc<Variant>> = Vec::new();
    for info in catalog.list() {
        let plain = gin_rules::ruleset::RulesetRef::named(info.id.clone());
        forms.push(catalog.resolve(&plain).unwrap());
        for o in &info.options {
            let with = gin_rules::ruleset::RulesetRef::new(info.id.clone(), [o.id.clone()]);
            if let Ok(v) = catalog.resolve(&with) {
                forms.push(v);
            }
        }
    }
    forms.push(example("knock-bonus.yaml"));
    forms.push(example("oklahoma-boxes.yaml"));
    let mut hands_seen = 0;
    for v in &forms {
        let plain_record = v.hook(HookPoint::RecordResult).is_none();
        // The parts of the hands of a deal (two tables in the partnership form) since it began.
        let mut pending = 0i64;
        for (before, events, after) in played(v, 4) {
            for e in &events {
                if let Event::HandOver(r) = e {
                    hands_seen += 1;
                    let sum: i64 = r.parts.iter().map(|p| p.points).sum();
                    assert_eq!(sum, winner_points(r), "{}: {r:?}", v.reference.id);
                    // At a table of three or four each opponent's score shows its own parts.
                    let mut scored = 0;
                    for a in &r.against {
                        let parts: i64 = a.parts.iter().map(|p| p.points).sum();
                        assert_eq!(parts, a.points, "{}: {r:?}", v.reference.id);
                        scored += a.points;
                    }
                    if r.against.is_empty() {
                        scored = sum;
                    }
                    let all: i64 = r.points.iter().sum();
                    assert_eq!(all, scored, "{}: {r:?}", v.reference.id);
                    pending += scored;
                }
            }
            if events.iter().any(|e| matches!(e, Event::Scored { .. })) {
                let moved: i64 = after.iter().sum::<i64>() - before.iter().sum::<i64>();
                if plain_record {
                    assert_eq!(moved, pending, "{}: {events:?}", v.reference.id);
                }
                pending = 0;
            }
        }
    }
    assert!(hands_seen > 100, "{hands_seen} hands");
}

/// Through HTTP: an authored ruleset's hook part is in the `hand_over` event, in every view's
/// result, and the totals move by the parts' sum.
#[actix_web::test]
async fn the_parts_of_a_hand_travel_in_events_and_views() {
    use crate::api_support::Client;
    use serde_json::json;

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let authored = json!({
        "yaml": read("knock-bonus.yaml"),
        "scripts": {"knock-bonus.rhai": read("knock-bonus.rhai")},
    });
    // Seat 1 knocks with AC (1 deadwood) against seat 0's 9S (9).
    let deck: Vec<String> = deck_of(
        "7C 7D 7H AS 2S 3S 4D 5D 6D AC",
        "4C 5C 6C 8H 8D 8S TC JC QC 9S",
        "5S",
        "KH",
    )
    .iter()
    .map(ToString::to_string)
    .collect();
    let app = Client::new(false).await;
    let (status, mut snap) = app
        .post(
            "/v1/games",
            &json!({"ruleset": authored, "deck": deck, "dealer": 0, "target": 100}),
        )
        .await;
    assert_eq!(status, 201, "{snap}");
    for action in [
        json!({"seat": 1, "type": "pass"}),
        json!({"seat": 0, "type": "pass"}),
        json!({"seat": 1, "type": "draw", "from": "stock"}),
        json!({"seat": 1, "type": "knock", "discard": "KH"}),
        json!({"seat": 0, "type": "lay_off", "cards": []}),
    ] {
        snap = app.step(&snap, &action).await;
    }
    let want = json!([
        {"name": "base", "points": 8},
        {"name": "knock bonus", "points": 10}
    ]);
    let events = snap["events"].as_array().unwrap();
    let over = events.iter().find(|e| e["type"] == "hand_over").unwrap();
    assert_eq!(over["parts"], want, "{over}");
    assert_eq!(over["points"], json!([0, 18]));
    let scored = events.iter().find(|e| e["type"] == "scored").unwrap();
    assert_eq!(scored["entries"][0]["points"], 18);
    for v in snap["views"].as_array().unwrap() {
        assert_eq!(v["result"]["parts"], want, "{v}");
        assert_eq!(v["scores"]["totals"], json!([0, 18]));
        assert_eq!(v["scores"]["boxes"], json!([0, 1]));
    }
}

#[test]
fn the_readme_shows_the_knock_bonus_script_as_it_is() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let script = std::fs::read_to_string(root.join("examples/knock-bonus.rhai")).unwrap();
    assert!(
        readme.contains(&format!("```rust\n{script}```")),
        "README.md's score_hand example differs from examples/knock-bonus.rhai"
    );
}
