//! `GET /metrics`: each request moves the counter and histogram of its route and status, unknown
//! paths share one series, and the engine, scripts, bots, the replay guard, the ruleset cache and
//! rotated secrets report what happened; with `--metrics-addr` the page moves off the API's
//! address.

use std::time::Duration;

use serde_json::{Value, json};

use gin_rules::api::guard::{DEFAULT_EXPIRY, MemoryGuard};
use gin_rules::api::{AppState, Catalog, Limits, ReplayGuard, Sealer};
use gin_rules::rules::script::Budget;

use crate::api_support::*;
use crate::processes::{Server, exchange, free_port};

/// The value of the series `series` (name and labels exactly as the page writes them) in the
/// page `text`: 0 when the page has no such series yet.
fn value(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map_or(0.0, |v| v.trim().parse().expect("a number"))
}

/// The metrics page of an app, checked to be Prometheus' text format.
async fn scrape<S, B>(app: &Client<S>) -> String
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let page = app.get_text("/metrics").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert_eq!(
        page.content_type, "text/plain; version=0.0.4; charset=utf-8",
        "{}",
        page.text
    );
    page.text
}

const DEALS: &str =
    r#"gin_rules_http_requests_total{method="POST",route="/v1/games",status="201"}"#;
const DEAL_TIMES: &str =
    r#"gin_rules_http_request_duration_seconds_count{method="POST",route="/v1/games"}"#;
const STEPS_REFUSED: &str =
    r#"gin_rules_http_requests_total{method="POST",route="/v1/games/step",status="422"}"#;

#[actix_web::test]
async fn a_request_moves_the_counter_and_histogram_of_its_route_and_status() {
    let app = Client::new(false).await;
    let before = scrape(&app).await;
    let (status, snap) = app
        .post("/v1/games", &json!({"ruleset": "standard", "seed": 5}))
        .await;
    assert_eq!(status, 201, "{snap}");
    let bad = json!({"seat": snap["to_act"][0], "type": "discard", "card": "KD"});
    let (status, _) = app
        .post(
            "/v1/games/step",
            &json!({"state": snap["state"], "action": bad}),
        )
        .await;
    assert_eq!(status, 422);
    let after = scrape(&app).await;
    assert_eq!(value(&after, DEALS), value(&before, DEALS) + 1.0, "{after}");
    assert_eq!(value(&after, DEAL_TIMES), value(&before, DEAL_TIMES) + 1.0);
    assert_eq!(
        value(&after, STEPS_REFUSED),
        value(&before, STEPS_REFUSED) + 1.0
    );
    let le_8s = r#"gin_rules_http_request_duration_seconds_bucket{method="POST",route="/v1/games",le="8.192"}"#;
    assert_eq!(value(&after, le_8s), value(&after, DEAL_TIMES), "{after}");
    assert!(
        value(
            &after,
            r#"gin_rules_http_request_duration_seconds_sum{method="POST",route="/v1/games"}"#
        ) > 0.0
    );
    // Every series has its help and type.
    assert!(after.contains("# TYPE gin_rules_http_requests_total counter"));
    assert!(after.contains("# TYPE gin_rules_http_request_duration_seconds histogram"));
}

#[actix_web::test]
async fn unknown_paths_share_one_series_and_patterns_stand_for_their_paths() {
    let app = Client::new(false).await;
    for i in 0..40 {
        let (status, _) = app.get(&format!("/no/such/path/{i}")).await;
        assert_eq!(status, 404);
    }
    for id in ["standard", "straight-gin", "no-such-ruleset"] {
        app.get(&format!("/v1/rulesets/{id}")).await;
    }
    let page = scrape(&app).await;
    assert_eq!(
        value(
            &page,
            r#"gin_rules_http_requests_total{method="GET",route="unmatched",status="404"}"#
        ),
        40.0,
        "{page}"
    );
    assert!(!page.contains("/no/such/path"), "{page}");
    assert!(!page.contains("straight-gin"), "{page}");
    let ruleset = |status: u16| {
        value(
            &page,
            &format!(
                r#"gin_rules_http_requests_total{{method="GET",route="/v1/rulesets/{{id}}",status="{status}"}}"#
            ),
        )
    };
    assert_eq!((ruleset(200), ruleset(404)), (2.0, 1.0), "{page}");
    let series = page
        .lines()
        .filter(|l| l.starts_with("gin_rules_http_requests_total{"))
        .count();
    assert!(series <= 4, "{series} series:\n{page}");
}

