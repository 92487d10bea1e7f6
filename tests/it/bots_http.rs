//! Bots over HTTP: `bots` on the deal plays bot seats within every request (every form, plain,
//! sealed and under seat keys, where no answer shows a card its seat may not see), `game.move`
//! and the replay guard count the bots' actions, and `POST /v1/games/suggest`.

use actix_http::Request;
use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use serde_json::{Value, json};

use crate::api_support::*;
use crate::seats::{A, choose_from_view, hidden_from, keys_of, open, post_as, seat_key_app};

/// How the server hands out states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Plain,
    Sealed,
    /// Sealed with secret `A`, seat keys and a memory replay guard.
    Keys,
}

/// The actions a list of events shows (each action gives exactly one of these; `next_hand` gives
/// `dealt` events instead, counted by the caller).
const ACTION_EVENTS: [&str; 7] = [
    "took_upcard",
    "passed",
    "drew",
    "discarded",
    "knocked",
    "went_gin",
    "laid_off",
];

fn actions_in(events: &Value) -> Vec<&Value> {
    events
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| ACTION_EVENTS.contains(&e["type"].as_str().unwrap_or("")))
        .collect()
}

/// Fails when the answer's whole body shows a card `seat` may not see in `state`. In the
/// four-player form each table has its own deck, so a card is checked against the cards hidden at
/// the table it is shown for: an object with a `table` (an event, a view) speaks of that table,
/// anything else of the seat's own.
fn assert_no_leak(body: &Value, state: &Value, seat: u64, what: &str) {
    let tables = state["tables"].as_array().unwrap();
    let hidden: Vec<_> = (0..tables.len())
        .map(|t| {
            let mut one = state.clone();
            one["tables"] = json!([tables[t]]);
            hidden_from(&one, seat)
        })
        .collect();
    let own = tables
        .iter()
        .position(|t| t["seats"].as_array().unwrap().contains(&json!(seat)))
        .unwrap_or(0);
    fn walk(
        v: &Value,
        table: usize,
        hidden: &[std::collections::BTreeSet<String>],
        out: &mut Vec<String>,
    ) {
        match v {
            Value::String(s) if is_card(s) && hidden[table].contains(s) => out.push(s.clone()),
            Value::Array(a) => a.iter().for_each(|x| walk(x, table, hidden, out)),
            Value::Object(o) => {
                let table = o
                    .get("table")
                    .and_then(Value::as_u64)
                    .map_or(table, |t| t as usize);
                for (k, x) in o {
                    if k != "upcard" {
                        walk(x, table, hidden, out);
                    }
                }
            }
            _ => {}
        }
    }
    let mut leaked = Vec::new();
    walk(body, own, &hidden, &mut leaked);
    assert!(
        leaked.is_empty(),
        "{what}: seat {seat} is shown {leaked:?}\n{body}"
    );
}

/// What a played game showed.
struct Played {
    last: Value,
    requests: usize,
    bot_actions: usize,
    hands: usize,
    bot_seats_seen_acting: std::collections::BTreeSet<u64>,
}

fn plain_of(mode: Mode, state: &Value) -> Value {
    match mode {
        Mode::Plain => state.clone(),
        Mode::Sealed => open(SECRET, state),
        Mode::Keys => open(A, state),
    }
}

