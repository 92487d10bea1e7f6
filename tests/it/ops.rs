//! What an operator relies on beyond the API itself: the headers of every answer, `HEAD` on
//! every `GET` route, readiness (`/readyz`) with a saturated engine or an unreachable Redis, and
//! a Redis guard that remembers across a restart of Redis when Redis persists its data.
//!
//! The Redis tests need `redis-server` (Debian's package, `.ci/setup/redis.sh`): ignored by a
//! plain `cargo test`, run by `.ci/run` (`cargo test --test it -- --ignored`).

use std::time::Duration;

use actix_http::Request;
use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::Method;
use actix_web::{App, test as actix_test, web};
use utoipa::openapi::path::HttpMethod;

use gin_rules::api::{self, AppState};

use crate::cluster::{redis_on, redis_with};
use crate::processes::{Server, exchange, free_port, http, wait_until};

/// The real app over `state`.
async fn app(
    state: AppState,
) -> impl Service<Request, Response = ServiceResponse<impl MessageBody>, Error = actix_web::Error> {
    actix_test::init_service(
        App::new()
            .app_data(web::Data::new(state))
            .configure(api::configure),
    )
    .await
}

/// Every `GET` path the server answers: the route table's and the `/play` page's.
fn get_paths() -> Vec<String> {
    let table = api::routes::routes()
        .into_iter()
        .filter(|r| r.method == HttpMethod::Get)
        .map(|r| r.path.replace("{id}", "standard"));
    let pages = api::play::ROUTES.iter().map(|p| p.to_string());
    table.chain(pages).collect()
}

#[actix_web::test]
async fn head_answers_every_get_route_like_get_without_the_body() {
    let app = app(AppState::builtin()).await;
    let paths = get_paths();
    assert!(paths.len() >= 8, "{paths:?}");
    for path in paths {
        let get =
            actix_test::call_service(&app, actix_test::TestRequest::get().uri(&path).to_request())
                .await;
        assert_eq!(get.status(), 200, "GET {path}");
        let get_headers = get.headers().clone();
        let get_body = actix_test::read_body(get).await;
        let req = actix_test::TestRequest::default()
            .method(Method::HEAD)
            .uri(&path)
            .to_request();
        let head = actix_test::call_service(&app, req).await;
        assert_eq!(head.status(), 200, "HEAD {path}");
        let length = actix_web::body::MessageBody::size(head.response().body());
        // The metrics page counts the requests before it, GET's too: its length changes.
        if path != api::metrics::PATH {
            assert_eq!(
                length,
                actix_web::body::BodySize::Sized(get_body.len() as u64),
                "HEAD {path}: the length of GET's body"
            );
        }
        for name in [
            "content-type",
            "x-content-type-options",
            "content-security-policy",
        ] {
            assert_eq!(
                head.headers().get(name),
                get_headers.get(name),
                "HEAD {path}: {name}"
            );
        }
        assert!(
            actix_test::read_body(head).await.is_empty(),
            "HEAD {path} sent a body"
        );
    }
}

#[actix_web::test]
async fn every_answer_says_nosniff_errors_included() {
    let app = app(AppState::builtin()).await;
    let mut requests: Vec<(Method, String)> =
        get_paths().into_iter().map(|p| (Method::GET, p)).collect();
    requests.extend([
        (Method::GET, "/nowhere".to_string()),
        (Method::HEAD, "/nowhere".to_string()),
        (Method::GET, "/v1/games".to_string()),
        (Method::HEAD, "/v1/games".to_string()),
        (Method::POST, "/v1/games".to_string()),
        (Method::GET, "/v1/rulesets/no-such-ruleset".to_string()),
    ]);
    let mut statuses = Vec::new();
    for (method, path) in requests {
        let req = actix_test::TestRequest::default()
            .method(method.clone())
            .uri(&path)
            .insert_header(("content-type", "application/json"))
            .set_payload("{")
            .to_request();
        let res = actix_test::call_service(&app, req).await;
        statuses.push(res.status().as_u16());
        assert_eq!(
            res.headers()
                .get("x-content-type-options")
                .and_then(|v| v.to_str().ok()),
            Some("nosniff"),
            "{method} {path} ({})",
            res.status()
        );
    }
    for status in [200, 400, 404, 405] {
        assert!(statuses.contains(&status), "no {status} among {statuses:?}");
    }
}

