//! The HTTP API through the real app (`actix_web::test::init_service`), one module per topic.

mod play {
    use serde_json::{Value, json};

    use crate::api_support::*;

    /// Every ruleset the server lists, plain and with each option it offers, played to its end.
    #[actix_web::test]
    async fn every_ruleset_and_option_plays_to_the_end() {
        let app = Client::new(false).await;
        let (status, list) = app.get("/v1/rulesets").await;
        assert_eq!(status, 200);
        let mut played = 0;
        for info in list.as_array().unwrap() {
            let id = info["id"].as_str().unwrap();
            let mut option_sets: Vec<Vec<String>> = vec![Vec::new()];
            for o in option_ids(info) {
                option_sets.push(vec![o]);
            }
            for options in option_sets {
                for (seed, target) in [(1u64, json!("single_hand")), (2, json!(100))] {
                    let mut req = json!({"ruleset": id, "options": options, "seed": seed});
                    if !target_allowed(info, &target)
                        || options.iter().any(|o| o == "hollywood")
                            && target == json!("single_hand")
                    {
                        req["target"] = info["default_target"].clone();
                        if req["target"].is_null() {
                            req.as_object_mut().unwrap().remove("target");
                        }
                    } else {
                        req["target"] = target;
                    }
                    let (status, snap) = app.post("/v1/games", &req).await;
                    if status == 422 && snap["type"] == "incompatible-options" {
                        continue;
                    }
                    assert_eq!(status, 201, "{id} {options:?}: {snap}");
                    let end = play_to_end(&app, snap, seed, 3000).await;
                    assert_eq!(end["status"], "match_over", "{id} {options:?}");
                    played += 1;
                }
            }
        }
        assert!(played >= 2);
    }

    /// A whole 100-point standard match, plain and sealed.
    #[actix_web::test]
    async fn a_standard_match_to_100_plain_and_sealed() {
        for sealed in [false, true] {
            let app = Client::new(sealed).await;
            let (status, snap) = app
                .post(
                    "/v1/games",
                    &json!({"ruleset": "standard", "target": 100, "seed": 7}),
                )
                .await;
            assert_eq!(status, 201);
            assert_eq!(snap["state"].is_string(), sealed);
            let end = play_to_end(&app, snap, 7, 5000).await;
            assert_eq!(end["status"], "match_over");
            let totals = end["scores"]["totals"].as_array().unwrap();
            assert!(
                totals.iter().any(|t| t.as_i64().unwrap() >= 100),
                "{totals:?}"
            );
            let over = end["events"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["type"] == "match_over")
                .expect("a match_over event");
            assert!(!over["winners"].as_array().unwrap().is_empty());
        }
    }

    /// Two separately built apps serve one game in turns, plain and sealed with one secret.
    #[actix_web::test]
    async fn two_apps_serve_one_game_interchangeably() {
        for sealed in [false, true] {
            let a = Client::new(sealed).await;
            let b = Client::new(sealed).await;
            let (_, mut snap) = a
                .post(
                    "/v1/games",
                    &json!({"ruleset": "standard", "target": "single_hand", "seed": 11}),
                )
                .await;
            let mut rng = Rng(11);
            for turn in 0.. {
                if snap["status"] == "match_over" {
                    break;
                }
                assert!(turn < 500);
                let action = choose(&snap, &mut rng);
                let server = if turn % 2 == 0 { &b } else { &a };
                let (status, next) = server
                    .post(
                        "/v1/games/step",
                        &json!({"state": snap["state"], "action": action}),
                    )
                    .await;
                assert_eq!(status, 200, "{next}");
                snap = next;
            }
        }
    }

