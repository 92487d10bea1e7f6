//! Every error of API.md's table, and bad input of every kind: status and problem `type`.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

use crate::api_support::*;

fn assert_problem(status: u16, body: &Value, want_status: u16, want_type: &str) {
    assert_eq!(
        (status, body["type"].as_str()),
        (want_status, Some(want_type)),
        "{body}"
    );
    assert_eq!(body["status"], want_status);
    assert!(
        body["title"].is_string() && body["detail"].is_string(),
        "{body}"
    );
}

#[actix_web::test]
async fn malformed_and_misshapen_bodies_are_invalid_json() {
    let app = Client::new(false).await;
    for raw in [
        &b"{not json"[..],
        b"",
        b"[]",
        b"{\"ruleset\": 5}",
        b"{\"ruleset\": \"standard\", \"seed\": \"x\"}",
        b"{\"ruleset\": \"standard\", \"seed\": -1}",
        b"{\"ruleset\": \"standard\", \"colour\": \"red\"}",
        b"{\"ruleset\": \"standard\", \"target\": \"forever\"}",
        b"{\"ruleset\": \"standard\"} trailing",
        b"\xff\xfe",
    ] {
        let a = app.post_bytes("/v1/games", raw).await;
        assert_eq!(a.content_type, "application/problem+json");
        assert_problem(a.status, &a.body, 400, "invalid-json");
    }
    let (_, snap) = app.post("/v1/games", &json!({"seed": 1})).await;
    for body in [
        json!({"state": snap["state"]}),
        json!({"state": snap["state"], "action": {"seat": 0, "type": "fly"}}),
        json!({"state": snap["state"], "action": {"seat": "zero", "type": "pass"}}),
        json!({"state": snap["state"], "action": {"type": "pass"}}),
        json!({"state": snap["state"], "action": {"seat": 0, "type": "draw", "from": "sky"}}),
        json!({"action": {"seat": 0, "type": "pass"}}),
    ] {
        let (status, problem) = app.post("/v1/games/step", &body).await;
        assert_problem(status, &problem, 400, "invalid-json");
    }
    for body in [
        json!({"state": snap["state"], "seat": "one"}),
        json!({"state": snap["state"], "seat": -1}),
        json!({"state": snap["state"], "seat": 300}),
        json!({"state": snap["state"]}),
    ] {
        let (status, problem) = app.post("/v1/games/view", &body).await;
        assert_problem(status, &problem, 400, "invalid-json");
    }
}

#[actix_web::test]
async fn deeply_nested_bodies_are_refused_without_a_crash() {
    let app = Client::new(false).await;
    let deep = "[".repeat(100_000);
    let a = app.post_bytes("/v1/games", deep.clone()).await;
    assert_problem(a.status, &a.body, 400, "invalid-json");
    let body = format!("{{\"state\": {deep}, \"action\": {{\"seat\": 0, \"type\": \"pass\"}}}}");
    let a = app.post_bytes("/v1/games/step", body).await;
    assert_problem(a.status, &a.body, 400, "invalid-json");
    let objects = "{\"a\":".repeat(50_000);
    let a = app.post_bytes("/v1/games/view", objects).await;
    assert_problem(a.status, &a.body, 400, "invalid-json");
    // The server still answers.
    let (status, _) = app.get("/healthz").await;
    assert_eq!(status, 200);
}

#[actix_web::test]
async fn bodies_over_256_kib_are_413() {
    let app = Client::new(false).await;
    let big = format!("{{\"ruleset\": \"{}\"}}", "x".repeat(300 * 1024));
    for path in [
        "/v1/games",
        "/v1/games/step",
        "/v1/rulesets/check",
        "/v1/hands/analyze",
    ] {
        let a = app.post_bytes(path, big.clone()).await;
        assert_eq!(a.content_type, "application/problem+json", "{path}");
        assert_problem(a.status, &a.body, 413, "payload-too-large");
    }
    // Just under the limit is read (and refused for what it says).
    let near = format!("{{\"ruleset\": \"{}\"}}", "x".repeat(250 * 1024));
    let a = app.post_bytes("/v1/games", near).await;
    assert_problem(a.status, &a.body, 404, "unknown-ruleset");
}