#[actix_web::test]
async fn a_busy_engine_is_counted_as_waits_and_rejections() {
    let state = AppState::builtin().with_limits(Limits {
        engine_threads: 1,
        engine_wait: Duration::from_millis(50),
        ..Limits::default()
    });
    let gate = state.gate.clone();
    let app = client_with(state).await;
    let held = gate.acquire().await.expect("the one permit");
    let page = scrape(&app).await;
    assert_eq!(value(&page, "gin_rules_engine_threads"), 1.0, "{page}");
    assert_eq!(value(&page, "gin_rules_engine_threads_busy"), 1.0, "{page}");
    let (status, p) = app.get("/v1/rulesets/standard").await;
    assert_eq!((status, p["type"].as_str()), (503, Some("server-busy")));
    drop(held);
    let page = scrape(&app).await;
    assert_eq!(
        value(&page, "gin_rules_engine_busy_rejections_total"),
        1.0,
        "{page}"
    );
    // The one taken by the test, and the request's.
    assert_eq!(value(&page, "gin_rules_engine_wait_seconds_count"), 2.0);
    assert!(value(&page, "gin_rules_engine_wait_seconds_sum") >= 0.05);
    assert_eq!(value(&page, "gin_rules_engine_queue_depth"), 0.0);
    assert_eq!(value(&page, "gin_rules_engine_threads_busy"), 0.0);
}

/// A deal of an authored ruleset whose `knock_limit` runs `body`.
fn deal_with_hook(name: &str, body: &str) -> Value {
    let yaml = format!(
        "id: {name}\nname: Hooked\nsummary: A hook.\nextends: standard\nhooks:\n  knock_limit:\n    script: hook.rhai\n    rule: a hook\noptions:\n  oklahoma: null\n"
    );
    let script = format!("fn knock_limit(ctx) {{\n    {body}\n    10\n}}\n");
    json!({"ruleset": {"yaml": yaml, "scripts": {"hook.rhai": script}}, "seed": 1})
}

const SPENT: &str = "gin_rules_script_budget_exhausted_total";

/// A server whose own rulesets `too-long` and `endless` bind hooks that fail in play (the check
/// refuses such a ruleset sent with a request, so only a server's own files can hold one).
fn failing_hooks() -> Catalog {
    let mut catalog = Catalog::builtin();
    let mut files = Vec::new();
    let mut scripts = std::collections::BTreeMap::new();
    for (name, body) in [
        ("too-long", "let a = \"\";\n    a.pad(100000, \"xyz\");"),
        ("endless", "let i = 0;\n    loop { i += 1; }"),
    ] {
        let ruleset = deal_with_hook(name, body)["ruleset"].clone();
        let yaml = ruleset["yaml"]
            .as_str()
            .unwrap()
            .replace("hook.rhai", &format!("{name}.rhai"));
        files.push((format!("{name}.yaml"), yaml));
        let script = ruleset["scripts"]["hook.rhai"]
            .as_str()
            .unwrap()
            .to_string();
        scripts.insert(format!("{name}.rhai"), script);
    }
    if let Err(e) = catalog.add_files(&files, &scripts) {
        panic!("{e:#?}");
    }
    catalog
}