    /// Same request, same seed: the same game, byte for byte, but for the game's id (two games
    /// dealt alike are still two games).
    #[actix_web::test]
    async fn a_seed_replays_the_same_game() {
        let a = Client::new(false).await;
        let b = Client::new(false).await;
        let req = json!({"ruleset": "standard", "seed": 12345});
        let (_, mut x) = a.post("/v1/games", &req).await;
        let (_, mut y) = b.post("/v1/games", &req).await;
        assert_ne!(x["game"]["id"], y["game"]["id"]);
        for snap in [&mut x, &mut y] {
            assert_eq!(snap["game"], snap["state"]["game"]);
            snap["game"]["id"] = json!("");
            snap["state"]["game"]["id"] = json!("");
        }
        assert_eq!(x, y);
        let (_, z) = a.post("/v1/games", &json!({"ruleset": "standard"})).await;
        assert_ne!(x["state"]["seed"], Value::Null);
        assert!(z["state"]["seed"].is_u64());
    }

    /// Every element of `legal_actions` is accepted verbatim, at every point of a few games.
    #[actix_web::test]
    async fn every_legal_action_is_accepted_verbatim() {
        let app = Client::new(false).await;
        for seed in 20..23u64 {
            let (_, mut snap) = app
                .post(
                    "/v1/games",
                    &json!({"ruleset": "standard", "target": "single_hand", "seed": seed}),
                )
                .await;
            let mut rng = Rng(seed);
            while snap["status"] != "match_over" {
                for action in snap["legal_actions"].as_array().unwrap() {
                    let (status, body) = app
                        .post(
                            "/v1/games/step",
                            &json!({"state": snap["state"], "action": action}),
                        )
                        .await;
                    assert_eq!(status, 200, "{action} refused: {body}");
                }
                let action = choose(&snap, &mut rng);
                snap = app.step(&snap, &action).await;
            }
        }
    }

    /// API.md's deal order: the non-dealer gets deck[0], deck[2], ...; deck[20] is the upcard;
    /// deck[21] is the top of the stock.
    #[actix_web::test]
    async fn an_explicit_deck_is_dealt_in_the_documented_order() {
        let app = Client::new(false).await;
        let deck = full_deck();
        let (status, snap) = app
            .post(
                "/v1/games",
                &json!({"ruleset": "standard", "dealer": 1, "deck": deck, "seed": 1}),
            )
            .await;
        assert_eq!(status, 201, "{snap}");
        let hand = |seat: usize| -> Vec<String> {
            let mut h: Vec<String> = snap["views"][seat]["hand"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect();
            h.sort();
            h
        };
        let mut want0: Vec<String> = (0..10).map(|i| deck[2 * i].clone()).collect();
        let mut want1: Vec<String> = (0..10).map(|i| deck[2 * i + 1].clone()).collect();
        want0.sort();
        want1.sort();
        assert_eq!(hand(0), want0);
        assert_eq!(hand(1), want1);
        assert_eq!(snap["views"][0]["discard_top"], deck[20].as_str());
        // Both pass; the non-dealer then draws the top of the stock.
        let snap = app.step(&snap, &json!({"seat": 0, "type": "pass"})).await;
        let snap = app.step(&snap, &json!({"seat": 1, "type": "pass"})).await;
        let snap = app
            .step(&snap, &json!({"seat": 0, "type": "draw", "from": "stock"}))
            .await;
        let drew = snap["views"][0]["hand"].as_array().unwrap();
        assert!(drew.iter().any(|c| c == deck[21].as_str()));
        // The shared events do not show the card drawn from the stock.
        let ev = &snap["events"][0];
        assert_eq!(ev["type"], "drew");
        assert!(ev.get("card").is_none(), "{ev}");
        // Lower case and 10 are accepted on input.
        let mut lower: Vec<Value> = deck.iter().map(|c| json!(c.to_lowercase())).collect();
        lower[0] = json!(deck[0].replace('T', "10"));
        let (status, _) = app
            .post("/v1/games", &json!({"ruleset": "standard", "deck": lower}))
            .await;
        assert_eq!(status, 201);
    }

    #[actix_web::test]
    async fn a_view_is_the_one_in_the_snapshot() {
        for sealed in [false, true] {
            let app = Client::new(sealed).await;
            let (_, snap) = app
                .post("/v1/games", &json!({"ruleset": "standard", "seed": 3}))
                .await;
            for seat in 0..2 {
                let (status, view) = app
                    .post(
                        "/v1/games/view",
                        &json!({"state": snap["state"], "seat": seat}),
                    )
                    .await;
                assert_eq!(status, 200);
                assert_eq!(view, snap["views"][seat]);
            }
        }
    }
}

mod leaks {
    use std::collections::BTreeSet;