#[actix_web::test]
async fn bad_cards_are_invalid_card_naming_the_string() {
    let app = Client::new(false).await;
    let mut deck: Vec<Value> = full_deck().into_iter().map(Value::from).collect();
    deck[7] = json!("ZZ");
    let (status, p) = app
        .post("/v1/games", &json!({"ruleset": "standard", "deck": deck}))
        .await;
    assert_problem(status, &p, 422, "invalid-card");
    assert!(p["detail"].as_str().unwrap().contains("\"ZZ\""), "{p}");

    let (_, snap) = app.post("/v1/games", &json!({"seed": 4})).await;
    let seat = snap["to_act"][0].clone();
    let (status, p) = app
        .post(
            "/v1/games/step",
            &json!({"state": snap["state"], "action": {"seat": seat, "type": "discard", "card": "1X"}}),
        )
        .await;
    assert_problem(status, &p, 422, "invalid-card");
    assert!(p["detail"].as_str().unwrap().contains("1X"), "{p}");
}

#[actix_web::test]
async fn bad_decks_are_invalid_deck() {
    let app = Client::new(false).await;
    let deck = full_deck();
    let mut doubled = deck.clone();
    doubled[3] = doubled[4].clone();
    for body in [
        json!({"deck": deck[..51]}),
        json!({"deck": doubled}),
        json!({"deck": ([deck.clone(), deck.clone()].concat())}),
        json!({"deck": deck, "decks": [deck]}),
        json!({"decks": [deck, deck]}),
        json!({"deck": []}),
    ] {
        let (status, p) = app.post("/v1/games", &body).await;
        assert_problem(status, &p, 422, "invalid-deck");
    }
}