#[actix_web::test]
async fn a_spent_script_budget_is_counted_and_other_script_errors_are_not() {
    let state = AppState::new(failing_hooks(), None).with_limits(Limits {
        script_budget: Budget {
            time: Duration::from_secs(60),
            operations: 20_000,
        },
        ..Limits::default()
    });
    let app = client_with(state).await;
    let (status, p) = app
        .post("/v1/games", &json!({"ruleset": "too-long", "seed": 1}))
        .await;
    assert_eq!((status, p["type"].as_str()), (422, Some("script-error")));
    assert_eq!(value(&scrape(&app).await, SPENT), 0.0);
    let (status, p) = app
        .post("/v1/games", &json!({"ruleset": "endless", "seed": 1}))
        .await;
    assert_eq!((status, p["type"].as_str()), (422, Some("script-error")));
    assert!(
        p["detail"].as_str().unwrap_or("").contains("shared budget"),
        "{p}"
    );
    let page = scrape(&app).await;
    assert_eq!(value(&page, SPENT), 1.0, "{page}");
}

#[actix_web::test]
async fn the_ruleset_cache_reports_its_evictions() {
    let catalog = Catalog::builtin().with_authored_cache_bytes(60 * 1024);
    let app = client_with(AppState::new(catalog, None)).await;
    for i in 0..4 {
        let (status, snap) = app
            .post(
                "/v1/games",
                &deal_with_hook(&format!("gin-{i}"), "let x = 1;"),
            )
            .await;
        assert_eq!(status, 201, "{snap}");
    }
    let page = scrape(&app).await;
    let entries = value(&page, "gin_rules_ruleset_cache_entries");
    let evictions = value(&page, "gin_rules_ruleset_cache_evictions_total");
    assert!(entries >= 1.0 && evictions >= 1.0, "{page}");
    assert_eq!(entries + evictions, 4.0, "{page}");
}

