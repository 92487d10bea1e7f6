//! Seat-bound play through the real app: seat keys, answers reduced to one seat, unpredictable
//! decks, the memory replay guard, and key rotation across server restarts.

use crate::api_support;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use actix_http::Request;
use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::test;
use serde_json::{Value, json};

use gin_rules::api::guard::{MemoryGuard, ReplayGuard};
use gin_rules::api::{AppState, Catalog, Sealer};

use api_support::*;

pub(crate) const A: &[u8] = b"secret A: at least thirty-two bytes of it";
const B: &[u8] = b"secret B: at least thirty-two bytes of it";

pub(crate) fn seat_key_app(secrets: &[&[u8]], guard: bool) -> AppState {
    let text = secrets.join(&b'\n');
    let mut state = AppState::new(Catalog::builtin(), Some(Sealer::new(&text).unwrap()))
        .with_seat_keys()
        .unwrap();
    if guard {
        state = state.with_guard(ReplayGuard::Memory(MemoryGuard::new(
            Duration::from_secs(3600),
            10_000,
        )));
    }
    state
}

/// Opens a sealed state with `secret` (what the test may know and a client may not).
pub(crate) fn open(secret: &[u8], token: &Value) -> Value {
    let bytes = Sealer::new(secret)
        .unwrap()
        .open_bytes(token.as_str().expect("a sealed token"))
        .expect("the token opens");
    serde_json::from_slice(&bytes).unwrap()
}

pub(crate) async fn post_as<S, B>(
    app: &Client<S>,
    path: &str,
    key: Option<&str>,
    body: &Value,
) -> Answer
where
    S: Service<Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let mut req = test::TestRequest::post()
        .uri(path)
        .insert_header(("content-type", "application/json"))
        .set_payload(serde_json::to_vec(body).unwrap());
    if let Some(key) = key {
        req = req.insert_header(("authorization", format!("Bearer {key}")));
    }
    let a = app.send(req.to_request()).await;
    if a.status >= 400 {
        assert_eq!(a.content_type, "application/problem+json", "{}", a.text);
    }
    a
}