    use serde_json::{Value, json};

    use crate::api_support::*;

    fn cards_in(v: &Value, out: &mut BTreeSet<String>) {
        match v {
            Value::String(s) if is_card(s) => {
                out.insert(s.clone());
            }
            Value::Array(a) => a.iter().for_each(|x| cards_in(x, out)),
            Value::Object(o) => {
                for (k, x) in o {
                    // The first upcard of the hand was seen by everyone, wherever it is now.
                    if k != "upcard" {
                        cards_in(x, out);
                    }
                }
            }
            _ => {}
        }
    }

    fn set(v: &Value) -> BTreeSet<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|c| c.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Random games: no view shows a stock card, or a card of another player's hand that player
    /// did not take from the discard pile, while the hand is played.
    #[actix_web::test]
    async fn views_never_show_the_stock_or_unseen_cards() {
        let app = Client::new(false).await;
        let (_, list) = app.get("/v1/rulesets").await;
        let mut checked = 0;
        for (i, info) in list.as_array().unwrap().iter().enumerate() {
            for seed in 0..6u64 {
                let (_, mut snap) = app
                    .post(
                        "/v1/games",
                        &json!({"ruleset": info["id"], "seed": seed * 31 + i as u64}),
                    )
                    .await;
                let mut rng = Rng(seed + 100);
                for _ in 0..400 {
                    if snap["status"] == "match_over" {
                        break;
                    }
                    check_views(&snap);
                    checked += 1;
                    let legal = snap["legal_actions"].as_array().unwrap();
                    let action = legal[rng.below(legal.len())].clone();
                    snap = app.step(&snap, &action).await;
                }
            }
        }
        assert!(checked > 100);
    }

    fn check_views(snap: &Value) {
        let state = &snap["state"];
        for table in state["tables"].as_array().unwrap() {
            let phase = table["phase"]["name"].as_str().unwrap();
            if phase == "over" {
                continue;
            }
            let stock = set(&table["stock"]);
            let seats: Vec<u64> = table["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_u64().unwrap())
                .collect();
            let knock_melds: BTreeSet<String> = table["phase"]["knock"]["melds"]
                .as_array()
                .map(|ms| ms.iter().flat_map(set).collect())
                .unwrap_or_default();
            for view in snap["views"].as_array().unwrap() {
                let seat = view["seat"].as_u64().unwrap();
                if view["table"] != table_index(state, table) {
                    continue;
                }
                let mut seen = BTreeSet::new();
                cards_in(view, &mut seen);
                let leaked: Vec<&String> = seen.intersection(&stock).collect();
                assert!(leaked.is_empty(), "seat {seat} sees stock cards {leaked:?}");
                for (role, &other) in seats.iter().enumerate() {
                    if other == seat {
                        assert_eq!(set(&view["hand"]), set(&table["hands"][role]));
                        continue;
                    }
                    let hidden: BTreeSet<String> = set(&table["hands"][role])
                        .difference(&set(&table["taken"][role]))
                        .filter(|c| !knock_melds.contains(*c))
                        .cloned()
                        .collect();
                    let leaked: Vec<&String> = seen.intersection(&hidden).collect();
                    assert!(
                        leaked.is_empty(),
                        "seat {seat} sees cards {leaked:?} of seat {other} in phase {phase}"
                    );
                }
            }
        }
        for e in snap["events"].as_array().unwrap() {
            if e["type"] == "drew" && e["from"] == "stock" {
                assert!(
                    e.get("card").is_none(),
                    "a stock card in the shared events: {e}"
                );
            }
        }
    }

    fn table_index(state: &Value, table: &Value) -> Value {
        let i = state["tables"]
            .as_array()
            .unwrap()
            .iter()
            .position(|t| t == table)
            .unwrap();
        json!(i)
    }
}

mod documents;
mod hands {
    use serde_json::json;