/// Deals `deal` with `bots` and plays the human seats (all others) greedily, each from its own
/// view (with its own key under seat keys), for at most `max_requests` steps or to the match's
/// end, checking every answer: a human seat is to act (or the match is over), the state carries
/// the bots, `game.move` grew by the actions the events show, and under seat keys no answer shows
/// a card its seat may not see.
async fn play<S, B>(
    app: &Client<S>,
    mode: Mode,
    mut deal: Value,
    bots: Value,
    max_requests: usize,
) -> Played
where
    S: Service<Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let bot_seats: Vec<u64> = bots
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.parse().unwrap())
        .collect();
    deal["bots"] = bots.clone();
    if mode == Mode::Keys && deal.get("as_seat").is_none() {
        let first_human = (0..).find(|s| !bot_seats.contains(s)).unwrap();
        deal["as_seat"] = json!(first_human);
    }
    let a = post_as(app, "/v1/games", None, &deal).await;
    assert_eq!(a.status, 201, "{deal}: {}", a.text);
    let mut snap = a.body;
    let seats = plain_of(mode, &snap["state"])["record"]["layout"]["sides"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_array().unwrap().len() as u64)
        .sum::<u64>();
    let humans: Vec<u64> = (0..seats).filter(|s| !bot_seats.contains(s)).collect();
    let keys = (mode == Mode::Keys).then(|| keys_of(&snap));
    if let Some(keys) = &keys {
        assert_eq!(
            keys.keys().copied().collect::<Vec<_>>(),
            humans,
            "keys of humans only"
        );
        let state = open(A, &snap["state"]);
        let seat = deal["as_seat"].as_u64().unwrap();
        assert_no_leak(&snap, &state, seat, "the deal's answer");
    } else {
        assert!(snap.get("seats").is_none());
    }
    let mut played = Played {
        last: Value::Null,
        requests: 0,
        bot_actions: 0,
        hands: 0,
        bot_seats_seen_acting: Default::default(),
    };
    let count = |events: &Value, played: &mut Played| -> u64 {
        let acts = actions_in(events);
        for e in &acts {
            let seat = e["seat"].as_u64().unwrap();
            if bot_seats.contains(&seat) {
                played.bot_actions += 1;
                played.bot_seats_seen_acting.insert(seat);
            }
        }
        played.hands += events
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["type"] == "hand_over")
            .count();
        acts.len() as u64
    };
    assert_eq!(
        snap["game"]["move"],
        json!(count(&snap["events"], &mut played))
    );
    let mut rng = Rng(11);
    for _ in 0..max_requests {
        let state = plain_of(mode, &snap["state"]);
        assert_eq!(state["bots"], bots, "the state carries the bots");
        assert_eq!(state["game"], snap["game"]);
        if snap["status"] == "match_over" {
            break;
        }
        let to_act: Vec<u64> = snap["to_act"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .collect();
        // Only the seats clients play are named: a bot neither acts nor deals for them.
        assert!(
            !to_act.is_empty() && to_act.iter().all(|s| humans.contains(s)),
            "to_act {to_act:?} names a bot or nobody (bots {bots})"
        );
        for a in snap["legal_actions"].as_array().unwrap() {
            let s = a["seat"].as_u64().unwrap();
            assert!(humans.contains(&s), "{a} is offered to a bot (bots {bots})");
        }
        let between_hands = snap["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["type"] == "next_hand");
        if between_hands && mode != Mode::Keys {
            let bot = bot_seats[0];
            let r = post_as(
                app,
                "/v1/games/step",
                None,
                &json!({"state": snap["state"], "action": {"seat": bot, "type": "next_hand"}}),
            )
            .await;
            assert_eq!(r.status, 422, "a bot's next_hand: {}", r.text);
            assert_eq!(r.body["type"], "illegal-action", "{}", r.text);
            assert_eq!(r.body["reason"], "not-your-turn", "{}", r.text);
        }
        let seat = to_act[0];
        let key = keys.as_ref().map(|k| k[&seat].clone());
        let view = match &key {
            Some(key) => {
                let v = post_as(
                    app,
                    "/v1/games/view",
                    Some(key),
                    &json!({"state": snap["state"], "seat": seat}),
                )
                .await;
                assert_eq!(v.status, 200, "{}", v.text);
                v.body
            }
            None => snap["views"][seat as usize].clone(),
        };
        let action = choose_from_view(&view, seat, &mut rng);
        let before = snap["game"]["move"].as_u64().unwrap();
        let r = post_as(
            app,
            "/v1/games/step",
            key.as_deref(),
            &json!({"state": snap["state"], "action": action}),
        )
        .await;
        assert_eq!(r.status, 200, "{action}: {}", r.text);
        played.requests += 1;
        let after = plain_of(mode, &r.body["state"]);
        if mode == Mode::Keys {
            assert_no_leak(&r.body, &after, seat, "a step's answer");
            let views = r.body["views"].as_array().unwrap();
            assert_eq!(views.len(), 1);
            assert_eq!(views[0]["seat"], seat);
        }
        let acted =
            count(&r.body["events"], &mut played) + u64::from(action["type"] == "next_hand");
        let moved = r.body["game"]["move"].as_u64().unwrap() - before;
        assert_eq!(
            moved, acted,
            "game.move counts every action: {}",
            r.body["events"]
        );
        for e in r.body["events"].as_array().unwrap() {
            if matches!(e["type"].as_str(), Some("hand_over" | "match_over")) {
                assert!(e["game"]["move"].as_u64().unwrap() <= before + moved, "{e}");
            }
        }
        snap = r.body;
    }
    played.last = snap;
    played
}

fn authored_yaml() -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/round-the-corner.yaml"),
    )
    .unwrap()
}