#[actix_web::test]
async fn bots_report_their_decisions() {
    let app = Client::new(false).await;
    let (status, snap) = app
        .post(
            "/v1/games",
            &json!({"ruleset": "standard", "seed": 8, "dealer": 1, "bots": {"0": "basic"}}),
        )
        .await;
    assert_eq!(status, 201, "{snap}");
    let seat = snap["to_act"][0].clone();
    let (status, _) = app
        .post(
            "/v1/games/suggest",
            &json!({"state": snap["state"], "seat": seat, "level": "strong"}),
        )
        .await;
    assert_eq!(status, 200);
    let page = scrape(&app).await;
    assert!(
        value(&page, r#"gin_rules_bot_decisions_total{mode="play"}"#) >= 1.0,
        "{page}"
    );
    assert_eq!(
        value(&page, r#"gin_rules_bot_decisions_total{mode="suggest"}"#),
        1.0
    );
    assert_eq!(
        value(
            &page,
            r#"gin_rules_bot_duration_seconds_count{mode="play"}"#
        ),
        1.0
    );
}

fn memory_guard(capacity: usize) -> ReplayGuard {
    ReplayGuard::Memory(MemoryGuard::new(DEFAULT_EXPIRY, capacity))
}

#[actix_web::test]
async fn the_replay_guard_reports_calls_stale_states_and_evictions() {
    let state = state_with_secret(Some(SECRET)).with_guard(memory_guard(4));
    let app = client_with(state).await;
    for seed in 0..6 {
        let (status, snap) = app
            .post("/v1/games", &json!({"ruleset": "standard", "seed": seed}))
            .await;
        assert_eq!(status, 201);
        app.step(&snap, &json!({"seat": snap["to_act"][0], "type": "pass"}))
            .await;
    }
    let page = scrape(&app).await;
    let advance =
        |page: &str, series: &str| value(page, &format!(r#"{series}{{operation="advance"}}"#));
    assert_eq!(
        advance(&page, "gin_rules_replay_guard_calls_total"),
        6.0,
        "{page}"
    );
    assert_eq!(advance(&page, "gin_rules_replay_guard_errors_total"), 0.0);
    // Six games in a guard of four: the oldest were forgotten young, and the metric says so.
    let evicted = value(&page, "gin_rules_replay_guard_evictions_total");
    assert!(evicted >= 2.0, "{page}");
    // A game the guard remembers: its first state again is stale.
    let (_, snap) = app.post("/v1/games", &json!({"seed": 9})).await;
    let pass = json!({"seat": snap["to_act"][0], "type": "pass"});
    app.step(&snap, &pass).await;
    let (status, p) = app
        .post(
            "/v1/games/step",
            &json!({"state": snap["state"], "action": pass}),
        )
        .await;
    assert_eq!((status, p["type"].as_str()), (409, Some("stale-state")));
    let page = scrape(&app).await;
    assert_eq!(
        value(&page, "gin_rules_replay_guard_stale_total"),
        1.0,
        "{page}"
    );
    assert_eq!(
        advance(&page, "gin_rules_replay_guard_duration_seconds_count"),
        8.0
    );
}

#[actix_web::test]
async fn states_and_keys_of_an_older_secret_are_counted() {
    let old = client_with(
        state_with_secret(Some(OTHER_SECRET))
            .with_seat_keys()
            .unwrap(),
    )
    .await;
    let (status, snap) = old
        .post("/v1/games", &json!({"ruleset": "standard", "seed": 2}))
        .await;
    assert_eq!(status, 201, "{snap}");
    let rotated = [SECRET, &b"\n"[..], OTHER_SECRET].concat();
    let state = AppState::new(Catalog::builtin(), Some(Sealer::new(&rotated).unwrap()))
        .with_seat_keys()
        .unwrap();
    let new = client_with(state).await;
    let seat = snap["to_act"][0].as_u64().unwrap();
    let key = snap["seats"]
        .as_array()
        .and_then(|s| s.iter().find(|k| k["seat"] == seat))
        .and_then(|k| k["key"].as_str())
        .unwrap()
        .to_string();
    let req = actix_web::test::TestRequest::post()
        .uri("/v1/games/view")
        .insert_header(("content-type", "application/json"))
        .insert_header(("authorization", format!("Bearer {key}")))
        .set_payload(json!({"state": snap["state"], "seat": seat}).to_string())
        .to_request();
    let answer = new.send(req).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    let page = scrape(&new).await;
    for kind in ["state", "seat_key"] {
        assert_eq!(
            value(
                &page,
                &format!(r#"gin_rules_older_secret_used_total{{kind="{kind}"}}"#)
            ),
            1.0,
            "{kind}: {page}"
        );
    }
}

/// One `GET`: the status and the body as text.
fn get_text(addr: &str, path: &str) -> (u16, String) {
    let raw = exchange(addr, &format!("GET {path} HTTP/1.1"));
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, body.to_string())
}

#[test]
fn with_a_metrics_address_the_page_leaves_the_api() {
    let metrics = format!("127.0.0.1:{}", free_port());
    let server = Server::start(["--metrics-addr", &metrics], &[]);
    let (status, body) = get_text(&server.addr, "/metrics");
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("not-found"), "{body}");
    let (status, body) = get_text(&server.addr, "/healthz");
    assert_eq!(status, 200, "{body}");
    let (status, page) = get_text(&metrics, "/metrics");
    assert_eq!(status, 200, "{page}");
    assert_eq!(
        value(
            &page,
            r#"gin_rules_http_requests_total{method="GET",route="/metrics",status="404"}"#
        ),
        1.0,
        "{page}"
    );
    assert!(
        value(
            &page,
            r#"gin_rules_http_requests_total{method="GET",route="/healthz",status="200"}"#
        ) >= 1.0,
        "{page}"
    );
    let (status, _) = get_text(&metrics, "/healthz");
    assert_eq!(status, 404, "the metrics address serves the metrics only");
}
