//! `POST /v1/games/suggest`: a bot's action for the seat to act, from that seat's view, with that
//! seat's key under seat keys.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::api_support::*;
use crate::seats::{A, assert_no_leak, keys_of, open, post_as, seat_key_app};

fn bodies_equal_but_why(a: &Value, b: &Value) -> bool {
    a["action"] == b["action"]
}

#[actix_web::test]
async fn suggest_answers_a_legal_action_for_the_seat_to_act() {
    let app = Client::new(false).await;
    let (_, mut snap) = app
        .post("/v1/games", &json!({"ruleset": "standard", "seed": 31}))
        .await;
    let mut rng = Rng(4);
    for _ in 0..40 {
        if snap["status"] == "match_over" {
            break;
        }
        let seat = snap["to_act"][0].as_u64().unwrap();
        for level in ["random", "basic", "strong"] {
            let (status, s) = app
                .post(
                    "/v1/games/suggest",
                    &json!({"state": snap["state"], "seat": seat, "level": level}),
                )
                .await;
            assert_eq!(status, 200, "{s}");
            assert!(
                snap["legal_actions"]
                    .as_array()
                    .unwrap()
                    .contains(&s["action"]),
                "{level}: {s} is not legal"
            );
            assert!(!s["why"].as_str().unwrap().is_empty());
            // The same request, the same suggestion.
            let (_, again) = app
                .post(
                    "/v1/games/suggest",
                    &json!({"state": snap["state"], "seat": seat, "level": level}),
                )
                .await;
            assert!(bodies_equal_but_why(&s, &again));
        }
        let action = choose(&snap, &mut rng);
        snap = app.step(&snap, &action).await;
    }
}

#[actix_web::test]
async fn suggest_refuses_what_it_cannot_answer() {
    let app = Client::new(false).await;
    let (_, snap) = app
        .post("/v1/games", &json!({"ruleset": "standard", "seed": 31}))
        .await;
    let to_act = snap["to_act"][0].as_u64().unwrap();
    let idle = 1 - to_act;
    let state = &snap["state"];
    let cases = [
        (
            json!({"state": state, "seat": idle, "level": "basic"}),
            422,
            "not-your-turn",
        ),
        (
            json!({"state": state, "seat": to_act, "level": "expert"}),
            422,
            "unknown-level",
        ),
        (
            json!({"state": state, "seat": 7, "level": "basic"}),
            422,
            "unknown-seat",
        ),
        (json!({"state": state, "seat": to_act}), 400, "invalid-json"),
    ];
    for (body, status, code) in cases {
        let (s, p) = app.post("/v1/games/suggest", &body).await;
        assert_eq!((s, p["type"].as_str()), (status, Some(code)), "{p}");
    }
    let (_, p) = app
        .post(
            "/v1/games/suggest",
            &json!({"state": state, "seat": idle, "level": "basic"}),
        )
        .await;
    assert!(
        p["detail"]
            .as_str()
            .unwrap()
            .contains(&format!("seat {to_act} is to act")),
        "{p}"
    );
}

#[actix_web::test]
async fn suggest_needs_the_seats_key_and_shows_nothing_hidden() {
    let app = client_with(seat_key_app(&[A], true)).await;
    let a = post_as(
        &app,
        "/v1/games",
        None,
        &json!({"ruleset": "standard", "seed": 41, "bots": {"1": "strong"}, "as_seat": 0}),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let keys: BTreeMap<u64, String> = keys_of(&a.body);
    assert_eq!(keys.len(), 1, "no key for the bot's seat");
    let body = json!({"state": a.body["state"], "seat": 0, "level": "strong"});
    let r = post_as(&app, "/v1/games/suggest", None, &body).await;
    assert_eq!(
        (r.status, r.body["type"].as_str()),
        (401, Some("missing-seat-key"))
    );
    // A key of another game.
    let other = post_as(&app, "/v1/games", None, &json!({"seed": 41}))
        .await
        .body;
    let foreign = keys_of(&other)[&1].clone();
    let r = post_as(&app, "/v1/games/suggest", Some(&foreign), &body).await;
    assert_eq!(
        (r.status, r.body["type"].as_str()),
        (403, Some("forbidden-seat"))
    );
    // Seat 0's key does not open the bot's seat.
    let bot = json!({"state": a.body["state"], "seat": 1, "level": "strong"});
    let r = post_as(&app, "/v1/games/suggest", Some(&keys[&0]), &bot).await;
    assert_eq!(
        (r.status, r.body["type"].as_str()),
        (403, Some("forbidden-seat"))
    );
    let r = post_as(&app, "/v1/games/suggest", Some(&keys[&0]), &body).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let state = open(A, &a.body["state"]);
    assert_no_leak(&r.body, &state, 0, "a suggestion");
    assert!(
        a.body["legal_actions"]
            .as_array()
            .unwrap()
            .contains(&r.body["action"])
    );
}