#[actix_web::test]
async fn a_strong_bot_plays_a_two_player_match_to_its_end_plain() {
    let app = Client::new(false).await;
    let p = play(
        &app,
        Mode::Plain,
        json!({"ruleset": "standard", "target": 100, "seed": 3}),
        json!({"1": "strong"}),
        2000,
    )
    .await;
    assert_eq!(
        p.last["status"], "match_over",
        "after {} requests",
        p.requests
    );
    assert!(p.hands >= 2 && p.bot_actions > 20, "{} hands", p.hands);
    assert_eq!(p.bot_seats_seen_acting.len(), 1);
}

#[actix_web::test]
async fn every_bot_level_plays_jokers_wild_to_the_end_of_a_match() {
    let app = Client::new(false).await;
    for (seed, level) in ["random", "basic", "strong"].into_iter().enumerate() {
        let p = play(
            &app,
            Mode::Plain,
            json!({"ruleset": "standard", "options": ["jokers-wild"], "target": 100, "seed": seed}),
            json!({"1": level}),
            4000,
        )
        .await;
        assert_eq!(
            p.last["status"], "match_over",
            "{level}: after {} requests",
            p.requests
        );
        assert!(p.hands >= 2, "{level}: {} hands", p.hands);
    }
}

#[actix_web::test]
async fn a_bot_plays_hollywood_sealed() {
    let app = Client::new(true).await;
    let p = play(
        &app,
        Mode::Sealed,
        json!({"ruleset": "standard", "options": ["hollywood"], "target": 100, "seed": 4}),
        json!({"0": "basic"}),
        150,
    )
    .await;
    assert!(p.hands >= 2, "{} hands", p.hands);
    assert_eq!(
        p.last["scores"]["columns"].as_array().map(Vec::len),
        Some(3)
    );
    assert!(p.bot_actions > 10);
}

#[actix_web::test]
async fn two_bots_play_three_player_gin_under_seat_keys() {
    let app = client_with(seat_key_app(&[A], true)).await;
    let p = play(
        &app,
        Mode::Keys,
        json!({"ruleset": "three-player", "target": 100, "seed": 6}),
        json!({"1": "strong", "2": "basic"}),
        120,
    )
    .await;
    // The human deals or sits out in turn: some hands are the bots' alone, played in one request.
    assert!(p.hands >= 3, "{} hands", p.hands);
    assert_eq!(p.bot_seats_seen_acting.len(), 2);
}

#[actix_web::test]
async fn three_bots_play_four_player_with_one_human_under_seat_keys() {
    let app = client_with(seat_key_app(&[A], true)).await;
    let p = play(
        &app,
        Mode::Keys,
        json!({"ruleset": "four-player", "target": 125, "seed": 8}),
        json!({"1": "basic", "2": "strong", "3": "random"}),
        80,
    )
    .await;
    assert!(p.hands >= 2, "{} hands", p.hands);
    assert_eq!(p.bot_seats_seen_acting.len(), 3);
}