    use gin_rules::analysis::HandAnalysis;
    use gin_rules::cards::Card;
    use gin_rules::ruleset::Ruleset;

    use crate::api_support::*;

    #[actix_web::test]
    async fn analyze_reads_the_hand_size_of_the_rulesets_table() {
        let app = Client::new(false).await;
        let seven = json!(["5S", "6S", "7S", "9C", "9D", "9H", "KC"]);
        let eight = json!(["5S", "6S", "7S", "9C", "9D", "9H", "KC", "2D"]);
        // Drawn to eight, the king goes: 2 left.
        for (cards, deadwood) in [(&seven, 10), (&eight, 2)] {
            let (status, body) = app
                .post(
                    "/v1/hands/analyze",
                    &json!({"cards": cards, "ruleset": "oklahoma-three"}),
                )
                .await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(body["deadwood"], deadwood, "{body}");
        }
        let (status, body) = app
            .post(
                "/v1/hands/analyze",
                &json!({"cards": seven, "ruleset": "standard"}),
            )
            .await;
        assert_eq!(status, 422, "{body}");
        assert!(
            body["detail"]
                .as_str()
                .is_some_and(|d| d.contains("has 10 or 11 cards, not 7")),
            "{body}"
        );
        let (_, body) = app
            .post(
                "/v1/hands/analyze",
                &json!({"cards": ["AS", "2S"], "ruleset": "oklahoma-four"}),
            )
            .await;
        assert!(
            body["detail"]
                .as_str()
                .is_some_and(|d| d.contains("has 7 or 8 cards, not 2")),
            "{body}"
        );
    }

    #[actix_web::test]
    async fn analyze_answers_what_the_solver_says() {
        let app = Client::new(false).await;
        let rules = Ruleset::standard();
        for hand in [
            vec![
                "5S", "6S", "7S", "9C", "9D", "9H", "JC", "QC", "KC", "AD", "KD",
            ],
            vec!["5S", "6S", "7S", "9C", "9D", "9H", "JC", "QC", "KC", "AD"],
            vec![
                "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS",
            ],
        ] {
            let (status, body) = app
                .post(
                    "/v1/hands/analyze",
                    &json!({"cards": hand, "ruleset": "standard"}),
                )
                .await;
            assert_eq!(status, 200, "{body}");
            let cards: Vec<Card> = hand.iter().map(|c| c.parse().unwrap()).collect();
            let want = HandAnalysis::of(&rules.melds, rules.knock_limit, &[10], &cards).unwrap();
            assert_eq!(body, serde_json::to_value(want).unwrap());
        }
        let (_, body) = app
            .post(
                "/v1/hands/analyze",
                &json!({"cards": ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"]}),
            )
            .await;
        assert_eq!(body["big_gin"], true);
        for (cards, code) in [
            (json!(["AS", "2S"]), "invalid-hand"),
            (
                json!(["AS", "AS", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"]),
                "invalid-hand",
            ),
            (
                json!(["AS", "XX", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"]),
                "invalid-card",
            ),
        ] {
            let (status, body) = app
                .post("/v1/hands/analyze", &json!({"cards": cards}))
                .await;
            assert_eq!((status, body["type"].as_str()), (422, Some(code)), "{body}");
        }
        let (status, body) = app
            .post(
                "/v1/hands/analyze",
                &json!({"cards": [], "ruleset": "canasta"}),
            )
            .await;
        assert_eq!(
            (status, body["type"].as_str()),
            (404, Some("unknown-ruleset"))
        );
    }
}

mod errors;
