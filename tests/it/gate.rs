//! What keeps one request from holding up the others: media types, method routing, the state's
//! size at the deal, the hooks' shared budget, script output and string growth, busy engine
//! threads and late bodies.

use std::io;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use actix_web::test as web_test;
use serde_json::{Value, json};

use gin_rules::api::{AppState, Limits};
use gin_rules::engine::{self, NewGame};
use gin_rules::rules::Catalog;
use gin_rules::rules::script::{Budget, with_budget};

use crate::api_support::*;

fn short(text: &str) -> &str {
    &text[..text.len().min(500)]
}

fn assert_problem(a: &Answer, status: u16, kind: &str) {
    assert_eq!(a.status, status, "{}", short(&a.text));
    assert_eq!(a.content_type, "application/problem+json", "{}", a.text);
    assert_eq!(a.body["type"], kind, "{}", a.text);
    assert_eq!(a.body["status"], status, "{}", a.text);
}

async fn post_typed<S, B>(
    app: &Client<S>,
    path: &str,
    content_type: Option<&str>,
    body: &str,
) -> Answer
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let mut req = web_test::TestRequest::post().uri(path);
    if let Some(t) = content_type {
        req = req.insert_header(("content-type", t));
    }
    app.send(req.set_payload(body.to_string()).to_request())
        .await
}

