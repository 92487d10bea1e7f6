//! What an operator relies on beyond the API itself: the headers of every answer and `HEAD` on
//! every `GET` route.

use actix_web::http::Method;
use actix_web::{App, test, web};
use utoipa::openapi::path::HttpMethod;

use gin_rules::api::{self, AppState};

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
    let app = test::init_service(
        App::new()
            .app_data(web::Data::new(AppState::builtin()))
            .configure(api::configure),
    )
    .await;
    let paths = get_paths();
    assert!(paths.len() >= 8, "{paths:?}");
    for path in paths {
        let get = test::call_service(&app, test::TestRequest::get().uri(&path).to_request()).await;
        assert_eq!(get.status(), 200, "GET {path}");
        let get_headers = get.headers().clone();
        let get_body = test::read_body(get).await;
        let req = test::TestRequest::default()
            .method(Method::HEAD)
            .uri(&path)
            .to_request();
        let head = test::call_service(&app, req).await;
        assert_eq!(head.status(), 200, "HEAD {path}");
        let length = actix_web::body::MessageBody::size(head.response().body());
        assert_eq!(
            length,
            actix_web::body::BodySize::Sized(get_body.len() as u64),
            "HEAD {path}: the length of GET's body"
        );
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
            test::read_body(head).await.is_empty(),
            "HEAD {path} sent a body"
        );
    }
}

#[actix_web::test]
async fn every_answer_says_nosniff_errors_included() {
    let app = test::init_service(
        App::new()
            .app_data(web::Data::new(AppState::builtin()))
            .configure(api::configure),
    )
    .await;
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
        let req = test::TestRequest::default()
            .method(method.clone())
            .uri(&path)
            .insert_header(("content-type", "application/json"))
            .set_payload("{")
            .to_request();
        let res = test::call_service(&app, req).await;
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
    let app = test::init_service(
        App::new()
            .app_data(web::Data::new(AppState::builtin()))
            .configure(api::configure),
    )
    .await;
    let res = test::call_service(&app, test::TestRequest::get().uri("/docs").to_request()).await;
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