#[actix_web::test]
async fn bots_of_every_level_play_oklahoma_for_three_and_four_to_the_end() {
    let app = Client::new(false).await;
    for (ruleset, seats) in [("oklahoma-three", 3), ("oklahoma-four", 4)] {
        for level in ["random", "basic", "strong"] {
            // Seat 0 is a human playing at random from its view; every other seat is a bot.
            let bots: serde_json::Map<String, Value> =
                (1..seats).map(|s| (s.to_string(), json!(level))).collect();
            let p = play(
                &app,
                Mode::Plain,
                json!({"ruleset": ruleset, "target": 100, "seed": 3}),
                Value::Object(bots),
                2_000,
            )
            .await;
            assert_eq!(
                p.last["status"], "match_over",
                "{ruleset} {level}: {} requests, {} hands",
                p.requests, p.hands
            );
            assert_eq!(
                p.bot_seats_seen_acting.len(),
                seats - 1,
                "{ruleset} {level}"
            );
            let players = p.last["views"][0]["players"].as_array().unwrap();
            assert_eq!(players.len(), seats - 1, "every opponent's hand size");
        }
    }
}

#[actix_web::test]
async fn two_humans_play_four_player_with_two_bots() {
    // Opponents at one table (a table of bots beside it), and partners at both tables.
    for (humans_bots, mode) in [
        (json!({"2": "basic", "3": "basic"}), Mode::Plain),
        (json!({"1": "strong", "3": "basic"}), Mode::Keys),
    ] {
        let app = client_with(seat_key_app(&[A], true)).await;
        let plain = Client::new(false).await;
        let deal = json!({"ruleset": "four-player", "target": "single_hand", "seed": 9});
        let p = match mode {
            Mode::Keys => play(&app, mode, deal, humans_bots.clone(), 200).await,
            _ => play(&plain, mode, deal, humans_bots.clone(), 200).await,
        };
        assert_eq!(p.last["status"], "match_over", "{humans_bots}");
        assert_eq!(p.bot_seats_seen_acting.len(), 2, "{humans_bots}");
    }
}

#[actix_web::test]
async fn a_bot_plays_an_authored_ruleset_from_its_rules() {
    let yaml = authored_yaml();
    for mode in [Mode::Plain, Mode::Keys] {
        let keyed = client_with(seat_key_app(&[A], true)).await;
        let plain = Client::new(false).await;
        let deal =
            json!({"ruleset": {"yaml": yaml, "scripts": {}}, "target": "single_hand", "seed": 12});
        let bots = json!({"0": "strong"});
        let p = match mode {
            Mode::Keys => play(&keyed, mode, deal, bots, 100).await,
            _ => play(&plain, mode, deal, bots, 100).await,
        };
        assert_eq!(p.last["status"], "match_over", "{mode:?}");
        assert_eq!(p.last["ruleset"]["id"], "round-the-corner");
        assert!(p.bot_actions > 0);
    }
}