pub(crate) fn keys_of(snap: &Value) -> BTreeMap<u64, String> {
    snap["seats"]
        .as_array()
        .expect("seat keys in the deal's answer")
        .iter()
        .map(|s| {
            (
                s["seat"].as_u64().unwrap(),
                s["key"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

pub(crate) fn set(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|c| c.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Every card string anywhere in `v`, but under the key `upcard` (the hand's first upcard, which
/// everyone saw, wherever it is now).
pub(crate) fn cards_in(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) if is_card(s) => {
            out.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| cards_in(x, out)),
        Value::Object(o) => {
            for (k, x) in o {
                if k != "upcard" {
                    cards_in(x, out);
                }
            }
        }
        _ => {}
    }
}

/// The cards `seat` may not see in `state` (plain JSON): the stock, and while a hand is played,
/// the cards of the other players that they did not take from the discard pile or show in melds.
pub(crate) fn hidden_from(state: &Value, seat: u64) -> BTreeSet<String> {
    let mut hidden = BTreeSet::new();
    for table in state["tables"].as_array().unwrap() {
        hidden.extend(set(&table["stock"]));
        if table["phase"]["name"] == "over" {
            continue;
        }
        let shown: BTreeSet<String> = table["phase"]["knock"]["melds"]
            .as_array()
            .map(|ms| ms.iter().flat_map(set).collect())
            .unwrap_or_default();
        for (role, s) in table["seats"].as_array().unwrap().iter().enumerate() {
            if s.as_u64() == Some(seat) {
                continue;
            }
            let unseen = set(&table["hands"][role])
                .difference(&set(&table["taken"][role]))
                .filter(|c| !shown.contains(*c))
                .cloned()
                .collect::<Vec<_>>();
            hidden.extend(unseen);
        }
    }
    hidden
}

/// Fails when the answer's whole body shows a card `seat` may not see in `state`.
pub(crate) fn assert_no_leak(body: &Value, state: &Value, seat: u64, what: &str) {
    let mut seen = BTreeSet::new();
    cards_in(body, &mut seen);
    let hidden = hidden_from(state, seat);
    let leaked: Vec<&String> = seen.intersection(&hidden).collect();
    assert!(
        leaked.is_empty(),
        "{what}: seat {seat} is shown {leaked:?}\n{body}"
    );
}

/// The greedy player's choice for `seat` from its own view alone.
pub(crate) fn choose_from_view(view: &Value, seat: u64, rng: &mut Rng) -> Value {
    let mut views = vec![Value::Null; seat as usize + 1];
    views[seat as usize] = view.clone();
    choose(
        &json!({"legal_actions": view["legal_actions"], "views": views}),
        rng,
    )
}

/// A whole match, each seat acting and looking with its own key only; every answer is scanned
/// for cards its seat may not see, and every wrong key is refused without changing the game.
#[actix_web::test]
async fn each_seat_plays_a_whole_match_with_its_own_key_and_sees_only_its_cards() {
    let app = client_with(seat_key_app(&[A], true)).await;
    let a = post_as(
        &app,
        "/v1/games",
        None,
        &json!({"ruleset": "standard", "target": 100, "seed": 5}),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let created = a.body;
    let keys = keys_of(&created);
    assert_eq!(keys.len(), 2);
    assert_ne!(keys[&0], keys[&1]);
    // The creator's answer shows no hand and no seat's actions.
    assert_eq!(created["views"], json!([]));
    assert_eq!(created["legal_actions"], json!([]));
    let plain = open(A, &created["state"]);
    for seat in 0..2 {
        assert_no_leak(&created, &plain, seat, "the deal's answer");
    }
    assert_eq!(created["game"]["move"], 0);
    let id = created["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 32);

    // A key of another game of this server.
    let other = post_as(&app, "/v1/games", None, &json!({"seed": 5}))
        .await
        .body;
    let foreign = keys_of(&other)[&0].clone();

    let mut token = created["state"].clone();
    let mut rng = Rng(5);
    let mut moves = 0;
    let mut refusals = 0;
    for turn in 0..5000 {
        let state = open(A, &token);
        if state.get("winners").is_some() {
            break;
        }
        assert!(turn < 4999, "the match did not end");
        let to_act: Vec<u64> = state_to_act(&state);
        let seat = to_act[0];
        let other_seat = 1 - seat;
        let key = keys[&seat].as_str();

        let view = post_as(
            &app,
            "/v1/games/view",
            Some(key),
            &json!({"state": token, "seat": seat}),
        )
        .await;
        assert_eq!(view.status, 200, "{}", view.text);
        assert_no_leak(&view.body, &state, seat, "a view");
        let action = choose_from_view(&view.body, seat, &mut rng);

        if turn % 7 == 0 {
            // Refused, and the game is unchanged: the right step is accepted afterwards.
            let step = json!({"state": token, "action": action});
            let cases: [(Option<&str>, &Value, u16, &str); 4] = [
                (None, &step, 401, "missing-seat-key"),
                (Some(&keys[&other_seat]), &step, 403, "forbidden-seat"),
                (Some(&foreign), &step, 403, "forbidden-seat"),
                (Some("not a key"), &step, 403, "forbidden-seat"),
            ];
            for (k, body, status, code) in cases {
                let r = post_as(&app, "/v1/games/step", k, body).await;
                assert_eq!((r.status, r.body["type"].as_str()), (status, Some(code)));
                assert_no_leak(&r.body, &state, seat, "a refusal");
            }
            let peek = json!({"state": token, "seat": other_seat});
            let r = post_as(&app, "/v1/games/view", Some(key), &peek).await;
            assert_eq!(
                (r.status, r.body["type"].as_str()),
                (403, Some("forbidden-seat"))
            );
            let r = post_as(&app, "/v1/games/view", None, &peek).await;
            assert_eq!(r.status, 401);
            // The other seat, with its own key, acting out of turn: its own actions only.
            let mut wrong = action.clone();
            wrong["seat"] = json!(other_seat);
            if state_to_act(&state).len() == 1 {
                let r = post_as(
                    &app,
                    "/v1/games/step",
                    Some(&keys[&other_seat]),
                    &json!({"state": token, "action": wrong}),
                )
                .await;
                assert_eq!(r.status, 422, "{}", r.text);
                assert_eq!(r.body["legal_actions"], json!([]));
                assert_no_leak(&r.body, &state, other_seat, "an illegal action");
            }
            refusals += 1;
        }

        let r = post_as(
            &app,
            "/v1/games/step",
            Some(key),
            &json!({"state": token, "action": action}),
        )
        .await;
        assert_eq!(r.status, 200, "{action}: {}", r.text);
        moves += 1;
        let after = open(A, &r.body["state"]);
        assert_no_leak(&r.body, &after, seat, "a step's answer");
        assert_eq!(r.body["game"], json!({"id": id, "move": moves}));
        assert_eq!(after["game"], r.body["game"]);
        let views = r.body["views"].as_array().unwrap();
        assert_eq!(views.len(), 1);
        assert_eq!(views[0]["seat"], seat);
        assert!(
            r.body["legal_actions"]
                .as_array()
                .unwrap()
                .iter()
                .all(|a| a["seat"] == seat)
        );
        for e in r.body["events"].as_array().unwrap() {
            if e["type"] == "drew" && e["from"] == "stock" {
                assert!(e.get("card").is_some(), "the drawer sees its card: {e}");
            }
            if matches!(e["type"].as_str(), Some("hand_over" | "match_over")) {
                assert_eq!(e["game"], r.body["game"], "{e}");
            }
        }
        token = r.body["state"].clone();
    }
    assert!(moves > 50, "{moves} moves");
    assert!(refusals > 5);
    let end = open(A, &token);
    assert!(end["winners"].is_array());
}

pub(crate) fn state_to_act(state: &Value) -> Vec<u64> {
    let tables = state["tables"].as_array().unwrap();
    if tables.iter().all(|t| t["phase"]["name"] == "over") {
        return vec![0, 1];
    }
    tables
        .iter()
        .filter_map(|t| t["phase"]["seat"].as_u64())
        .collect()
}

#[actix_web::test]
async fn as_seat_answers_as_that_seat_and_decks_are_refused() {
    let app = client_with(seat_key_app(&[A], false)).await;
    let a = post_as(&app, "/v1/games", None, &json!({"seed": 3, "as_seat": 1})).await;
    assert_eq!(a.status, 201, "{}", a.text);
    let views = a.body["views"].as_array().unwrap();
    assert_eq!(views.len(), 1);
    assert_eq!(views[0]["seat"], 1);
    assert_eq!(views[0]["hand"].as_array().unwrap().len(), 10);
    assert_eq!(keys_of(&a.body).len(), 2);
    assert!(
        a.body["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|x| x["seat"] == 1)
    );
    assert_no_leak(&a.body, &open(A, &a.body["state"]), 1, "as_seat 1");

    let r = post_as(&app, "/v1/games", None, &json!({"as_seat": 2})).await;
    assert_eq!(
        (r.status, r.body["type"].as_str()),
        (422, Some("unknown-seat"))
    );
    for body in [
        json!({"deck": full_deck()}),
        json!({"decks": [full_deck()]}),
    ] {
        let r = post_as(&app, "/v1/games", None, &body).await;
        assert_eq!(
            (r.status, r.body["type"].as_str()),
            (422, Some("deck-not-allowed")),
            "{}",
            r.text
        );
    }
    // Without seat keys an explicit deck is still dealt, and no keys are handed out.
    let plain = Client::new(true).await;
    let (status, snap) = plain.post("/v1/games", &json!({"deck": full_deck()})).await;
    assert_eq!(status, 201);
    assert!(snap.get("seats").is_none());
    assert_eq!(snap["views"].as_array().unwrap().len(), 2);
}

/// The first deal's stock and hands, read from the sealed state.
fn first_deal(secret: &[u8], snap: &Value) -> Value {
    let state = open(secret, &snap["state"]);
    json!([state["tables"][0]["hands"], state["tables"][0]["stock"]])
}

/// Under seat keys a seed never deals a deck twice (a fresh server-side nonce is mixed in), on
/// one server or two with the same secret; a plain server deals a seed the same way every time.
#[actix_web::test]
async fn a_seed_deals_a_new_deck_every_time_under_seat_keys_and_the_same_in_plain_mode() {
    let a = client_with(seat_key_app(&[A], false)).await;
    let a2 = client_with(seat_key_app(&[A], false)).await;
    let req = json!({"seed": 42, "dealer": 0});
    let deal = |snap: Value| first_deal(A, &snap);
    let x = deal(post_as(&a, "/v1/games", None, &req).await.body);
    let again = deal(post_as(&a, "/v1/games", None, &req).await.body);
    let y = deal(post_as(&a2, "/v1/games", None, &req).await.body);
    assert_ne!(x, again, "same seed on one server: another deck");
    assert_ne!(
        x, y,
        "same seed, same secret, another instance: another deck"
    );
    let plain = Client::new(false).await;
    let plain_deal = || async {
        let (_, p) = plain.post("/v1/games", &req).await;
        json!([
            p["state"]["tables"][0]["hands"],
            p["state"]["tables"][0]["stock"]
        ])
    };
    let p = plain_deal().await;
    assert_eq!(
        p,
        plain_deal().await,
        "a plain server deals a seed the same way"
    );
    assert_ne!(x, p);
    // Two games of one seed are two games: their ids and keys differ.
    let one = post_as(&a, "/v1/games", None, &req).await.body;
    let two = post_as(&a, "/v1/games", None, &req).await.body;
    assert_ne!(one["game"]["id"], two["game"]["id"]);
    assert_ne!(keys_of(&one)[&0], keys_of(&two)[&0]);
}

#[actix_web::test]
async fn the_memory_guard_refuses_older_states_and_changes_nothing() {
    let app = client_with(seat_key_app(&[A], true)).await;
    let created = post_as(&app, "/v1/games", None, &json!({"seed": 9, "as_seat": 0})).await;
    let keys = keys_of(&created.body);
    let s0 = created.body["state"].clone();
    let seat = open(A, &s0)["tables"][0]["phase"]["seat"].as_u64().unwrap();
    let key = keys[&seat].as_str();
    let pass = json!({"seat": seat, "type": "pass"});
    let take = json!({"seat": seat, "type": "take_upcard"});
    let first = post_as(
        &app,
        "/v1/games/step",
        Some(key),
        &json!({"state": s0, "action": pass}),
    )
    .await;
    assert_eq!(first.status, 200, "{}", first.text);
    // The same state again, with another action: the game has moved on.
    for action in [
        &pass,
        &take,
        &json!({"seat": seat, "type": "discard", "card": "AS"}),
    ] {
        let r = post_as(
            &app,
            "/v1/games/step",
            Some(key),
            &json!({"state": s0, "action": action}),
        )
        .await;
        assert_eq!(
            (r.status, r.body["type"].as_str()),
            (409, Some("stale-state")),
            "{}",
            r.text
        );
    }
    let r = post_as(
        &app,
        "/v1/games/view",
        Some(key),
        &json!({"state": s0, "seat": seat}),
    )
    .await;
    assert_eq!(r.status, 409);
    // The latest state still plays: the refusals recorded nothing.
    let s1 = first.body["state"].clone();
    let r = post_as(
        &app,
        "/v1/games/view",
        Some(key),
        &json!({"state": s1, "seat": seat}),
    )
    .await;
    assert_eq!(r.status, 200);
    let next = open(A, &s1)["tables"][0]["phase"]["seat"].as_u64().unwrap();
    let r = post_as(
        &app,
        "/v1/games/step",
        Some(&keys[&next]),
        &json!({"state": s1, "action": {"seat": next, "type": "pass"}}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["game"]["move"], 2);
}

/// A game dealt under secret A finishes after a restart with "B, A"; after a restart with B alone
/// its A-sealed states do not open and its A-made keys open nothing.
#[actix_web::test]
async fn a_rotated_secret_keeps_games_going_until_it_is_retired() {
    let under_a = client_with(seat_key_app(&[A], false)).await;
    let created = post_as(
        &under_a,
        "/v1/games",
        None,
        &json!({"target": "single_hand", "seed": 21}),
    )
    .await
    .body;
    let keys = keys_of(&created);
    let sealed_with_a = created["state"].clone();

    let rotated = client_with(seat_key_app(&[B, A], false)).await;
    let mut token = sealed_with_a.clone();
    let mut rng = Rng(21);
    let mut sealed_with_b = None;
    for _ in 0..400 {
        let state = open_any(&token);
        if state.get("winners").is_some() {
            break;
        }
        let seat = state_to_act(&state)[0];
        let view = post_as(
            &rotated,
            "/v1/games/view",
            Some(&keys[&seat]),
            &json!({"state": token, "seat": seat}),
        )
        .await;
        assert_eq!(view.status, 200, "{}", view.text);
        let action = choose_from_view(&view.body, seat, &mut rng);
        let r = post_as(
            &rotated,
            "/v1/games/step",
            Some(&keys[&seat]),
            &json!({"state": token, "action": action}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text);
        token = r.body["state"].clone();
        sealed_with_b.get_or_insert_with(|| (token.clone(), action, seat));
    }
    assert!(open_any(&token)["winners"].is_array(), "the game finished");
    // New states are sealed with B alone.
    assert!(
        Sealer::new(A)
            .unwrap()
            .open_bytes(token.as_str().unwrap())
            .is_err()
    );

    let under_b = client_with(seat_key_app(&[B], false)).await;
    let r = post_as(
        &under_b,
        "/v1/games/view",
        Some(&keys[&0]),
        &json!({"state": sealed_with_a, "seat": 0}),
    )
    .await;
    assert_eq!(
        (r.status, r.body["type"].as_str()),
        (422, Some("tampered-state"))
    );
    let (b_token, _, seat) = sealed_with_b.expect("a step under the rotation");
    let r = post_as(
        &under_b,
        "/v1/games/view",
        Some(&keys[&seat]),
        &json!({"state": b_token, "seat": seat}),
    )
    .await;
    assert_eq!(
        (r.status, r.body["type"].as_str()),
        (403, Some("forbidden-seat")),
        "{}",
        r.text
    );
}

fn open_any(token: &Value) -> Value {
    let t = token.as_str().unwrap();
    let bytes = Sealer::new(&[B, A].join(&b'\n'))
        .unwrap()
        .open_bytes(t)
        .expect("opens under A or B");
    serde_json::from_slice(&bytes).unwrap()
}

#[actix_web::test]
async fn without_seat_keys_every_snapshot_still_names_its_game() {
    let app = Client::new(false).await;
    let (_, snap) = app.post("/v1/games", &json!({"seed": 4})).await;
    assert_eq!(snap["game"], snap["state"]["game"]);
    assert_eq!(snap["game"]["move"], 0);
    let action = snap["legal_actions"][0].clone();
    let next = app.step(&snap, &action).await;
    assert_eq!(next["game"]["id"], snap["game"]["id"]);
    assert_eq!(next["game"]["move"], 1);
    // A key is neither needed nor looked at.
    let a = post_as(
        &app,
        "/v1/games/step",
        Some("anything"),
        &json!({"state": snap["state"], "action": action}),
    )
    .await;
    assert_eq!(a.status, 200);
    // as_seat reduces the answer there too.
    let (_, one) = app
        .post("/v1/games", &json!({"seed": 4, "as_seat": 0}))
        .await;
    assert_eq!(one["views"].as_array().unwrap().len(), 1);
}