/// The docs page runs its one inline script and style by their hashes, and nothing else.
#[actix_web::test]
async fn the_docs_page_allows_its_own_inline_script_and_style_only() {
    let app = app(AppState::builtin()).await;
    let res = actix_test::call_service(
        &app,
        actix_test::TestRequest::get().uri("/docs").to_request(),
    )
    .await;
    let policy = res
        .headers()
        .get("content-security-policy")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    assert!(
        policy.starts_with("default-src 'none'; script-src 'sha256-"),
        "{policy}"
    );
    assert!(policy.contains("style-src 'sha256-"), "{policy}");
    assert!(policy.contains("connect-src 'self'"), "{policy}");
    assert!(!policy.contains("unsafe-inline"), "{policy}");
    // The example of the CSP specification: the hash of the script's text between its tags.
    let page = "<p>x</p><script>alert('Hello, world.');</script>";
    let policy = api::health::docs_policy(page);
    assert!(
        policy.contains("script-src 'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng=';"),
        "{policy}"
    );
    assert!(policy.contains("style-src 'none';"), "{policy}");
}

/// An app whose engine work runs on one thread, waited for 100 ms at most.
fn one_engine_thread() -> AppState {
    AppState::builtin().with_limits(api::Limits {
        engine_threads: 1,
        engine_wait: Duration::from_millis(100),
        ..api::Limits::default()
    })
}

#[actix_web::test]
async fn readyz_is_server_busy_while_the_engine_thread_stays_taken_past_the_wait() {
    let state = one_engine_thread().with_guard(memory_guard());
    let gate = state.gate.clone();
    let app = app(state).await;
    let readyz = || actix_test::TestRequest::get().uri("/readyz").to_request();
    let res = actix_test::call_service(&app, readyz()).await;
    assert_eq!(res.status(), 200);
    let held = gate.acquire().await;
    assert!(held.is_ok(), "the one permit");
    let res = actix_test::call_service(&app, readyz()).await;
    assert_eq!(res.status(), 503);
    assert_eq!(
        res.headers().get("retry-after").map(|v| v.as_bytes()),
        Some(&b"1"[..])
    );
    let body: serde_json::Value = actix_test::read_body_json(res).await;
    assert_eq!(body["type"], "server-busy", "{body}");
    // Liveness is another matter: /healthz still answers.
    let res = actix_test::call_service(
        &app,
        actix_test::TestRequest::get().uri("/healthz").to_request(),
    )
    .await;
    assert_eq!(res.status(), 200);
    drop(held);
    let res = actix_test::call_service(&app, readyz()).await;
    assert_eq!(res.status(), 200);
}

fn memory_guard() -> api::ReplayGuard {
    api::ReplayGuard::Memory(api::guard::MemoryGuard::new(
        api::guard::DEFAULT_EXPIRY,
        api::guard::DEFAULT_CAPACITY,
    ))
}

/// `/readyz` against a real Redis: 503 `replay-guard-unavailable` once Redis is stopped, 200 again
/// once it is back on the same port, while `/healthz` answers throughout.
#[test]
#[ignore = "needs redis-server (.ci/setup/redis.sh); .ci/run runs it"]
fn readyz_follows_the_redis_guard_down_and_back() {
    let port = free_port();
    let mut redis = redis_on(port);
    let url = format!("redis://127.0.0.1:{port}");
    let server = Server::start(
        ["--seat-keys", "--replay-guard", &url],
        &[(
            "GIN_RULES_SECRET",
            "the ops test's secret, over thirty-two bytes",
        )],
    );
    let readyz = || http(&server.addr, "GET", "/readyz", None, None).ok();
    assert_eq!(readyz().map(|(s, _)| s), Some(200));
    redis.kill();
    wait_until("/readyz answering 503", || {
        readyz().is_some_and(|(s, body)| s == 503 && body["type"] == "replay-guard-unavailable")
    });
    assert!(server.is_up(), "/healthz still answers");
    let _redis = redis_on(port);
    wait_until("/readyz answering 200 again", || {
        readyz().is_some_and(|(s, _)| s == 200)
    });
}