#[actix_web::test]
async fn bodies_must_be_application_json() {
    let app = Client::new(false).await;
    let deal = r#"{"ruleset": "standard", "seed": 1}"#;
    for (path, body) in [
        ("/v1/games", deal),
        ("/v1/rulesets/check", r#"{"yaml": "id: x\n"}"#),
        ("/v1/hands/analyze", r#"{"cards": []}"#),
        ("/v1/games/step", r#"{"state": {}, "action": {}}"#),
        ("/v1/games/view", r#"{"state": {}, "seat": 0}"#),
    ] {
        for content_type in [
            Some("text/plain"),
            Some("text/plain;charset=UTF-8"),
            Some("application/x-www-form-urlencoded"),
            Some("multipart/form-data; boundary=x"),
            Some("application/problem+json"),
            Some("not a type"),
            None,
        ] {
            let a = post_typed(&app, path, content_type, body).await;
            assert_eq!(a.status, 415, "{path} {content_type:?}");
            assert_problem(&a, 415, "unsupported-media-type");
            assert!(
                a.body["detail"]
                    .as_str()
                    .unwrap()
                    .contains("application/json"),
                "{}",
                a.text
            );
        }
    }
    for content_type in [
        "application/json",
        "application/json; charset=utf-8",
        "Application/JSON;charset=UTF-8",
    ] {
        let a = post_typed(&app, "/v1/games", Some(content_type), deal).await;
        assert_eq!(a.status, 201, "{content_type}: {}", a.text);
    }
}

#[actix_web::test]
async fn get_on_the_check_path_is_405_not_a_ruleset() {
    let app = Client::new(false).await;
    for method in ["GET", "PUT", "DELETE"] {
        let req = web_test::TestRequest::default()
            .method(method.parse().unwrap())
            .uri("/v1/rulesets/check")
            .to_request();
        let res = web_test::call_service(&app_service().await, req).await;
        assert_eq!(res.status().as_u16(), 405, "{method}");
        assert_eq!(
            res.headers().get("allow").and_then(|v| v.to_str().ok()),
            Some("POST"),
            "{method}"
        );
    }
    let a = app.get_text("/v1/rulesets/check").await;
    assert_problem(&a, 405, "method-not-allowed");
    let a = app.get_text("/v1/rulesets/check?option=x").await;
    assert_problem(&a, 405, "method-not-allowed");
    // A ruleset is still found by id, and an unknown id is still 404.
    let (status, _) = app.get("/v1/rulesets/standard").await;
    assert_eq!(status, 200);
    let (status, p) = app.get("/v1/rulesets/checkers").await;
    assert_eq!(status, 404, "{p}");
    assert_eq!(p["type"], "unknown-ruleset");
}

async fn app_service() -> impl actix_web::dev::Service<
    actix_http::Request,
    Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
    Error = actix_web::Error,
> {
    web_test::init_service(
        actix_web::App::new()
            .app_data(actix_web::web::Data::new(AppState::builtin()))
            .configure(gin_rules::api::configure),
    )
    .await
}

/// An authored ruleset that takes about `bytes` of JSON: comments of `"`, which JSON doubles, in
/// the YAML and then in a script, each within the limits of an authored ruleset (64 KiB).
fn big_ruleset(bytes: usize) -> Value {
    let head =
        "id: big-gin\nname: Big Gin\nsummary: Standard, with a long comment.\nextends: standard\n";
    let quotes = bytes / 2;
    let in_yaml = quotes.min(63_000);
    let in_script = quotes - in_yaml;
    let yaml = format!("{head}# {}\n", "\"".repeat(in_yaml));
    let mut scripts = serde_json::Map::new();
    if in_script > 0 {
        scripts.insert(
            "pad.rhai".into(),
            json!(format!("// {}\n", "\"".repeat(in_script))),
        );
    }
    json!({"yaml": yaml, "scripts": scripts})
}

#[actix_web::test]
async fn a_deal_whose_state_would_not_fit_the_next_request_is_refused() {
    // Sealed, a 190 KB ruleset makes a token of over 250 KB: every step would be 413.
    let sealed = Client::new(true).await;
    let (status, p) = sealed
        .post(
            "/v1/games",
            &json!({"ruleset": big_ruleset(190_000), "seed": 1}),
        )
        .await;
    assert_eq!(status, 422, "{}", short(&p.to_string()));
    assert_eq!(p["type"], "state-too-large");
    assert!(
        p["detail"].as_str().unwrap().contains("262144"),
        "{}",
        short(&p.to_string())
    );

    // Plain, the same ruleset fits, and the game goes on.
    let plain = Client::new(false).await;
    let (status, snap) = plain
        .post(
            "/v1/games",
            &json!({"ruleset": big_ruleset(190_000), "seed": 1}),
        )
        .await;
    assert_eq!(status, 201, "{}", short(&snap.to_string()));
    let next = plain.step(&snap, &snap["legal_actions"][0]).await;
    assert_eq!(next["status"], "in_progress");

    // Plain, 254 KB would leave no room for the action.
    let (status, p) = plain
        .post(
            "/v1/games",
            &json!({"ruleset": big_ruleset(254_000), "seed": 1}),
        )
        .await;
    assert_eq!(status, 422, "{}", short(&p.to_string()));
    assert_eq!(p["type"], "state-too-large");

    // A small sealed ruleset deals as before.
    let (status, snap) = sealed
        .post(
            "/v1/games",
            &json!({"ruleset": big_ruleset(1_000), "seed": 1}),
        )
        .await;
    assert_eq!(status, 201, "{}", short(&snap.to_string()));
}

/// A ruleset whose `knock_limit` and `score_multiplier` each count to `n` from the second hand on.
fn counting_ruleset(n: u32) -> Value {
    let yaml = "id: counting-gin\nname: Counting Gin\nsummary: Hooks that count.\nextends: standard\noptions:\n  oklahoma:\n    replaces: [knock_limit, score_multiplier]\nhooks:\n  knock_limit:\n    script: count.rhai\n    rule: counts first\n  score_multiplier:\n    script: count.rhai\n    rule: counts first\n";
    let script = format!(
        "private fn count(ctx) {{\n    if ctx.hand_number >= 1 {{\n        let i = 0;\n        while i < {n} {{ i += 1; }}\n    }}\n}}\n\
         fn knock_limit(ctx) {{ count(ctx); ctx[\"default\"] }}\n\
         fn score_multiplier(ctx) {{ count(ctx); 1 }}\n"
    );
    json!({"yaml": yaml, "scripts": {"count.rhai": script}})
}

fn limits_with_operations(operations: u64) -> Limits {
    Limits {
        script_budget: Budget {
            time: Duration::from_secs(60),
            operations,
        },
        ..Limits::default()
    }
}

/// Plays `snap` until the next action deals a new hand.
async fn to_next_hand<S, B>(app: &Client<S>, mut snap: Value) -> Value
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let mut rng = Rng(1);
    while snap["legal_actions"][0]["type"] != "next_hand" {
        let action = choose(&snap, &mut rng);
        snap = app.step(&snap, &action).await;
    }
    snap
}

#[actix_web::test]
async fn the_hooks_of_a_request_share_one_budget() {
    // Each hook alone stays under the per-call limit of 100 000 operations; the two together
    // need more than the 100 000 this server gives a request.
    // Added to the server unchecked: the sample games of a check would spend far more.
    let ruleset = counting_ruleset(10_000);
    let tight =
        client_with(state_with_unsampled(&ruleset).with_limits(limits_with_operations(100_000)))
            .await;
    let (status, snap) = tight
        .post(
            "/v1/games",
            &json!({"ruleset": "counting-gin", "seed": 3, "target": 100}),
        )
        .await;
    assert_eq!(status, 201, "{snap}");
    let snap = to_next_hand(&tight, snap).await;
    let next = snap["legal_actions"][0].clone();
    let (status, p) = tight
        .post(
            "/v1/games/step",
            &json!({"state": snap["state"], "action": next}),
        )
        .await;
    assert_eq!(status, 422, "{p}");
    assert_eq!(p["type"], "script-error");
    let detail = p["detail"].as_str().unwrap();
    assert!(detail.contains("shared budget"), "{detail}");
    assert!(detail.contains("100000 operations"), "{detail}");
    assert!(p.get("state").is_none(), "{p}");
    // The state sent is unchanged and still good: the same step again fails the same way, and
    // the view is the one before the step.
    let (status, again) = tight
        .post(
            "/v1/games/step",
            &json!({"state": snap["state"], "action": next}),
        )
        .await;
    assert_eq!((status, &again), (422, &p));
    let (status, view) = tight
        .post(
            "/v1/games/view",
            &json!({"state": snap["state"], "seat": 0}),
        )
        .await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["phase"], "over");

    // With the default budget the same step deals the next hand.
    let roomy = client_with(state_with_unsampled(&ruleset)).await;
    let next_hand = roomy.step(&snap, &next).await;
    assert_eq!(next_hand["status"], "in_progress");
    assert!(
        next_hand["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "dealt"),
        "{next_hand}"
    );
}

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Ok(mut b) = self.0.lock() {
            b.extend_from_slice(buf);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Deals a game of an authored ruleset within a default budget, logging at `level`; the log.
fn deal_logging(yaml: &str, scripts: Value, level: tracing::Level) -> (String, bool) {
    let scripts = serde_json::from_value(scripts).unwrap();
    let catalog = Catalog::builtin();
    let variant = catalog.check(yaml, &scripts).unwrap();
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    let dealt = tracing::subscriber::with_default(subscriber, || {
        with_budget(Budget::default(), || {
            engine::Game::deal(
                &variant.ruleset,
                variant.hooks.as_ref(),
                NewGame::seeded(variant.reference.clone(), 1),
            )
        })
    });
    let log = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    (log, dealt.is_ok())
}

#[test]
fn script_output_is_logged_at_debug_level_cut_and_capped() {
    let yaml = "id: chatty-gin\nname: Chatty Gin\nsummary: Prints.\nextends: standard\noptions:\n  oklahoma:\n    replaces: [knock_limit]\nhooks:\n  knock_limit:\n    script: chatty.rhai\n    rule: prints\n";
    let script = "fn knock_limit(ctx) {\n    let line = \"ab\";\n    line.pad(1000, \"cd\");\n    for i in 0..500 { print(line); debug(i); }\n    ctx[\"default\"]\n}\n";
    let scripts = json!({"chatty.rhai": script});

    let (log, dealt) = deal_logging(yaml, scripts.clone(), tracing::Level::INFO);
    assert!(dealt);
    assert!(!log.contains("abcd"), "{log}");
    assert!(!log.contains("gin_rules::script"), "{log}");

    let (log, dealt) = deal_logging(yaml, scripts, tracing::Level::DEBUG);
    assert!(dealt);
    let lines: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("gin_rules::script"))
        .collect();
    // 20 lines, then one saying the rest is not logged.
    assert_eq!(lines.len(), 21, "{log}");
    assert!(lines[20].contains("not logged"), "{log}");
    let printed = lines.iter().find(|l| l.contains("abcd")).unwrap();
    assert!(
        printed.contains(&format!("{}...", "cd".repeat(99))),
        "{printed}"
    );
    assert!(!printed.contains(&"cd".repeat(100)), "{printed}");
    assert!(log.len() < 20_000, "{} bytes of log", log.len());
}

#[actix_web::test]
async fn strings_cannot_grow_past_the_limit() {
    let app = Client::new(false).await;
    for (name, body) in [
        (
            "replace",
            "let a = \"a\";\n    a.pad(8000, \"a\");\n    let t = \"b\";\n    t.pad(8000, \"b\");\n    a.replace(\"a\", t);",
        ),
        (
            "append",
            "let a = \"a\";\n    a.pad(5000, \"a\");\n    a.append(a);",
        ),
        (
            "plus",
            "let a = \"a\";\n    a.pad(5000, \"a\");\n    let b = a + [a];",
        ),
        ("loop", "let a = \"\";\n    loop { a += \"abcdefgh\"; }"),
        ("pad", "let a = \"\";\n    a.pad(100000, \"xyz\");"),
        ("pad-wide", "let a = \"\";\n    a.pad(8000, '\u{1F600}');"),
    ] {
        let yaml = "id: growing-gin\nname: Growing Gin\nsummary: Grows a string.\nextends: standard\noptions:\n  oklahoma:\n    replaces: [knock_limit]\nhooks:\n  knock_limit:\n    script: grow.rhai\n    rule: grows\n";
        let script = format!("fn knock_limit(ctx) {{\n    {body}\n    10\n}}\n");
        let (status, p) = app
            .post(
                "/v1/games",
                &json!({"ruleset": {"yaml": yaml, "scripts": {"grow.rhai": script}}, "seed": 1}),
            )
            .await;
        // The check of its first use plays the hook in sample games, where it fails.
        assert_eq!(status, 422, "{name}: {p}");
        assert_eq!(p["type"], "invalid-ruleset", "{name}: {p}");
        assert!(
            p["detail"].as_str().unwrap().contains("strings 8192 bytes"),
            "{name}: {p}"
        );
    }
    // Growth within the limit works as in Rhai, and an empty padding ends.
    let yaml = "id: tidy-gin\nname: Tidy Gin\nsummary: Small strings.\nextends: standard\noptions:\n  oklahoma:\n    replaces: [knock_limit]\nhooks:\n  knock_limit:\n    script: tidy.rhai\n    rule: checks strings\n";
    let script = r#"fn knock_limit(ctx) {
    let s = "hello";
    s.replace("l", "LL");
    if s != "heLLLLo" { throw "replace: " + s; }
    let p = "ab";
    p.pad(5, "xy");
    if p != "abxyx" { throw "pad: " + p; }
    p.pad(9, "");
    if p != "abxyx" { throw "empty pad: " + p; }
    let q = "a" + 1 + () + 'c' + [2];
    if q != "a1c[2]" { throw "plus: " + q; }
    let r = 3 + "x";
    if r != "3x" { throw "prepend: " + r; }
    q.append(#{k: 1});
    if q != "a1c[2]#{\"k\": 1}" { throw "append: " + q; }
    10
}
"#;
    let (status, snap) = app
        .post(
            "/v1/games",
            &json!({"ruleset": {"yaml": yaml, "scripts": {"tidy.rhai": script}}, "seed": 1}),
        )
        .await;
    assert_eq!(status, 201, "{snap}");
}

#[actix_web::test]
async fn requests_that_wait_too_long_for_an_engine_thread_are_503() {
    let state = state_with_secret(None).with_limits(Limits {
        engine_threads: 1,
        engine_wait: Duration::from_millis(50),
        ..Limits::default()
    });
    let gate = state.gate.clone();
    let app = client_with(state).await;
    let held = gate.acquire().await.expect("the one permit");
    let a = app
        .post_bytes("/v1/games", r#"{"seed": 1}"#.as_bytes().to_vec())
        .await;
    assert_problem(&a, 503, "server-busy");
    let res = web_test::call_service(
        &app_service_with(gate.clone()).await,
        web_test::TestRequest::post()
            .uri("/v1/hands/analyze")
            .insert_header(("content-type", "application/json"))
            .set_payload(r#"{"cards": ["AS","2S","3S","4S","5S","6S","7S","8S","9S","TS"]}"#)
            .to_request(),
    )
    .await;
    assert_eq!(res.status().as_u16(), 503);
    assert_eq!(
        res.headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok()),
        Some("1")
    );
    // Health and the document never wait for engine work.
    let (status, _) = app.get("/healthz").await;
    assert_eq!(status, 200);
    let a = app.get_text("/openapi.json").await;
    assert_eq!(a.status, 200);
    drop(held);
    let a = app
        .post_bytes("/v1/games", r#"{"seed": 1}"#.as_bytes().to_vec())
        .await;
    assert_eq!(a.status, 201, "{}", a.text);
}

/// Steps, views and suggestions of a built-in ruleset without hooks or `strong` bots are played on
/// the worker that read them: they are answered while every engine thread is taken. What may cost
/// more (hooks, `strong` bots, a `strong` suggestion) still waits for an engine thread.
#[actix_web::test]
async fn cheap_requests_are_answered_while_every_engine_thread_is_taken() {
    let state = state_with_secret(None).with_limits(Limits {
        engine_threads: 1,
        engine_wait: Duration::from_millis(50),
        ..Limits::default()
    });
    let gate = state.gate.clone();
    let app = client_with(state).await;
    let mut deals = Vec::new();
    for deal in [
        json!({"seed": 3, "bots": {"1": "basic"}}),
        json!({"seed": 3, "options": ["hollywood"]}),
        json!({"seed": 3, "bots": {"1": "strong"}}),
    ] {
        let (status, snap) = app.post("/v1/games", &deal).await;
        assert_eq!(status, 201, "{snap}");
        deals.push(snap);
    }
    let step = |snap: &Value| json!({"state": snap["state"], "action": snap["legal_actions"][0]});
    let suggest = |snap: &Value, level: &str| json!({"state": snap["state"], "seat": snap["to_act"][0], "level": level});
    let held = gate.acquire().await.expect("the one permit");
    let plain = &deals[0];
    let (status, next) = app.post("/v1/games/step", &step(plain)).await;
    assert_eq!(status, 200, "{next}");
    let moves = |snap: &Value| snap["state"]["game"]["move"].as_u64();
    assert!(moves(&next) > moves(plain), "{next}");
    let view = json!({"state": next["state"], "seat": 0});
    let (status, seen) = app.post("/v1/games/view", &view).await;
    assert_eq!(status, 200, "{seen}");
    let (status, hint) = app
        .post("/v1/games/suggest", &suggest(plain, "basic"))
        .await;
    assert_eq!(status, 200, "{hint}");
    // Refused on the worker too, with the engine's answer.
    let stale = json!({"state": next["state"], "action": plain["legal_actions"][0]});
    let a = app
        .post_bytes("/v1/games/step", stale.to_string().into_bytes())
        .await;
    assert_eq!(a.status, 422, "{}", short(&a.text));
    let costly = [
        ("/v1/games/step", step(&deals[1])),
        ("/v1/games/step", step(&deals[2])),
        ("/v1/games/suggest", suggest(plain, "strong")),
    ];
    for (path, body) in &costly {
        let a = app.post_bytes(path, body.to_string().into_bytes()).await;
        assert_problem(&a, 503, "server-busy");
    }
    drop(held);
    for (path, body) in &costly {
        let (status, answer) = app.post(path, body).await;
        assert_eq!(status, 200, "{path}: {answer}");
    }
}

/// An app whose engine work goes through `gate` (shared with the test).
async fn app_service_with(
    gate: gin_rules::api::Gate,
) -> impl actix_web::dev::Service<
    actix_http::Request,
    Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
    Error = actix_web::Error,
> {
    let mut state = AppState::builtin();
    state.gate = gate;
    web_test::init_service(
        actix_web::App::new()
            .app_data(actix_web::web::Data::new(state))
            .configure(gin_rules::api::configure),
    )
    .await
}

#[actix_web::test]
async fn a_body_that_does_not_arrive_in_time_is_408() {
    let state = state_with_secret(None).with_limits(Limits {
        body_timeout: Duration::from_millis(100),
        ..Limits::default()
    });
    let app = client_with(state).await;
    let (sender, payload) = actix_http::h1::Payload::create(false);
    let req = web_test::TestRequest::post()
        .uri("/v1/games")
        .insert_header(("content-type", "application/json"))
        .insert_header(("content-length", "100"))
        .to_request();
    let (req, _) = req.replace_payload(actix_http::Payload::from(payload));
    let a = app.send(req).await;
    drop(sender);
    assert_problem(&a, 408, "request-timeout");
}