/// The replay guard records the move a request ended at, bots' actions included: the answer's
/// state is current, the state it was stepped from is stale.
#[actix_web::test]
async fn the_replay_guard_counts_the_bots_actions() {
    let app = client_with(seat_key_app(&[A], true)).await;
    let a = post_as(
        &app,
        "/v1/games",
        None,
        &json!({"ruleset": "standard", "seed": 21, "bots": {"1": "basic"}, "as_seat": 0}),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let key = keys_of(&a.body)[&0].clone();
    let mut snap = a.body;
    let mut rng = Rng(2);
    let mut bot_moves = 0;
    for _ in 0..6 {
        let view = &snap["views"][0];
        let action = choose_from_view(view, 0, &mut rng);
        let before = snap["game"]["move"].as_u64().unwrap();
        let r = post_as(
            &app,
            "/v1/games/step",
            Some(&key),
            &json!({"state": snap["state"], "action": action}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text);
        let moved = r.body["game"]["move"].as_u64().unwrap() - before;
        bot_moves += moved - 1;
        // The old state is stale now; the answer's is not.
        let again = post_as(
            &app,
            "/v1/games/step",
            Some(&key),
            &json!({"state": snap["state"], "action": action}),
        )
        .await;
        assert_eq!(
            (again.status, again.body["type"].as_str()),
            (409, Some("stale-state"))
        );
        let look = post_as(
            &app,
            "/v1/games/view",
            Some(&key),
            &json!({"state": r.body["state"], "seat": 0}),
        )
        .await;
        assert_eq!(look.status, 200, "{}", look.text);
        snap = r.body;
        if snap["to_act"] == json!([0, 1]) {
            break;
        }
    }
    assert!(bot_moves > 0, "the bot played within the steps");
}

#[actix_web::test]
async fn bad_bots_are_refused_clearly() {
    let app = client_with(seat_key_app(&[A], false)).await;
    let cases = [
        (
            json!({"bots": {"1": "expert"}}),
            422,
            "unknown-level",
            "expert",
        ),
        (
            json!({"bots": {"2": "basic"}}),
            422,
            "unknown-seat",
            "seats 0 to 1",
        ),
        (
            json!({"bots": {"one": "basic"}}),
            422,
            "unknown-seat",
            "one",
        ),
        (
            json!({"bots": {"0": "basic", "1": "strong"}}),
            422,
            "no-human-seat",
            "every seat",
        ),
        (
            json!({"ruleset": "four-player", "bots": {"0": "basic", "1": "basic", "2": "basic", "3": "basic"}}),
            422,
            "no-human-seat",
            "every seat",
        ),
        (
            json!({"bots": {"1": "basic"}, "as_seat": 1}),
            422,
            "bot-seat",
            "as_seat 1",
        ),
        (
            json!({"bots": {"1": 3}}),
            400,
            "invalid-json",
            "expected a string",
        ),
        (
            json!({"bots": ["basic"]}),
            400,
            "invalid-json",
            "expected an object",
        ),
    ];
    for (body, status, code, says) in cases {
        let r = post_as(&app, "/v1/games", None, &body).await;
        assert_eq!(
            (r.status, r.body["type"].as_str()),
            (status, Some(code)),
            "{body}: {}",
            r.text
        );
        assert!(
            r.body["detail"].as_str().unwrap().contains(says),
            "{body}: {}",
            r.text
        );
    }
    // Upper case and spaces are read as the level.
    let r = post_as(&app, "/v1/games", None, &json!({"bots": {"1": " Strong"}})).await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(keys_of(&r.body).len(), 1);
}

#[actix_web::test]
async fn a_plain_state_with_impossible_bots_is_invalid() {
    let app = Client::new(false).await;
    let (status, snap) = app
        .post("/v1/games", &json!({"seed": 1, "bots": {"1": "basic"}}))
        .await;
    assert_eq!(status, 201);
    for (bots, says) in [
        (json!({"0": "basic", "1": "basic"}), "every seat"),
        (json!({"1": "basic", "5": "basic"}), "seat 5"),
    ] {
        let mut state = snap["state"].clone();
        state["bots"] = bots;
        let (status, p) = app
            .post("/v1/games/view", &json!({"state": state, "seat": 0}))
            .await;
        assert_eq!(
            (status, p["type"].as_str()),
            (422, Some("invalid-state")),
            "{p}"
        );
        assert!(p["detail"].as_str().unwrap().contains(says), "{p}");
    }
    let mut state = snap["state"].clone();
    state["bots"] = json!({"1": "genius"});
    let (status, p) = app
        .post("/v1/games/view", &json!({"state": state, "seat": 0}))
        .await;
    assert_eq!(
        (status, p["type"].as_str()),
        (422, Some("invalid-state")),
        "{p}"
    );
}

/// A state without bots reads and writes as before: no `bots` key.
#[actix_web::test]
async fn a_game_without_bots_has_no_bots_in_its_state() {
    let app = Client::new(false).await;
    let (_, snap) = app.post("/v1/games", &json!({"seed": 1})).await;
    assert!(snap["state"].get("bots").is_none());
    let (_, snap) = app.post("/v1/games", &json!({"seed": 1, "bots": {}})).await;
    assert!(snap["state"].get("bots").is_none());
}