/// Deals a seat-key game at `addr` and plays its first action: that step's body, and the key of
/// its seat.
fn dealt_and_stepped(addr: &str) -> (serde_json::Value, String) {
    let (status, snap) = http(
        addr,
        "POST",
        "/v1/games",
        None,
        Some(&serde_json::json!({"ruleset": "standard"})),
    )
    .expect("the server answers");
    assert_eq!(status, 201, "{snap}");
    let seat = snap["to_act"][0].clone();
    let key = snap["seats"]
        .as_array()
        .and_then(|s| s.iter().find(|k| k["seat"] == seat))
        .and_then(|k| k["key"].as_str())
        .expect("the key of the seat to act")
        .to_string();
    let body =
        serde_json::json!({"state": snap["state"], "action": {"seat": seat, "type": "pass"}});
    let (status, next) =
        http(addr, "POST", "/v1/games/step", Some(&key), Some(&body)).expect("the server answers");
    assert_eq!(status, 200, "{next}");
    (body, key)
}

/// The status of `body` sent again to `/v1/games/step` once Redis, started with `options`, has
/// been killed and started again with the same options on the same port.
fn replayed_after_a_redis_restart(options: &[&str]) -> u16 {
    let port = free_port();
    let mut redis = redis_with(port, options);
    let url = format!("redis://127.0.0.1:{port}");
    let server = Server::start(
        ["--seat-keys", "--replay-guard", &url],
        &[(
            "GIN_RULES_SECRET",
            "the ops test's secret, over thirty-two bytes",
        )],
    );
    let (first, key) = dealt_and_stepped(&server.addr);
    redis.kill();
    let _redis = redis_with(port, options);
    wait_until("/readyz answering 200 after the restart", || {
        http(&server.addr, "GET", "/readyz", None, None).is_ok_and(|(s, _)| s == 200)
    });
    let (status, p) = http(
        &server.addr,
        "POST",
        "/v1/games/step",
        Some(&key),
        Some(&first),
    )
    .expect("the server answers");
    assert!(status == 200 || p["type"] == "stale-state", "{status} {p}");
    status
}

/// Redis with the configuration of docs/deploy.md (`scripts/redis-guard.conf`: `appendonly yes`)
/// killed mid-game and started again from the same directory still refuses the stale state; the
/// same without the append-only file forgets the game and takes it (what docs/deploy.md warns
/// about).
#[test]
#[ignore = "needs redis-server (.ci/setup/redis.sh); .ci/run runs it"]
fn a_persistent_redis_guard_refuses_a_stale_state_after_a_restart() {
    let conf = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/redis-guard.conf");
    let dir = std::env::temp_dir().join(format!("gin-rules-redis-{}", free_port()));
    std::fs::create_dir_all(&dir).expect("a directory for Redis' data");
    let dir_text = dir.to_string_lossy().into_owned();
    let status = replayed_after_a_redis_restart(&[conf, "--dir", &dir_text]);
    let forgetful =
        replayed_after_a_redis_restart(&[conf, "--dir", &dir_text, "--appendonly", "no"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(status, 409, "the restarted Redis forgot the game");
    assert_eq!(forgetful, 200, "without appendonly the game is forgotten");
}

/// The answers actix-cors gives itself (a preflight) say `nosniff` too, on a real server.
#[test]
fn cors_preflight_answers_say_nosniff() {
    let server = Server::start(["--cors-origin", "https://cards.example"], &[]);
    let answer = exchange(
        &server.addr,
        "OPTIONS /v1/games HTTP/1.1\r\nOrigin: https://cards.example\r\n\
         Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type",
    );
    let head = answer
        .split("\r\n\r\n")
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 200"), "{answer}");
    assert!(
        head.contains("access-control-allow-origin: https://cards.example"),
        "{answer}"
    );
    assert!(head.contains("x-content-type-options: nosniff"), "{answer}");
}