#[actix_web::test]
async fn unknown_rulesets_options_seats_and_targets() {
    let app = Client::new(false).await;
    let (status, p) = app.post("/v1/games", &json!({"ruleset": "canasta"})).await;
    assert_problem(status, &p, 404, "unknown-ruleset");
    let (status, p) = app.get("/v1/rulesets/canasta").await;
    assert_problem(status, &p, 404, "unknown-ruleset");
    assert!(
        !p["detail"].as_str().unwrap().contains("did you mean"),
        "{p}"
    );
    for (path, body) in [
        ("/v1/games", json!({"ruleset": "straigt-gin"})),
        (
            "/v1/hands/analyze",
            json!({"ruleset": "straigt-gin", "cards": ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"]}),
        ),
    ] {
        let (status, p) = app.post(path, &body).await;
        assert_problem(status, &p, 404, "unknown-ruleset");
        assert_eq!(
            p["detail"],
            "there is no ruleset \"straigt-gin\"; did you mean \"straight-gin\"? GET /v1/rulesets lists them",
            "{path}"
        );
    }
    let (status, p) = app.get("/v1/rulesets/Standard").await;
    assert_problem(status, &p, 404, "unknown-ruleset");
    assert!(
        p["detail"]
            .as_str()
            .unwrap()
            .contains("did you mean \"standard\""),
        "{p}"
    );
    let (status, p) = app
        .post(
            "/v1/games",
            &json!({"ruleset": "standard", "options": ["jokers"]}),
        )
        .await;
    assert_problem(status, &p, 422, "unknown-option");
    let (status, p) = app.get("/v1/rulesets/standard?option=jokers").await;
    assert_problem(status, &p, 422, "unknown-option");
    let (status, p) = app
        .post("/v1/games", &json!({"ruleset": "standard", "dealer": 9}))
        .await;
    assert_problem(status, &p, 422, "unknown-seat");
    let (status, p) = app
        .post("/v1/games", &json!({"ruleset": "standard", "target": 0}))
        .await;
    assert_problem(status, &p, 422, "invalid-target");
    let (_, snap) = app.post("/v1/games", &json!({"seed": 2})).await;
    let (status, p) = app
        .post(
            "/v1/games/view",
            &json!({"state": snap["state"], "seat": 2}),
        )
        .await;
    assert_problem(status, &p, 422, "unknown-seat");
}

#[actix_web::test]
async fn options_that_exclude_each_other_are_incompatible() {
    let app = Client::new(false).await;
    let (_, list) = app.get("/v1/rulesets").await;
    let has = |id: &str| list.as_array().unwrap().iter().any(|r| r["id"] == id);
    if !has("straight-gin") {
        return;
    }
    let (status, p) = app
        .post(
            "/v1/games",
            &json!({"ruleset": "straight-gin", "options": ["oklahoma"]}),
        )
        .await;
    assert!(status == 422, "{p}");
    assert!(
        ["incompatible-options", "unknown-option"].contains(&p["type"].as_str().unwrap()),
        "{p}"
    );
    let (status, p) = app
        .post(
            "/v1/games",
            &json!({"ruleset": "standard", "options": ["hollywood"], "target": "single_hand"}),
        )
        .await;
    assert_problem(status, &p, 422, "incompatible-options");
}

#[actix_web::test]
async fn authored_rulesets_that_do_not_load_are_invalid_ruleset() {
    let app = Client::new(false).await;
    for yaml in ["id: [unclosed", "", "id: x\nknock:\n  limit: ten\n"] {
        for (path, body) in [
            ("/v1/rulesets/check", json!({"yaml": yaml, "scripts": {}})),
            (
                "/v1/games",
                json!({"ruleset": {"yaml": yaml, "scripts": {}}}),
            ),
        ] {
            let (status, p) = app.post(path, &body).await;
            assert_problem(status, &p, 422, "invalid-ruleset");
            let errors = p["errors"].as_array().expect("errors");
            assert!(!errors.is_empty());
            for e in errors {
                for key in ["path", "line", "column", "message"] {
                    assert!(e.get(key).is_some(), "{e} lacks {key}");
                }
            }
        }
    }
}

/// A plain state with cards lost or doubled, an impossible phase, or another format version: the
/// answer names the first place where the state is not what its log gives.
#[actix_web::test]
async fn inconsistent_plain_states_are_invalid_state() {
    let app = Client::new(false).await;
    let (_, snap) = app.post("/v1/games", &json!({"seed": 8})).await;
    let state = snap["state"].clone();
    let seat = snap["to_act"][0].clone();
    let action = json!({"seat": seat, "type": "pass"});

    let mut doubled = state.clone();
    doubled["tables"][0]["stock"][0] = doubled["tables"][0]["hands"][0][0].clone();
    let mut missing = state.clone();
    missing["tables"][0]["stock"]
        .as_array_mut()
        .unwrap()
        .remove(0);
    let mut in_one_hand = state.clone();
    let first = in_one_hand["tables"][0]["hands"][0][0].clone();
    in_one_hand["tables"][0]["hands"][0][1] = first;
    let mut phase = state.clone();
    phase["tables"][0]["phase"] = json!({"name": "discard", "seat": seat});
    let mut unknown_phase = state.clone();
    unknown_phase["tables"][0]["phase"] = json!({"name": "juggling", "seat": 0});
    let mut version = state.clone();
    version["version"] = json!(99);
    let mut old = state.clone();
    old.as_object_mut().unwrap().remove("record");
    old["version"] = json!(0);
    let mut seats = state.clone();
    seats["record"]["layout"]["sides"] = json!([[0], [1], [2]]);
    let mut card = state.clone();
    card["tables"][0]["stock"][0] = json!("ZZ");
    // No deal has a target of 0, or one the ruleset does not play to.
    let mut target_zero = state.clone();
    target_zero["target"] = json!(0);
    let mut target_unplayed = state.clone();
    target_unplayed["target"] = json!(175);

    for (what, bad, needle) in [
        ("doubled", doubled, "at /tables/0/stock/0 it has"),
        ("missing", missing, "at /tables/0/stock it has"),
        ("in one hand", in_one_hand, "is listed twice"),
        ("phase", phase, "at /tables/0/phase/name it has \"discard\""),
        ("unknown phase", unknown_phase, ""),
        ("version", version, "version"),
        ("old", old, "version"),
        (
            "seats",
            seats,
            "at /record/layout/sides it has [[0],[1],[2]]",
        ),
        ("card", card, ""),
        ("target 0", target_zero, "played to 0"),
        ("target 175", target_unplayed, "played to 175"),
        ("a number", json!(42), ""),
        ("an array", json!([1, 2]), ""),
    ] {
        for (path, body) in [
            ("/v1/games/step", json!({"state": bad, "action": action})),
            ("/v1/games/view", json!({"state": bad, "seat": 0})),
        ] {
            let (status, p) = app.post(path, &body).await;
            assert_problem(status, &p, 422, "invalid-state");
            let problems = p["problems"].as_array().expect("problems");
            assert!(!problems.is_empty(), "{what}");
            assert!(
                problems
                    .iter()
                    .any(|x| x.as_str().unwrap().contains(needle)),
                "{what}: {p}"
            );
        }
    }
    // Two problems at once are both listed.
    let mut both = state.clone();
    both["version"] = json!(1);
    both["tables"][0]["stock"].as_array_mut().unwrap().remove(0);
    let (_, p) = app
        .post("/v1/games/step", &json!({"state": both, "action": action}))
        .await;
    assert!(p["problems"].as_array().unwrap().len() >= 2, "{p}");
}

#[actix_web::test]
async fn tampered_sealed_states_are_refused() {
    let app = Client::new(true).await;
    let plain = Client::new(false).await;
    let other = client_with(state_with_secret(Some(OTHER_SECRET))).await;
    let (_, snap) = app.post("/v1/games", &json!({"seed": 9})).await;
    let token = snap["state"].as_str().expect("a sealed token").to_string();
    let action = snap["legal_actions"][0].clone();
    let raw = URL_SAFE_NO_PAD.decode(&token).unwrap();

    let mut bad: Vec<(String, Value)> = Vec::new();
    for i in [
        0,
        1,
        5,
        24,
        25,
        raw.len() / 2,
        raw.len() - 17,
        raw.len() - 1,
    ] {
        for bit in [0, 7] {
            let mut r = raw.clone();
            r[i] ^= 1 << bit;
            bad.push((
                format!("bit {bit} of byte {i}"),
                json!(URL_SAFE_NO_PAD.encode(&r)),
            ));
        }
    }
    bad.push(("cut".into(), json!(token[..token.len() - 10])));
    bad.push(("very short".into(), json!(token[..30])));
    bad.push(("empty".into(), json!("")));
    bad.push(("not base64".into(), json!("not a token!")));
    bad.push(("longer".into(), json!(format!("{token}AAAA"))));
    let (_, plain_snap) = plain.post("/v1/games", &json!({"seed": 9})).await;
    bad.push(("a plain state".into(), plain_snap["state"].clone()));
    for (what, state) in bad {
        let (status, p) = app
            .post("/v1/games/step", &json!({"state": state, "action": action}))
            .await;
        assert_eq!(p["type"], "tampered-state", "{what}: {p}");
        assert_eq!(status, 422);
        let (_, p) = app
            .post("/v1/games/view", &json!({"state": state, "seat": 0}))
            .await;
        assert_eq!(p["type"], "tampered-state", "{what}: {p}");
    }
    // Another secret, and a server without one.
    for (status, p) in [
        other
            .post("/v1/games/step", &json!({"state": token, "action": action}))
            .await,
        plain
            .post("/v1/games/step", &json!({"state": token, "action": action}))
            .await,
    ] {
        assert_problem(status, &p, 422, "tampered-state");
    }
    // The genuine token still works, and every token is fresh.
    let next = app.step(&snap, &action).await;
    assert_ne!(next["state"], snap["state"]);
    let (_, again) = app.post("/v1/games", &json!({"seed": 9})).await;
    assert_ne!(again["state"], snap["state"]);
    assert_eq!(again["views"], snap["views"]);
}

#[actix_web::test]
async fn illegal_actions_explain_and_repeat_the_legal_ones() {
    for sealed in [false, true] {
        let app = Client::new(sealed).await;
        let (_, snap) = app
            .post("/v1/games", &json!({"seed": 10, "dealer": 1}))
            .await;
        let state = snap["state"].clone();
        let try_action = |action: Value| {
            let app = &app;
            let state = state.clone();
            async move {
                app.post("/v1/games/step", &json!({"state": state, "action": action}))
                    .await
            }
        };
        let (status, p) = try_action(json!({"seat": 0, "type": "discard", "card": "AS"})).await;
        assert_problem(status, &p, 422, "illegal-action");
        assert_eq!(p["detail"], "first decide on the upcard: take it or pass");
        assert_eq!(p["legal_actions"], snap["legal_actions"]);
        // Wrong seat, and a seat that does not exist.
        let (status, p) = try_action(json!({"seat": 1, "type": "pass"})).await;
        assert_problem(status, &p, 422, "illegal-action");
        assert!(
            p["detail"].as_str().unwrap().contains("not seat 1's turn"),
            "{p}"
        );
        let (status, p) = try_action(json!({"seat": 5, "type": "pass"})).await;
        assert_problem(status, &p, 422, "illegal-action");
        let (status, p) = try_action(json!({"seat": 0, "type": "next_hand"})).await;
        assert_problem(status, &p, 422, "illegal-action");
        // After both pass: "you must draw before you discard".
        let s1 = app.step(&snap, &json!({"seat": 0, "type": "pass"})).await;
        let s2 = app.step(&s1, &json!({"seat": 1, "type": "pass"})).await;
        let card = s2["views"][0]["hand"][0].clone();
        let (status, p) = app
            .post(
                "/v1/games/step",
                &json!({"state": s2["state"], "action": {"seat": 0, "type": "discard", "card": card}}),
            )
            .await;
        assert_problem(status, &p, 422, "illegal-action");
        assert_eq!(p["detail"], "you must draw before you discard");
        assert_eq!(p["legal_actions"], s2["legal_actions"]);
        // The old state is still good.
        let retry = app.step(&s2, &s2["legal_actions"][0]).await;
        assert_eq!(retry["status"], "in_progress");
    }
}

#[actix_web::test]
async fn unknown_paths_and_methods_are_problems() {
    let app = Client::new(false).await;
    let a = app.get_text("/nowhere").await;
    assert_eq!(a.content_type, "application/problem+json");
    assert_problem(a.status, &a.body, 404, "not-found");
    let a = app.get_text("/v1/games").await;
    assert_eq!(a.content_type, "application/problem+json");
    assert_problem(a.status, &a.body, 405, "method-not-allowed");
}

fn looping_ruleset(from_hand: u32) -> Value {
    json!({
        "yaml": "id: loop-gin\nname: Loop Gin\nsummary: A knock limit hook that never ends.\nextends: standard\noptions:\n  oklahoma:\n    replaces: [knock_limit]\nhooks:\n  knock_limit:\n    script: loop.rhai\n    rule: loops from a later hand\n",
        "scripts": {
            "loop.rhai": format!("fn knock_limit(ctx) {{\n    if ctx.hand_number >= {from_hand} {{\n        loop {{ }}\n    }}\n    10\n}}\n")
        }
    })
}

#[actix_web::test]
async fn a_failing_hook_is_script_error_and_the_state_stays_good() {
    // Sent with the request, the ruleset fails its sample games.
    let app = Client::new(false).await;
    let (status, p) = app
        .post(
            "/v1/games",
            &json!({"ruleset": looping_ruleset(0), "seed": 1}),
        )
        .await;
    assert_problem(status, &p, 422, "invalid-ruleset");
    assert!(p["detail"].as_str().unwrap().contains("knock_limit"), "{p}");

    // A server that plays it unchecked: the hook fails only when the second hand is dealt.
    let app = client_with(state_with_unsampled(&looping_ruleset(1))).await;
    let (status, mut snap) = app
        .post(
            "/v1/games",
            &json!({"ruleset": "loop-gin", "seed": 1, "target": 100}),
        )
        .await;
    assert_eq!(status, 201, "{snap}");
    let mut rng = Rng(1);
    while snap["legal_actions"][0]["type"] != "next_hand" {
        let action = choose(&snap, &mut rng);
        snap = app.step(&snap, &action).await;
    }
    let next = snap["legal_actions"][0].clone();
    let (status, p) = app
        .post(
            "/v1/games/step",
            &json!({"state": snap["state"], "action": next}),
        )
        .await;
    assert_problem(status, &p, 422, "script-error");
    // The state sent is still valid.
    let (status, view) = app
        .post(
            "/v1/games/view",
            &json!({"state": snap["state"], "seat": 0}),
        )
        .await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["phase"], "over");
}

#[actix_web::test]
async fn an_authored_ruleset_travels_in_the_state() {
    let a = Client::new(false).await;
    let b = Client::new(true).await;
    let yaml = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/round-the-corner.yaml"
    ))
    .unwrap();
    let authored = json!({"yaml": yaml, "scripts": {}});
    let (status, checked) = a.post("/v1/rulesets/check", &authored).await;
    assert_eq!(status, 200, "{checked}");
    assert_eq!(checked["id"], "round-the-corner");
    assert!(!checked["rules_table"].as_array().unwrap().is_empty());
    for app in [&a] {
        let (status, snap) = app
            .post(
                "/v1/games",
                &json!({"ruleset": authored, "target": "single_hand", "seed": 5}),
            )
            .await;
        assert_eq!(status, 201, "{snap}");
        assert_eq!(snap["state"]["ruleset"]["id"], "round-the-corner");
        let end = play_to_end(app, snap, 5, 2000).await;
        assert_eq!(end["status"], "match_over");
    }
    let (status, snap) = b
        .post(
            "/v1/games",
            &json!({"ruleset": authored, "target": "single_hand", "seed": 5}),
        )
        .await;
    assert_eq!(status, 201, "{snap}");
    let end = play_to_end(&b, snap, 5, 2000).await;
    assert_eq!(end["status"], "match_over");
}

#[actix_web::test]
async fn an_action_with_an_unknown_field_is_refused_in_json_words() {
    let app = Client::new(false).await;
    let (_, game) = app.post("/v1/games", &json!({"seed": 42})).await;
    for (action, words) in [
        (
            json!({"seat": 1, "type": "pass", "player": 1}),
            "unknown field `player`",
        ),
        (
            json!({"seat": 1, "type": "lay_off", "cards": [{"card": "AS", "meld": 0}]}),
            "unknown field `meld`",
        ),
        (
            json!({"seat": "one", "type": "pass"}),
            "expected a whole number from 0 to 255",
        ),
    ] {
        let (status, body) = app
            .post(
                "/v1/games/step",
                &json!({"state": game["state"], "action": action}),
            )
            .await;
        assert_eq!((status, body["type"].as_str()), (400, Some("invalid-json")));
        let detail = body["detail"].as_str().unwrap_or_default();
        assert!(detail.contains(words), "{action}: {detail}");
        assert!(!detail.contains("u8"), "{detail}");
    }
}

#[actix_web::test]
async fn an_illegal_action_names_its_reason() {
    let app = Client::new(false).await;
    let (_, game) = app
        .post("/v1/games", &json!({"seed": 42, "dealer": 0}))
        .await;
    for (action, reason) in [
        (json!({"seat": 0, "type": "pass"}), "not-your-turn"),
        (
            json!({"seat": 1, "type": "discard", "card": "KD"}),
            "decide-on-upcard",
        ),
        (json!({"seat": 1, "type": "next_hand"}), "hand-not-over"),
    ] {
        let (status, body) = app
            .post(
                "/v1/games/step",
                &json!({"state": game["state"], "action": action}),
            )
            .await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(body["reason"], reason, "{action}");
        assert!(
            gin_rules::engine::IllegalAction::REASONS.contains(&reason),
            "{reason}"
        );
    }
}
